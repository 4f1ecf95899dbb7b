#include "src/cpu/small_group.hpp"

#include <cstring>
#include <memory>

#include "src/core/fp_errors.hpp"
#include "src/cpu/loops.hpp"
#include "src/cpu/program.hpp"
#include "src/cpu/strided_copy.hpp"

namespace accel::cpu {

namespace {

constexpr size_t kMaxItem = 16;
constexpr size_t kAlign = 64;
size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

char* element_base(const Array& a) {
  return static_cast<char*>(a.storage()->data()) + a.offset() * int64_t(itemsize(a.dtype()));
}

// Whether `a` (of the group's shape) lies in C order without gaps: read and written in place.
bool dense(const Array& a, int64_t n) { return n == 1 || a.is_contiguous(); }

// Whether steps [0, num_steps) of `group`, over its n elements, run on the interpreter: up to a
// block, in any layout (views that are not dense are gathered before the first step and written
// after the step that makes them).
bool fits(const Group& group, int num_steps, int64_t n) {
  if (n == 0 || n > kBlock || int(group.shape.size()) > kMaxDims) return false;
  for (const GroupOutput& out : group.outputs) {
    if (out.step >= num_steps) continue;  // a reduction's result: its caller writes it
    if (out.dest.shape() != group.shape) return false;
  }
  return true;
}

// The values of one run: per input and per step, where its n values are (C order).
struct Values {
  SmallVector<const char*, 8> inputs;
  SmallVector<const char*, 8> steps;
};

// Runs steps [0, num_steps) of `group` over its n elements as one block, as the block executor
// runs a block: each step's loop once, a binary step with a scalar operand of the computing
// dtype taking it by value, results written to contiguous outputs directly and to the others
// after the step, a step's buffer reused once its last reader has run, IEEE flags attributed to
// the step that raised them. Steps from num_steps on (a reduction) read their operands' values
// after the run, so those stay.
void run_steps(const Group& group, int num_steps, int64_t n, Values& v) {
  const int num_all = int(group.steps.size());
  SmallVector<int, 8> last_use(size_t(num_all), -1);
  for (int k = 0; k < num_all; ++k) {
    for (const StepArg& a : group.steps[k].args) {
      if (a.kind == StepArg::Step) last_use[a.index] = k < num_steps ? k : num_all;
    }
  }
  // Buffers of n values (of at most kMaxItem bytes) in memory this thread keeps for the next
  // small group: one per input gathered, per step (reused) and per scalar copied, staggered by a
  // few cache lines (buffers 4 KiB apart alias in the store buffer; program.cpp).
  // At most: the inputs gathered, every step's values live, and a step's own buffer and two
  // blocks of scalar copies. The memory is not cleared: pages a group never uses stay untouched.
  const size_t slot_bytes = align_up(size_t(n) * kMaxItem) + 5 * kAlign;
  const size_t need = (group.inputs.size() + size_t(num_steps) + 3) * slot_bytes + kAlign;
  thread_local std::unique_ptr<char[]> memory;
  thread_local size_t memory_bytes = 0;
  if (memory_bytes < need) {
    memory.reset(new char[need]);
    memory_bytes = need;
  }
  const auto addr = reinterpret_cast<uintptr_t>(memory.get());
  char* next = memory.get() + (align_up(addr) - addr);
  SmallVector<char*, 8> free_slots;
  auto slot = [&] {
    if (!free_slots.empty()) {
      char* at = free_slots.back();
      free_slots.pop_back();
      return at;
    }
    char* at = next;
    next += slot_bytes;
    return at;
  };

  for (const Array& in : group.inputs) {
    if (dense(in, n)) {
      v.inputs.push_back(element_base(in));
      continue;
    }
    char* dst = slot();
    move_packed(true, group.shape, in.strides(), 0, n, itemsize(in.dtype()), element_base(in), dst);
    v.inputs.push_back(dst);
  }

  fp_errors::note_unattributed();
  int64_t index_values[kBlock];
  bool index_filled = false;
  SmallVector<char*, 2> copies;  // this step's blocks of scalar copies
  SmallVector<char, 8> owned;    // per step: its values are in a buffer of ours
  for (int k = 0; k < num_steps; ++k) {
    const Step& step = group.steps[k];
    const Node& node = *step.node;
    const char* in[3] = {nullptr, nullptr, nullptr};
    LoopFn fn = step_loop(node);
    copies.clear();
    if (op_class(node.op) == OpClass::Generator) {
      // Generators read the logical flat index; the group's space is walked in C order.
      if (!index_filled) {
        for (int64_t i = 0; i < n; ++i) index_values[i] = i;
        index_filled = true;
      }
      in[0] = reinterpret_cast<const char*>(index_values);
    } else {
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
          in[a] = v.inputs[arg.index];
        } else if (arg.kind == StepArg::Step) {
          in[a] = v.steps[arg.index];
        } else if (int(a) == by_value) {
          in[a] = reinterpret_cast<const char*>(arg.scalar->bytes);
        } else {
          const size_t isz = itemsize(arg.scalar->dtype);
          char* buffer = slot();
          for (int64_t i = 0; i < n; ++i) std::memcpy(buffer + i * isz, arg.scalar->bytes, isz);
          copies.push_back(buffer);
          in[a] = buffer;
        }
      }
    }
    // A contiguous destination takes the results directly (the first one the step writes).
    const GroupOutput* direct = nullptr;
    for (const GroupOutput& out : group.outputs) {
      if (out.step == k && dense(out.dest, n)) {
        direct = &out;
        break;
      }
    }
    char* out = direct ? element_base(direct->dest) : slot();
    fn(in, out, n, &node);
    fp_errors::note_step(node);
    v.steps.push_back(out);
    const size_t isz = itemsize(node.dtype);
    for (const GroupOutput& o : group.outputs) {
      if (o.step != k || &o == direct) continue;
      char* base = element_base(o.dest);
      if (dense(o.dest, n)) {
        std::memcpy(base, out, size_t(n) * isz);
      } else {
        move_packed(false, group.shape, o.dest.strides(), 0, n, isz, base, out);
      }
    }
    // Buffers nobody reads again go back: this step's scalar copies, the operands whose last
    // reader this was, and its own results when no later step reads them.
    owned.push_back(direct == nullptr);
    for (char* c : copies) free_slots.push_back(c);
    for (const StepArg& a : step.args) {
      if (a.kind == StepArg::Step && last_use[a.index] == k && owned[a.index]) {
        free_slots.push_back(const_cast<char*>(v.steps[a.index]));
        owned[a.index] = 0;  // an operand read twice (y * y) goes back once
      }
    }
    if (last_use[k] < 0 && owned[k]) {
      free_slots.push_back(out);
      owned[k] = 0;
    }
  }
}

}  // namespace

bool run_small_group(const Group& group) {
  const int64_t n = shape_size(group.shape);
  const int num_steps = int(group.steps.size());
  if (group.kind != Group::Kind::Elementwise || !fits(group, num_steps, n)) return false;
  Values v;
  run_steps(group, num_steps, n, v);
  return true;
}

const char* run_small_reduction_values(const Group& group) {
  const int64_t n = shape_size(group.shape);
  const int num_steps = int(group.steps.size()) - 1;
  if (group.kind != Group::Kind::Reduction || num_steps < 0) return nullptr;
  const Step& last = group.steps.back();
  const int nd = int(group.shape.size());
  const uint64_t all = nd >= 64 ? ~uint64_t(0) : (uint64_t(1) << nd) - 1;
  if ((last.node->params.axes & all) != all || last.args.empty()) return nullptr;
  const StepArg& arg = last.args[0];
  if (arg.kind == StepArg::Scalar || !fits(group, num_steps, n)) return nullptr;
  Values v;
  run_steps(group, num_steps, n, v);
  return arg.kind == StepArg::Input ? v.inputs[arg.index] : v.steps[arg.index];
}

}  // namespace accel::cpu
