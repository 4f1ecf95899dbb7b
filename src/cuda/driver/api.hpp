// The few declarations of the CUDA driver API, NVRTC and cuBLAS(Lt) that accelpy uses,
// vendored so that building needs no CUDA toolkit and the binary has no link-time dependency
// on CUDA: the libraries are opened with dlopen at run time (loader.cpp).
//
// Values and signatures are those of the CUDA 12/13 headers; tests/cpp/cuda/api_check_test.cpp
// checks them against the real headers with static_asserts wherever a toolkit is installed.
// Handle types are the headers' own (pointers to incomplete structs declared at global scope),
// so that the check can compare function signatures exactly.
#pragma once

#include <cstddef>
#include <cstdint>

struct CUctx_st;
struct CUstream_st;
struct CUevent_st;
struct CUmod_st;
struct CUfunc_st;
struct CUmemPoolHandle_st;
struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
struct _nvrtcProgram;
struct cublasContext;
struct cublasLtContext;

namespace accel::cuda::api {

// ---- driver ------------------------------------------------------------------------------------
using CUresult = int;  // the enum cudaError_enum; every value we test is listed below
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = CUctx_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUmemoryPool = CUmemPoolHandle_st*;
using CUgraph = CUgraph_st*;
using CUgraphNode = CUgraphNode_st*;
using CUgraphExec = CUgraphExec_st*;
using cuuint64_t = uint64_t;
using cuuint32_t = uint32_t;

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
inline constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
inline constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;
inline constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
inline constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;
inline constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
inline constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;

// CUdevice_attribute
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
inline constexpr int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
inline constexpr int CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33;
inline constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
inline constexpr int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
inline constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115;

inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;  // .._Y = 3, .._Z = 4
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;   // .._Y = 6, .._Z = 7
inline constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
inline constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
inline constexpr int CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2;
inline constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
inline constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
inline constexpr int CU_FUNC_ATTRIBUTE_PTX_VERSION = 5;
inline constexpr int CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUmemPool_attribute
inline constexpr int CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4;
inline constexpr int CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT = 5;
inline constexpr int CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH = 6;
inline constexpr int CU_MEMPOOL_ATTR_USED_MEM_CURRENT = 7;
inline constexpr int CU_MEMPOOL_ATTR_USED_MEM_HIGH = 8;

inline constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
inline constexpr unsigned CU_MEMORYTYPE_HOST = 1;
inline constexpr unsigned CU_MEMORYTYPE_DEVICE = 2;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0;
inline constexpr unsigned CU_EVENT_BLOCKING_SYNC = 1;
inline constexpr unsigned CU_EVENT_DISABLE_TIMING = 2;
inline constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 1;
inline constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 2;
inline constexpr cuuint64_t CU_GET_PROC_ADDRESS_DEFAULT = 0;
inline constexpr int CU_GET_PROC_ADDRESS_SUCCESS = 0;

// The driver API version the signatures below are those of: cuGetProcAddress returns the
// entry point with this ABI even from a newer driver.
inline constexpr int kDriverApiVersion = 12000;

using PFN_cuGetProcAddress_v2 = CUresult (*)(const char* symbol, void** pfn, int cudaVersion,
                                             cuuint64_t flags, int* symbolStatus);
using PFN_cuGetProcAddress_v1 = CUresult (*)(const char* symbol, void** pfn, int cudaVersion,
                                             cuuint64_t flags);
using PFN_cuDriverGetVersion = CUresult (*)(int*);
using PFN_cuInit = CUresult (*)(unsigned);
using PFN_cuGetErrorName = CUresult (*)(CUresult, const char**);
using PFN_cuGetErrorString = CUresult (*)(CUresult, const char**);
using PFN_cuDeviceGetCount = CUresult (*)(int*);
using PFN_cuDeviceGet = CUresult (*)(CUdevice*, int);
using PFN_cuDeviceGetName = CUresult (*)(char*, int, CUdevice);
using PFN_cuDeviceGetAttribute = CUresult (*)(int*, int, CUdevice);
using PFN_cuDeviceTotalMem = CUresult (*)(size_t*, CUdevice);
using PFN_cuDeviceCanAccessPeer = CUresult (*)(int*, CUdevice, CUdevice);
using PFN_cuDevicePrimaryCtxRetain = CUresult (*)(CUcontext*, CUdevice);
using PFN_cuCtxSetCurrent = CUresult (*)(CUcontext);
using PFN_cuCtxGetCurrent = CUresult (*)(CUcontext*);
using PFN_cuCtxSynchronize = CUresult (*)();
using PFN_cuCtxEnablePeerAccess = CUresult (*)(CUcontext, unsigned);
using PFN_cuStreamCreate = CUresult (*)(CUstream*, unsigned);
using PFN_cuStreamDestroy = CUresult (*)(CUstream);
using PFN_cuStreamSynchronize = CUresult (*)(CUstream);
using PFN_cuStreamQuery = CUresult (*)(CUstream);
using PFN_cuStreamWaitEvent = CUresult (*)(CUstream, CUevent, unsigned);
using PFN_cuEventCreate = CUresult (*)(CUevent*, unsigned);
using PFN_cuEventDestroy = CUresult (*)(CUevent);
using PFN_cuEventRecord = CUresult (*)(CUevent, CUstream);
using PFN_cuEventSynchronize = CUresult (*)(CUevent);
using PFN_cuEventQuery = CUresult (*)(CUevent);
using PFN_cuEventElapsedTime = CUresult (*)(float*, CUevent, CUevent);
using PFN_cuDeviceGetDefaultMemPool = CUresult (*)(CUmemoryPool*, CUdevice);
using PFN_cuMemPoolSetAttribute = CUresult (*)(CUmemoryPool, int, void*);
using PFN_cuMemPoolGetAttribute = CUresult (*)(CUmemoryPool, int, void*);
using PFN_cuMemPoolTrimTo = CUresult (*)(CUmemoryPool, size_t);
using PFN_cuMemAllocFromPoolAsync = CUresult (*)(CUdeviceptr*, size_t, CUmemoryPool, CUstream);
using PFN_cuMemFreeAsync = CUresult (*)(CUdeviceptr, CUstream);
using PFN_cuMemGetInfo = CUresult (*)(size_t*, size_t*);
using PFN_cuMemHostAlloc = CUresult (*)(void**, size_t, unsigned);
using PFN_cuMemFreeHost = CUresult (*)(void*);
using PFN_cuMemHostGetDevicePointer = CUresult (*)(CUdeviceptr*, void*, unsigned);
// Writes a word in stream order, after the work queued before it (flags 0: with a memory
// barrier); the wait's completion word (wait.cpp).
using PFN_cuStreamWriteValue32 = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
using PFN_cuMemcpyHtoDAsync = CUresult (*)(CUdeviceptr, const void*, size_t, CUstream);
using PFN_cuMemcpyDtoHAsync = CUresult (*)(void*, CUdeviceptr, size_t, CUstream);
using PFN_cuMemcpyDtoDAsync = CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
using PFN_cuMemcpyPeerAsync = CUresult (*)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t,
                                           CUstream);
