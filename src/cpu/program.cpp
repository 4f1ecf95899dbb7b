#include "src/cpu/program.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <span>

#include "accel/errors.hpp"
#include "accel/storage.hpp"
#include "src/core/fp_errors.hpp"
#include "src/cpu/strided_copy.hpp"

#if defined(__AVX__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace accel::cpu {

namespace {

constexpr size_t kAlign = 64;
size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

const char* base_of(const Array& a) {
  return static_cast<const char*>(a.storage()->data()) +
         a.offset() * static_cast<int64_t>(itemsize(a.dtype()));
}

// Copies a block of results to a destination that is not read again soon, with non-temporal
// stores: they skip the read-for-ownership of the destination's cache lines and leave the cache
// to the inputs. Large outputs only (see Program::Program).
void stream_copy(char* dst, const char* src, size_t bytes) {
#if defined(__AVX512F__) || defined(__AVX__)
#if defined(__AVX512F__)
  using V = __m512i;
#else
  using V = __m256i;
#endif
  const size_t head = (sizeof(V) - reinterpret_cast<uintptr_t>(dst) % sizeof(V)) % sizeof(V);
  if (head >= bytes) {
    std::memcpy(dst, src, bytes);
    return;
  }
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + sizeof(V) <= bytes; i += sizeof(V)) {
    V v;
    std::memcpy(&v, src + i, sizeof(V));
#if defined(__AVX512F__)
    _mm512_stream_si512(reinterpret_cast<V*>(dst + i), v);
#else
    _mm256_stream_si256(reinterpret_cast<V*>(dst + i), v);
#endif
  }
  std::memcpy(dst + i, src + i, bytes - i);
  _mm_sfence();  // non-temporal stores are weakly ordered: visible before the block is done
#else
  std::memcpy(dst, src, bytes);
#endif
}

bool is_c_contiguous(const Shape& shape, const Strides& strides) {
  return strides == contiguous_strides(shape);
}

}  // namespace

// Where a step reads one operand from in a block.
struct ArgRef {
  enum Kind : uint8_t { Input, Step, Buffer, Value } kind;
  int index = 0;      // Input: into scratch.inputs; Step: into scratch.values
  size_t buffer = 0;  // Buffer: a constant's block of copies in scratch memory
  // Value: one scalar (the step's operand of this index), for a loop taking it by value.
};

struct CompiledStep {
  LoopFn fn;
  SmallVector<ArgRef, 3> args;
  SmallVector<int, 1> outputs;  // indices into the group's outputs written with these values
  size_t out_itemsize;
  size_t buffer;        // offset of the step's result buffer in scratch memory
  bool direct = false;  // results go straight to outputs[outputs[0]] (no buffer)
  bool generator = false;
  int alias_input = -1;  // a copy nothing writes out: its values are this input's
};

// A block of copies of one scalar: filled from operand `arg` of step `step`.
struct Constant {
  int step, arg;
  size_t at;
};

struct Program::Compiled {
  // What the compiled program depends on (program_signature()): reused only for an equal one.
  std::vector<uint64_t> signature;
  std::vector<CompiledStep> steps;
  std::vector<size_t> input_buffers;  // offset of each input's gather buffer
  std::vector<Constant> constants;
  // Operands that read another operand's block of copies (equal scalars when compiled): they
  // must still be equal for the program to be reused. (step, arg, step, arg)
  std::vector<std::array<int, 4>> shared_constants;
  bool needs_index = false;
  size_t index_buffer = 0;
  size_t scratch_bytes = 0;
};

