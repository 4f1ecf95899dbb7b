// Pieces shared by the elementwise and the reduction code generators.
#pragma once

#include <string>
#include <vector>

#include "src/cuda/jit/codegen.hpp"

namespace accel::cuda::detail {

// The C++ type of a dtype in generated code.
const char* ctype(DType dt);

// Appends `struct Params {...};` (and `typedef ... IDX;`): the one place that decides the
// parameter layout, shared with pack_params() through visit_params().
void emit_params(const KernelPlan& plan, std::string& out);

// Code computing steps [0, num_steps) as `const T vK = ...;`, reading inputs from `xJ`, the
// logical flat index from `idx`, scalars and generator parameters from `p`.
// `run_width` > 0: the body runs inside the vectorized loop, where the element is `idx0 + e` with
// idx0 a multiple of run_width (random draws then share their Philox block across e).
// `scalars` spells the group's scalars: "p.s" for kernel parameters, "s" for the arguments of
// an outlined body.
// `only` (when given): the steps of [0, num_steps) to emit, the others skipped.
std::string emit_body(const KernelPlan& plan, int num_steps, int run_width = 0,
                      const char* scalars = "p.s", const std::vector<char>* only = nullptr);

// The dtype of a step argument (an input's, a step's result's, or a scalar's).
DType arg_dtype(const Group& g, const StepArg& a);
// The expression of a step argument (an input's xJ, a step's vK, or a scalar parameter), given
// the index of the first scalar parameter of its step.
std::string arg_expr(const Group& g, const StepArg& a, int scalar_index,
                     const char* scalars = "p.s");

// "rem % p.shape[d]" decomposition of `linear` over `ndim` dims of `shape` into cD variables.
std::string emit_coords(const char* linear, const char* shape, int ndim, const char* prefix);
// "c0 * p.st[0] + c1 * p.st[1] ..." ("0" for no dims).
std::string emit_dot(const char* prefix, const std::string& strides, int ndim);

// Whether a step is a few instructions (see codegen_elementwise.cpp): bodies of such steps are
// unrolled freely; others are compiled once.
bool is_light(const Node& n);
// Whether the group's body is compiled once as a function rather than inlined into each
// unrolled element (heavy steps, or many steps; never random draws or generators with
// parameters).
bool outlines_body(const Group& g);

// The reducer type of a reduction node over values of dtype `in` ("accel::reduce::Sum<float>").
std::string reducer(const Node& node, DType in);

// Plan helpers shared by the group analyses (codegen_plan.cpp).
const char* base_of(const Array& a);  // element 0 of a view, on the device
using StridesRefs = SmallVector<Strides*, 8>;
// Reorders the dimensions into the memory order of `out` (slowest first) in every operand.
void to_memory_order(Shape& shape, const StridesRefs& ops, const Strides& out);
// Drops unit dimensions and merges neighbours that every operand walks as one (as the CPU's
// make_layout does), so that most groups become one- or two-dimensional.
void collapse(Shape& shape, const StridesRefs& ops);
// The largest |element offset| an operand reaches.
int64_t reach(const Shape& shape, const Strides& st);
// The smallest power of two >= v, at most cap.
int pow2_ceil(int64_t v, int cap);

// A Rows group's plan (codegen_rows.cpp): kept and reduced dimensions, the thread mapping.
void plan_rows(const Group& g, KernelPlan& p);

std::string elementwise_kernel(const KernelPlan& plan, const std::string& name);
std::string reduction_kernel(const KernelPlan& plan, const std::string& name);
std::string rows_kernel(const KernelPlan& plan, const std::string& name);

}  // namespace accel::cuda::detail
