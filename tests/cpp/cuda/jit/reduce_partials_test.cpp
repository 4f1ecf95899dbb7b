// A split reduction's blocks store their partial accumulators, and the column's last block loads
// them back in 32-bit words (accel_load_cg). Every byte of a slot must be stored, padding
// included: a store of the fields alone (a max's `valid` flag, an argmax's aligned index) left
// padding bytes that the word load read, which compute-sanitizer's initcheck reports as reads of
// uninitialized memory. Checked in the PTX NVRTC makes (no GPU needed): the L2 stores of each
// kernel (st.global.cg: accel_store_partial zeroing the slot, used for nothing else) cover
// exactly one accumulator, and its L2 loads whole accumulators.
#include <cctype>

#include "accel/kernels/reduce_ops.h"
#include "tests/cpp/cuda/jit/codegen_test_support.hpp"

namespace accel::cuda {
namespace {

using namespace codegen_testing;

// The accumulators this is about have padding (on the device as on the host).
static_assert(sizeof(reduce::Max<float>::Acc) > sizeof(float) + sizeof(bool));
static_assert(sizeof(reduce::ArgMax<float>::Acc) > sizeof(float) + sizeof(int64_t));

// The program's PTX for compute_90 (the options accelpy compiles with, PTX instead of a cubin).
std::string ptx_of(const std::string& code) {
  bool cubin = true;
  std::vector<std::string> opts = compile_options(90, cubin);
  for (std::string& o : opts) {
    if (o == "-arch=sm_90") o = "-arch=compute_90";
  }
  std::vector<const char*> copts;
  for (const std::string& o : opts) copts.push_back(o.c_str());
  const NvrtcProgram prog(*nvrtc(), program_prelude() + code, "partials.cu", true);
  const api::nvrtcResult r =
      nvrtc()->nvrtcCompileProgram(prog.get(), int(copts.size()), copts.data());
  EXPECT_EQ(r, api::NVRTC_SUCCESS) << prog.log();
  return r == api::NVRTC_SUCCESS ? prog.image(false) : std::string();
}

// Bytes moved by the L2-only (".cg") stores or loads in the body of PTX entry `name`.
int cg_bytes(const std::string& ptx, const std::string& name, const char* what) {
  const size_t begin = ptx.find(".entry " + name + "(");
  if (begin == std::string::npos) return -1;
  const size_t end = ptx.find(".entry ", begin + 1);
  const std::string body = ptx.substr(begin, end == std::string::npos ? end : end - begin);
  // `what`.global.cg.{u,s,b}{8,16,32,64} (no std::regex: GCC 12 warns inside it at -O2 with
  // the sanitizers, and warnings are errors).
  const std::string op = std::string(what) + ".global.cg.";
  int bytes = 0;
  for (size_t at = body.find(op); at != std::string::npos; at = body.find(op, at + 1)) {
    size_t i = at + op.size();
    if (i >= body.size() || (body[i] != 'u' && body[i] != 's' && body[i] != 'b')) continue;
    int bits = 0;
    while (++i < body.size() && std::isdigit(static_cast<unsigned char>(body[i]))) {
      bits = bits * 10 + (body[i] - '0');
    }
    if (bits == 8 || bits == 16 || bits == 32 || bits == 64) bytes += bits / 8;
  }
  return bytes;
}

TEST(CudaReducePartials, EveryByteOfAPartialSlotIsWritten) {
  if (!have_nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  Batch b;
  std::map<std::string, int> acc_bytes;  // kernel name -> sizeof(Red::Acc)
  const OpKind ops[] = {OpKind::Sum,    OpKind::Prod,   OpKind::Max, OpKind::Min,
                        OpKind::ArgMax, OpKind::ArgMin, OpKind::Any, OpKind::All};
  // One dtype of each accumulator layout: 1, 2, 4 and 8-byte values, complex of both widths.
  const DType dtypes[] = {DType::Bool,  DType::Int8,      DType::Float16,   DType::Float32,
                          DType::Int64, DType::Complex64, DType::Complex128};
  for (OpKind op : ops) {
    for (DType dt : dtypes) {
      const bool logical = op == OpKind::Any || op == OpKind::All;
      if (logical != (dt == DType::Bool)) continue;
      const DType out = (op == OpKind::ArgMax || op == OpKind::ArgMin) ? DType::Int64 : dt;
      for (uint64_t axes : {uint64_t(2), uint64_t(1)}) {  // inner, outer
        auto g = reduction(b, op, dt, out, axes, false);
        KernelPlan plan = make_plan(*g, h100());
        plan.splits = 2;  // the accumulator's size, as the launch allocates it
        acc_bytes[kernel_name(plan)] =
            int(partial_bytes(plan) / (2 * size_t(std::max<int64_t>(plan.outputs_n, 1))));
        b.add(std::move(g));
      }
    }
  }
  ASSERT_EQ(acc_bytes.size(), b.code.size());
  std::string program;
  for (const auto& [name, code] : b.code) program += code;
  const std::string ptx = ptx_of(program);
  ASSERT_FALSE(ptx.empty());
  for (const auto& [name, acc] : acc_bytes) {
    ASSERT_GT(acc, 0) << name;
    EXPECT_EQ(cg_bytes(ptx, name, "st"), acc) << name;
    // The loop over the partials may be unrolled: whole accumulators, at least one.
    const int loaded = cg_bytes(ptx, name, "ld");
    EXPECT_TRUE(loaded > 0 && loaded % acc == 0) << name << ": " << loaded << " bytes loaded";
  }
}

}  // namespace
}  // namespace accel::cuda
