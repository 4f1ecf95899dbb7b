// The search for CUDA's headers that NVRTC needs for users' programs (cuda_fp16.h, ...), on fake
// file trees laid out as a toolkit, NVIDIA's pip wheels, CuPy and conda lay them out.
#include "src/cuda/user_kernels/include_search.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace accel::cuda {
namespace {

class FakeTree : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/accel_include_search_XXXXXX";
    const char* d = mkdtemp(tmpl);
    ASSERT_NE(d, nullptr);
    root_ = d;
  }
  void TearDown() override {
    const std::string cmd = "rm -rf '" + root_ + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  // Creates root/<path> (and its directories) holding `text`.
  void file(const std::string& path, const std::string& text = "") {
    std::string at = root_;
    size_t from = 0;
    for (size_t slash; (slash = path.find('/', from)) != std::string::npos; from = slash + 1) {
      at += "/" + path.substr(from, slash - from);
      mkdir(at.c_str(), 0700);
    }
    std::ofstream(root_ + "/" + path) << text;
  }
  // A header directory of CUDA `major` (its cuda_runtime_api.h says so).
  void headers(const std::string& dir, int major) {
    file(dir + "/cuda_fp16.h");
    file(dir + "/cuda_runtime_api.h",
         "#define CUDART_VERSION " + std::to_string(major * 1000 + 40));
  }
  IncludeSearchInputs inputs(int major) const {
    IncludeSearchInputs in;
    in.usr_local = root_ + "/usr/local";
    in.site_dirs = {root_ + "/site1", root_ + "/site2"};
    in.nvrtc_major = major;
    in.nvrtc_minor = 4;
    return in;
  }
  std::string root_;
};

TEST_F(FakeTree, NothingFoundListsEveryPlaceLooked) {
  const IncludeSearchResult r = find_cuda_include(inputs(12));
  EXPECT_TRUE(r.dirs.empty());
  ASSERT_FALSE(r.tried.empty());
  EXPECT_EQ(r.tried.front(), root_ + "/site1/nvidia/cuda_runtime/include");
  EXPECT_EQ(r.tried.back(), root_ + "/usr/local/cuda/include");
}

TEST_F(FakeTree, OverrideIsTakenAsGiven) {
  headers("usr/local/cuda/include", 12);
  IncludeSearchInputs in = inputs(12);
  in.accelpy_cuda_include = "/a:/b";
  const IncludeSearchResult r = find_cuda_include(in);
  EXPECT_EQ(r.dirs, (std::vector<std::string>{"/a", "/b"}));
}

TEST_F(FakeTree, CudaPathComesBeforeWheels) {
  headers("toolkit/include", 12);
  headers("site1/nvidia/cuda_runtime/include", 12);
  IncludeSearchInputs in = inputs(12);
  in.cuda_path = root_ + "/toolkit";
  EXPECT_EQ(find_cuda_include(in).dirs, (std::vector<std::string>{root_ + "/toolkit/include"}));
}

TEST_F(FakeTree, Cuda12WheelWithItsCompanions) {
  headers("site2/nvidia/cuda_runtime/include", 12);
  file("site2/nvidia/cuda_cccl/include/nv/target");
  headers("usr/local/cuda/include", 12);
  const IncludeSearchResult r = find_cuda_include(inputs(12));
  EXPECT_EQ(r.dirs, (std::vector<std::string>{root_ + "/site2/nvidia/cuda_runtime/include",
                                              root_ + "/site2/nvidia/cuda_cccl/include"}));
}

TEST_F(FakeTree, WheelsOfAnotherMajorVersionArePassedOver) {
  headers("site1/nvidia/cuda_runtime/include", 12);
  file("site1/nvidia/cu13/include/cuda_fp16.h");
  EXPECT_EQ(find_cuda_include(inputs(13)).dirs,
            (std::vector<std::string>{root_ + "/site1/nvidia/cu13/include"}));
  headers("usr/local/cuda-12.4/include", 12);
  EXPECT_EQ(find_cuda_include(inputs(12)).dirs,
            (std::vector<std::string>{root_ + "/site1/nvidia/cuda_runtime/include"}));
}

TEST_F(FakeTree, CupyCopyOfNvrtcsVersion) {
  file("site1/cupy/_core/include/cupy/_cuda/cuda-12.8/cuda_fp16.h");  // newer than NVRTC 12.4
  file("site1/cupy/_core/include/cupy/_cuda/cuda-12.2/cuda_fp16.h");
  file("site1/cupy/_core/include/cupy/_cuda/cuda-11/cuda_fp16.h");
  EXPECT_EQ(find_cuda_include(inputs(12)).dirs,
            (std::vector<std::string>{root_ + "/site1/cupy/_core/include/cupy/_cuda/cuda-12.2"}));
}

TEST_F(FakeTree, CondaThenUsrLocalNewestFirst) {
  headers("usr/local/cuda-12.1/include", 12);
  headers("usr/local/cuda-12.6/include", 12);
  headers("usr/local/cuda-13.0/include", 13);
  EXPECT_EQ(find_cuda_include(inputs(12)).dirs,
            (std::vector<std::string>{root_ + "/usr/local/cuda-12.6/include"}));
  headers("conda/targets/x86_64-linux/include", 12);
  IncludeSearchInputs in = inputs(12);
  in.conda_prefix = root_ + "/conda";
  EXPECT_EQ(find_cuda_include(in).dirs,
            (std::vector<std::string>{root_ + "/conda/targets/x86_64-linux/include"}));
}

TEST(IncludeSearch, HintNamesWhatToInstallOnlyWhenAHeaderWasMissing) {
  IncludeSearchResult none;
  none.tried = {"/x/include"};
  const std::string log = "m.cu(1): catastrophic error: cannot open source file \"cuda_fp16.h\"";
  const std::string hint = missing_header_hint(log, none, 12, 4);
  EXPECT_NE(hint.find("nvidia-cuda-runtime-cu12==12.4.*"), std::string::npos) << hint;
  EXPECT_NE(hint.find("ACCELPY_CUDA_INCLUDE"), std::string::npos) << hint;
  EXPECT_NE(hint.find("/x/include"), std::string::npos) << hint;
  EXPECT_NE(missing_header_hint(log, none, 13, 0).find("nvidia-cuda-runtime==13.0.*"),
            std::string::npos);
  EXPECT_EQ(missing_header_hint("m.cu(3): error: expected a \";\"", none, 12, 4), "");
  IncludeSearchResult found;
  found.dirs = {"/y"};
  EXPECT_EQ(missing_header_hint(log, found, 12, 4), "");
}

}  // namespace
}  // namespace accel::cuda
