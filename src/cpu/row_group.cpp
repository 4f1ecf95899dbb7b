// Rows groups on the CPU: softmax, layer norm and the rest of the normalisation family.
//
// A row group is run as passes over a tile of rows (a slice of the outermost kept axis): pass p
// runs the reductions whose input needs the per-row values of passes before it (softmax: the
// max, then the sum of exp(x - max)), each with the per-element work it reads recomputed in
// its prologue, then the per-row steps those results allow (mean = sum / n); a last pass writes
// the per-element results. Every pass is an ordinary elementwise or reduction group over the
// tile (program.hpp, reduce.cpp), whose per-row inputs are the earlier passes' values broadcast
// over the reduced axes. A tile's inputs are sized to stay in L2 between passes, so memory sees
// one read of the input and one write of the result; per-row values are K elements, written to
// small buffers. Tiles run in parallel, each on one thread.
//
// Rows too long for a tile to fit (or reductions whose order depends on the thread split, see
// reduction_order_depends_on_threads) run the same passes over the whole group, each pass
// parallel by itself: the two-pass form, which reads the input once per pass.
//
// Fused equals unfused: each reduction runs as the unfused reduction group does over the same
// rows, so it sums in the same order, and elementwise steps compute element by element.
#include "src/cpu/row_group.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "accel/interrupt.hpp"
#include "accel/storage.hpp"
#include "src/cpu/cpu_backend.hpp"
#include "src/cpu/program.hpp"
#include "src/cpu/reduce.hpp"
#include "src/cpu/thread_pool.hpp"

namespace accel::cpu {

namespace {

// The per-element bytes a tile reads and writes: within the 1 MiB L2 of the machines measured,
// leaving room for the passes' block buffers.
constexpr int64_t kTileBytes = int64_t(512) << 10;

// A tile: indices [lo, hi) of axis `axis` of the iteration space (axis -1: the whole space),
// and, per step, the tile's buffer of values kept for later passes (empty: recomputed).
struct Tile {
  int axis = -1;
  int64_t lo = 0, hi = 0;
  const std::vector<Array>* kept = nullptr;
};

class RowRunner {
 public:
  explicit RowRunner(const Group& g);
  void run();

 private:
  struct Pass {
    std::vector<int> reductions;  // steps
    std::vector<int> rows_after;  // per-row elementwise steps computable after them
  };

  // Views of per-row arrays (of the kept shape, or of the group's with the reduced axes as 1).
  Strides kept_strides(const Array& a) const;
  Array as_element(const Array& home) const;
  Array as_row(const Array& home, const Shape& shape) const;
  Array slice(const Array& a, const Tile& t, bool per_row) const;
  Shape tile_shape(const Shape& s, const Tile& t, bool per_row) const;

  void run_tile(const Tile& t) const;
  // Adds per-element step k (and the per-element steps it reads) to `sub`.
  struct Sub {
    Group group;
    int pass;  // passes_.size(): the last (per-element results)
    std::vector<int> step_at, input_at, row_at;
  };
  Sub start(Group::Kind kind, const Shape& shape, int pass) const;
  void choose_kept();
  int add_element(Sub& s, int k, const Tile& t) const;
  StepArg map_arg(Sub& s, const StepArg& a, const Tile& t, bool per_row_step,
                  const Shape& step_shape) const;
  void run_reduction_step(int k, const Tile& t) const;
  void run_row_step(int k, const Tile& t) const;
  void run_elements(const Tile& t) const;

