// Users' programs: compile errors with their log and lines, name expressions, the disk cache
// (lowered names survive it) and the launch checks that need no kernel. Compiling needs only
// NVRTC (sm_90 without a GPU).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "accel/cuda.hpp"
#include "accel/raw_kernel.hpp"
#include "src/cuda/driver/loader.hpp"

namespace accel::cuda {
namespace {

const char* kTemplates = R"(
template <typename T> __global__ void scale(T* x, T f) { x[threadIdx.x] *= f; }
extern "C" __global__ void plain(int* x) { x[0] = 1; }
)";

std::string temp_dir() {
  char tmpl[] = "/tmp/accel_raw_test_XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? d : "/tmp";
}

TEST(RawKernel, OffendingLinesMarkErrorsWithContext) {
  const std::string src = "a\nb\nc\nd\ne\nf\ng\n";
  const std::string out = offending_lines(src, "p.cu(3): error: bad\np.cu(7): warning: meh\n");
  EXPECT_NE(out.find(">    3 | c"), std::string::npos) << out;
  EXPECT_NE(out.find("     2 | b"), std::string::npos) << out;
  EXPECT_NE(out.find("     4 | d"), std::string::npos) << out;
  EXPECT_EQ(out.find("g"), std::string::npos) << out;  // warnings are not marked
  EXPECT_EQ(offending_lines(src, "p.cu(99): error: past the end\n"), "");
  EXPECT_EQ(offending_lines(src, "catastrophic error: no line\n"), "");
}

TEST(RawKernel, CompileErrorCarriesLogNameAndLines) {
  if (!nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  ProgramSpec spec;
  spec.code = "extern \"C\" __global__ void k(float* x) {\n  x[0] = undefined_thing;\n}\n";
  spec.name = "k";
  spec.cache_dir = "off";
  try {
    compile_user_program(spec, 90);
    FAIL() << "expected a CompileError";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.name, "k");
    EXPECT_NE(e.log.find("undefined_thing"), std::string::npos) << e.log;
    EXPECT_NE(e.excerpt.find(">    2 |   x[0] = undefined_thing;"), std::string::npos) << e.excerpt;
    EXPECT_NE(std::string(e.what()).find("options: -arch=sm_90"), std::string::npos) << e.what();
  }
}

TEST(RawKernel, NameExpressionsAreLoweredAndCached) {
  if (!nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  ProgramSpec spec;
  spec.code = kTemplates;
  spec.name = "templates";
  spec.name_expressions = {"scale<float>", "scale<double>"};
  spec.cache_dir = temp_dir();
  const ProgramImage first = compile_user_program(spec, 90);
  EXPECT_FALSE(first.from_disk);
  ASSERT_EQ(first.lowered.size(), 2u);
  EXPECT_EQ(first.lowered[0].first, "scale<float>");
  EXPECT_EQ(first.lowered[0].second.rfind("_Z", 0), 0u) << first.lowered[0].second;
  EXPECT_NE(first.lowered[0].second, first.lowered[1].second);
  const ProgramImage second = compile_user_program(spec, 90);
  EXPECT_TRUE(second.from_disk);
  EXPECT_EQ(second.lowered, first.lowered);
  EXPECT_EQ(second.image, first.image);
  spec.options = {"-DX=1"};  // other options: another program
  EXPECT_FALSE(compile_user_program(spec, 90).from_disk);
  RawModule mod(spec);
  EXPECT_EQ(mod.lowered_name("scale<double>"), first.lowered[1].second);
  EXPECT_THROW(mod.lowered_name("scale<int>"), ValueError);
}

TEST(RawKernel, ExplicitArchitectureOptionIsKept) {
  if (!nvrtc()) GTEST_SKIP() << "NVRTC not found: " << nvrtc_status().error;
  ProgramSpec spec;
  spec.code = kTemplates;
  spec.name = "ptx";
  spec.options = {"-arch=compute_90"};
  spec.cache_dir = "off";
  const ProgramImage img = compile_user_program(spec, 80);
  EXPECT_FALSE(img.cubin);
  EXPECT_NE(img.image.find(".target sm_90"), std::string::npos);
}

TEST(RawKernel, LaunchWithoutGpuIsAClearError) {
  if (is_available()) GTEST_SKIP() << "a GPU driver is present";
  RawModule mod(ProgramSpec{kTemplates, "m", {}, {}, false, "off", ""});
  EXPECT_THROW(mod.function("plain", 0), Error);
}

}  // namespace
}  // namespace accel::cuda