// Unlike cuPointerGetAttribute, succeeds for a pointer CUDA does not know (plain host memory),
// leaving its attributes zero: asking about such a pointer is not an error then.
using PFN_cuPointerGetAttributes = CUresult (*)(unsigned, int*, void**, CUdeviceptr);
inline constexpr int CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;
using PFN_cuModuleLoadData = CUresult (*)(CUmodule*, const void*);
using PFN_cuModuleUnload = CUresult (*)(CUmodule);
using PFN_cuModuleGetFunction = CUresult (*)(CUfunction*, CUmodule, const char*);
using PFN_cuModuleGetGlobal = CUresult (*)(CUdeviceptr*, size_t*, CUmodule, const char*);
using PFN_cuFuncGetAttribute = CUresult (*)(int*, int, CUfunction);
using PFN_cuFuncSetAttribute = CUresult (*)(CUfunction, int, int);
using PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor = CUresult (*)(int*, CUfunction, int, size_t);
// CUDA 12.4+: resolved with that ABI version, optional (null on older drivers).
using PFN_cuFuncGetParamInfo = CUresult (*)(CUfunction, size_t, size_t*, size_t*);
inline constexpr int kParamInfoApiVersion = 12040;
// CUDA 13.2+, optional likewise: how many parameters a kernel takes.
using PFN_cuFuncGetParamCount = CUresult (*)(CUfunction, size_t*);
inline constexpr int kParamCountApiVersion = 13020;
using PFN_cuLaunchKernel = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, unsigned, unsigned, CUstream, void**, void**);

