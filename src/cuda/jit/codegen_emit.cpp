// The parameter struct (layout, declaration, packing) and the elementwise step bodies.
#include <algorithm>
#include <cstring>

#include "accel/dtype_traits.hpp"
#include "accel/errors.hpp"
#include "src/cuda/jit/codegen_detail.hpp"

namespace accel::cuda {

namespace detail {

const char* ctype(DType dt) {
  switch (dt) {
    case DType::Bool:
      return "bool";
    case DType::Int8:
      return "int8_t";
    case DType::UInt8:
      return "uint8_t";
    case DType::Int16:
      return "int16_t";
    case DType::UInt16:
      return "uint16_t";
    case DType::Int32:
      return "int32_t";
    case DType::UInt32:
      return "uint32_t";
    case DType::Int64:
      return "int64_t";
    case DType::UInt64:
      return "uint64_t";
    case DType::Float16:
      return "accel::float16";
    case DType::BFloat16:
      return "accel::bfloat16";
    case DType::Float32:
      return "float";
    case DType::Float64:
      return "double";
    case DType::Complex64:
      return "accel::complex64";
    case DType::Complex128:
      return "accel::complex128";
  }
  return "void";
}

namespace {

const char* functor_name(OpKind op) {
  switch (op) {
#define ACCEL_ELEMENTWISE(Name, ...) \
  case OpKind::Name:                 \
    return #Name;
#include "accel/elementwise_ops.def"
#undef ACCEL_ELEMENTWISE
    default:
      return nullptr;
  }
}

size_t dtype_align(DType dt) {
  return dispatch_dtype(dt, [](auto tag) { return alignof(typename decltype(tag)::type); });
}

// Every field of the parameter struct, in order. V receives:
//   ptr(name, ctype, is_const, value)      a pointer
//   idx(name, value)                       an IDX
//   i32(name, value) / i64(name, value)    an int / a long long
//   idx_array(name, values)                IDX[n] (skipped when empty)
//   scalar(name, arg)                      a scalar operand in its dtype
template <class V>
void visit_params(const KernelPlan& p, V& v) {
  const Group& g = *p.group;
  const bool red = p.strategy != Strategy::Elementwise;
  for (size_t j = 0; j < p.inputs.size(); ++j) {
    v.ptr("in", int(j), ctype(p.inputs[j].dtype), true, p.inputs[j].ptr);
  }
  for (size_t j = 0; j < p.outputs.size(); ++j) {
    v.ptr("out", int(j), ctype(p.outputs[j].dtype), false, p.outputs[j].ptr);
  }
  for (size_t j = 0; j < p.prologue_outputs.size(); ++j) {
    v.ptr("w", int(j), ctype(p.prologue_outputs[j].dtype), false, p.prologue_outputs[j].ptr);
  }
  if (p.strategy == Strategy::Rows) {
    // Per-row operands have no reduced strides (ir, or empty: no field).
    v.idx("O", p.outputs_n);
    v.idx("R", p.reduced_n);
    v.idx_array("kshape", -1, p.kshape);
    v.idx_array("rshape", -1, p.rshape);
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      v.idx_array("ik", int(j), p.inputs[j].kst);
      v.idx_array("ir", int(j), p.inputs[j].rst);
    }
    for (size_t j = 0; j < p.outputs.size(); ++j) {
      v.idx_array("ok", int(j), p.outputs[j].kst);
      v.idx_array("or", int(j), p.outputs[j].rst);
    }
  } else if (red) {
    v.ptr("part", -1, "void", false, p.partial);
    v.ptr("count", -1, "unsigned", false, p.counters);
    v.idx("O", p.outputs_n);
    v.idx("R", p.reduced_n);
    v.idx("chunk", p.chunk);
    v.i32("splits", p.splits);
    v.i32("tpo", p.tpo);
    v.idx_array("kshape", -1, p.kshape);
    v.idx_array("rshape", -1, p.rshape);
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      v.idx_array("ik", int(j), p.inputs[j].kst);
      v.idx_array("ir", int(j), p.inputs[j].rst);
    }
    if (p.needs_index) {
      v.idx_array("xk", -1, p.index.kst);
      v.idx_array("xr", -1, p.index.rst);
    }
    for (size_t j = 0; j < p.prologue_outputs.size(); ++j) {
      v.idx_array("wk", int(j), p.prologue_outputs[j].kst);
      v.idx_array("wr", int(j), p.prologue_outputs[j].rst);
    }
    for (size_t j = 0; j < p.outputs.size(); ++j) v.idx_array("ok", int(j), p.outputs[j].kst);
  } else {
    v.idx("n", p.n);
    v.i32("aligned", p.aligned);
    if (!p.contiguous) {
      v.idx_array("rshape", -1, p.rshape);
      for (size_t j = 0; j < p.inputs.size(); ++j) {
        if (p.inputs[j].cls == Cls::Strided) v.idx_array("ir", int(j), p.inputs[j].rst);
      }
      for (size_t j = 0; j < p.outputs.size(); ++j) {
        if (p.outputs[j].cls == Cls::Strided) v.idx_array("or", int(j), p.outputs[j].rst);
      }
      if (p.needs_index && p.index.cls == Cls::Strided) v.idx_array("xr", -1, p.index.rst);
    }
  }
  int s = 0;
  // A reduction group's last step is its reduction, which takes no scalar.
  const bool last_reduces = p.strategy == Strategy::Inner || p.strategy == Strategy::Outer;
  const size_t nsteps = last_reduces ? g.steps.size() - 1 : g.steps.size();
  for (size_t k = 0; k < nsteps; ++k) {
    for (const StepArg& a : g.steps[k].args) {
      if (a.kind == StepArg::Scalar) v.scalar(s++, a.scalar);
    }
  }
  for (size_t k = 0; k < nsteps; ++k) {
    const Node& n = *g.steps[k].node;
    if (n.op == OpKind::Linspace) {
      v.i64("gb", int(k), n.params.k);  // the exact endpoint's index
    } else if (n.op == OpKind::Eye || n.op == OpKind::Tri) {
      v.i64("ga", int(k), n.shape[1]);
      v.i64("gb", int(k), n.params.k);
    }
  }
}

std::string field_name(const char* base, int j) {
  return j < 0 ? std::string(base) : std::string(base) + std::to_string(j);
}

struct Declare {
  const KernelPlan& p;
  std::string& out;
  void ptr(const char* base, int j, const char* type, bool is_const, const void*) {
    out +=
        std::string("  ") + (is_const ? "const " : "") + type + "* " + field_name(base, j) + ";\n";
  }
  void idx(const char* base, int64_t) { out += std::string("  IDX ") + base + ";\n"; }
  void i32(const char* base, int) { out += std::string("  int ") + base + ";\n"; }
  void i64(const char* base, int j, int64_t) {
    out += "  long long " + field_name(base, j) + ";\n";
  }
  template <class S>
  void idx_array(const char* base, int j, const S& values) {
    if (values.empty()) return;
    out += "  IDX " + field_name(base, j) + "[" + std::to_string(values.size()) + "];\n";
  }
  void scalar(int j, const ScalarArg* a) {
    out += std::string("  ") + ctype(a->dtype) + " s" + std::to_string(j) + ";\n";
  }
};

struct Pack {
  bool idx64;
  std::vector<unsigned char>& bytes;
  size_t align = 1;
  void put(const void* src, size_t size, size_t al) {
    size_t at = (bytes.size() + al - 1) / al * al;
    bytes.resize(at + size);
    std::memcpy(bytes.data() + at, src, size);
    if (al > align) align = al;
  }
  void ptr(const char*, int, const char*, bool, const void* v) { put(&v, sizeof(v), sizeof(v)); }
  void idx(const char*, int64_t v) {
    if (idx64) {
      put(&v, 8, 8);
    } else {
      const int32_t w = int32_t(v);
      put(&w, 4, 4);
    }
  }
  void i32(const char*, int v) { put(&v, 4, 4); }
  void i64(const char*, int, int64_t v) { put(&v, 8, 8); }
  template <class S>
  void idx_array(const char* base, int j, const S& values) {
    for (int64_t v : values) idx(base, v + 0 * j);
  }
  void scalar(int, const ScalarArg* a) { put(a->bytes, itemsize(a->dtype), dtype_align(a->dtype)); }
};

// Only the size and alignment of the struct, without writing it.
struct Measure {
  bool idx64;
  size_t size = 0, align = 1;
  void put(size_t n, size_t al) {
    size = (size + al - 1) / al * al + n;
    if (al > align) align = al;
  }
  void ptr(const char*, int, const char*, bool, const void*) { put(sizeof(void*), sizeof(void*)); }
  void idx(const char*, int64_t) { idx64 ? put(8, 8) : put(4, 4); }
  void i32(const char*, int) { put(4, 4); }
  void i64(const char*, int, int64_t) { put(8, 8); }
  template <class S>
  void idx_array(const char*, int, const S& values) {
    for (size_t i = 0; i < values.size(); ++i) idx(nullptr, 0);
  }
  void scalar(int, const ScalarArg* a) { put(itemsize(a->dtype), dtype_align(a->dtype)); }
};

}  // namespace

