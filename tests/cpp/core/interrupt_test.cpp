// A Ctrl-C request belongs to the thread whose poll took it (and the thread pool's workers): a
// wait or evaluation on another thread goes on, also before the request is cleared. Another
// thread's host wait for the GPU used to throw in that moment (src/core/interrupt.cpp).
#include "accel/interrupt.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace accel {
namespace {

std::atomic<std::thread::id> g_signalled_thread;

// Python's answer: only the main thread sees the signal, once.
bool poll_once_on_signalled_thread() {
  static std::atomic<bool> taken{false};
  return std::this_thread::get_id() == g_signalled_thread.load() && !taken.exchange(true);
}

TEST(Interrupt, AnotherThreadsWaitIgnoresTheRequestOfThisOne) {
  g_signalled_thread = std::this_thread::get_id();
  set_wait_interrupt_poll(&poll_once_on_signalled_thread);
  set_interrupt_poll(&poll_once_on_signalled_thread);
  EXPECT_THROW(wait_interruption_point(), Interrupted);  // the request, not yet cleared
  EXPECT_THROW(interruption_point(), Interrupted);       // this thread keeps unwinding
  bool other_threw = false;
  std::thread other([&] {
    try {
      wait_interruption_point();
      interruption_point();
      poll_interrupt();
    } catch (const Interrupted&) {
      other_threw = true;
    }
  });
  other.join();
  EXPECT_FALSE(other_threw);
  std::thread worker([&] {
    set_worker_thread();
    EXPECT_THROW(interruption_point(), Interrupted);  // workers stop the interrupted evaluation
  });
  worker.join();
  clear_interrupt();
  EXPECT_NO_THROW(interruption_point());
  set_wait_interrupt_poll(nullptr);
  set_interrupt_poll(nullptr);
}

}  // namespace
}  // namespace accel
