// Elementwise kernels. The contiguous variant (every operand contiguous or broadcast) reads and
// writes 16-byte vectors when the pointers allow it, several per thread to keep enough loads in
// flight, over a grid-stride loop of tiles; a scalar loop takes the tail and misaligned
// operands. The strided variant turns the linear index into coordinates over the merged
// dimensions and gives each strided operand its own offset.
#include "src/cuda/jit/codegen_detail.hpp"

namespace accel::cuda::detail {

// Whether a step is a few instructions (arithmetic, comparisons, casts between real types: the op
// table's cost column): such bodies are inlined into every unrolled element. Anything else (a
// libm-style function, complex arithmetic, integer division) is compiled once, as a function the
// unrolled elements call: inlined sixteen times, `exp(sin(x) * 0.5) - sqrt(x + 1.25)` took NVRTC
// 340 ms of CPU time against 100 ms as a call, and the call costs a few instructions beside a
// transcendental.
bool is_light(const Node& n) {
  // The operands were converted to n.compute (a cast's source, where's x): one test covers them.
  if (is_complex(n.dtype) || is_complex(n.compute)) return false;
  switch (op_info(n.op).cost) {
    case OpCost::Light:
      return true;
    case OpCost::LightIfFloat:
      return is_floating(n.dtype);
    case OpCost::Heavy:
      return false;
  }
  return false;
}

bool outlines_body(const Group& g) {
  // Random draws stay inline: the vector path shares one Philox call among a vector's lanes
  // (emit_body's run_width), which an outlined per-element body would lose.
  // Generators with parameters of their own (p.ga<k>, p.gb<k>) need the Params block, which
  // an outlined body does not get.
  for (const Step& st : g.steps) {
    if (st.node->op >= OpKind::RandomUniform && st.node->op <= OpKind::RandomPermutation) {
      return false;
    }
    if (st.node->op == OpKind::Linspace || st.node->op == OpKind::Eye ||
        st.node->op == OpKind::Tri) {
      return false;
    }
  }
  if (g.steps.size() > 12) return true;
  for (const Step& st : g.steps) {
    if (!is_light(*st.node)) return true;
  }
  return false;
}

namespace {

// The group's scalars in order, as "<prefix>0, <prefix>1, ..." or as declarations.
std::string scalar_list(const Group& g, const char* prefix, bool declare) {
  std::string out;
  int j = 0;
  for (const Step& st : g.steps) {
    for (const StepArg& a : st.args) {
      if (a.kind != StepArg::Scalar) continue;
      if (j) out += ", ";
      if (declare) out += std::string("const ") + ctype(a.scalar->dtype) + " ";
      out += prefix + std::to_string(j++);
    }
  }
  return out;
}

// The body as `__noinline__ Out body(s0, ..., [idx,] x0, x1, ...)` returning every output. The
// scalars are passed by value: a `const Params&` argument made every thread copy the parameter
// block to a local-memory stack frame (88 bytes for the 20-operation benchmark, 90 registers
// against 70; on the H200 0.678 -> 0.528 ms).
std::string body_function(const KernelPlan& p) {
  const Group& g = *p.group;
  std::string out = "struct Out {";
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    out += std::string(" ") + ctype(p.outputs[o].dtype) + " y" + std::to_string(o) + ";";
  }
  std::string args = scalar_list(g, "s", true);
  if (p.needs_index) args += std::string(args.empty() ? "" : ", ") + "const long long idx";
  for (size_t j = 0; j < p.inputs.size(); ++j) {
    args += std::string(args.empty() ? "" : ", ") + "const " + ctype(p.inputs[j].dtype) + " x" +
            std::to_string(j);
  }
  out += " };\n__device__ __noinline__ Out body(" + args + ") {\n";
  out += emit_body(p, int(g.steps.size()), 0, "s");
  out += "    return Out{";
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    out += (o ? ", v" : "v") + std::to_string(g.outputs[o].step);
  }
  out += "};\n}\n";
  return out;
}

// The call of body_function() computing one element into `r`.
std::string body_call(const KernelPlan& p) {
  std::string args = scalar_list(*p.group, "p.s", false);
  if (p.needs_index) args += std::string(args.empty() ? "" : ", ") + "idx";
  for (size_t j = 0; j < p.inputs.size(); ++j) {
    args += std::string(args.empty() ? "" : ", ") + "x" + std::to_string(j);
  }
  return "    const Out r = body(" + args + ");\n";
}

std::string header(const KernelPlan& p, const std::string& name) {
  std::string out = "namespace " + name + "_ns {\n";
  emit_params(p, out);
  if (p.outlined) out += body_function(p);
  out += "}  // namespace\n";
  out += "extern \"C\" __global__ void __launch_bounds__(256) " + name + "(";
  if (p.byref) {
    out += "const " + name + "_ns::Params* pp) {\n  const " + name + "_ns::Params& p = *pp;\n";
  } else {
    out += "const " + name + "_ns::Params p) {\n";
  }
  out += "  using namespace " + name + "_ns;\n";
  out += "  const IDX n = p.n;\n";
  out += "  const IDX nthreads = (IDX)gridDim.x * blockDim.x;\n";
  return out;
}

// The value of output o after the body: its step's variable, or the call's result.
std::string result_of(const KernelPlan& p, size_t o) {
  return p.outlined ? "r.y" + std::to_string(o) : "v" + std::to_string(p.group->outputs[o].step);
}

std::string store_outputs(const KernelPlan& p, const std::string& at) {
  std::string out;
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    out += "    p.out" + std::to_string(o) + "[" + at + "] = " + result_of(p, o) + ";\n";
  }
  return out;
}

