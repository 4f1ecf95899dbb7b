// A plan's map from nodes to their plan indices: an open-addressing hash table owned by the plan.
//
// The index lives beside the plan, not on the nodes: two threads planning graphs that share a
// node (a pending array read by both) would otherwise overwrite each other's index in the node,
// and a mutable field on shared nodes would need a lock. Lookups cost a multiply and, at the
// half-full bound kept here, about one probe; up to 64 nodes need no heap block, so a loop
// body's plan allocates nothing for its index.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "accel/small_vector.hpp"

namespace accel {

struct Node;

namespace plan {

class NodeIndex {
 public:
  // The slot's value for `n`: inserted with `fresh` when absent; `inserted` says which.
  int& find_or_insert(const Node* n, int fresh, bool& inserted) {
    if (2 * (count_ + 1) > slots_.size()) grow(2 * (count_ + 1));
    size_t i = home(n);
    while (slots_[i].node && slots_[i].node != n) i = (i + 1) & (slots_.size() - 1);
    inserted = !slots_[i].node;
    if (inserted) {
      slots_[i] = {n, fresh};
      ++count_;
    }
    return slots_[i].index;
  }

  // Room for `n` nodes without growing (collect's hint: a root's depth bounds its chain).
  void reserve(size_t n) {
    if (2 * n > slots_.size()) grow(2 * n);
  }

  // The value for `n`, or -1.
  int find(const Node* n) const {
    if (slots_.empty()) return -1;
    for (size_t i = home(n);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].node == n) return slots_[i].index;
      if (!slots_[i].node) return -1;
    }
  }

  size_t size() const { return count_; }

  // Empties the table for the thread's next evaluation, keeping its slots (up to kKeep): a loop
  // body's plan of more than 64 nodes otherwise regrew it from 16 slots, rehashing at each
  // doubling, in every evaluation.
  void clear() {
    if (slots_.size() > kKeep) {
      *this = NodeIndex();
      return;
    }
    if (count_ > 0) std::fill(slots_.begin(), slots_.end(), Slot{nullptr, -1});
    count_ = 0;
  }

 private:
  struct Slot {  // no member initialisers: the inline slots are not written until used
    const Node* node;
    int index;
  };
  // 64 nodes fit inline (kMaxPendingDepth's chains); a table starts at 16 slots and doubles.
  static constexpr size_t kInline = 128;
  static constexpr size_t kFirst = 16;
  static constexpr size_t kKeep = 256;  // what clear() keeps (4 KiB: plans of 127 nodes)

  size_t home(const Node* n) const {
    // Fibonacci hashing: the multiply spreads the pointer's middle bits over the top ones.
    const uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(n)) * 0x9e3779b97f4a7c15ULL;
    return size_t(h >> shift_);
  }

  // Rehashes into a power of two of at least `want` slots.
  void grow(size_t want) {
    size_t capacity = slots_.empty() ? kFirst : 2 * slots_.size();
    while (capacity < want) capacity *= 2;
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    if (count_ == 0) {
      slots_.assign(capacity, Slot{nullptr, -1});
      return;
    }
    SmallVector<Slot, kInline> old = std::move(slots_);
    slots_ = SmallVector<Slot, kInline>();
    slots_.assign(capacity, Slot{nullptr, -1});
    count_ = 0;
    bool inserted = false;
    for (const Slot& s : old) {
      if (s.node) find_or_insert(s.node, s.index, inserted);
    }
  }

  SmallVector<Slot, kInline> slots_;
  size_t count_ = 0;
  int shift_ = 64;
};

}  // namespace plan
}  // namespace accel