  const Group& g_;
  int nd_;
  std::vector<int> kept_;                  // kept axes of the group's space
  int axis_ = -1;                          // the axis tiles slice: the outermost kept one
  std::vector<Array> homes_;               // per per-row step: where its values live
  std::vector<SmallVector<int, 1>> outs_;  // per step: its outputs
  std::vector<int> pre_rows_;              // per-row steps that need no reduction
  std::vector<Pass> passes_;
  std::vector<int> pass_of_;  // per reduction step: its pass
  // Per per-element step: the pass that computes it and keeps its values in a tile buffer for
  // later passes (exp(x - max) in softmax: computed for the sum, read again for the result), or
  // -1 where every pass that needs it recomputes it.
  std::vector<int> kept_in_;
};

RowRunner::RowRunner(const Group& g) : g_(g), nd_(int(g.shape.size())) {
  for (int d = 0; d < nd_; ++d) {
    if (!((g.row_axes >> d) & 1)) kept_.push_back(d);
  }
  if (!kept_.empty()) axis_ = kept_[0];
  const int n = int(g.steps.size());
  outs_.resize(n);
  for (size_t o = 0; o < g.outputs.size(); ++o) outs_[g.outputs[o].step].push_back(int(o));
  // need: the pass that can compute a per-element step; avail: the first pass that can read a
  // per-row step's values.
  std::vector<int> need(n, 0), avail(n, 0);
  homes_.resize(n);
  int last = 0;
  for (int k = 0; k < n; ++k) {
    const Step& st = g.steps[k];
    int level = 0;
    for (const StepArg& a : st.args) {
      if (a.kind == StepArg::Step) {
        level = std::max(level, g.steps[a.index].per_row ? avail[a.index] : need[a.index]);
      }
    }
    if (!st.per_row) {
      need[k] = level;
      continue;
    }
    const bool reduces = op_class(st.node->op) == OpClass::Reduction;
    avail[k] = reduces ? level + 1 : level;
    last = std::max(last, avail[k]);
    // A reduction writes its values contiguously (reduce.cpp); others anywhere.
    const Array* dest = outs_[k].empty() ? nullptr : &g.outputs[outs_[k][0]].dest;
    const bool usable =
        dest && (!reduces || (dest->offset() == 0 && is_row_major(dest->shape(), dest->strides())));
    homes_[k] = usable ? *dest : Array::empty(st.node->shape, st.node->dtype, g.device);
  }
  passes_.resize(last);
  pass_of_.assign(n, -1);
  for (int k = 0; k < n; ++k) {
    if (!g.steps[k].per_row) continue;
    if (op_class(g.steps[k].node->op) == OpClass::Reduction) {
      pass_of_[k] = avail[k] - 1;
      passes_[avail[k] - 1].reductions.push_back(k);
    } else if (avail[k] == 0) {
      pre_rows_.push_back(k);
    } else {
      passes_[avail[k] - 1].rows_after.push_back(k);
    }
  }
  choose_kept();
}

// A per-element step is kept when passes after the one that first needs it read it too (through
// consumers that are not kept themselves): walking consumers first, the passes that need a
// step are those of the reductions and outputs reading it, and those its consumers are
// computed in.
void RowRunner::choose_kept() {
  const int n = int(g_.steps.size());
  const int final_pass = int(passes_.size());
  std::vector<uint64_t> uses(n, 0);  // bit p: pass p computes the step
  kept_in_.assign(n, -1);
  auto first = [](uint64_t bits) { return bits ? std::countr_zero(bits) : 0; };
  for (int k = n; k-- > 0;) {
    const Step& st = g_.steps[k];
    uint64_t mine = 0;
    if (st.per_row) {
      if (pass_of_[k] >= 0) mine = uint64_t{1} << pass_of_[k];
    } else {
      mine = uses[k];
      if (!outs_[k].empty()) mine |= uint64_t{1} << final_pass;
      if (std::popcount(mine) >= 2) {
        kept_in_[k] = first(mine);
        mine = uint64_t{1} << kept_in_[k];
      }
    }
    if (st.per_row && pass_of_[k] < 0) continue;  // per-row elementwise: reads no element
    for (const StepArg& a : st.args) {
      if (a.kind == StepArg::Step && !g_.steps[a.index].per_row) uses[a.index] |= mine;
    }
  }
}

Strides RowRunner::kept_strides(const Array& a) const {
  if (a.ndim() != nd_) return a.strides();
  Strides s;
  for (int d : kept_) s.push_back(a.strides()[d]);
  return s;
}

Array RowRunner::as_element(const Array& home) const {
  const Strides ks = kept_strides(home);
  Strides st(nd_, 0);
  for (size_t j = 0; j < kept_.size(); ++j) st[kept_[j]] = ks[j];
  return home.view(g_.shape, st, home.offset());
}

Array RowRunner::as_row(const Array& home, const Shape& shape) const {
  if (home.shape() == shape) return home;
  const Strides ks = kept_strides(home);
  Strides st;
  if (int(shape.size()) == nd_) {
    st = Strides(nd_, 0);
    for (size_t j = 0; j < kept_.size(); ++j) st[kept_[j]] = ks[j];
  } else {
    st = ks;
  }
  return home.view(shape, st, home.offset());
}

// Per-row arrays of the kept shape have the tile's axis first.
Shape RowRunner::tile_shape(const Shape& s, const Tile& t, bool per_row) const {
  if (t.axis < 0) return s;
  Shape out = s;
  out[per_row && int(s.size()) != nd_ ? 0 : t.axis] = t.hi - t.lo;
  return out;
}

Array RowRunner::slice(const Array& a, const Tile& t, bool per_row) const {
  if (t.axis < 0) return a;
  const int d = per_row && a.ndim() != nd_ ? 0 : t.axis;
  Shape shape = a.shape();
  shape[d] = t.hi - t.lo;
  return a.view(shape, a.strides(), a.offset() + t.lo * a.strides()[d]);
}

RowRunner::Sub RowRunner::start(Group::Kind kind, const Shape& shape, int pass) const {
  Sub s;
  s.pass = pass;
  s.group.kind = kind;
  s.group.device = g_.device;
  s.group.shape = shape;
  s.step_at.assign(g_.steps.size(), -1);
  s.input_at.assign(g_.inputs.size(), -1);
  s.row_at.assign(g_.steps.size(), -1);
  return s;
}

StepArg RowRunner::map_arg(Sub& s, const StepArg& a, const Tile& t, bool per_row_step,
                           const Shape& step_shape) const {
  switch (a.kind) {
    case StepArg::Scalar:
      return a;
    case StepArg::Input: {
      int& at = s.input_at[a.index];
      if (at < 0) {
        at = int(s.group.inputs.size());
        s.group.inputs.push_back(slice(g_.inputs[a.index], t, per_row_step));
      }
      return {StepArg::Input, at, nullptr};
    }
    case StepArg::Step:
      break;
  }
  if (!g_.steps[a.index].per_row) {
    const int at = add_element(s, a.index, t);
    return at >= 0 ? StepArg{StepArg::Step, at, nullptr}
                   : StepArg{StepArg::Input, -2 - at, nullptr};
  }
  // A per-row value: an input of this pass, from the pass that computed it.
  int& at = s.row_at[a.index];
  if (at < 0) {
    at = int(s.group.inputs.size());
    const Array& home = homes_[a.index];
    s.group.inputs.push_back(per_row_step ? slice(as_row(home, step_shape), t, true)
                                          : slice(as_element(home), t, false));
  }
  return {StepArg::Input, at, nullptr};
}

int RowRunner::add_element(Sub& s, int k, const Tile& t) const {
  if (s.step_at[k] >= 0) return s.step_at[k];
  const bool kept = t.kept && kept_in_[k] >= 0;
  if (kept && kept_in_[k] < s.pass) {
    // Computed by an earlier pass of this tile: read back from its buffer.
    s.step_at[k] = -2 - int(s.group.inputs.size());
    s.group.inputs.push_back((*t.kept)[k]);
    return s.step_at[k];
  }
  const Step& st = g_.steps[k];
  Step out{st.node, {}, false};
  for (const StepArg& a : st.args) out.args.push_back(map_arg(s, a, t, false, g_.shape));
  s.group.steps.push_back(std::move(out));
  s.step_at[k] = int(s.group.steps.size()) - 1;
  if (kept) {
    s.group.outputs.push_back({s.step_at[k], (*t.kept)[k]});
    for (const int o : outs_[k]) {
      s.group.outputs.push_back({s.step_at[k], slice(g_.outputs[o].dest, t, false)});
    }
  }
  return s.step_at[k];
}

void RowRunner::run_reduction_step(int k, const Tile& t) const {
  const Step& st = g_.steps[k];
  Sub s = start(Group::Kind::Reduction, tile_shape(g_.shape, t, false), pass_of_[k]);
  Step red{st.node, {}, false};
  for (const StepArg& a : st.args) red.args.push_back(map_arg(s, a, t, false, g_.shape));
  s.group.steps.push_back(std::move(red));
  const Array home = slice(homes_[k], t, true);
  s.group.outputs.push_back({int(s.group.steps.size()) - 1, home});
  run_reduction(s.group);
  for (const int o : outs_[k]) {
    const Array dest = slice(g_.outputs[o].dest, t, true);
    if (!dest.same_view(home)) copy_view(home, dest);
  }
}

void RowRunner::run_row_step(int k, const Tile& t) const {
  const Step& st = g_.steps[k];
  const Shape& shape = st.node->shape;
  Sub s = start(Group::Kind::Elementwise, tile_shape(shape, t, true), 0);
  Step out{st.node, {}, false};
  for (const StepArg& a : st.args) out.args.push_back(map_arg(s, a, t, true, shape));
  s.group.steps.push_back(std::move(out));
  if (outs_[k].empty()) s.group.outputs.push_back({0, slice(homes_[k], t, true)});
  for (const int o : outs_[k]) s.group.outputs.push_back({0, slice(g_.outputs[o].dest, t, true)});
  run_elementwise(s.group);
}

void RowRunner::run_elements(const Tile& t) const {
  Sub s = start(Group::Kind::Elementwise, tile_shape(g_.shape, t, false), int(passes_.size()));
  for (size_t k = 0; k < g_.steps.size(); ++k) {
    if (g_.steps[k].per_row || outs_[k].empty()) continue;
    const int at = add_element(s, int(k), t);
    if (at < 0) continue;  // kept: the pass that computed it wrote it out
    for (const int o : outs_[k])
      s.group.outputs.push_back({at, slice(g_.outputs[o].dest, t, false)});
  }
  if (!s.group.outputs.empty()) run_elementwise(s.group);
}

void RowRunner::run_tile(const Tile& t) const {
  for (const int k : pre_rows_) run_row_step(k, t);
  for (const Pass& p : passes_) {
    for (const int k : p.reductions) run_reduction_step(k, t);
    for (const int k : p.rows_after) run_row_step(k, t);
  }
  run_elements(t);
}

void RowRunner::run() {
  const int64_t size = shape_size(g_.shape);
  if (size == 0 || axis_ < 0 || g_.shape[axis_] < 2) return run_tile(Tile{});
  // Tiles only where each reduction sums every row in the same order over a slice of the rows.
  for (const Pass& p : passes_) {
    for (const int k : p.reductions) {
      Sub s = start(Group::Kind::Reduction, g_.shape, pass_of_[k]);
      Step red{g_.steps[k].node, {}, false};
      for (const StepArg& a : g_.steps[k].args)
        red.args.push_back(map_arg(s, a, Tile{}, false, g_.shape));
      s.group.steps.push_back(std::move(red));
      if (reduction_order_depends_on_threads(s.group)) return run_tile(Tile{});
    }
  }
  const int64_t n0 = g_.shape[axis_];
  const int64_t per_index = size / n0;  // elements of the space per index of the tile's axis
  int64_t rows = 1;
  for (int d : kept_) rows *= g_.shape[d];
  const int64_t rows_per_index = rows / n0;
  size_t element_bytes = 0;
  for (size_t i = 0; i < g_.inputs.size(); ++i) {
    if (!g_.row_inputs[i]) element_bytes += itemsize(g_.inputs[i].dtype());
  }
  for (const GroupOutput& o : g_.outputs) {
    if (!g_.steps[o.step].per_row) element_bytes += itemsize(o.dest.dtype());
  }
  for (size_t k = 0; k < g_.steps.size(); ++k) {
    if (kept_in_[k] >= 0) element_bytes += itemsize(g_.steps[k].node->dtype);
  }
  const int64_t bytes_per_index = std::max<int64_t>(1, per_index * int64_t(element_bytes));
  // At least 16 rows (and one per thread) per tile: the reductions choose their order as they
  // would over all rows (reduce.cpp), and at least 2 indices, which keeps the axis in the layout.
  const int64_t min_rows = std::max<int64_t>(16, num_threads());
  int64_t len = std::max<int64_t>(kTileBytes / bytes_per_index, 2);
  len = std::max(len, (min_rows + rows_per_index - 1) / rows_per_index);
  if (len >= n0) return run_tile(Tile{});
  const int64_t tiles = (n0 + len - 1) / len;
  parallel_for(tiles, 1, [&](int64_t lo, int64_t hi, int) {
    // This thread's buffers for kept values, reused by each of its tiles.
    std::vector<Array> buffers(g_.steps.size()), kept(g_.steps.size());
    for (size_t k = 0; k < g_.steps.size(); ++k) {
      if (kept_in_[k] >= 0) {
        buffers[k] = Array::empty({len * per_index}, g_.steps[k].node->dtype, g_.device);
      }
    }
    for (int64_t i = lo; i < hi; ++i) {
      interruption_point();
      const Tile t{axis_, i * len, std::min(n0, (i + 1) * len), &kept};
      const Shape shape = tile_shape(g_.shape, t, false);
      for (size_t k = 0; k < g_.steps.size(); ++k) {
        if (kept_in_[k] >= 0) kept[k] = buffers[k].view(shape, contiguous_strides(shape), 0);
      }
      run_tile(t);
    }
  });
}

}  // namespace

void run_rows(const Group& group) { RowRunner(group).run(); }

}  // namespace accel::cpu