void emit_params(const KernelPlan& plan, std::string& out) {
  out += plan.idx64 ? "typedef long long IDX;\n" : "typedef int IDX;\n";
  out += "struct Params {\n";
  Declare d{plan, out};
  visit_params(plan, d);
  out += "};\n";
}

DType arg_dtype(const Group& g, const StepArg& a) {
  switch (a.kind) {
    case StepArg::Input:
      return g.inputs[a.index].dtype();
    case StepArg::Step:
      return g.steps[a.index].node->dtype;
    case StepArg::Scalar:
      return a.scalar->dtype;
  }
  return DType::Bool;
}

std::string arg_expr(const Group& g, const StepArg& a, int scalar_index, const char* scalars) {
  (void)g;
  switch (a.kind) {
    case StepArg::Input:
      return "x" + std::to_string(a.index);
    case StepArg::Step:
      return "v" + std::to_string(a.index);
    case StepArg::Scalar:
      return scalars + std::to_string(scalar_index);
  }
  return {};
}

std::string emit_body(const KernelPlan& plan, int num_steps, int run_width, const char* scalars,
                      const std::vector<char>* only) {
  const Group& g = *plan.group;
  std::string out;
  int s = 0;
  for (int k = 0; k < num_steps; ++k) {
    const Step& st = g.steps[k];
    const Node& n = *st.node;
    const std::string T = ctype(n.dtype);
    std::vector<std::string> a;
    for (const StepArg& arg : st.args) {
      a.push_back(arg_expr(g, arg, s, scalars));
      if (arg.kind == StepArg::Scalar) ++s;
    }
    if (only && !(*only)[k]) continue;
    const std::string kk = std::to_string(k);
    std::string e;
    switch (n.op) {
      case OpKind::Cast:
        e = "accel::cast<" + T + ">(" + a[0] + ")";
        break;
      case OpKind::Where:
        e = "(" + a[0] + " ? " + a[1] + " : " + a[2] + ")";
        break;
      case OpKind::Fill:
        e = "accel::cast<" + T + ">(" + a[0] + ")";
        break;
      case OpKind::Arange:
        e = "accel::gen::arange<" + T + ">(idx, " + a[0] + ", " + a[1] + ")";
        break;
      case OpKind::Linspace:
        e = "accel::gen::linspace<" + T + ">(idx, " + a[0] + ", " + a[1] + ", " + a[2] + ", p.gb" +
            kk + ")";
        break;
      case OpKind::Eye:
        e = "accel::gen::eye<" + T + ">(idx, p.ga" + kk + ", p.gb" + kk + ")";
        break;
      case OpKind::Tri:
        e = "accel::gen::tri<" + T + ">(idx, p.ga" + kk + ", p.gb" + kk + ")";
        break;
      case OpKind::RandomPermutation:
        e = "(" + T + ")accel::rng::permutation_at(idx, " + a[0] + ", " + a[1] + ", " + a[2] + ")";
        break;
      case OpKind::RandomUniform:
      case OpKind::RandomNormal:
      case OpKind::RandomExponential:
      case OpKind::RandomIntegers: {
        const char* fn = n.op == OpKind::RandomUniform       ? "uniform"
                         : n.op == OpKind::RandomNormal      ? "normal"
                         : n.op == OpKind::RandomExponential ? "exponential"
                                                             : "integers";
        const int lanes = itemsize(n.dtype) == 8 ? 2 : 4;  // rng::kLanes
        const bool aligned = run_width > 0 && run_width % lanes == 0;
        e = std::string("accel::rng::") + fn + (aligned ? "_at_aligned<" : "_at<") + T +
            (aligned ? ">(idx0, e" : ">(idx");
        for (const std::string& arg : a) e += ", " + arg;
        e += ")";
        break;
      }
      default: {
        const char* f = functor_name(n.op);
        if (!f) {
          throw NotImplementedError(std::string("no CUDA code for ") + op_name(n.op) +
                                    " inside an elementwise group");
        }
        e = std::string("accel::ops::") + f + "{}(";
        for (size_t i = 0; i < a.size(); ++i) e += (i ? ", " : "") + a[i];
        e += ")";
      }
    }
    out += "    const " + T + " v" + kk + " = " + e + ";\n";
  }
  return out;
}

