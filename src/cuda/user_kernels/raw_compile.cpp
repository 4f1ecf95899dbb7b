// Compiling users' programs (RawModule, SourceModule, ElementwiseKernel, ReductionKernel) with
// NVRTC: their own options, name expressions lowered to mangled names, the disk cache shared
// with generated kernels, and compile errors that carry the log and the lines it points at.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>

#include "accel/cuda.hpp"
#include "accel/device.hpp"
#include "accel/raw_kernel.hpp"
#include "src/cuda/jit/compiler.hpp"
#include "src/cuda/jit/kernel_cache_stats.hpp"
#include "src/cuda/user_kernels/include_search.hpp"
#include "src/user_kernels/program_cache.hpp"
#include "src/util/disk_cache.hpp"
#include "src/util/embedded_headers.hpp"

namespace accel::cuda {

namespace {

// Whether the user chose the architecture themselves.
bool has_arch_option(const std::vector<std::string>& options) {
  for (const std::string& o : options) {
    if (o.rfind("-arch", 0) == 0 || o.rfind("--gpu-architecture", 0) == 0) return true;
  }
  return false;
}

bool arch_option_makes_cubin(const std::vector<std::string>& options) {
  for (const std::string& o : options) {
    if (o.rfind("-arch", 0) == 0 || o.rfind("--gpu-architecture", 0) == 0) {
      return o.find("sm_") != std::string::npos;
    }
  }
  return true;
}

std::vector<std::string> nvrtc_options(const ProgramSpec& spec, int cc, bool& cubin) {
  std::vector<std::string> opts = spec.options;
  if (has_arch_option(opts)) {
    cubin = arch_option_makes_cubin(opts);
  } else {
    // The architecture choice of generated kernels: the device's own as a cubin, else PTX for
    // the newest architecture NVRTC knows.
    opts.push_back(compile_options(cc, cubin).back());
  }
  bool has_std = false;
  for (const std::string& o : opts) has_std = has_std || o.rfind("-std", 0) == 0;
  if (spec.with_prelude && !has_std) opts.push_back("-std=c++17");  // the headers need C++17
  // CUDA's own headers (cuda_fp16.h, ...), which NVRTC lacks, after the user's -I options.
  for (const std::string& d : cuda_include().dirs) opts.push_back("-I" + d);
  return opts;
}

// The image of a program with name expressions, framed so that the disk cache keeps the
// lowered names with it: "ACCLOWR1", count, then (length, text) pairs, then the image.
std::string frame(const ProgramImage& p) {
  std::string out = "ACCLOWR1";
  auto put = [&](const std::string& s) {
    const uint64_t n = s.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof(n));
    out += s;
  };
  put(std::to_string(p.lowered.size()));
  for (const auto& [expr, low] : p.lowered) {
    put(expr);
    put(low);
  }
  out += p.image;
  return out;
}

bool unframe(const std::string& data, ProgramImage& p) {
  if (data.compare(0, 8, "ACCLOWR1") != 0) return false;
  size_t at = 8;
  auto get = [&](std::string& s) {
    uint64_t n = 0;
    if (at + sizeof(n) > data.size()) return false;
    std::memcpy(&n, data.data() + at, sizeof(n));
    at += sizeof(n);
    if (at + n > data.size()) return false;
    s.assign(data, at, n);
    at += n;
    return true;
  };
  std::string count;
  if (!get(count)) return false;
  const size_t n = std::strtoull(count.c_str(), nullptr, 10);
  for (size_t i = 0; i < n; ++i) {
    std::string expr, low;
    if (!get(expr) || !get(low)) return false;
    p.lowered.emplace_back(std::move(expr), std::move(low));
  }
  p.image = data.substr(at);
  return true;
}

std::string key_text(const ProgramSpec& spec, const std::vector<std::string>& opts) {
  const Nvrtc* nv = nvrtc();
  std::string k = "accelpy user program v1\nnvrtc ";
  k += nv ? std::to_string(nv->major) + "." + std::to_string(nv->minor) : "?";
  k += "\noptions";
  for (const std::string& o : opts) k += " " + o;
  k += "\nnames";
  for (const std::string& e : spec.name_expressions) k += " " + std::to_string(e.size()) + ":" + e;
  k += spec.with_prelude ? "\nprelude " + program_prelude() : std::string("\nno prelude");
  if (spec.with_prelude) {
    for (int i = 0; i < util::kNumEmbeddedHeaders; ++i) k += util::kEmbeddedHeaders[i].text;
  }
  k += "\n";
  k += spec.code;
  return k;
}

}  // namespace

