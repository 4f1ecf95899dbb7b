// Elementwise kernels. The contiguous variant (every operand contiguous or broadcast) reads and
// writes 16-byte vectors when the pointers allow it, several per thread to keep enough loads in
// flight, over a grid-stride loop of tiles; a scalar loop takes the tail and misaligned
// operands. The strided variant turns the linear index into coordinates over the merged
// dimensions and gives each strided operand its own offset.
#include "src/cuda/codegen_detail.hpp"

namespace accel::cuda::detail {

namespace {

std::string header(const KernelPlan& p, const std::string& name) {
  std::string out = "namespace " + name + "_ns {\n";
  emit_params(p, out);
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

std::string store_outputs(const KernelPlan& p, const std::string& at) {
  std::string out;
  const Group& g = *p.group;
  for (size_t o = 0; o < p.outputs.size(); ++o) {
    out += "    p.out" + std::to_string(o) + "[" + at + "] = v" +
           std::to_string(g.outputs[o].step) + ";\n";
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
  const std::string body = emit_body(p, nsteps);
  const std::string vec_body = emit_body(p, nsteps, p.vec);
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
      out +=
          "    Y" + std::to_string(o) + "[u].v[e] = v" + std::to_string(g.outputs[o].step) + ";\n";
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
