// The memory that pending work keeps alive, and its bound.
//
// A computed array read by a pending node stays allocated until that node runs. In a loop such
// as `acc = acc + load(i)` the loaded arrays are held by nothing but the pending chain, which
// would grow until the depth limit. Each Storage counts the live pending nodes that read it
// (counted at node creation, released when the node is computed or dropped), and the storages
// read by pending work are kept in one list with their total size: a cheap upper bound. Only
// when that bound exceeds the limit is the exact figure computed: the storages whose every
// handle is held by operands of pending nodes (nothing else would keep them). Over the limit,
// the pending inputs of the node being made are evaluated, which releases what they held.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "accel/fusion.hpp"
#include "accel/storage.hpp"
#include "src/core/eval.hpp"
#include "src/core/pending_memory.hpp"

namespace accel::pending {

namespace {

size_t read_limit_env() {
  const char* v = std::getenv("ACCELPY_MAX_PENDING_BYTES");
  if (v && *v) {
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (end && *end == '\0') return size_t(n);
  }
  return size_t{1} << 30;
}

struct Registry {
  // Recursive: a node released while the list is walked (its last handle dropped) unlists its
  // storages on the same thread.
  std::recursive_mutex mutex;
  Storage* head = nullptr;
  size_t bytes = 0;  // of the listed storages
};
Registry& registry() {
  static auto* r = new Registry;  // never destroyed: storages may die during exit
  return *r;
}
std::atomic<size_t> g_limit{read_limit_env()};
std::atomic<uint64_t> g_early{0};

// Whether every handle to `s` is held by operands of live pending nodes.
bool held_only_by_pending(Storage& s) {
  const long holders = s.shared_from_this().use_count() - 1;
  struct Held {
    const Array* array;
    long count;
  };
  SmallVector<Held, 8> impls;
  SmallVector<const Node*, 8> nodes;
  for (const std::weak_ptr<Node>& w : s.readers()) {
    const std::shared_ptr<Node> n = w.lock();
    if (!n || !n->output || std::find(nodes.begin(), nodes.end(), n.get()) != nodes.end()) {
      continue;
    }
    nodes.push_back(n.get());
    for (const Operand& in : n->inputs) {
      if (in.is_scalar() || in.array.storage().get() != &s) continue;
      auto it = std::find_if(impls.begin(), impls.end(),
                             [&](const Held& h) { return h.array->impl() == in.array.impl(); });
      if (it == impls.end()) {
        impls.push_back({&in.array, 1});
      } else {
        ++it->count;
      }
    }
  }
  if (long(impls.size()) != holders) return false;
  return std::all_of(impls.begin(), impls.end(),
                     [](const Held& h) { return h.array->use_count() == h.count; });
}

}  // namespace

void capture(Node& node) {
  // Most nodes of a chain read only pending values and scalars: nothing to list, and no lock.
  const bool reads_computed =
      std::any_of(node.inputs.begin(), node.inputs.end(),
                  [](const Operand& in) { return !in.is_scalar() && !in.array.is_pending(); });
  if (!reads_computed) return;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (const Operand& in : node.inputs) {
    if (in.is_scalar() || in.array.is_pending()) continue;
    Storage* s = in.array.storage().get();
    if (std::find(node.captured.begin(), node.captured.end(), s) != node.captured.end()) continue;
    node.captured.push_back(s);
    Storage::PendingUse& u = s->pending_use();
    if (u.count++ > 0) continue;
    u.prev = nullptr;
    u.next = r.head;
    if (r.head) r.head->pending_use().prev = s;
    r.head = s;
    r.bytes += s->nbytes();
  }
}

void capture_computed(Storage& storage) {
  if (storage.readers().empty()) return;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (const std::weak_ptr<Node>& w : storage.readers()) {
    const std::shared_ptr<Node> n = w.lock();
    if (!n || !n->output) continue;  // gone, or computed itself
    // Only a node that holds the storage among its operands keeps it alive while listed.
    const bool holds = std::any_of(n->inputs.begin(), n->inputs.end(), [&](const Operand& in) {
      return !in.is_scalar() && in.array.storage().get() == &storage;
    });
    if (!holds) continue;
    if (std::find(n->captured.begin(), n->captured.end(), &storage) != n->captured.end()) {
      continue;
    }
    n->captured.push_back(&storage);
    Storage::PendingUse& u = storage.pending_use();
    if (u.count++ > 0) continue;
    u.prev = nullptr;
    u.next = r.head;
    if (r.head) r.head->pending_use().prev = &storage;
    r.head = &storage;
    r.bytes += storage.nbytes();
  }
}

void release(Node& node) {
  if (node.captured.empty()) return;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (Storage* s : node.captured) {
    Storage::PendingUse& u = s->pending_use();
    if (--u.count > 0) continue;
    if (u.prev) u.prev->pending_use().next = u.next;
    if (u.next) u.next->pending_use().prev = u.prev;
    if (r.head == s) r.head = u.next;
    u.prev = u.next = nullptr;
    r.bytes -= s->nbytes();
  }
  node.captured.clear();
}

namespace {
// The storages only pending work holds, and their total size.
size_t exclusive(std::vector<Storage*>* out) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  size_t bytes = 0;
  for (Storage* s = r.head; s; s = s->pending_use().next) {
    if (!held_only_by_pending(*s)) continue;
    bytes += s->nbytes();
    if (out) out->push_back(s);
  }
  return bytes;
}
// The pending work at the end of the chains that read `s`: its readers, or theirs when they are
// read in turn. Evaluating those (a reduction over x * 2 rather than x * 2 itself) frees what
// `s` holds without materialising intermediate results that pending work would then hold.
void add_last_readers(Storage& s, std::vector<const Node*>& seen, std::vector<Storage*>& targets,
                      std::vector<std::shared_ptr<Node>>& keep) {
  for (const std::weak_ptr<Node>& w : s.readers()) {
    std::shared_ptr<Node> n = w.lock();
    if (!n || !n->output || std::find(seen.begin(), seen.end(), n.get()) != seen.end()) continue;
    seen.push_back(n.get());
    const bool read_further = std::any_of(n->output->readers().begin(), n->output->readers().end(),
                                          [](const std::weak_ptr<Node>& r) {
                                            const std::shared_ptr<Node> rn = r.lock();
                                            return rn && rn->output;
                                          });
    if (read_further) {
      add_last_readers(*n->output, seen, targets, keep);
    } else {
      targets.push_back(n->output);
      keep.push_back(std::move(n));
    }
  }
}

}  // namespace

