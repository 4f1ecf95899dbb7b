#include "src/cuda/user_kernels/include_search.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "src/cuda/driver/loader.hpp"

namespace accel::cuda {

namespace {

bool is_file(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_dir(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// The CUDA version a header directory declares (12040 -> 12), 0 when it does not say.
int declared_major(const std::string& dir) {
  static const std::pair<const char*, const char*> kHeaders[] = {
      {"cuda_runtime_api.h", "#define CUDART_VERSION"}, {"cuda.h", "#define CUDA_VERSION"}};
  for (const auto& [file, define] : kHeaders) {
    std::ifstream f(dir + "/" + file);
    std::string line;
    while (f && std::getline(f, line)) {
      const size_t at = line.find(define);
      if (at == std::string::npos) continue;
      const long v = std::strtol(line.c_str() + at + std::string(define).size(), nullptr, 10);
      if (v >= 1000) return int(v / 1000);
    }
  }
  return 0;
}

// "cuda-12.4" -> (12, 4); "cuda-12" -> (12, -1); (0, 0) when not such a name.
std::pair<int, int> versioned_name(const std::string& name) {
  if (name.rfind("cuda-", 0) != 0 || name.size() < 6) return {0, 0};
  char* end = nullptr;
  const long major = std::strtol(name.c_str() + 5, &end, 10);
  if (end == name.c_str() + 5) return {0, 0};
  if (*end == '\0') return {int(major), -1};
  if (*end != '.') return {0, 0};
  return {int(major), int(std::strtol(end + 1, nullptr, 10))};
}

// The subdirectories of `dir` named cuda-<version>, newest first.
std::vector<std::string> versioned_subdirs(const std::string& dir) {
  std::vector<std::pair<std::pair<int, int>, std::string>> found;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      const auto v = versioned_name(e->d_name);
      if (v.first > 0) found.emplace_back(v, e->d_name);
    }
    closedir(d);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a > b; });
  std::vector<std::string> out;
  for (const auto& f : found) out.push_back(f.second);
  return out;
}

struct Search {
  const IncludeSearchInputs& in;
  IncludeSearchResult out;

  // Takes `dir` (and `companions` that exist) when it holds cuda_fp16.h of NVRTC's major
  // version (`major`: what the place's name says; else what its headers declare).
  bool take(const std::string& dir, int major = 0,
            const std::vector<std::string>& companions = {}) {
    out.tried.push_back(dir);
    if (!is_file(dir + "/cuda_fp16.h")) return false;
    if (major == 0) major = declared_major(dir);
    if (in.nvrtc_major != 0 && major != 0 && major != in.nvrtc_major) return false;
    out.dirs.push_back(dir);
    for (const std::string& c : companions) {
      if (is_dir(c)) out.dirs.push_back(c);
    }
    return true;
  }
};

}  // namespace

IncludeSearchResult find_cuda_include(const IncludeSearchInputs& in) {
  Search s{in, {}};
  if (!in.accelpy_cuda_include.empty()) {
    std::stringstream dirs(in.accelpy_cuda_include);
    std::string d;
    while (std::getline(dirs, d, ':')) {
      if (!d.empty()) s.out.dirs.push_back(d);
    }
    s.out.tried = s.out.dirs;
    return s.out;
  }
  for (const std::string& root : {in.cuda_path, in.cuda_home}) {
    if (!root.empty() && s.take(root + "/include")) return s.out;
  }
  // The wheels of NVRTC's own major version first.
  for (const std::string& site : in.site_dirs) {
    const std::string nv = site + "/nvidia/";
    const std::vector<std::string> beside = {nv + "cuda_cccl/include", nv + "cuda_nvrtc/include"};
    if (in.nvrtc_major == 0 || in.nvrtc_major >= 13) {
      if (s.take(nv + "cu13/include", 13)) return s.out;
    }
    if (s.take(nv + "cuda_runtime/include", 0, beside)) return s.out;
  }
  for (const std::string& site : in.site_dirs) {
    const std::string cupy = site + "/cupy/_core/include/cupy/_cuda/";
    for (const std::string& sub : versioned_subdirs(cupy)) {
      const auto [major, minor] = versioned_name(sub);
      if (in.nvrtc_major != 0 && major != in.nvrtc_major) continue;
      if (in.nvrtc_major != 0 && minor > in.nvrtc_minor) continue;  // newer than NVRTC
      if (s.take(cupy + sub, major)) return s.out;
    }
  }
  if (!in.conda_prefix.empty()) {
    if (s.take(in.conda_prefix + "/targets/x86_64-linux/include") ||
        s.take(in.conda_prefix + "/targets/sbsa-linux/include") ||
        s.take(in.conda_prefix + "/include")) {
      return s.out;
    }
  }
  if (s.take(in.usr_local + "/cuda/include")) return s.out;
  for (const std::string& sub : versioned_subdirs(in.usr_local)) {
    if (s.take(in.usr_local + "/" + sub + "/include", versioned_name(sub).first)) return s.out;
  }
  return s.out;
}

const IncludeSearchResult& cuda_include() {
  static const IncludeSearchResult* found = [] {
    IncludeSearchInputs in;
    in.accelpy_cuda_include = env("ACCELPY_CUDA_INCLUDE");
    in.cuda_path = env("CUDA_PATH");
    in.cuda_home = env("CUDA_HOME");
    in.conda_prefix = env("CONDA_PREFIX");
    in.site_dirs = search_dirs();
    if (const Nvrtc* nv = nvrtc()) {
      in.nvrtc_major = nv->major;
      in.nvrtc_minor = nv->minor;
    }
    return new IncludeSearchResult(find_cuda_include(in));
  }();
  return *found;
}

std::string missing_header_hint(const std::string& log, const IncludeSearchResult& found,
                                int nvrtc_major, int nvrtc_minor) {
  if (!found.dirs.empty()) return "";
  const size_t at = log.find("cannot open source file \"cuda");
  if (at == std::string::npos) return "";
  const std::string version = std::to_string(nvrtc_major) + "." + std::to_string(nvrtc_minor);
  std::string msg = "NVRTC " + version +
                    " could not open a CUDA header, and accelpy found no CUDA headers for it "
                    "(looked in";
  for (const std::string& d : found.tried) msg += " " + d;
  msg += "): install the CUDA runtime's headers of the same version (";
  msg += nvrtc_major >= 13 ? "pip install \"nvidia-cuda-runtime==" + version + ".*\""
                           : "pip install \"nvidia-cuda-runtime-cu" + std::to_string(nvrtc_major) +
                                 "==" + version + ".*\"";
  msg += ", or a CUDA toolkit), or set ACCELPY_CUDA_INCLUDE to a directory holding cuda_fp16.h\n";
  return msg;
}

}  // namespace accel::cuda