std::string emit_coords(const char* linear, const char* shape, int ndim, const char* prefix) {
  if (ndim == 0) return {};
  if (ndim == 1) return std::string("    const IDX ") + prefix + "0 = " + linear + ";\n";
  std::string out = std::string("    IDX rem_") + prefix + " = " + linear + ";\n";
  for (int d = ndim - 1; d >= 1; --d) {
    const std::string ds = std::to_string(d);
    out += std::string("    const IDX ") + prefix + ds + " = rem_" + prefix + " % p." + shape +
           "[" + ds + "];\n";
    out += std::string("    rem_") + prefix + " /= p." + shape + "[" + ds + "];\n";
  }
  out += std::string("    const IDX ") + prefix + "0 = rem_" + prefix + ";\n";
  return out;
}

std::string emit_dot(const char* prefix, const std::string& strides, int ndim) {
  if (ndim == 0) return "(IDX)0";
  std::string out;
  for (int d = 0; d < ndim; ++d) {
    const std::string ds = std::to_string(d);
    out += (d ? " + " : "") + std::string(prefix) + ds + " * p." + strides + "[" + ds + "]";
  }
  return out;
}

}  // namespace detail

void pack_params(const KernelPlan& plan, std::vector<unsigned char>& bytes) {
  bytes.clear();
  detail::Pack pk{plan.idx64, bytes};
  detail::visit_params(plan, pk);
  // The struct's size is a multiple of its alignment, as the compiler lays it out.
  bytes.resize((bytes.size() + pk.align - 1) / pk.align * pk.align);
  if (bytes.empty()) bytes.resize(1);
}

