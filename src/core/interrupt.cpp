#include "accel/interrupt.hpp"

#include <atomic>

namespace accel {

namespace {

std::atomic<InterruptPoll> g_poll{nullptr};
std::atomic<InterruptPoll> g_wait_poll{nullptr};
std::atomic<bool> g_requested{false};
thread_local bool t_worker = false;

}  // namespace

void set_interrupt_poll(InterruptPoll poll) { g_poll.store(poll); }

void interruption_point() {
  if (g_requested.load(std::memory_order_relaxed)) throw Interrupted("interrupted");
  if (t_worker) return;
  const InterruptPoll poll = g_poll.load(std::memory_order_relaxed);
  if (poll && poll()) {
    g_requested.store(true, std::memory_order_relaxed);
    throw Interrupted("interrupted");
  }
}

void poll_interrupt() {
  if (t_worker || g_requested.load(std::memory_order_relaxed)) return;
  const InterruptPoll poll = g_poll.load(std::memory_order_relaxed);
  if (poll && poll()) g_requested.store(true, std::memory_order_relaxed);
}

void set_wait_interrupt_poll(InterruptPoll poll) { g_wait_poll.store(poll); }

void wait_interruption_point() {
  if (g_requested.load(std::memory_order_relaxed)) throw Interrupted("interrupted");
  const InterruptPoll poll = g_wait_poll.load(std::memory_order_relaxed);
  if (poll && poll()) {
    g_requested.store(true, std::memory_order_relaxed);
    throw Interrupted("interrupted");
  }
}

void set_worker_thread() { t_worker = true; }

void clear_interrupt() { g_requested.store(false, std::memory_order_relaxed); }

}  // namespace accel