void enforce(std::span<const Operand> inputs) {
  const size_t limit = g_limit.load(std::memory_order_relaxed);
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (r.bytes <= limit) return;
  }
  std::vector<Storage*> held;
  if (exclusive(&held) <= limit) return;
  // The chain being extended is what holds the memory (the common case: a loop accumulating
  // arrays it loads or computes); else evaluate every pending reader of the held storages.
  std::vector<Storage*> targets;
  for (const Operand& in : inputs) {
    if (!in.is_scalar() && in.array.is_pending()) targets.push_back(in.array.storage().get());
  }
  std::vector<std::shared_ptr<Node>> keep;  // the readers, alive while they are evaluated
  if (targets.empty()) {
    std::vector<const Node*> seen;
    for (Storage* s : held) add_last_readers(*s, seen, targets, keep);
  }
  if (targets.empty()) return;
  g_early.fetch_add(1, std::memory_order_relaxed);
  evaluate_storages(targets);
}

uint64_t early_evaluations() { return g_early.load(std::memory_order_relaxed); }
void reset_early_evaluations() { g_early.store(0, std::memory_order_relaxed); }

}  // namespace accel::pending

namespace accel {

size_t max_pending_bytes() { return pending::g_limit.load(std::memory_order_relaxed); }
void set_max_pending_bytes(size_t bytes) {
  pending::g_limit.store(bytes, std::memory_order_relaxed);
}
size_t pending_bytes() { return pending::exclusive(nullptr); }

}  // namespace accel
