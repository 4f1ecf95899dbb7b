// The CUDA runtime's parts that need no GPU: the loader's "not available" paths, the disk
// cache, and (where a toolkit is installed) the vendored declarations against the real headers.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <string>

#include "accel/cuda.hpp"
#include "accel/errors.hpp"
#include "src/cuda/driver/loader.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/util/disk_cache.hpp"
#include "tests/cpp/cuda/same_signature.hpp"

// Captured before <cuda.h>, whose macros share these names.
constexpr unsigned kMineHostAllocPortable = accel::cuda::api::CU_MEMHOSTALLOC_PORTABLE;
constexpr unsigned kMineHostAllocDevicemap = accel::cuda::api::CU_MEMHOSTALLOC_DEVICEMAP;

#if ACCEL_HAVE_CUDA_HEADERS
#include <cuda.h>
#include <nvrtc.h>
#endif

namespace accel::cuda {
namespace {

TEST(CudaLoader, MissingDriverIsReported) {
  const LoadStatus s = probe_driver({"/nonexistent/libcuda.so.1"});
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.error.find("no NVIDIA driver"), std::string::npos) << s.error;
  EXPECT_EQ(s.tried.size(), 1u);
}

TEST(CudaLoader, LibraryWithoutDriverSymbolsIsRejected) {
  const LoadStatus s = probe_driver({"libm.so.6"});
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.error.find("cuDriverGetVersion"), std::string::npos) << s.error;
}

TEST(CudaLoader, EnvOverrideIsTheOnlyCandidate) {
  setenv("ACCELPY_NVRTC", "/nonexistent/libnvrtc.so", 1);
  const std::vector<std::string> c = library_candidates(Library::Nvrtc);
  unsetenv("ACCELPY_NVRTC");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "/nonexistent/libnvrtc.so");
}

TEST(CudaLoader, UnavailableCudaExplainsWhy) {
  if (is_available()) GTEST_SKIP() << "a GPU is present";
  EXPECT_FALSE(unavailable_reason().empty());
  EXPECT_EQ(device_count(), 0);
  EXPECT_THROW(memory_stats(0), Error);
  bool driver_listed = false;
  for (const LibraryInfo& l : libraries()) driver_listed = driver_listed || l.name == "driver";
  EXPECT_TRUE(driver_listed);
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/accelpy_cache_test_XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
};

TEST(CudaDiskCache, StoreLoadAndPermissions) {
  TempDir t;
  const util::DiskCache cache(t.path + "/cache");
  const std::string key = "key text\nsource";
  EXPECT_FALSE(cache.load(key).has_value());
  cache.store(key, {"cubin bytes \x01\x02", true});
  const auto hit = cache.load(key);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->data, "cubin bytes \x01\x02");
  EXPECT_TRUE(hit->cubin);
  struct stat st;
  ASSERT_EQ(stat((t.path + "/cache").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  // Nothing but the final file is left behind (the write went through a temporary name).
  int files = 0;
  for (const char* cmd : {"ls -A '"}) {
    FILE* p = popen((std::string(cmd) + t.path + "/cache/kernels' | wc -l").c_str(), "r");
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(fscanf(p, "%d", &files), 1);
    pclose(p);
  }
  EXPECT_EQ(files, 1);
  // Another key text (another NVRTC version, options or source) misses.
  EXPECT_FALSE(cache.load(key + " ").has_value());
}

TEST(CudaDiskCache, CorruptEntryIsAMissAndIsRewritten) {
  TempDir t;
  const util::DiskCache cache(t.path);
  const std::string key = "k";
  cache.store(key, {std::string(1000, 'x'), true});
  const std::string path = cache.path_for(key);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-10, std::ios::end);
    f.put('y');  // flip a byte of the image: the checksum no longer matches
  }
  EXPECT_FALSE(cache.load(key).has_value());
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << "ACCELPYK";  // truncated
  }
  EXPECT_FALSE(cache.load(key).has_value());
  cache.store(key, {std::string(1000, 'x'), true});  // recompiled and stored again
  ASSERT_TRUE(cache.load(key).has_value());
  EXPECT_EQ(cache.load(key)->data, std::string(1000, 'x'));
}

TEST(CudaDiskCache, KeyTextCoversCompilerAndSource) {
  const std::string a = disk_key("code A", 90), b = disk_key("code B", 90);
  const std::string c = disk_key("code A", 80);
  const std::string quick = disk_key("code A", 90, CompileTier::Quick);  // a build of its own
  EXPECT_NE(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, quick);
  EXPECT_NE(a.find("nvrtc"), std::string::npos);
  EXPECT_NE(a.find("headers"), std::string::npos);
}

#if ACCEL_HAVE_CUDA_HEADERS