std::vector<unsigned char> pack_params(const KernelPlan& plan) {
  std::vector<unsigned char> bytes;
  bytes.reserve(256);
  pack_params(plan, bytes);
  return bytes;
}

size_t param_bytes(const KernelPlan& plan) {
  detail::Measure m{plan.idx64};
  detail::visit_params(plan, m);
  return std::max<size_t>((m.size + m.align - 1) / m.align * m.align, 1);
}

ParamLayout param_layout() {
  // visit_params' fields, with IDX at its widest (64-bit indexing), so that the count bounds
  // pack_params whichever IDX a plan picks.
  constexpr size_t idx = sizeof(long long), ptr = sizeof(void*), i32 = sizeof(int);
  // The padding the fields can add: after narrow scalars, and at the struct's end.
  constexpr size_t padding = 16;
  ParamLayout l;
  l.fixed_elementwise = (idx /* n */ + i32 /* aligned */ + 7) / 8 * 8 + padding;
  l.fixed_reduction =
      2 * ptr /* part, count */ + 3 * idx /* O, R, chunk */ + 2 * i32 /* splits, tpo */ + padding;
  l.per_dim = 2 * idx;              // the shape (rshape; kshape + rshape) and the index's strides
  l.operand = ptr;                  // in<j>, out<j>, w<j>
  l.operand_stride = idx;           // ir<j>; ik<j> + ir<j>: one IDX per dimension
  l.reduction_output_stride = idx;  // ok<j>; wk<j> + wr<j>
  l.scalar = itemsize(DType::Complex128);  // s<j>: the widest scalar
  l.generator = 2 * sizeof(long long);     // ga<k>, gb<k>
  return l;
}

KernelSource generate(const KernelPlan& plan, const std::string& name) {
  KernelSource src;
  src.code = plan.strategy == Strategy::Elementwise ? detail::elementwise_kernel(plan, name)
             : plan.strategy == Strategy::Rows      ? detail::rows_kernel(plan, name)
                                                    : detail::reduction_kernel(plan, name);
  src.entries = {name};
  return src;
}

}  // namespace accel::cuda
