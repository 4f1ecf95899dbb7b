#include "src/cuda/jit/compiler.hpp"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>

#include "accel/errors.hpp"
#include "src/cuda/jit/kernel_cache_stats.hpp"
#include "src/util/disk_cache.hpp"
#include "src/util/embedded_headers.hpp"
#include "src/util/hash.hpp"

namespace accel::cuda {

namespace {

// The text every program is compiled with besides its own code: the kernel headers and the
// prelude it starts with (a changed prelude must not load images built with the old one).
uint64_t headers_hash() {
  static const uint64_t h = [] {
    uint64_t v = 1469598103934665603ULL;
    for (int i = 0; i < util::kNumEmbeddedHeaders; ++i) {
      v = util::fnv1a(util::kEmbeddedHeaders[i].text, std::strlen(util::kEmbeddedHeaders[i].text),
                      v);
    }
    const char* prelude = util::kEmbeddedPrelude[0].text;
    return util::fnv1a(prelude, std::strlen(prelude), v);
  }();
  return h;
}

}  // namespace

std::string disk_key(const std::string& code, int cc, CompileTier tier) {
  const Nvrtc* nv = nvrtc();
  bool cubin = true;
  std::string k = "accelpy kernel cache v1\nnvrtc ";
  k += nv ? std::to_string(nv->major) + "." + std::to_string(nv->minor) : "?";
  k += "\noptions";
  for (const std::string& o : compile_options(cc, cubin, tier)) k += " " + o;
  k += "\nheaders " + util::hex64(headers_hash()) + "\n";
  k += code;
  return k;
}

void dump_source(const std::string& name, const std::string& source) {
  const char* dir = std::getenv("ACCELPY_DUMP_KERNELS");
  if (!dir || !*dir) return;
  util::make_private_dirs(dir);
  std::ofstream f(std::string(dir) + "/" + name + ".cu", std::ios::binary);
  f << source;
}

const std::string& program_prelude() {
  // prelude.cuh, embedded at build time (cmake/embed_headers.cmake).
  static const std::string prelude = util::kEmbeddedPrelude[0].text;
  return prelude;
}

CompiledImage compile_program(const std::string& code, int cc, const std::string& name,
                              CompileTier tier) {
  const Nvrtc* nv = nvrtc();
  if (!nv)
    throw Error("cannot compile CUDA kernels: NVRTC is not available: " + nvrtc_status().error);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string source = program_prelude() + code;
  const NvrtcProgram prog(*nv, source, name + ".cu", true);
  bool cubin = true;
  const std::vector<std::string> opts = compile_options(cc, cubin, tier);
  std::vector<const char*> copts;
  for (const std::string& o : opts) copts.push_back(o.c_str());
  api::nvrtcResult r;
  {
    // One compilation at a time: the automatic precompiled header is process-wide state, and
    // compilations in one process slow each other down (kernel_upgrades.hpp).
    static std::mutex* compile_mutex = new std::mutex;
    std::lock_guard<std::mutex> lock(*compile_mutex);
    r = nv->nvrtcCompileProgram(prog.get(), int(copts.size()), copts.data());
  }
  if (r != api::NVRTC_SUCCESS) {
    dump_source(name, source);
    throw Error("NVRTC failed to compile kernel " + name + " (" + nv->nvrtcGetErrorString(r) +
                "):\n" + prog.log() + "\n(set ACCELPY_DUMP_KERNELS=dir to keep the sources)");
  }
  CompiledImage img;
  img.cubin = cubin;
  img.data = prog.image(cubin);
  record_compilation(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return img;
}

NvrtcProgram::NvrtcProgram(const Nvrtc& nv, const std::string& source, const std::string& file,
                           bool with_headers)
    : nv_(nv) {
  std::vector<const char*> hdr_text, hdr_name;
  for (int i = 0; with_headers && i < util::kNumEmbeddedHeaders; ++i) {
    // By the bare name the headers include each other with (#pragma once goes by name).
    hdr_text.push_back(util::kEmbeddedHeaders[i].text);
    hdr_name.push_back(util::kEmbeddedHeaders[i].name);
  }
  const api::nvrtcResult r = nv.nvrtcCreateProgram(
      &prog_, source.c_str(), file.c_str(), int(hdr_text.size()), hdr_text.data(), hdr_name.data());
  if (r != api::NVRTC_SUCCESS) {
    throw Error(std::string("nvrtcCreateProgram failed: ") + nv.nvrtcGetErrorString(r));
  }
}

NvrtcProgram::~NvrtcProgram() { nv_.nvrtcDestroyProgram(&prog_); }

std::string NvrtcProgram::log() const {
  size_t n = 0;
  std::string log;
  if (nv_.nvrtcGetProgramLogSize(prog_, &n) == api::NVRTC_SUCCESS && n > 1) {
    log.resize(n);
    nv_.nvrtcGetProgramLog(prog_, log.data());
    log.resize(n - 1);
  }
  return log;
}

std::string NvrtcProgram::image(bool cubin) const {
  size_t n = 0;
  std::string image;
  if (cubin) {
    if (nv_.nvrtcGetCUBINSize(prog_, &n) != api::NVRTC_SUCCESS)
      throw Error("nvrtcGetCUBINSize failed");
    image.resize(n);
    if (nv_.nvrtcGetCUBIN(prog_, image.data()) != api::NVRTC_SUCCESS)
      throw Error("nvrtcGetCUBIN failed");
  } else {
    if (nv_.nvrtcGetPTXSize(prog_, &n) != api::NVRTC_SUCCESS) throw Error("nvrtcGetPTXSize failed");
    image.resize(n);
    if (nv_.nvrtcGetPTX(prog_, image.data()) != api::NVRTC_SUCCESS)
      throw Error("nvrtcGetPTX failed");
  }
  return image;
}

}  // namespace accel::cuda
