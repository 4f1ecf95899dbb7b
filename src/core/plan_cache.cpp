// The plan cache (plan_cache.hpp): the structural key of a plan and the groupings it maps to.
#include "src/core/plan_cache.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <unordered_map>

#include "src/core/word_hash.hpp"

namespace accel::plan {

namespace {

// Larger plans are planned each time: their keys' equality patterns (a scan per operand over
// the distinct views seen) would grow quadratically, and loops build small graphs.
constexpr size_t kMaxKeyedNodes = 256;
// A thread's cache is emptied when it holds this many plans (a program that never repeats a
// structure must not grow it without bound).
constexpr size_t kMaxCachedPlans = 512;

std::atomic<uint64_t> g_hits{0};
std::atomic<uint64_t> g_misses{0};
// Bumped by reset_plan_cache(): each thread empties its cache when it sees a new generation.
std::atomic<uint64_t> g_generation{0};

struct Entry {
  std::vector<uint64_t> words;
  CachedPlan plan;
};

struct ThreadCache {
  std::unordered_map<uint64_t, Entry> plans;
  uint64_t generation = 0;
};

ThreadCache& thread_cache() {
  thread_local ThreadCache cache;
  const uint64_t generation = g_generation.load(std::memory_order_acquire);
  if (cache.generation != generation) {
    cache.plans.clear();
    cache.generation = generation;
  }
  return cache;
}

// Index of the first entry equal to `value` in `seen` (appended when new).
template <class T, size_t N, class Eq>
uint64_t first_equal(SmallVector<const T*, N>& seen, const T& value, Eq eq) {
  for (size_t i = 0; i < seen.size(); ++i) {
    if (eq(*seen[i], value)) return i;
  }
  seen.push_back(&value);
  return seen.size() - 1;
}

// The first itemsize bytes equal (the rest of the 16 is not the value's). Two words compared
// in registers: a memcmp call per scalar operand and key was a tenth of the key's cost.
bool same_scalar(const ScalarArg& a, const ScalarArg& b) {
  static_assert(std::endian::native == std::endian::little, "the masks keep the low bytes");
  if (a.dtype != b.dtype) return false;
  const size_t n = itemsize(a.dtype);
  uint64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0;
  std::memcpy(&a0, a.bytes, 8);
  std::memcpy(&a1, a.bytes + 8, 8);
  std::memcpy(&b0, b.bytes, 8);
  std::memcpy(&b1, b.bytes + 8, 8);
  const uint64_t low = n >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * n)) - 1;
  const uint64_t high = n >= 16 ? ~uint64_t{0} : n > 8 ? (uint64_t{1} << (8 * (n - 8))) - 1 : 0;
  return ((a0 ^ b0) & low) == 0 && ((a1 ^ b1) & high) == 0;
}

bool broadcast_from_one(const Strides& st) {
  return std::all_of(st.begin(), st.end(), [](int64_t s) { return s == 0; });
}

// The order of a node's output axes in memory (result_layout.cpp derives it from the inputs'
// strides, NumPy's K order): whether a consumer reads a producer as written, and so the
// grouping, depends on it, while the sizes behind the strides do not.
uint64_t memory_order(const Strides& st) {
  WordHash h;
  for (size_t i = 0; i < st.size(); ++i) {
    uint64_t rank = 0;
    for (size_t j = 0; j < st.size(); ++j) rank += st[j] > st[i] || (st[j] == st[i] && j < i);
    h.add(rank);
  }
  return h.h;
}

}  // namespace