// CUDA graphs of kernel nodes (src/cuda/graphs.cpp). The node parameters are the 12.0 headers'
// CUDA_KERNEL_NODE_PARAMS_v2 (the entry points below resolve to their _v2 at kDriverApiVersion;
// the trailing kern/ctx fields are left null, which the _v1 entry points would not read).
struct KernelNodeParams {
  CUfunction func = nullptr;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned shared_mem_bytes = 0;
  void** kernel_params = nullptr;
  void** extra = nullptr;
  void* kern = nullptr;
  CUcontext ctx = nullptr;
};
// The keys of cuLaunchKernel's `extra` list (the headers' CU_LAUNCH_PARAM_*_AS_INT, macros
// there): the parameters as one buffer of a given size, and the list's end.
inline constexpr uintptr_t kLaunchParamEnd = 0x00;
inline constexpr uintptr_t kLaunchParamBufferPointer = 0x01;
inline constexpr uintptr_t kLaunchParamBufferSize = 0x02;
using PFN_cuGraphCreate = CUresult (*)(CUgraph*, unsigned);
using PFN_cuGraphDestroy = CUresult (*)(CUgraph);
using PFN_cuGraphAddKernelNode = CUresult (*)(CUgraphNode*, CUgraph, const CUgraphNode*, size_t,
                                              const KernelNodeParams*);
using PFN_cuGraphInstantiateWithFlags = CUresult (*)(CUgraphExec*, CUgraph, unsigned long long);
using PFN_cuGraphExecDestroy = CUresult (*)(CUgraphExec);
using PFN_cuGraphExecKernelNodeSetParams = CUresult (*)(CUgraphExec, CUgraphNode,
                                                        const KernelNodeParams*);
using PFN_cuGraphLaunch = CUresult (*)(CUgraphExec, CUstream);

// ---- NVRTC -------------------------------------------------------------------------------------
using nvrtcResult = int;
using nvrtcProgram = _nvrtcProgram*;
inline constexpr nvrtcResult NVRTC_SUCCESS = 0;
inline constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;

using PFN_nvrtcVersion = nvrtcResult (*)(int*, int*);
using PFN_nvrtcGetErrorString = const char* (*)(nvrtcResult);
using PFN_nvrtcGetNumSupportedArchs = nvrtcResult (*)(int*);
using PFN_nvrtcGetSupportedArchs = nvrtcResult (*)(int*);
using PFN_nvrtcCreateProgram = nvrtcResult (*)(nvrtcProgram*, const char*, const char*, int,
                                               const char* const*, const char* const*);
using PFN_nvrtcDestroyProgram = nvrtcResult (*)(nvrtcProgram*);
using PFN_nvrtcCompileProgram = nvrtcResult (*)(nvrtcProgram, int, const char* const*);
using PFN_nvrtcGetProgramLogSize = nvrtcResult (*)(nvrtcProgram, size_t*);
using PFN_nvrtcGetProgramLog = nvrtcResult (*)(nvrtcProgram, char*);
using PFN_nvrtcGetCUBINSize = nvrtcResult (*)(nvrtcProgram, size_t*);
using PFN_nvrtcGetCUBIN = nvrtcResult (*)(nvrtcProgram, char*);
using PFN_nvrtcGetPTXSize = nvrtcResult (*)(nvrtcProgram, size_t*);
using PFN_nvrtcGetPTX = nvrtcResult (*)(nvrtcProgram, char*);
using PFN_nvrtcAddNameExpression = nvrtcResult (*)(nvrtcProgram, const char* const);
using PFN_nvrtcGetLoweredName = nvrtcResult (*)(nvrtcProgram, const char* const, const char**);