namespace {

// How the program reads an input (a word of its signature): in place, gathered per block, or
// (broadcast from one element) from a block of copies filled once per thread and run.
constexpr char kGathered = 0, kReadInPlace = 1, kFilledOnce = 2;

// Everything compile() reads of a group besides its arrays' addresses and scalars' values: the
// steps' ops and dtypes, where each operand comes from, the inputs' and outputs' element sizes
// and contiguity over the layout, and whether results stream out. One place, so that a new
// input of compile() is a word here too.
void program_signature(const Group& group, int num_steps, std::span<const char> inputs_contiguous,
                       std::span<const char> outputs_contiguous, bool stream,
                       std::vector<uint64_t>& words) {
  words.clear();
  words.push_back(uint64_t(num_steps) | uint64_t(group.steps.size()) << 20 |
                  uint64_t(group.inputs.size()) << 40 | uint64_t(stream) << 63);
  for (size_t i = 0; i < group.inputs.size(); ++i) {
    words.push_back(itemsize(group.inputs[i].dtype()) | uint64_t(inputs_contiguous[i]) << 8);
  }
  words.push_back(group.outputs.size());
  for (size_t o = 0; o < group.outputs.size(); ++o) {
    const GroupOutput& out = group.outputs[o];
    words.push_back(uint64_t(uint32_t(out.step)) | uint64_t(outputs_contiguous[o]) << 32 |
                    uint64_t(itemsize(out.dest.dtype())) << 40);
  }
  for (const Step& step : group.steps) {
    const Node& n = *step.node;
    words.push_back(uint64_t(n.op) | uint64_t(n.dtype) << 16 | uint64_t(n.compute) << 24 |
                    uint64_t(step.args.size()) << 32);
    for (const StepArg& a : step.args) {
      words.push_back(uint64_t(a.kind) | uint64_t(uint32_t(a.index)) << 8 |
                      (a.kind == StepArg::Scalar ? uint64_t(a.scalar->dtype) << 40 : 0));
    }
  }
}

const ScalarArg& scalar_of(const Group& group, int step, int arg) {
  return *group.steps[size_t(step)].args[size_t(arg)].scalar;
}

bool same_scalar(const ScalarArg& a, const ScalarArg& b) {
  return a.dtype == b.dtype && std::memcmp(a.bytes, b.bytes, sizeof(a.bytes)) == 0;
}

// Compiles steps [0, num_steps) of `group` (see Program::Program).
std::shared_ptr<Program::Compiled> compile(const Group& group, int num_steps,
                                           std::span<const char> inputs_contiguous,
                                           std::span<const char> outputs_contiguous, bool stream) {
  auto c = std::make_shared<Program::Compiled>();
  size_t offset = 0;
  // Buffers are staggered by a few cache lines: block buffers a multiple of 4 KiB apart make
  // a loop's loads and stores alias in the CPU's store buffer (4K aliasing), which measured
  // 2.5x slower on a three-step chain.
  auto reserve = [&](size_t bytes) {
    const size_t at = offset;
    offset += align_up(bytes) + 5 * kAlign;
    return at;
  };
  for (size_t i = 0; i < group.inputs.size(); ++i) {
    const size_t isz = itemsize(group.inputs[i].dtype());
    c->input_buffers.push_back(inputs_contiguous[i] == kReadInPlace ? 0 : reserve(kBlock * isz));
  }
  // The last step reading each step's values; the steps past num_steps (a reduction) read
  // theirs through values() after run(), so those stay live to the end.
  const int num_all = int(group.steps.size());
  std::vector<int> last_use(size_t(num_all), -1);
  for (int k = 0; k < num_all; ++k) {
    for (const StepArg& a : group.steps[k].args) {
      if (a.kind == StepArg::Step) last_use[a.index] = k < num_steps ? k : num_all;
    }
  }
  std::vector<std::pair<size_t, size_t>> free_buffers;  // (bytes, offset) of released buffers
  auto take_buffer = [&](size_t bytes) {
    for (size_t i = 0; i < free_buffers.size(); ++i) {
      if (free_buffers[i].first == bytes) {
        const size_t at = free_buffers[i].second;
        free_buffers.erase(free_buffers.begin() + i);
        return at;
      }
    }
    return reserve(bytes);
  };
  // Equal scalars share one block of copies; a later evaluation reuses the program only while
  // they are still equal (shared_constants).
  auto constant = [&](int k, int a) {
    const ScalarArg& scalar = scalar_of(group, k, a);
    for (const Constant& con : c->constants) {
      if (same_scalar(scalar_of(group, con.step, con.arg), scalar)) {
        c->shared_constants.push_back({k, a, con.step, con.arg});
        return con.at;
      }
    }
    c->constants.push_back({k, a, reserve(kBlock * itemsize(scalar.dtype))});
    return c->constants.back().at;
  };
  for (int k = 0; k < num_steps; ++k) {
    const Step& step = group.steps[k];
    const Node& node = *step.node;
    CompiledStep cs{nullptr, {}, {}, itemsize(node.dtype), 0};
    cs.generator = op_class(node.op) == OpClass::Generator;
    c->needs_index = c->needs_index || cs.generator;
    cs.fn = step_loop(node);
    // A binary step with one scalar operand of the computing dtype takes it by value.
    int by_value = -1;
    if (!cs.generator && node.op != OpKind::Cast && step.args.size() == 2) {
      for (int a = 0; a < 2; ++a) {
        const StepArg& arg = step.args[a];
        if (arg.kind == StepArg::Scalar && arg.scalar->dtype == node.compute &&
            step.args[1 - a].kind != StepArg::Scalar) {
          if (LoopFn fn = elementwise_scalar_loop(node.op, node.compute, a)) {
            cs.fn = fn;
            by_value = a;
            break;
          }
        }
      }
    }
    for (size_t a = 0; a < step.args.size(); ++a) {
      const StepArg& arg = step.args[a];
      ArgRef ref{ArgRef::Input, arg.index, 0};
      if (arg.kind == StepArg::Step) {
        ref.kind = ArgRef::Step;
      } else if (arg.kind == StepArg::Scalar && int(a) == by_value) {
        ref.kind = ArgRef::Value;
      } else if (arg.kind == StepArg::Scalar) {
        ref.kind = ArgRef::Buffer;
        ref.buffer = constant(k, int(a));
      }
      cs.args.push_back(ref);
    }
    for (size_t o = 0; o < group.outputs.size(); ++o) {
      if (group.outputs[o].step == k) cs.outputs.push_back(int(o));
    }
    // A copy to its own dtype that no output takes (np.roll's unshifted axis) reads its input.
    if (node.op == OpKind::Cast && step.args.size() == 1 && step.args[0].kind == StepArg::Input &&
        group.inputs[size_t(step.args[0].index)].dtype() == node.dtype && cs.outputs.empty()) {
      cs.alias_input = step.args[0].index;
      c->steps.push_back(cs);
      continue;
    }
    // A contiguous destination takes the step's results directly; the others copy them.
    std::stable_partition(cs.outputs.begin(), cs.outputs.end(),
                          [&](int o) { return outputs_contiguous[o] != 0; });
    cs.direct = !stream && !cs.outputs.empty() && outputs_contiguous[cs.outputs[0]];
    // A fresh buffer is taken before the step's operands release theirs, so a loop never
    // writes the buffer it reads.
    if (!cs.direct) cs.buffer = take_buffer(kBlock * cs.out_itemsize);
    auto release = [&](const CompiledStep& done) {
      const std::pair<size_t, size_t> buffer{kBlock * done.out_itemsize, done.buffer};
      if (std::find(free_buffers.begin(), free_buffers.end(), buffer) == free_buffers.end()) {
        free_buffers.push_back(buffer);
      }
    };
    for (const StepArg& a : step.args) {
      if (a.kind == StepArg::Step && last_use[a.index] == k && !c->steps[a.index].direct &&
          c->steps[a.index].alias_input < 0) {
        release(c->steps[a.index]);
      }
    }
    // Results nobody reads are copied out within the step: the buffer is free after it.
    if (last_use[k] < 0 && !cs.direct) release(cs);
    c->steps.push_back(cs);
  }
  if (c->needs_index) c->index_buffer = reserve(kBlock * sizeof(int64_t));
  c->scratch_bytes = offset;
  return c;
}

}  // namespace

