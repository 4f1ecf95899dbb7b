// Storage: one allocation on one device, shared by every view of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "accel/device.hpp"
#include "accel/pool_allocator.hpp"

namespace accel {

struct Node;

class Storage : public std::enable_shared_from_this<Storage> {
 public:
  // A storage's pending readers: usually one or two, made and dropped with every lazy operation
  // (pool_allocator.hpp).
  using ReaderList = std::vector<std::weak_ptr<Node>, pool::Allocator<std::weak_ptr<Node>>>;

  // Pending storage: `producer` computes it; memory is allocated when it runs.
  Storage(Device device, size_t nbytes, std::shared_ptr<Node> producer);
  // Materialized storage over memory this storage owns (freed through the device's allocator).
  Storage(Device device, size_t nbytes, void* ptr);
  // Materialized storage over memory owned by `owner` (NumPy, DLPack, ...). `shared`: others may
  // write the memory (false only for an import nothing else references: see is_shared).
  Storage(Device device, size_t nbytes, void* ptr, std::shared_ptr<void> owner, bool shared = true);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  Device device() const { return device_; }
  size_t nbytes() const { return nbytes_; }
  // Null while pending.
  void* data() const { return ptr_; }
  bool is_pending() const { return producer_ != nullptr; }
  Node* producer() const { return producer_.get(); }
  bool is_external() const { return owner_ != nullptr; }

  // The evaluator gives a pending storage its memory before the producer runs, then releases
  // the producer (and with it the graph behind it) once the data is written.
  void set_data(void* ptr);
  std::shared_ptr<Node> take_producer() { return std::move(producer_); }

  // Nodes that read this storage and may still be pending: the write barrier evaluates them
  // before anything writes here.
  void add_reader(const std::shared_ptr<Node>& node);
  ReaderList take_readers();

  // Whether other Storages may cover this memory too: wrapped external memory (NumPy may wrap
  // one buffer twice) or memory exported to NumPy (which may come back wrapped). Writes into a
  // shared storage run the write barrier of every shared storage that overlaps it, and since
  // its owner may also write it without any barrier, an operation reading it is computed at the
  // call (make_pending). An import that nothing else references is not shared until exported.
  bool is_shared() const { return shared_; }
  void mark_shared();
  // Whether the memory of this storage and of `other` intersect (false while either is
  // pending). Distinct storages overlap only when both are shared.
  bool overlaps(const Storage& other) const;

  // Live pending nodes reading this materialized storage, and its place in the list of such
  // storages: the memory that pending work keeps alive (src/core/pending_memory.cpp).
  struct PendingUse {
    uint32_t count = 0;
    Storage* prev = nullptr;
    Storage* next = nullptr;
  };
  PendingUse& pending_use() { return pending_use_; }
  const ReaderList& readers() const { return readers_; }

  // Bumped on every write; lets caches notice that the data changed.
  uint64_t version() const { return version_; }
  void bump_version() { ++version_; }

 private:
  Device device_;
  size_t nbytes_;
  void* ptr_ = nullptr;
  bool owns_ = false;
  bool shared_ = false;
  std::shared_ptr<void> owner_;
  std::shared_ptr<Node> producer_;
  ReaderList readers_;
  uint64_t version_ = 0;
  PendingUse pending_use_;
};

// The write barrier: before anything writes into `storage`, computes it if pending and
// evaluates every pending node that reads its memory (through it or through a shared storage
// that overlaps it), so that readers see the old values (NumPy order).
void prepare_write(Storage& storage);

// Removes and returns the live pending readers of the memory of `storage`: its own readers and
// those of every shared storage overlapping it. The write barrier's first half.
std::vector<std::shared_ptr<Node>> take_pending_readers(Storage& storage);

}  // namespace accel