std::string contiguous_kernel(const KernelPlan& p, const std::string& name) {
  const Group& g = *p.group;
  const int nsteps = int(g.steps.size());
  const std::string V = std::to_string(p.vec), U = std::to_string(p.unroll);
  std::string out = header(p, name);
  for (size_t j = 0; j < p.inputs.size(); ++j) {
    if (p.inputs[j].cls == Cls::Bcast) {
      out += std::string("  const ") + ctype(p.inputs[j].dtype) + " x" + std::to_string(j) +
             " = p.in" + std::to_string(j) + "[0];\n";
    }
  }
  const std::string body = p.outlined ? body_call(p) : emit_body(p, nsteps);
  const std::string vec_body = p.outlined ? body : emit_body(p, nsteps, p.vec);
  out += "  IDX start = 0;\n";
  if (p.vec > 1) {
    out += "  if (p.aligned) {\n";
    out += "    const IDX tile = (IDX)blockDim.x * " + std::to_string(p.vec * p.unroll) + ";\n";
    out += "    const IDX tiles = n / tile;\n";
    out += "    for (IDX t = blockIdx.x; t < tiles; t += gridDim.x) {\n";
    out += "      const IDX base = t * tile + (IDX)threadIdx.x * " + V + ";\n";
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      if (p.inputs[j].cls != Cls::Contig) continue;
      const std::string js = std::to_string(j), T = ctype(p.inputs[j].dtype);
      const std::string VT = "accel_vec<" + T + ", " + V + ">";
      out += "      " + VT + " X" + js + "[" + U + "];\n";
      out += "#pragma unroll\n      for (int u = 0; u < " + U + "; ++u) X" + js +
             "[u] = *reinterpret_cast<const " + VT + "*>(p.in" + js +
             " + base + (IDX)u * blockDim.x * " + V + ");\n";
    }
    for (size_t o = 0; o < p.outputs.size(); ++o) {
      const std::string VT = std::string("accel_vec<") + ctype(p.outputs[o].dtype) + ", " + V + ">";
      out += "      " + VT + " Y" + std::to_string(o) + "[" + U + "];\n";
    }
    out += "#pragma unroll\n      for (int u = 0; u < " + U + "; ++u) {\n";
    out += "#pragma unroll\n        for (int e = 0; e < " + V + "; ++e) {\n";
    if (p.needs_index) {
      out += "    const long long idx0 = (long long)(base + (IDX)u * blockDim.x * " + V + ");\n";
      out += "    const long long idx = idx0 + e;\n";
    }
    for (size_t j = 0; j < p.inputs.size(); ++j) {
      if (p.inputs[j].cls != Cls::Contig) continue;
      const std::string js = std::to_string(j);
      out += std::string("    const ") + ctype(p.inputs[j].dtype) + " x" + js + " = X" + js +
             "[u].v[e];\n";
    }
    out += vec_body;
    for (size_t o = 0; o < p.outputs.size(); ++o) {
      out += "    Y" + std::to_string(o) + "[u].v[e] = " + result_of(p, o) + ";\n";
    }
    out += "        }\n      }\n";
    for (size_t o = 0; o < p.outputs.size(); ++o) {
      const std::string os = std::to_string(o);
      const std::string VT = std::string("accel_vec<") + ctype(p.outputs[o].dtype) + ", " + V + ">";
      out += "#pragma unroll\n      for (int u = 0; u < " + U + "; ++u) *reinterpret_cast<" + VT +
             "*>(p.out" + os + " + base + (IDX)u * blockDim.x * " + V + ") = Y" + os + "[u];\n";
    }
    out += "    }\n    start = tiles * tile;\n  }\n";
  }
  out +=
      "  for (IDX i = start + (IDX)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += nthreads) "
      "{\n";
  if (p.needs_index) out += "    const long long idx = (long long)i;\n";
  for (size_t j = 0; j < p.inputs.size(); ++j) {
    if (p.inputs[j].cls != Cls::Contig) continue;
    const std::string js = std::to_string(j);
    out += std::string("    const ") + ctype(p.inputs[j].dtype) + " x" + js + " = p.in" + js +
           "[i];\n";
  }
  out += body;
  out += store_outputs(p, "i");
  out += "  }\n}\n";
  return out;
}

std::string offset_of(const PlanOperand& op, const std::string& strides, int nd) {
  switch (op.cls) {
    case Cls::Contig:
      return "i";
    case Cls::Bcast:
      return "0";
    case Cls::Strided:
      return emit_dot("c", strides, nd);
  }
  return "0";
}

std::string strided_kernel(const KernelPlan& p, const std::string& name) {
  const Group& g = *p.group;
  const int nd = int(p.rshape.size());
  std::string out = header(p, name);
  out += "  for (IDX i = (IDX)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += nthreads) {\n";
  out += emit_coords("i", "rshape", nd, "c");
  for (size_t j = 0; j < p.inputs.size(); ++j) {
    const std::string js = std::to_string(j);
    out += std::string("    const ") + ctype(p.inputs[j].dtype) + " x" + js + " = p.in" + js + "[" +
           offset_of(p.inputs[j], "ir" + js, nd) + "];\n";
  }
  if (p.needs_index) {
    out += "    const long long idx = (long long)(" + offset_of(p.index, "xr", nd) + ");\n";
  }
  out += emit_body(p, int(g.steps.size()));
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    const std::string os = std::to_string(o);
    out += "    p.out" + os + "[" + offset_of(p.outputs[o], "or" + os, nd) + "] = v" +
           std::to_string(g.outputs[o].step) + ";\n";
  }
  out += "  }\n}\n";
  return out;
}

}  // namespace

std::string elementwise_kernel(const KernelPlan& plan, const std::string& name) {
  return plan.contiguous ? contiguous_kernel(plan, name) : strided_kernel(plan, name);
}

}  // namespace accel::cuda::detail