Program::Program(const Group& group, int num_steps, Layout layout)
    : group_(group), shape_(std::move(layout.shape)), size_(shape_size(shape_)) {
  SmallVector<char, 8> inputs_contiguous, outputs_contiguous;
  for (size_t i = 0; i < group.inputs.size(); ++i) {
    const Array& in = group.inputs[i];
    Operand op{base_of(in), itemsize(in.dtype()), std::move(layout.inputs[i]), false};
    op.contiguous = is_c_contiguous(shape_, op.strides);
    op.broadcast =
        !op.contiguous && size_ > 0 &&
        std::all_of(op.strides.begin(), op.strides.end(), [](int64_t s) { return s == 0; });
    inputs_contiguous.push_back(op.contiguous  ? kReadInPlace
                                : op.broadcast ? kFilledOnce
                                               : kGathered);
    inputs_.push_back(std::move(op));
  }
  for (size_t o = 0; o < group.outputs.size(); ++o) {
    const Array& dest = group.outputs[o].dest;
    Operand op{base_of(dest), itemsize(dest.dtype()), std::move(layout.outputs[o]), false};
    op.contiguous = !op.strides.empty() && is_c_contiguous(shape_, op.strides);
    outputs_contiguous.push_back(op.contiguous);
    outputs_.push_back(std::move(op));
  }
  index_ = {nullptr, sizeof(int64_t), layout.index, is_c_contiguous(shape_, layout.index)};
  // Results far larger than the caches go out with non-temporal stores, as large memcpys do:
  // plain stores first read every destination line (read-for-ownership), 1/7 more traffic for
  // a*b + c*d - e. ACCELPY_CPU_STREAM_BYTES moves the threshold (0: always, 1e30: never).
  size_t out_bytes = 0;
  for (const Operand& o : outputs_) out_bytes += o.itemsize;
  static const double stream_bytes = [] {
    const char* v = std::getenv("ACCELPY_CPU_STREAM_BYTES");  // tuning: 0 streams everything
    return v && *v ? std::strtod(v, nullptr) : double(kStreamBytes);
  }();
  stream_ = double(out_bytes) * double(size_) >= stream_bytes;
  // A group of a cached plan (a loop body) finds the program compiled for it last time.
  thread_local std::vector<uint64_t> signature;  // reused: keeps its capacity
  program_signature(group, num_steps, inputs_contiguous, outputs_contiguous, stream_, signature);
  if (group.slot && group.slot->state) {
    auto kept = std::static_pointer_cast<const Compiled>(group.slot->state);
    bool fits = kept->signature == signature;
    for (size_t i = 0; fits && i < kept->shared_constants.size(); ++i) {
      const auto& [k, a, k0, a0] = kept->shared_constants[i];
      fits = same_scalar(scalar_of(group, k, a), scalar_of(group, k0, a0));
    }
    if (fits) {
      compiled_ = std::move(kept);
      return;
    }
  }
  std::shared_ptr<Compiled> fresh =
      compile(group, num_steps, inputs_contiguous, outputs_contiguous, stream_);
  fresh->signature = signature;
  if (group.slot) group.slot->state = fresh;
  compiled_ = std::move(fresh);
}

