#include "accel/interrupt.hpp"

#include <atomic>

namespace accel {

namespace {

std::atomic<InterruptPoll> g_poll{nullptr};
std::atomic<InterruptPoll> g_wait_poll{nullptr};
std::atomic<bool> g_requested{false};
thread_local bool t_worker = false;
// The thread whose poll took the request. Only it and the pool's workers obey the shared flag:
// another thread's evaluation or wait goes on (Python gives signals to the main thread alone),
// also in the moment between the request and clear_interrupt, where it used to throw too.
thread_local bool t_requester = false;

bool requested_here() {
  return (t_worker || t_requester) && g_requested.load(std::memory_order_relaxed);
}

void request() {
  t_requester = true;
  g_requested.store(true, std::memory_order_relaxed);
}

}  // namespace

void set_interrupt_poll(InterruptPoll poll) { g_poll.store(poll); }

void interruption_point() {
  if (requested_here()) throw Interrupted("interrupted");
  if (t_worker) return;
  const InterruptPoll poll = g_poll.load(std::memory_order_relaxed);
  if (poll && poll()) {
    request();
    throw Interrupted("interrupted");
  }
}

void poll_interrupt() {
  if (t_worker || requested_here()) return;
  const InterruptPoll poll = g_poll.load(std::memory_order_relaxed);
  if (poll && poll()) request();
}

void set_wait_interrupt_poll(InterruptPoll poll) { g_wait_poll.store(poll); }

void wait_interruption_point() {
  if (requested_here()) throw Interrupted("interrupted");
  const InterruptPoll poll = g_wait_poll.load(std::memory_order_relaxed);
  if (poll && poll()) {
    request();
    throw Interrupted("interrupted");
  }
}

void set_worker_thread() { t_worker = true; }

void clear_interrupt() {
  t_requester = false;
  g_requested.store(false, std::memory_order_relaxed);
}

}  // namespace accel
