#include "src/cpu/user_kernels/fibers.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

namespace accel::cpu::user_kernels {

namespace {

// 64 KiB of stack per thread of a block: kernels keep small locals (a GPU thread has less).
constexpr size_t kStackBytes = size_t(64) << 10;

}  // namespace

FiberStacks::~FiberStacks() {
  if (base_) munmap(base_, mapped_);
}

void FiberStacks::reserve(size_t count) {
  if (count <= count_) return;
  if (base_) munmap(base_, mapped_);
  page_ = size_t(sysconf(_SC_PAGESIZE));
  stride_ = kStackBytes + page_;
  mapped_ = stride_ * count;
  void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    base_ = nullptr;
    count_ = 0;
    throw std::bad_alloc();
  }
  base_ = static_cast<char*>(p);
  count_ = count;
  // A guard page under each stack: an overflow faults rather than corrupting a neighbour.
  for (size_t i = 0; i < count; ++i) mprotect(base_ + i * stride_, page_, PROT_NONE);
}

#ifdef ACCEL_FIBERS_UCONTEXT

void fiber_switch(FiberContext& from, FiberContext& to) { swapcontext(&from.uc, &to.uc); }

namespace {
void ucontext_entry(unsigned hi, unsigned lo, unsigned fhi, unsigned flo) {
  auto entry = reinterpret_cast<void (*)(void*)>((uintptr_t(fhi) << 32) | flo);
  entry(reinterpret_cast<void*>((uintptr_t(hi) << 32) | lo));
}
}  // namespace

void fiber_init(FiberContext& ctx, char* bottom, char* top, void (*entry)(void*), void* arg) {
  getcontext(&ctx.uc);
  ctx.uc.uc_stack.ss_sp = bottom;
  ctx.uc.uc_stack.ss_size = size_t(top - bottom);
  ctx.uc.uc_link = nullptr;
  const auto a = uintptr_t(arg), f = reinterpret_cast<uintptr_t>(entry);
  makecontext(&ctx.uc, reinterpret_cast<void (*)()>(&ucontext_entry), 4, unsigned(a >> 32),
              unsigned(a), unsigned(f >> 32), unsigned(f));
}

#else

extern "C" void accel_cpu_fiber_start();

// The callee-saved registers go on the suspended stack; the stack pointer into *from_sp. A new
// fiber's stack holds zeroed registers, then accel_cpu_fiber_start as the return address, which
// calls entry (r12) with arg (r13).
asm(R"(
  .text
  .p2align 4
  .globl accel_cpu_fiber_switch
  .hidden accel_cpu_fiber_switch
  .type accel_cpu_fiber_switch,@function
accel_cpu_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size accel_cpu_fiber_switch,.-accel_cpu_fiber_switch

  .p2align 4
  .globl accel_cpu_fiber_start
  .hidden accel_cpu_fiber_start
  .type accel_cpu_fiber_start,@function
accel_cpu_fiber_start:
  movq %r13, %rdi
  callq *%r12
  ud2
  .size accel_cpu_fiber_start,.-accel_cpu_fiber_start
)");

void fiber_init(FiberContext& ctx, char* /*bottom*/, char* top, void (*entry)(void*), void* arg) {
  auto* sp = reinterpret_cast<uintptr_t*>(uintptr_t(top) & ~uintptr_t(15));
  // After `ret` pops accel_cpu_fiber_start, rsp is 16-byte aligned: the call then pushes a
  // return address, as the ABI expects at a function's entry.
  *--sp = 0;
  *--sp = 0;
  *--sp = reinterpret_cast<uintptr_t>(&accel_cpu_fiber_start);
  *--sp = 0;                                   // rbp
  *--sp = 0;                                   // rbx
  *--sp = reinterpret_cast<uintptr_t>(entry);  // r12
  *--sp = reinterpret_cast<uintptr_t>(arg);    // r13
  *--sp = 0;                                   // r14
  *--sp = 0;                                   // r15
  ctx.sp = sp;
}

#endif

}  // namespace accel::cpu::user_kernels