void Program::prepare(Scratch& scratch) const {
  if (scratch.memory) return;
  const Compiled& c = *compiled_;
  // One growing buffer per thread serves every program that thread runs.
  thread_local std::vector<char> memory;
  if (memory.size() < c.scratch_bytes + kAlign) memory.resize(c.scratch_bytes + kAlign);
  const auto addr = reinterpret_cast<uintptr_t>(memory.data());
  scratch.memory = memory.data() + (align_up(addr) - addr);
  scratch.values.assign(c.steps.size(), nullptr);
  scratch.inputs.assign(inputs_.size(), nullptr);
  // Scalars that a loop reads as a block of copies, and inputs broadcast from one element:
  // filled once per thread and run, with a typed fill the compiler vectorizes.
  const int64_t n = std::min(kBlock, size_);
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Operand& op = inputs_[i];
    if (!op.broadcast) continue;
    with_item_type(op.itemsize, [&](auto t) {
      using T = decltype(t);
      T value;
      std::memcpy(&value, op.base, sizeof(T));
      std::fill_n(reinterpret_cast<T*>(scratch.memory + c.input_buffers[i]), n, value);
    });
  }
  for (const Constant& con : c.constants) {
    const ScalarArg& scalar = scalar_of(group_, con.step, con.arg);
    with_item_type(itemsize(scalar.dtype), [&](auto t) {
      using T = decltype(t);
      T value;
      std::memcpy(&value, scalar.bytes, sizeof(T));
      std::fill_n(reinterpret_cast<T*>(scratch.memory + con.at), n, value);
    });
  }
}