// The vendored values and signatures match the toolkit's headers.
static_assert(api::CUDA_ERROR_OUT_OF_MEMORY == ::CUDA_ERROR_OUT_OF_MEMORY);
static_assert(api::CUDA_ERROR_NOT_READY == ::CUDA_ERROR_NOT_READY);
static_assert(api::CUDA_ERROR_ILLEGAL_ADDRESS == ::CUDA_ERROR_ILLEGAL_ADDRESS);
static_assert(api::CUDA_ERROR_LAUNCH_FAILED == ::CUDA_ERROR_LAUNCH_FAILED);
static_assert(api::CUDA_ERROR_NO_DEVICE == ::CUDA_ERROR_NO_DEVICE);
static_assert(api::CUDA_ERROR_STUB_LIBRARY == ::CUDA_ERROR_STUB_LIBRARY);
static_assert(api::CUDA_ERROR_DEINITIALIZED == ::CUDA_ERROR_DEINITIALIZED);
static_assert(api::CUDA_ERROR_INVALID_VALUE == ::CUDA_ERROR_INVALID_VALUE);
static_assert(api::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT ==
              ::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
static_assert(api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ==
              ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
static_assert(api::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ==
              ::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
static_assert(api::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE == ::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
static_assert(api::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR ==
              ::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
static_assert(api::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK ==
              ::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
static_assert(api::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK ==
              ::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
static_assert(api::CU_DEVICE_ATTRIBUTE_WARP_SIZE == ::CU_DEVICE_ATTRIBUTE_WARP_SIZE);
static_assert(api::CU_DEVICE_ATTRIBUTE_CLOCK_RATE == ::CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
static_assert(api::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE ==
              ::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
static_assert(api::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH ==
              ::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
static_assert(api::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID == ::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
static_assert(api::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED ==
              ::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED);
static_assert(api::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD == ::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD);
static_assert(api::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT == ::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
static_assert(api::CU_MEMPOOL_ATTR_USED_MEM_CURRENT == ::CU_MEMPOOL_ATTR_USED_MEM_CURRENT);
static_assert(api::CU_POINTER_ATTRIBUTE_MEMORY_TYPE == ::CU_POINTER_ATTRIBUTE_MEMORY_TYPE);
static_assert(api::CU_MEMORYTYPE_HOST == ::CU_MEMORYTYPE_HOST);
static_assert(api::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL == ::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL);
static_assert(sizeof(api::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) == sizeof(::CUpointer_attribute));
static_assert(api::CU_STREAM_NON_BLOCKING == ::CU_STREAM_NON_BLOCKING);
static_assert(api::CU_EVENT_DISABLE_TIMING == ::CU_EVENT_DISABLE_TIMING);
static_assert(api::CU_EVENT_BLOCKING_SYNC == ::CU_EVENT_BLOCKING_SYNC);
static_assert(kMineHostAllocPortable == CU_MEMHOSTALLOC_PORTABLE);
static_assert(kMineHostAllocDevicemap == CU_MEMHOSTALLOC_DEVICEMAP);
static_assert(api::CUDA_ERROR_NOT_SUPPORTED == ::CUDA_ERROR_NOT_SUPPORTED);
static_assert(api::CU_GET_PROC_ADDRESS_DEFAULT == ::CU_GET_PROC_ADDRESS_DEFAULT);
static_assert(api::NVRTC_ERROR_COMPILATION == ::NVRTC_ERROR_COMPILATION);
static_assert(sizeof(api::CUdeviceptr) == sizeof(::CUdeviceptr));
static_assert(std::is_same_v<api::CUstream, ::CUstream>);
static_assert(std::is_same_v<api::CUcontext, ::CUcontext>);
static_assert(std::is_same_v<api::nvrtcProgram, ::nvrtcProgram>);
ACCEL_SAME_SIG(PFN_cuGetProcAddress_v2, ::cuGetProcAddress_v2);
ACCEL_SAME_SIG(PFN_cuMemAllocFromPoolAsync, ::cuMemAllocFromPoolAsync);
ACCEL_SAME_SIG(PFN_cuMemFreeAsync, ::cuMemFreeAsync);
ACCEL_SAME_SIG(PFN_cuStreamWriteValue32, ::cuStreamWriteValue32);
ACCEL_SAME_SIG(PFN_cuMemHostGetDevicePointer, ::cuMemHostGetDevicePointer);
ACCEL_SAME_SIG(PFN_cuMemPoolSetAttribute, ::cuMemPoolSetAttribute);
ACCEL_SAME_SIG(PFN_cuMemcpyHtoDAsync, ::cuMemcpyHtoDAsync_v2);
ACCEL_SAME_SIG(PFN_cuMemcpyDtoHAsync, ::cuMemcpyDtoHAsync_v2);
ACCEL_SAME_SIG(PFN_cuMemcpyPeerAsync, ::cuMemcpyPeerAsync);
ACCEL_SAME_SIG(PFN_cuLaunchKernel, ::cuLaunchKernel);
ACCEL_SAME_SIG(PFN_cuModuleLoadData, ::cuModuleLoadData);
ACCEL_SAME_SIG(PFN_cuEventElapsedTime, ::cuEventElapsedTime);
ACCEL_SAME_SIG(PFN_cuDeviceGetAttribute, ::cuDeviceGetAttribute);
ACCEL_SAME_SIG(PFN_cuDeviceTotalMem, ::cuDeviceTotalMem_v2);
ACCEL_SAME_SIG(PFN_cuPointerGetAttributes, ::cuPointerGetAttributes);
ACCEL_SAME_SIG(PFN_nvrtcCreateProgram, ::nvrtcCreateProgram);
ACCEL_SAME_SIG(PFN_nvrtcCompileProgram, ::nvrtcCompileProgram);
ACCEL_SAME_SIG(PFN_nvrtcGetCUBIN, ::nvrtcGetCUBIN);
ACCEL_SAME_SIG(PFN_nvrtcAddNameExpression, ::nvrtcAddNameExpression);
ACCEL_SAME_SIG(PFN_nvrtcGetLoweredName, ::nvrtcGetLoweredName);
ACCEL_SAME_SIG(PFN_cuModuleGetGlobal, ::cuModuleGetGlobal_v2);
ACCEL_SAME_SIG(PFN_cuFuncGetAttribute, ::cuFuncGetAttribute);
ACCEL_SAME_SIG(PFN_cuFuncSetAttribute, ::cuFuncSetAttribute);
ACCEL_SAME_SIG(PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor,
               ::cuOccupancyMaxActiveBlocksPerMultiprocessor);
ACCEL_SAME_SIG(PFN_cuFuncGetParamInfo, ::cuFuncGetParamInfo);
#if CUDA_VERSION >= 13020
ACCEL_SAME_SIG(PFN_cuFuncGetParamCount, ::cuFuncGetParamCount);
#endif
ACCEL_SAME_SIG(PFN_cuGraphCreate, ::cuGraphCreate);
ACCEL_SAME_SIG(PFN_cuGraphDestroy, ::cuGraphDestroy);
ACCEL_SAME_SIG(PFN_cuGraphInstantiateWithFlags, ::cuGraphInstantiateWithFlags);
ACCEL_SAME_SIG(PFN_cuGraphExecDestroy, ::cuGraphExecDestroy);
ACCEL_SAME_SIG(PFN_cuGraphLaunch, ::cuGraphLaunch);
static_assert(std::is_same_v<api::CUgraphNode, ::CUgraphNode>);
static_assert(std::is_same_v<api::CUgraphExec, ::CUgraphExec>);
// Kernel nodes' parameters: the vendored struct is laid out as the headers' _v2.
static_assert(sizeof(api::KernelNodeParams) == sizeof(::CUDA_KERNEL_NODE_PARAMS_v2));
static_assert(offsetof(api::KernelNodeParams, grid) ==
              offsetof(::CUDA_KERNEL_NODE_PARAMS_v2, gridDimX));
static_assert(offsetof(api::KernelNodeParams, block) ==
              offsetof(::CUDA_KERNEL_NODE_PARAMS_v2, blockDimX));
static_assert(offsetof(api::KernelNodeParams, kernel_params) ==
              offsetof(::CUDA_KERNEL_NODE_PARAMS_v2, kernelParams));
static_assert(offsetof(api::KernelNodeParams, extra) ==
              offsetof(::CUDA_KERNEL_NODE_PARAMS_v2, extra));
static_assert(offsetof(api::KernelNodeParams, ctx) == offsetof(::CUDA_KERNEL_NODE_PARAMS_v2, ctx));
static_assert(api::kLaunchParamEnd == CU_LAUNCH_PARAM_END_AS_INT);
static_assert(api::kLaunchParamBufferPointer == CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT);
static_assert(api::kLaunchParamBufferSize == CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT);
static_assert(api::CUDA_ERROR_NOT_FOUND == ::CUDA_ERROR_NOT_FOUND);
static_assert(api::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X == ::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
static_assert(api::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X == ::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
static_assert(api::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN ==
              ::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
static_assert(api::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ==
              ::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
static_assert(api::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES == ::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
static_assert(api::CU_FUNC_ATTRIBUTE_NUM_REGS == ::CU_FUNC_ATTRIBUTE_NUM_REGS);
static_assert(api::CU_FUNC_ATTRIBUTE_BINARY_VERSION == ::CU_FUNC_ATTRIBUTE_BINARY_VERSION);
static_assert(api::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ==
              ::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
TEST(CudaApi, MatchesToolkitHeaders) { SUCCEED() << "checked at compile time"; }
#endif

}  // namespace
}  // namespace accel::cuda
