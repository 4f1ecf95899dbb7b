// A vector that keeps up to N elements inline, for shapes, strides and operand lists: most
// arrays have few dimensions, and allocating on every op would dominate dispatch cost.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace accel {

template <class T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable values");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  explicit SmallVector(size_t n, T value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <class It, class = decltype(*std::declval<It>())>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { move_from(std::move(other)); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      move_from(std::move(other));
    }
    return *this;
  }
  ~SmallVector() { release(); }

  template <class It>
  void assign(It first, It last) {
    const size_t n = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    reserve(n);
    std::copy(first, last, data());
    size_ = n;
  }
  void assign(size_t n, T value) {
    size_ = 0;
    reserve(n);
    std::fill_n(data(), n, value);
    size_ = n;
  }

  T* data() { return heap_ ? heap_ : inline_; }
  const T* data() const { return heap_ ? heap_ : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }

  void reserve(size_t n) {
    if (n <= capacity()) return;
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T)));
    std::copy(data(), data() + size_, fresh);
    if (heap_) ::operator delete(heap_);
    heap_ = fresh;
    heap_capacity_ = n;
  }
  void push_back(T value) {
    if (size_ == capacity()) reserve(std::max<size_t>(2 * capacity(), N + 1));
    data()[size_++] = value;
  }
  void pop_back() { --size_; }
  void resize(size_t n, T value = T()) {
    reserve(n);
    if (n > size_) std::fill(data() + size_, data() + n, value);
    size_ = n;
  }
  void clear() { size_ = 0; }
  T* insert(const T* pos, T value) {
    const size_t at = static_cast<size_t>(pos - data());
    push_back(value);
    std::rotate(data() + at, data() + size_ - 1, data() + size_);
    return data() + at;
  }
  T* erase(const T* pos) {
    const size_t at = static_cast<size_t>(pos - data());
    std::copy(data() + at + 1, data() + size_, data() + at);
    --size_;
    return data() + at;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  size_t capacity() const { return heap_ ? heap_capacity_ : N; }
  void release() {
    if (heap_) ::operator delete(heap_);
    heap_ = nullptr;
    size_ = 0;
  }
  void move_from(SmallVector&& other) {
    if (other.heap_) {
      heap_ = other.heap_;
      heap_capacity_ = other.heap_capacity_;
      size_ = other.size_;
      other.heap_ = nullptr;
      other.size_ = 0;
    } else {
      heap_ = nullptr;
      std::copy(other.inline_, other.inline_ + other.size_, inline_);
      size_ = other.size_;
    }
  }

  T inline_[N];
  T* heap_ = nullptr;
  size_t heap_capacity_ = 0;
  size_t size_ = 0;
};

}  // namespace accel
