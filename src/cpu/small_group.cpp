#include "src/cpu/small_group.hpp"

#include <cstring>
#include <vector>

#include "src/cpu/loops.hpp"

namespace accel::cpu {

namespace {

constexpr size_t kMaxItem = 16;
constexpr size_t kSlot = size_t(kSmallGroupElements) * kMaxItem;  // one operand's values

char* element_base(const Array& a) {
  return static_cast<char*>(a.storage()->data()) + a.offset() * int64_t(itemsize(a.dtype()));
}

// Visits the n elements of a view of `shape` in C order: fn(i, element offset in elements).
template <class F>
void each_element(const Shape& shape, const Strides& strides, int64_t n, F&& fn) {
  const int nd = int(shape.size());
  int64_t index[kMaxDims] = {};
  int64_t off = 0;
  for (int64_t i = 0; i < n; ++i) {
    fn(i, off);
    for (int d = nd - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        off += strides[d];
        break;
      }
      off -= (shape[d] - 1) * strides[d];
      index[d] = 0;
    }
  }
}

// Whether `a` (of the group's shape) lies in C order without gaps: read and written in place.
bool dense(const Array& a, int64_t n) { return n == 1 || a.is_contiguous(); }

}  // namespace

bool run_small_group(const Group& group) {
  const int64_t n = shape_size(group.shape);
  if (group.kind != Group::Kind::Elementwise || n == 0 || n > kSmallGroupElements) return false;
  if (int(group.shape.size()) > kMaxDims) return false;
  for (const GroupOutput& out : group.outputs) {
    if (out.dest.shape() != group.shape) return false;
  }
  // One slot per input read through strides, per step and per scalar operand (a buffer of
  // copies), in memory this thread keeps for the next small group.
  const size_t slots = group.inputs.size() + 4 * group.steps.size();
  thread_local std::vector<char> memory;
  if (memory.size() < slots * kSlot + 64) memory.resize(slots * kSlot + 64);
  char* next = memory.data() + (64 - reinterpret_cast<uintptr_t>(memory.data()) % 64) % 64;
  auto slot = [&] {
    char* at = next;
    next += kSlot;
    return at;
  };

  SmallVector<const char*, 8> inputs;
  for (const Array& in : group.inputs) {
    if (dense(in, n)) {
      inputs.push_back(element_base(in));
      continue;
    }
    const size_t isz = itemsize(in.dtype());
    const char* src = element_base(in);
    char* dst = slot();
    each_element(group.shape, in.strides(), n, [&](int64_t i, int64_t off) {
      std::memcpy(dst + i * int64_t(isz), src + off * int64_t(isz), isz);
    });
    inputs.push_back(dst);
  }

  SmallVector<const char*, 8> values;  // per step: its n results
  int64_t index_values[kSmallGroupElements];
  for (const Step& step : group.steps) {
    const Node& node = *step.node;
    const char* in[3] = {nullptr, nullptr, nullptr};
    LoopFn fn = step_loop(node);
    if (op_class(node.op) == OpClass::Generator) {
      // Generators read the logical flat index; the group's space is walked in C order.
      for (int64_t i = 0; i < n; ++i) index_values[i] = i;
      in[0] = reinterpret_cast<const char*>(index_values);
    } else {
      // As the block executor: a binary step with one scalar operand of the computing dtype
      // takes it by value when the row has such a loop, else a buffer of copies.
      int by_value = -1;
      if (node.op != OpKind::Cast && step.args.size() == 2) {
        for (int a = 0; a < 2 && by_value < 0; ++a) {
          const StepArg& arg = step.args[a];
          if (arg.kind == StepArg::Scalar && arg.scalar->dtype == node.compute &&
              step.args[1 - a].kind != StepArg::Scalar) {
            if (LoopFn f = elementwise_scalar_loop(node.op, node.compute, a)) {
              fn = f;
              by_value = a;
            }
          }
        }
      }
      for (size_t a = 0; a < step.args.size(); ++a) {
        const StepArg& arg = step.args[a];
        if (arg.kind == StepArg::Input) {
          in[a] = inputs[arg.index];
        } else if (arg.kind == StepArg::Step) {
          in[a] = values[arg.index];
        } else if (int(a) == by_value) {
          in[a] = reinterpret_cast<const char*>(arg.scalar->bytes);
        } else {
          const size_t isz = itemsize(arg.scalar->dtype);
          char* copies = slot();
          for (int64_t i = 0; i < n; ++i) std::memcpy(copies + i * isz, arg.scalar->bytes, isz);
          in[a] = copies;
        }
      }
    }
    char* out = slot();
    fn(in, out, n, &node);
    values.push_back(out);
  }

  for (const GroupOutput& out : group.outputs) {
    const Array& dest = out.dest;
    const size_t isz = itemsize(dest.dtype());
    const char* src = values[out.step];
    char* base = element_base(dest);
    if (dense(dest, n)) {
      std::memcpy(base, src, size_t(n) * isz);
    } else {
      each_element(group.shape, dest.strides(), n, [&](int64_t i, int64_t off) {
        std::memcpy(base + off * int64_t(isz), src + i * int64_t(isz), isz);
      });
    }
  }
  return true;
}

}  // namespace accel::cpu
