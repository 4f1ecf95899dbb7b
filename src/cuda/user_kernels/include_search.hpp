// Where CUDA's own headers (cuda_fp16.h, cuda_bf16.h and what they include) are, for NVRTC to
// compile users' programs that include them: NVRTC has none of them built in, and a machine
// with only pip wheels (PyTorch's nvidia-* wheels, CuPy) and a driver has no toolkit install.
// Searched as CuPy searches for its NVRTC programs, in order; the first place holding
// cuda_fp16.h whose CUDA major version (when it tells) is NVRTC's wins:
//   1. ACCELPY_CUDA_INCLUDE: ':'-separated directories, used as given (nothing else searched);
//   2. $CUDA_PATH/include, $CUDA_HOME/include;
//   3. NVIDIA's wheels in each site-packages directory: nvidia/cu13/include (CUDA 13 wheels),
//      nvidia/cuda_runtime/include (nvidia-cuda-runtime-cu12), with nvidia/cuda_cccl/include
//      and nvidia/cuda_nvrtc/include beside it when present;
//   4. CuPy's copy of cuda_fp16.h: cupy/_core/include/cupy/_cuda/cuda-<major.minor> or
//      cuda-<major> (half precision only);
//   5. conda: $CONDA_PREFIX/targets/<arch>-linux/include, $CONDA_PREFIX/include;
//   6. /usr/local/cuda/include, then /usr/local/cuda-<version>/include, newest first.
#pragma once

#include <string>
#include <vector>

namespace accel::cuda {

// What the search reads, so that tests can give it a fake file tree.
struct IncludeSearchInputs {
  std::string accelpy_cuda_include;  // $ACCELPY_CUDA_INCLUDE
  std::string cuda_path, cuda_home, conda_prefix;
  std::vector<std::string> site_dirs;  // site-packages directories, in sys.path's order
  std::string usr_local = "/usr/local";
  int nvrtc_major = 0, nvrtc_minor = 0;  // 0: any version
};

struct IncludeSearchResult {
  std::vector<std::string> dirs;   // the directories to pass with -I; empty: none found
  std::vector<std::string> tried;  // every place looked, in order (for the error message)
};

IncludeSearchResult find_cuda_include(const IncludeSearchInputs& in);

// The search for this process (environment, the registered site-packages directories, the
// loaded NVRTC's version), done once.
const IncludeSearchResult& cuda_include();

// A line for NVRTC's error when a program's #include of a CUDA header failed and the search
// found nothing: what was searched and what to install. Empty when the log shows no such
// failure or the search found a directory.
std::string missing_header_hint(const std::string& log, const IncludeSearchResult& found,
                                int nvrtc_major, int nvrtc_minor);

}  // namespace accel::cuda
