// Region-based execution of a block (compiled after cuda_prelude.h when source_scan.cpp made the
// kernels that wait at __syncthreads coroutines): the compiler splits such a kernel at each
// barrier and keeps what lives across one in the coroutine's frame, so a block runs as a loop
// over its threads per region (every live thread up to its next barrier, then the next round),
// one resume per thread and region instead of a fiber's context switch and stack. This is the
// region-and-context-array scheme of POCL's work-item loops, with the analysis left to the C++
// compiler. Frames come from a per-OS-thread arena, reset for each block.
#include <coroutine>
#include <new>

struct __accel_frames {
  char* base = nullptr;
  size_t size = 0, used = 0;
  // What the block asked for: a block that needed more than the arena's space gets a larger
  // arena at the next block's start (frames must not move, so the overflow went to the heap).
  size_t asked = 0;
  ~__accel_frames() { ::operator delete(base); }
  void reset() {
    if (asked > size) {
      ::operator delete(base);
      size = asked * 2;
      base = static_cast<char*>(::operator new(size));
    }
    used = 0;
    asked = 0;
  }
  bool owns(void* p) const {
    const uintptr_t at = reinterpret_cast<uintptr_t>(p), lo = reinterpret_cast<uintptr_t>(base);
    return at >= lo && at < lo + size;
  }
};
static thread_local __accel_frames __accel_arena;

struct __accel_task {
  struct promise_type {
    __accel_task get_return_object() {
      return {std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    // The call runs the first region; the frame stays after the last, for done().
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { throw; }  // a trap: the block's loop reports it
    static void* operator new(size_t n) {
      __accel_frames& a = __accel_arena;
      n = (n + 63) & ~size_t(63);  // frames on cache lines of their own
      a.asked += n;
      if (a.used + n <= a.size) {
        void* p = a.base + a.used;
        a.used += n;
        return p;
      }
      return ::operator new(n);
    }
    static void operator delete(void* p) {
      __accel_frames& a = __accel_arena;
      if (!a.owns(p)) ::operator delete(p);
    }
  };
  std::coroutine_handle<promise_type> handle;
};

struct __accel_barrier {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept {}
};

static thread_local std::coroutine_handle<__accel_task::promise_type>* __accel_handles;
static thread_local size_t __accel_handles_size;

template <class... P>
struct __accel_entry<__accel_task (*)(P...)> : __accel_params_of<__accel_task, P...> {
  using Params = __accel_params_of<__accel_task, P...>;
  using Handle = std::coroutine_handle<__accel_task::promise_type>;
  template <__accel_task (*F)(P...)>
  static Handle start(void** a) {
    return Params::template call<F>(a, std::index_sequence_for<P...>{}).handle;
  }
  // Never used: the runtime runs these kernels by blocks (no fibers).
  template <__accel_task (*F)(P...)>
  static int run_thread(__accel_thread*, void**) {
    __accel_rt->fail("a region-run kernel was started as a fiber");
    return 1;
  }
  template <__accel_task (*F)(P...)>
  static int run_block(__accel_thread* t, void** a) {
    __accel_self = t;
    const dim3 b = t->block_dim;
    const size_t n = size_t(b.x) * b.y * b.z;
    if (__accel_handles_size < n) {
      delete[] __accel_handles;
      __accel_handles = new Handle[n];
      __accel_handles_size = n;
    }
    Handle* h = __accel_handles;
    __accel_arena.reset();
    size_t started = 0;
    int trapped = 0;
    try {
      // The first region of every thread, then rounds until every thread has returned.
      __accel_each_thread(t, [&](unsigned linear) {
        h[linear] = start<F>(a);
        started = size_t(linear) + 1;
      });
      for (bool live = true; live;) {
        live = false;
        __accel_each_thread(t, [&](unsigned linear) {
          if (h[linear].done()) return;
          live = true;
          h[linear].resume();
        });
      }
    } catch (const __accel_trap&) {
      trapped = 1;
    }
    for (size_t i = 0; i < started; ++i) h[i].destroy();
    return trapped;
  }
};