// ---- cuBLAS / cuBLASLt -------------------------------------------------------------------------
using cublasStatus_t = int;
using cublasHandle_t = cublasContext*;
using cublasLtHandle_t = cublasLtContext*;
inline constexpr cublasStatus_t CUBLAS_STATUS_SUCCESS = 0;
inline constexpr int MAJOR_VERSION = 0;  // libraryPropertyType
inline constexpr int MINOR_VERSION = 1;
inline constexpr int PATCH_LEVEL = 2;

using PFN_cublasGetProperty = cublasStatus_t (*)(int, int*);
using PFN_cublasCreate = cublasStatus_t (*)(cublasHandle_t*);
using PFN_cublasDestroy = cublasStatus_t (*)(cublasHandle_t);
using PFN_cublasSetStream = cublasStatus_t (*)(cublasHandle_t, CUstream);
using PFN_cublasLtGetVersion = size_t (*)();
using PFN_cublasLtCreate = cublasStatus_t (*)(cublasLtHandle_t*);
using PFN_cublasLtDestroy = cublasStatus_t (*)(cublasLtHandle_t);

// GEMM (matmul, src/cuda/gemm.cpp).
using cublasOperation_t = int;
using cudaDataType = int;
using cublasComputeType_t = int;
using cublasGemmAlgo_t = int;
inline constexpr cublasOperation_t CUBLAS_OP_N = 0;
inline constexpr cublasOperation_t CUBLAS_OP_T = 1;
inline constexpr cudaDataType CUDA_R_16F = 2;
inline constexpr cudaDataType CUDA_R_16BF = 14;
inline constexpr cudaDataType CUDA_R_32F = 0;
inline constexpr cudaDataType CUDA_R_64F = 1;
inline constexpr cudaDataType CUDA_C_32F = 4;
inline constexpr cudaDataType CUDA_C_64F = 5;
inline constexpr cublasComputeType_t CUBLAS_COMPUTE_32F = 68;
inline constexpr cublasComputeType_t CUBLAS_COMPUTE_32F_FAST_TF32 = 77;
inline constexpr cublasComputeType_t CUBLAS_COMPUTE_64F = 70;
inline constexpr cublasGemmAlgo_t CUBLAS_GEMM_DEFAULT = -1;

using PFN_cublasSetWorkspace = cublasStatus_t (*)(cublasHandle_t, void*, size_t);
using PFN_cublasGemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                            int, int, int, const void*, const void*, cudaDataType,
                                            int, const void*, cudaDataType, int, const void*, void*,
                                            cudaDataType, int, cublasComputeType_t,
                                            cublasGemmAlgo_t);
using PFN_cublasGemmStridedBatchedEx = cublasStatus_t (*)(
    cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*, const void*,
    cudaDataType, int, long long, const void*, cudaDataType, int, long long, const void*, void*,
    cudaDataType, int, long long, int, cublasComputeType_t, cublasGemmAlgo_t);

// Batched LU of small matrices (src/cuda/libraries/linalg_batched.cpp); one signature serves
// the S, D, C and Z variants, whose matrices are passed as arrays of device pointers.
using PFN_cublasGetrfBatched = cublasStatus_t (*)(cublasHandle_t, int, void* const[], int, int*,
                                                  int*, int);
using PFN_cublasGetrsBatched = cublasStatus_t (*)(cublasHandle_t, int, int, int,
                                                  const void* const[], int, const int*,
                                                  void* const[], int, int*, int);
using PFN_cublasGetriBatched = cublasStatus_t (*)(cublasHandle_t, int, const void* const[], int,
                                                  const int*, void* const[], int, int*, int);

}  // namespace accel::cuda::api
