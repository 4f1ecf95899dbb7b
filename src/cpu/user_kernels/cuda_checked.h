// The checked mode of users' kernels on the CPU (ACCELPY_KERNEL_CHECK=1, or the option
// -DACCELPY_KERNEL_CHECK): compiled after cuda_prelude.h, and the source scanner turns each
// kernel's pointer parameters `T* name` into `__accel_checked<T> name`. Every access through
// one (p[i], *p, p->f, and pointers derived by arithmetic) is checked against the memory of the
// argument's array; an access outside it reports the argument and index to the runtime and ends
// the thread, and the launch raises IndexError. Raw pointers taken from one (&p[i], a cast, a
// call of a function taking T*) are no longer checked.
struct __accel_bounds {
  const char* lo;
  const char* hi;  // null: not known (an address given as an integer)
};

[[noreturn]] inline void __accel_out_of_bounds(unsigned arg, long long index, long long count) {
  __accel_thread* me = __accel_self;
  __accel_rt->out_of_bounds(me, arg, index, count);
  throw __accel_trap{};
}

template <class T>
struct __accel_checked {
  T* p;
  T* start;  // the argument's pointer: indices are counted from it
  const __accel_bounds* b;
  unsigned arg;

  T* check(T* q) const {
    const uintptr_t at = uintptr_t(q);
    if (b->hi && (at < uintptr_t(b->lo) || at + sizeof(T) > uintptr_t(b->hi))) {
      const long long size = (long long)sizeof(T);
      const long long index = ((long long)at - (long long)uintptr_t(start)) / size;
      const long long count = ((long long)uintptr_t(b->hi) - (long long)uintptr_t(start)) / size;
      __accel_out_of_bounds(arg, index, count);
    }
    return q;
  }
  __accel_checked with(T* q) const { return __accel_checked{q, start, b, arg}; }
  static T* moved(T* q, long long n) { return reinterpret_cast<T*>(uintptr_t(q) + n * sizeof(T)); }

  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  T& operator[](I i) const {
    return *check(moved(p, (long long)i));
  }
  T& operator*() const { return *check(p); }
  T* operator->() const { return check(p); }
  operator T*() const { return p; }
  template <class U>
  explicit operator U*() const {
    return (U*)p;
  }
  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  __accel_checked operator+(I n) const {
    return with(moved(p, (long long)n));
  }
  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  __accel_checked operator-(I n) const {
    return with(moved(p, -(long long)n));
  }
  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  __accel_checked& operator+=(I n) {
    p = moved(p, (long long)n);
    return *this;
  }
  template <class I, class = std::enable_if_t<std::is_integral<I>::value>>
  __accel_checked& operator-=(I n) {
    p = moved(p, -(long long)n);
    return *this;
  }
  __accel_checked& operator++() { return *this += 1; }
  __accel_checked& operator--() { return *this -= 1; }
  __accel_checked operator++(int) {
    __accel_checked old = *this;
    *this += 1;
    return old;
  }
  __accel_checked operator--(int) {
    __accel_checked old = *this;
    *this -= 1;
    return old;
  }
  ptrdiff_t operator-(const __accel_checked& o) const { return p - o.p; }
};
template <class I, class T, class = std::enable_if_t<std::is_integral<I>::value>>
__accel_checked<T> operator+(I n, const __accel_checked<T>& c) {
  return c + n;
}
template <class T>
inline T __ldg(const __accel_checked<T>& c) {
  return *c;
}

template <class T>
struct __accel_param<__accel_checked<T>> {
  static constexpr size_t size = sizeof(T*);
  static __accel_checked<T> get(void* a, unsigned i) {
    T* p = *static_cast<T**>(a);
    return __accel_checked<T>{p, p, __accel_self->bounds + i, i};
  }
};
