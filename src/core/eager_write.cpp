#include "src/core/eager_write.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "src/core/backend.hpp"
#include "src/core/eager.hpp"
#include "src/core/eval_instrumentation.hpp"
#include "src/core/fp_errors.hpp"
#include "src/core/group.hpp"
#include "src/core/ops/common.hpp"
#include "src/core/single_step.hpp"

namespace accel::eager {

namespace {

// The first and one-past-the-last element offsets `a` touches in its storage.
std::pair<int64_t, int64_t> extent(const Array& a) {
  int64_t lo = a.offset(), hi = a.offset();
  for (int d = 0; d < a.ndim(); ++d) {
    const int64_t span = (a.shape()[d] - 1) * a.strides()[d];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi + 1};
}

// Whether `src` may be read while `dst` is written: other memory, disjoint parts of one storage,
// or, within one block, views the step interpreter does not read or write in place. It gathers a
// source that is not dense before its step runs and writes a destination that is not dense after
// it (x[1:-1, 0] = x[1:-1, 1] reads every value before writing one); a dense source and a dense
// destination are read and written in one pass, so overlapping ranges of those (a[1:] = a[:-1])
// go the evaluator's way, through a copy. Above one block (a raised bound) the block executor
// writes block by block: there any overlap goes that way.
bool may_read_while_writing(const Array& dst, const Array& src) {
  if (dst.storage() != src.storage()) return !dst.storage()->overlaps(*src.storage());
  const auto [dlo, dhi] = extent(dst);
  const auto [slo, shi] = extent(src);
  if (dhi <= slo || shi <= dlo) return true;
  return dst.size() <= kDefaultMaxElements && !(dst.is_contiguous() && src.is_contiguous());
}

// Whether nothing may read or write dst's memory later than now: it is computed, nothing pending
// reads it (the write barrier would have to evaluate that first), and no other storage covers it.
bool free_to_write(const Storage& s) {
  if (s.is_pending() || s.is_shared()) return false;
  return std::all_of(s.readers().begin(), s.readers().end(),
                     [](const std::weak_ptr<Node>& r) { return r.expired(); });
}

}  // namespace

bool try_assign(const Array& dst, const Array* src, const Scalar* value) {
  const int64_t n = dst.size();
  if (!dst.device().is_cpu() || n == 0 || n > max_elements()) return false;
  if (src) {
    if (!src->device().is_cpu()) return false;
    // A pending value is computed first, as its own group: the bits are those of the write
    // fused with it (fused and unfused agree), and what it reads of dst is the old values.
    if (src->is_pending()) src->eval();
  }
  if (!free_to_write(*dst.storage()) || (src && !may_read_while_writing(dst, *src))) return false;
  // The one-step group the evaluator would run for the write: a cast of the value (a fill for a
  // scalar) whose output is dst itself, on the CPU's step interpreter.
  std::vector<Operand> inputs;
  if (src) {
    inputs.emplace_back(*src);
  } else {
    inputs.emplace_back(scalar_arg(*value, dst.dtype()));
  }
  const OpKind op = src ? OpKind::Cast : OpKind::Fill;
  Node node(op, dst.dtype(), dst.device(), dst.shape(), std::move(inputs));
  Backend& backend = backend_for(dst.device());
  fp_errors::EvaluationScope scope;
  {
    SingleGroupLease lease;
    Group& g = lease.get();
    g.kind = Group::Kind::Elementwise;
    g.device = dst.device();
    g.shape = dst.shape();
    set_single_step(g, node, dst);
    backend.run(g);
    fp_errors::note_group(g);
    instrumentation::count_group(g);
    if (fusion_logging()) {
      instrumentation::log_group(backend, g, instrumentation::note_structure(g));
    }
  }
  dst.storage()->bump_version();
  scope.finish();
  return true;
}

}  // namespace accel::eager