int default_compute_capability() {
  if (!is_available() || device_count() == 0) return 90;
  const Device d = default_device();
  const DeviceProperties p = device_properties(d.is_cuda() ? d.index : 0);
  return p.major * 10 + p.minor;
}

ProgramImage compile_user_program(const ProgramSpec& spec, int cc) {
  const Nvrtc* nv = nvrtc();
  if (!nv) {
    throw Error("cannot compile CUDA code: NVRTC is not available: " + nvrtc_status().error);
  }
  bool cubin = true;
  const std::vector<std::string> opts = nvrtc_options(spec, cc, cubin);
  const std::string key = key_text(spec, opts);
  const util::DiskCache cache = program_cache(spec);
  ProgramImage out;
  out.cubin = cubin;
  if (std::optional<CompiledImage> hit = cache.load(key)) {
    bool ok = true;
    if (!spec.name_expressions.empty()) {
      ok = unframe(hit->data, out);
    } else {
      out.image = std::move(hit->data);
    }
    if (ok) {
      out.cubin = hit->cubin;
      out.from_disk = true;
      record_disk_hit();
      return out;
    }
    out = ProgramImage{};
    out.cubin = cubin;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::string source = spec.with_prelude ? program_prelude() + spec.code : spec.code;
  const std::string file = (spec.name.empty() ? std::string("module") : spec.name) + ".cu";
  const NvrtcProgram prog(*nv, source, file, spec.with_prelude);
  api::nvrtcResult r;
  for (const std::string& e : spec.name_expressions) {
    r = nv->nvrtcAddNameExpression(prog.get(), e.c_str());
    if (r != api::NVRTC_SUCCESS) {
      throw ValueError("NVRTC refused the name expression '" + e +
                       "': " + nv->nvrtcGetErrorString(r));
    }
  }
  std::vector<const char*> copts;
  for (const std::string& o : opts) copts.push_back(o.c_str());
  r = nv->nvrtcCompileProgram(prog.get(), int(copts.size()), copts.data());
  out.log = prog.log();
  if (r != api::NVRTC_SUCCESS) {
    const std::string excerpt = offending_lines(source, out.log);
    std::string msg = "NVRTC could not compile '" + spec.name + "' (" + nv->nvrtcGetErrorString(r) +
                      "):\n" + out.log;
    if (!msg.empty() && msg.back() != '\n') msg += "\n";
    if (!excerpt.empty()) msg += "in the source:\n" + excerpt;
    msg += missing_header_hint(out.log, cuda_include(), nv->major, nv->minor);
    msg += "options:";
    for (const std::string& o : opts) msg += " " + o;
    throw CompileError(msg, out.log, spec.name, excerpt);
  }
  for (const std::string& e : spec.name_expressions) {
    const char* lowered = nullptr;
    r = nv->nvrtcGetLoweredName(prog.get(), e.c_str(), &lowered);
    if (r != api::NVRTC_SUCCESS || !lowered) {
      throw ValueError("NVRTC could not lower the name expression '" + e + "'");
    }
    out.lowered.emplace_back(e, lowered);
  }
  out.image = prog.image(cubin);
  record_compilation(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  CompiledImage stored;
  stored.cubin = cubin;
  stored.data = spec.name_expressions.empty() ? out.image : frame(out);
  cache.store(key, stored);
  return out;
}

}  // namespace accel::cuda
