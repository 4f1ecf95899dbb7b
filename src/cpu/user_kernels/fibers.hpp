// Cooperative fibers for the threads of a CPU block: each runs on a stack of its own and hands
// control back to the block's scheduler at a barrier or warp primitive. On x86-64 the switch is
// a hand-written save of the callee-saved registers (a few nanoseconds; ucontext's swapcontext
// also changes the signal mask, a system call per switch); elsewhere, and under
// AddressSanitizer (which follows swapcontext), ucontext.
#pragma once

#include <cstddef>
#include <vector>

#if !defined(__x86_64__) || defined(__SANITIZE_ADDRESS__)
#define ACCEL_FIBERS_UCONTEXT 1
#include <ucontext.h>
#endif

namespace accel::cpu::user_kernels {

// Where a suspended fiber (or the scheduler) resumes.
struct FiberContext {
#ifdef ACCEL_FIBERS_UCONTEXT
  ucontext_t uc;
#else
  void* sp = nullptr;
#endif
};

// Suspends `from` and resumes `to`.
#ifdef ACCEL_FIBERS_UCONTEXT
void fiber_switch(FiberContext& from, FiberContext& to);
#else
extern "C" void accel_cpu_fiber_switch(void** from_sp, void* to_sp);
// Inline: the switch is on every barrier of every thread, and each call level is stack memory
// touched per thread and round.
inline void fiber_switch(FiberContext& from, FiberContext& to) {
  accel_cpu_fiber_switch(&from.sp, to.sp);
}
#endif

// Stacks for up to `count` fibers, each `bytes` long with a guard page below it; kept per OS
// thread and reused by the blocks that thread runs.
class FiberStacks {
 public:
  FiberStacks() = default;
  FiberStacks(const FiberStacks&) = delete;
  FiberStacks& operator=(const FiberStacks&) = delete;
  ~FiberStacks();
  void reserve(size_t count);
  // Each stack starts at another cache line of its page: at the same offset, the fibers' saved
  // registers and innermost frames all fell into one L1 set (eight ways for up to 1024 fibers),
  // a cache miss on every switch.
  char* top(size_t i) const { return base_ + (i + 1) * stride_ - (i % 64) * 64; }
  char* bottom(size_t i) const { return base_ + i * stride_ + page_; }

 private:
  char* base_ = nullptr;
  size_t count_ = 0, stride_ = 0, page_ = 0, mapped_ = 0;
};

// Prepares `ctx` so that switching to it calls entry(arg) on the stack [bottom, top); entry must
// never return (it switches away for the last time instead).
void fiber_init(FiberContext& ctx, char* bottom, char* top, void (*entry)(void*), void* arg);

}  // namespace accel::cpu::user_kernels