void analyze_and_key(std::span<Storage* const> targets, Plan& plan, bool fusion,
                     const Storage* keep, PlanKey& key) {
  key.words.clear();
  key.cacheable = plan.nodes.size() <= kMaxKeyedNodes;
  References refs;
  if (!key.cacheable) {
    for (size_t c = 0; c < plan.nodes.size(); ++c) {
      for (const Operand& in : plan.nodes[c].node->inputs) {
        if (const Node* p = pending_producer(in)) refs.note(plan, int(c), in, plan.index_of(p));
      }
    }
    refs.resolve(targets, plan);
    return;
  }
  WordHash h;
  const auto add = [&](uint64_t w) {
    key.words.push_back(w);
    h.add(w);
  };
  SmallVector<const Shape*, 8> shapes;
  SmallVector<const ScalarArg*, 8> scalars;
  SmallVector<const Array*, 16> views;
  const auto shape_class = [&](const Shape& s) {
    return first_equal(shapes, s, [](const Shape& a, const Shape& b) { return a == b; }) |
           uint64_t(s.size()) << 32;
  };
  add(fusion);
  for (size_t c = 0; c < plan.nodes.size(); ++c) {
    const Node& n = *plan.nodes[c].node;
    add(uint64_t(n.op) | uint64_t(n.dtype) << 16 | uint64_t(n.compute) << 24 |
        uint64_t(n.device.type) << 32 | uint64_t(uint8_t(n.device.index)) << 40 |
        uint64_t(n.output == keep) << 49);
    add(n.params.axes);
    if (op_class(n.op) == OpClass::Reduction && !n.inputs.empty() && !n.inputs[0].is_scalar()) {
      // Whether it may seed a Rows group depends on its rows' sizes, not only on their classes.
      add(row_space_allowed(backend_for(n.device).limits(), n.inputs[0].array.shape(),
                            n.params.axes));
    }
    WordHash params;
    params.add_bits(n.params.ddof);
    params.add(uint64_t(n.params.axis));
    params.add(uint64_t(n.params.k));
    add(params.h);
    add(shape_class(n.shape));
    add(memory_order(n.strides));
    add(n.inputs.size());
    for (const Operand& in : n.inputs) {
      if (in.is_scalar()) {
        add(1 | uint64_t(in.scalar.dtype) << 8 |
            first_equal(scalars, in.scalar, same_scalar) << 16);
        continue;
      }
      const Array& a = in.array;
      const Node* p = pending_producer(in);
      const int pi = p ? plan.index_of(p) : -1;
      if (p) refs.note(plan, int(c), in, pi);
      const uint64_t as_written = a.offset() == 0 && is_row_major(a.shape(), a.strides());
      add(2 | uint64_t(a.dtype()) << 8 | as_written << 16 |
          uint64_t(broadcast_from_one(a.strides())) << 17 | uint64_t(pi + 1) << 24);
      // Views of other memory, or other views of a producer's, by the first equal one; a
      // producer's output exactly as written (the common case: a chain) is its own class.
      const bool written_view = p && a.dtype() == p->dtype && a.offset() == 0 &&
                                a.shape() == p->shape && a.strides() == p->strides;
      const uint64_t view =
          written_view ? 0 : 1 + first_equal(views, a, [](const Array& u, const Array& v) {
                               return u.storage() == v.storage() && u.same_view(v);
                             });
      add(shape_class(a.shape()) | view << 40);
      if (p && !written_view) {
        // How the view walks its producer's values decides which groups may read it in place
        // (a row group reads a per-row value only broadcast as laid out: s, not s[::-1]).
        add(uint64_t(a.offset()));
        for (const int64_t st : a.strides()) add(uint64_t(st));
      }
    }
  }
  // Which results are referenced from outside: known once every operand is noted, so they
  // close the key, one bit a node.
  refs.resolve(targets, plan);
  for (size_t base = 0; base < plan.nodes.size(); base += 64) {
    uint64_t bits = 0;
    for (size_t i = base; i < std::min(plan.nodes.size(), base + 64); ++i) {
      bits |= uint64_t(plan.nodes[i].external) << (i - base);
    }
    add(bits);
  }
  key.hash = h.h;
}

const CachedPlan* find_plan(const PlanKey& key) {
  if (key.cacheable) {
    ThreadCache& cache = thread_cache();
    const auto it = cache.plans.find(key.hash);
    if (it != cache.plans.end() && it->second.words == key.words) {
      g_hits.fetch_add(1, std::memory_order_relaxed);
      return &it->second.plan;
    }
  }
  g_misses.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void remember_plan(const PlanKey& key, const Plan& plan, std::vector<GroupDraft>& drafts) {
  if (!key.cacheable) return;
  ThreadCache& cache = thread_cache();
  if (cache.plans.size() >= kMaxCachedPlans) cache.plans.clear();
  Entry& e = cache.plans[key.hash];  // a colliding structure replaces the one cached
  e.words = key.words;
  CachedPlan& c = e.plan;
  c.groups.clear();
  c.node_group.clear();
  c.materialize.clear();
  c.merges.clear();
  c.backend_state.reset();  // the replaced structure's
  for (GroupDraft& d : drafts) {
    // Reduction and Rows groups iterate over their reduction's input: that member gives the
    // shape; other groups' shape is any member's (the first).
    int origin = d.members[0];
    if (d.kind == Group::Kind::Reduction || d.kind == Group::Kind::Rows) {
      for (const int m : d.members) {
        if (op_class(plan.nodes[m].node->op) == OpClass::Reduction) origin = m;
      }
    }
    d.slot = std::make_shared<BackendSlot>();
    c.groups.push_back({d.kind, origin, d.members, d.row_axes, d.slot});
  }
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    const PlanNode& pn = plan.nodes[i];
    c.node_group.push_back(pn.group);
    c.materialize.push_back(pn.materialize);
    if (pn.merged_into >= 0) c.merges.emplace_back(int(i), pn.merged_into);
  }
}

void replay(const CachedPlan& cached, Plan& plan, std::vector<GroupDraft>& drafts) {
  for (const auto& [dup, rep] : cached.merges) merge_duplicate(plan, dup, rep);
  for (size_t i = 0; i < plan.nodes.size(); ++i) {
    plan.nodes[i].group = cached.node_group[i];
    plan.nodes[i].materialize = cached.materialize[i];
  }
  drafts.resize(cached.groups.size());
  for (size_t i = 0; i < cached.groups.size(); ++i) {
    const CachedGroup& g = cached.groups[i];
    const Node* origin = plan.nodes[g.origin].node;
    const bool reduces = g.kind == Group::Kind::Reduction || g.kind == Group::Kind::Rows;
    GroupDraft& d = drafts[i];
    d.kind = g.kind;
    d.device = origin->device;
    d.shape = reduces ? origin->inputs[0].array.shape() : origin->shape;
    d.members.assign(g.members.begin(), g.members.end());
    d.param_bound = 0;
    d.limits = nullptr;
    d.row_axes = g.row_axes;
    d.slot = g.slot;
  }
}

uint64_t plan_cache_hits() { return g_hits.load(std::memory_order_relaxed); }
uint64_t plan_cache_misses() { return g_misses.load(std::memory_order_relaxed); }

void reset_plan_cache() {
  g_hits.store(0, std::memory_order_relaxed);
  g_misses.store(0, std::memory_order_relaxed);
  g_generation.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace accel::plan
