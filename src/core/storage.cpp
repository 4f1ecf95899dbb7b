#include "accel/storage.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <mutex>

#include "src/core/backend.hpp"
#include "src/core/eval.hpp"
#include "src/core/graph.hpp"

namespace accel {

namespace {

// The shared storages, by start address: the only storages whose memory another storage may
// also cover. Looked up on writes into shared storages, so that the write barrier reaches
// every storage that sees the written memory.
struct SharedRegistry {
  std::mutex mutex;
  std::multimap<uintptr_t, Storage*> by_start;
  size_t max_bytes = 0;  // bounds the lookup: nothing starting further below can reach
};

SharedRegistry& shared_registry() {
  static auto* r = new SharedRegistry;  // never destroyed: storages may die during exit
  return *r;
}

uintptr_t start_of(const Storage& s) { return reinterpret_cast<uintptr_t>(s.data()); }

}  // namespace

Storage::Storage(Device device, size_t nbytes, std::shared_ptr<Node> producer)
    : device_(device), nbytes_(nbytes), producer_(std::move(producer)) {}

Storage::Storage(Device device, size_t nbytes, void* ptr)
    : device_(device), nbytes_(nbytes), ptr_(ptr), owns_(true) {}

Storage::Storage(Device device, size_t nbytes, void* ptr, std::shared_ptr<void> owner, bool shared)
    : device_(device), nbytes_(nbytes), ptr_(ptr), owner_(std::move(owner)) {
  if (shared) mark_shared();
}

Storage::~Storage() {
  if (shared_) {
    SharedRegistry& r = shared_registry();
    std::lock_guard lock(r.mutex);
    auto [lo, hi] = r.by_start.equal_range(start_of(*this));
    for (auto it = lo; it != hi; ++it) {
      if (it->second == this) {
        r.by_start.erase(it);
        break;
      }
    }
  }
  if (owns_ && ptr_) backend_for(device_).deallocate(ptr_, nbytes_);
}

void Storage::set_data(void* ptr) {
  ptr_ = ptr;
  owns_ = true;
}

void Storage::mark_shared() {
  // Empty and pending storages cover no memory yet; they are registered once they do.
  if (shared_ || !ptr_ || nbytes_ == 0) return;
  shared_ = true;
  SharedRegistry& r = shared_registry();
  std::lock_guard lock(r.mutex);
  r.by_start.emplace(start_of(*this), this);
  r.max_bytes = std::max(r.max_bytes, nbytes_);
}

bool Storage::overlaps(const Storage& other) const {
  if (this == &other) return true;
  if (!ptr_ || !other.ptr_ || nbytes_ == 0 || other.nbytes_ == 0) return false;
  const uintptr_t a = start_of(*this), b = start_of(other);
  return a < b + other.nbytes_ && b < a + nbytes_;
}

void Storage::add_reader(const std::shared_ptr<Node>& node) {
  // Drop readers that are gone before the list grows, so that it stays proportional to the
  // live pending readers.
  if (readers_.size() >= 8 && readers_.size() == readers_.capacity()) {
    std::erase_if(readers_, [](const std::weak_ptr<Node>& w) { return w.expired(); });
  }
  readers_.push_back(node);
}

Storage::ReaderList Storage::take_readers() { return std::exchange(readers_, {}); }

std::vector<std::shared_ptr<Node>> take_pending_readers(Storage& storage) {
  std::vector<std::shared_ptr<Storage>> storages;
  if (storage.is_shared()) {
    SharedRegistry& r = shared_registry();
    std::lock_guard lock(r.mutex);
    const uintptr_t start = start_of(storage), end = start + storage.nbytes();
    const uintptr_t from = start > r.max_bytes ? start - r.max_bytes : 0;
    for (auto it = r.by_start.lower_bound(from); it != r.by_start.end() && it->first < end; ++it) {
      Storage* other = it->second;
      if (other == &storage || !other->overlaps(storage)) continue;
      // A storage being destroyed has no readers left to evaluate.
      if (std::shared_ptr<Storage> alive = other->weak_from_this().lock()) {
        storages.push_back(std::move(alive));
      }
    }
  }
  std::vector<std::shared_ptr<Node>> readers;
  auto take = [&](Storage& s) {
    for (const std::weak_ptr<Node>& w : s.take_readers()) {
      std::shared_ptr<Node> node = w.lock();
      if (node && node->output) readers.push_back(std::move(node));
    }
  };
  take(storage);
  for (const std::shared_ptr<Storage>& s : storages) take(*s);
  // A node reading the memory twice (x + x, or through two shared storages) is listed once, at
  // its first place. The readers stay in the order they were made: they are the evaluation's
  // targets, whose order decides the plan's node order, hence the plan-cache key and the
  // generated kernel's step order. Ordered by address, a loop body made a new structure
  // whenever the allocator placed its nodes otherwise: a plan-cache miss, and on a GPU a kernel
  // compiled again in the middle of a loop.
  if (readers.size() > 1) {
    struct Seen {
      const Node* node;
      size_t at;
    };
    SmallVector<Seen, 16> seen;
    for (size_t i = 0; i < readers.size(); ++i) seen.push_back({readers[i].get(), i});
    std::sort(seen.begin(), seen.end(), [](const Seen& a, const Seen& b) {
      return a.node != b.node ? std::less<const Node*>()(a.node, b.node) : a.at < b.at;
    });
    SmallVector<bool, 16> duplicate(readers.size(), false);
    for (size_t i = 1; i < seen.size(); ++i) {
      if (seen[i].node == seen[i - 1].node) duplicate[seen[i].at] = true;
    }
    size_t kept = 0;
    for (size_t i = 0; i < readers.size(); ++i) {
      if (!duplicate[i]) readers[kept++] = std::move(readers[i]);
    }
    readers.resize(kept);
  }
  return readers;
}

void prepare_write(Storage& storage) {
  // The common case (computed, not shared, no pending readers) has nothing to evaluate.
  if (!storage.is_pending() && !storage.is_shared() && storage.readers().empty()) {
    storage.bump_version();
    return;
  }
  if (storage.is_pending()) evaluate_storages({&storage});
  // `readers` keeps the nodes alive while their outputs are computed.
  const std::vector<std::shared_ptr<Node>> readers = take_pending_readers(storage);
  std::vector<Storage*> pending;
  for (const std::shared_ptr<Node>& node : readers) pending.push_back(node->output);
  if (!pending.empty()) evaluate_storages(pending);
  storage.bump_version();
}

}  // namespace accel