void Program::run(int64_t start, int64_t n, Scratch& scratch) const {
  prepare(scratch);
  const Compiled& c = *compiled_;
  char* mem = scratch.memory;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Operand& op = inputs_[i];
    if (op.contiguous) {
      scratch.inputs[i] = op.base + start * int64_t(op.itemsize);
    } else if (op.broadcast) {
      scratch.inputs[i] = mem + c.input_buffers[i];  // filled by prepare()
    } else {
      move_packed(true, shape_, op.strides, start, n, op.itemsize, const_cast<char*>(op.base),
                  mem + c.input_buffers[i]);
      scratch.inputs[i] = mem + c.input_buffers[i];
    }
  }
  // Flags raised before this block's steps (the previous block's reduction) are not theirs.
  fp_errors::note_unattributed();
  int64_t* index = reinterpret_cast<int64_t*>(mem + c.index_buffer);
  if (c.needs_index) {
    if (index_.contiguous) {
      for (int64_t i = 0; i < n; ++i) index[i] = start + i;
    } else {
      walk_runs<1>(shape_, {&index_.strides}, start, n,
                   [&](const auto& off, const auto& stride, int64_t count, int64_t pos) {
                     for (int64_t j = 0; j < count; ++j) index[pos + j] = off[0] + j * stride[0];
                   });
    }
  }
  for (size_t k = 0; k < c.steps.size(); ++k) {
    const CompiledStep& cs = c.steps[k];
    if (cs.alias_input >= 0) {
      scratch.values[k] = scratch.inputs[cs.alias_input];
      continue;
    }
    const char* in[3] = {nullptr, nullptr, nullptr};
    if (cs.generator) {
      in[0] = reinterpret_cast<const char*>(index);
    } else {
      for (size_t a = 0; a < cs.args.size(); ++a) {
        const ArgRef& ref = cs.args[a];
        switch (ref.kind) {
          case ArgRef::Input:
            in[a] = scratch.inputs[ref.index];
            break;
          case ArgRef::Step:
            in[a] = scratch.values[ref.index];
            break;
          case ArgRef::Buffer:
            in[a] = mem + ref.buffer;
            break;
          case ArgRef::Value:
            in[a] = reinterpret_cast<const char*>(group_.steps[k].args[a].scalar->bytes);
            break;
        }
      }
    }
    const size_t offset = size_t(start) * cs.out_itemsize;
    char* out =
        cs.direct ? const_cast<char*>(outputs_[cs.outputs[0]].base) + offset : mem + cs.buffer;
    cs.fn(in, out, n, group_.steps[k].node);
    fp_errors::note_step(*group_.steps[k].node);  // which op raised an IEEE flag, if one did
    scratch.values[k] = out;
    for (size_t j = cs.direct ? 1 : 0; j < cs.outputs.size(); ++j) {
      const Operand& dest = outputs_[cs.outputs[j]];
      char* to = const_cast<char*>(dest.base) + offset;
      const size_t bytes = size_t(n) * cs.out_itemsize;
      if (!dest.contiguous) {
        move_packed(false, shape_, dest.strides, start, n, dest.itemsize,
                    const_cast<char*>(dest.base), out);
      } else if (stream_) {
        stream_copy(to, out, bytes);
      } else {
        std::memcpy(to, out, bytes);
      }
    }
  }
}

const char* Program::values(const StepArg& arg, Scratch& scratch) const {
  switch (arg.kind) {
    case StepArg::Input:
      return scratch.inputs[arg.index];
    case StepArg::Step:
      return scratch.values[arg.index];
    case StepArg::Scalar:
      for (const Constant& con : compiled_->constants) {
        if (same_scalar(scalar_of(group_, con.step, con.arg), *arg.scalar)) {
          return scratch.memory + con.at;
        }
      }
  }
  return nullptr;
}

}  // namespace accel::cpu
