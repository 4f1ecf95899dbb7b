#include "src/cpu/user_kernels/compile.hpp"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "accel/cpu_user_kernels.hpp"
#include "src/user_kernels/program_cache.hpp"
#include "src/util/compile_counts.hpp"
#include "src/util/disk_cache.hpp"
#include "src/util/embedded_headers.hpp"
#include "src/util/hash.hpp"

namespace accel::cpu {

namespace {

bool executable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return executable(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string p = (dir.empty() ? "." : dir) + "/" + name;
    if (executable(p)) return p;
  }
  return "";
}

}  // namespace

std::string find_cxx_compiler() {
  static const std::string found = [] {
    if (const char* cxx = std::getenv("CXX"); cxx && *cxx) {
      const std::string p = on_path(cxx);
      if (!p.empty()) return p;
    }
    for (const char* name : {"c++", "g++", "clang++"}) {
      const std::string p = on_path(name);
      if (!p.empty()) return p;
    }
    return std::string();
  }();
  if (found.empty()) {
    throw Error(
        "running CUDA kernels on the CPU needs a C++ compiler, and none was found ($CXX, c++, "
        "g++, clang++): install one (apt install g++, dnf install gcc-c++, xcode-select "
        "--install) or set CXX to its path");
  }
  return found;
}

bool kernels_forced_on_cpu() {
  const char* v = std::getenv("ACCELPY_KERNELS_ON_CPU");
  return v && *v && std::string(v) != "0";
}

bool kernel_regions_allowed() {  // declared in compile.hpp
  const char* v = std::getenv("ACCELPY_KERNEL_REGIONS");
  return !v || std::string(v) != "0";
}

bool kernel_check_requested() {  // declared in compile.hpp
  const char* v = std::getenv("ACCELPY_KERNEL_CHECK");
  return v && *v && std::string(v) != "0";
}

}  // namespace accel::cpu

namespace accel::cpu::user_kernels {

bool checked_build(const ProgramSpec& spec) {
  if (kernel_check_requested()) return true;
  for (const std::string& o : spec.options) {
    if (o == "-DACCELPY_KERNEL_CHECK" || o.rfind("-DACCELPY_KERNEL_CHECK=", 0) == 0) return true;
  }
  return false;
}

namespace {

// NVRTC options that mean nothing on the CPU, ignored; -D, -U, -I and -std pass through.
bool ignored_option(const std::string& o) {
  static const char* const prefixes[] = {"-arch",
                                         "--gpu-architecture",
                                         "-lineinfo",
                                         "--generate-line-info",
                                         "-G",
                                         "--device-debug",
                                         "-rdc",
                                         "--relocatable-device-code",
                                         "-maxrregcount",
                                         "--maxrregcount",
                                         "--use_fast_math",
                                         "-use_fast_math",
                                         "-ftz",
                                         "--ftz",
                                         "-prec-div",
                                         "--prec-div",
                                         "-prec-sqrt",
                                         "--prec-sqrt",
                                         "-fmad",
                                         "--fmad",
                                         "--extra-device-vectorization",
                                         "-dopt",
                                         "--dopt",
                                         "-default-device",
                                         "--expt-relaxed-constexpr",
                                         "-expt-relaxed-constexpr",
                                         "--extended-lambda",
                                         "-dw",
                                         "-w",
                                         "--Ofast-compile",
                                         "--minimal",
                                         "--pch",
                                         "-restrict",
                                         "--restrict",
                                         "-dlto",
                                         "--dlto"};
  for (const char* p : prefixes) {
    if (o.rfind(p, 0) == 0) return true;
  }
  return false;
}

// Whether `cxx` is GCC (not clang, which also answers to g++ on some systems): by the name of
// the file it resolves to where that tells (x86_64-linux-gnu-g++-12, clang++-14), else by asking
// it. Asking costs a process (tens of milliseconds on a loaded machine), which a disk-cache hit
// in a new process would pay: its key holds the flags, and they depend on the answer.
bool ask_is_gcc(const std::string& cxx) {
  char real[4096];
  if (realpath(cxx.c_str(), real)) {
    const std::string path = real;
    const std::string base = path.substr(path.rfind('/') + 1);
    if (base.find("clang") != std::string::npos) return false;
    if (base.find("g++") != std::string::npos || base.find("gcc") != std::string::npos) {
      return true;
    }
  }
  FILE* p = popen(("'" + cxx + "' --version 2>/dev/null").c_str(), "r");
  if (!p) return false;
  std::string out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  return out.find("clang") == std::string::npos &&
         out.find("Free Software Foundation") != std::string::npos;
}

bool is_gcc(const std::string& cxx) {
  static const bool gcc = ask_is_gcc(cxx);
  return gcc;
}

// glibc 2.40 fixed the clobbering of vector registers in the dynamic-TLS slow path of TLS
// descriptors (bug 31372).
[[maybe_unused]] bool tls_descriptors_are_safe() {
#if defined(__GLIBC__)
  int major = 0, minor = 0;
  if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2) return false;
  return major > 2 || (major == 2 && minor >= 40);
#else
  return false;
#endif
}

// No barrier or warp primitive anywhere: every kernel runs as a plain loop over a block's
// threads, reading its coordinates from __accel_plain (cuda_prelude.h); the checked mode reads
// them through __accel_self.
bool plain_program(const ScannedSource& s, bool checked) { return !s.barriers && !checked; }

std::vector<std::string> compiler_flags(const ProgramSpec& spec, const std::string& cxx,
                                        bool checked, bool regions, bool plain) {
  const bool gcc = is_gcc(cxx);
  // -O3 and -fno-trapping-math let GCC vectorize a plain loop over a block's threads (D72): the
  // former allows runtime alias checks, the latter computing `a[i] + b[i]` under a mask where
  // the kernel tests `if (i < n)` (CUDA has no floating-point traps; results are unchanged,
  // contraction stays off under -std=c++NN).
  std::vector<std::string> f = {"-std=c++17",
                                "-O3",
                                "-march=native",
                                "-fPIC",
                                "-shared",
                                "-fno-math-errno",
                                "-fno-trapping-math",
                                "-fno-semantic-interposition",
                                "-pthread"};
  // GCC makes template statics and the static locals of inline functions (a template kernel's
  // __shared__ arrays, the entry points' parameter tables) process-wide unique symbols, which
  // would join same-named entities of different modules despite RTLD_LOCAL.
  if (gcc) f.push_back("-fno-gnu-unique");
#if defined(__x86_64__)
  // __shared__ arrays and the current thread are thread-local in a dlopen'ed object: with TLS
  // descriptors GCC resolves their address once per kernel call instead of calling
  // __tls_get_addr after every barrier (a fiber never leaves its OS thread, so the address
  // holds). Not for plain programs, which reach their thread-local state once per block: GCC
  // keeps vector registers live across a descriptor call, and glibc before 2.40 clobbers them
  // on a thread's first access to a module in dynamic TLS (glibc bug 31372; a vectorized
  // `x[i] * f` lost its broadcast f once earlier modules had used up the static TLS). A users'
  // fiber or region kernel may hold vector values there too, so older glibc gets no
  // descriptors at all: a wrong result costs more than their ~20% on barrier-heavy kernels.
  if (gcc && !plain && tls_descriptors_are_safe()) f.push_back("-mtls-dialect=gnu2");
#endif
  if (checked) f.push_back("-DACCELPY_KERNEL_CHECK=1");
  // Coroutines (GCC 10 and later) in whatever standard the program asks for.
  if (regions) f.push_back("-fcoroutines");
  for (const std::string& o : spec.options) {
    if (o.rfind("-D", 0) == 0 || o.rfind("-U", 0) == 0 || o.rfind("-I", 0) == 0 ||
        o.rfind("-std", 0) == 0 || o.rfind("--std", 0) == 0) {
      f.push_back(o.rfind("--std", 0) == 0 ? o.substr(1) : o);
    } else if (!ignored_option(o)) {
      throw CompileError(
          "the option '" + o + "' is not known (compiling '" + spec.name + "' for the CPU)",
          "error: unknown option '" + o + "'", spec.name, "");
    }
  }
  return f;
}

std::string file_name(const ProgramSpec& spec) {
  return (spec.name.empty() ? std::string("module") : spec.name) + ".cu";
}

// A file of the CPU prelude (cuda_prelude.h and the headers beside it, embedded by CMake).
const char* prelude_file(const char* name) {
  for (int i = 0; i < util::kNumCpuKernelPrelude; ++i) {
    if (std::string(util::kCpuKernelPrelude[i].name) == name)
      return util::kCpuKernelPrelude[i].text;
  }
  throw Error(std::string("the CPU kernel prelude lacks ") + name);
}

std::string full_source(const ProgramSpec& spec, const ScannedSource& s, bool checked,
                        std::vector<std::string>& entries, std::vector<std::string>& names) {
  // accelpy's float16 and bfloat16, compiled for the host, for cuda_fp16.h and cuda_bf16.h.
  std::string src = s.regions ? "#define ACCEL_CPU_REGIONS 1\n" : "";
  if (plain_program(s, checked)) src += "#define ACCEL_CPU_PLAIN 1\n";
  src += "#include \"half.h\"\n#line 1 \"accelpy_cpu_prelude.h\"\n";
  src += util::kCpuKernelPrelude[0].text;
  if (s.regions) {
    src += "\n#line 1 \"accelpy_cpu_regions.h\"\n";
    src += prelude_file("cuda_regions.h");
  }
  if (checked) {
    src += "\n#line 1 \"accelpy_cpu_checked.h\"\n";
    src += prelude_file("cuda_checked.h");
  }
  // accelpy's scalar types (accel::float16, accel::complex64, ...), as NVRTC programs get them;
  // the headers are compiled for the host, as the CPU backend compiles them (without the
  // prelude's CUDA macros, which select their NVRTC paths).
  if (spec.with_prelude) {
    static const char* const kMacros[] = {"__CUDACC__", "__CUDA_ARCH__", "__CUDACC_RTC__"};
    src += "\n#include <math.h>\n";
    for (const char* m : kMacros) {
      src += std::string("#pragma push_macro(\"") + m + "\")\n#undef " + m + "\n";
    }
    src += "#include \"half.h\"\n#include \"complex_math.h\"\n";
    for (const char* m : kMacros) src += std::string("#pragma pop_macro(\"") + m + "\")\n";
  }
  src += "\n#line 1 \"" + file_name(spec) + "\"\n";
  src += s.code;
  src += "\n#line 1 \"<accelpy kernel entries>\"\n";
  for (const std::string& k : s.kernels) {
    entries.push_back("__accelpy_kernel_" + std::to_string(entries.size()));
    names.push_back(k);
    src += "ACCEL_CPU_KERNEL(" + entries.back() + ", " + k + ")\n";
  }
  for (const std::string& e : spec.name_expressions) {
    entries.push_back("__accelpy_kernel_" + std::to_string(entries.size()));
    names.push_back(e);
    src += "ACCEL_CPU_KERNEL(" + entries.back() + ", " + e + ")\n";
  }
  return src;
}

std::string compiler_identity(const std::string& cxx) {
  struct stat st {};
  char real[4096];
  const std::string path = realpath(cxx.c_str(), real) ? std::string(real) : cxx;
  stat(path.c_str(), &st);
  return path + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtime);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// The compiler's "file.cu:12:5: error: ..." lines in NVRTC's "file.cu(12): error: ..." form, so
// that offending_lines finds them.
std::string as_nvrtc_log(const std::string& log, const std::string& file) {
  std::string out;
  std::istringstream in(log);
  std::string line;
  const std::string head = file + ":";
  while (std::getline(in, line)) {
    const size_t at = line.find(head);
    if (at == std::string::npos) continue;
    const size_t num = at + head.size();
    const size_t colon = line.find(':', num);
    if (colon == std::string::npos) continue;
    const std::string n = line.substr(num, colon - num);
    if (n.empty() || n.find_first_not_of("0123456789") != std::string::npos) continue;
    out += file + "(" + n + "): " + line.substr(colon + 1) + "\n";
  }
  return out;
}

// The headers a CPU program may include (besides the C++ library's): accelpy's kernel headers
// ("half.h", ...) and CUDA's that the prelude stands in for (<cuda_fp16.h>, <cuda_bf16.h>),
// written into `dir` for one compilation. Returns the paths written.
std::vector<std::string> write_headers(const std::string& dir) {
  std::vector<std::string> paths;
  auto write = [&](const std::string& sub, const char* name, const char* text) {
    paths.push_back(dir + "/" + sub + "/" + name);
    std::ofstream h(paths.back(), std::ios::binary);
    h << text;
  };
  mkdir((dir + "/include").c_str(), 0700);
  mkdir((dir + "/cuda").c_str(), 0700);
  for (int i = 0; i < util::kNumEmbeddedHeaders; ++i) {
    write("include", util::kEmbeddedHeaders[i].name, util::kEmbeddedHeaders[i].text);
  }
  for (int i = 0; i < util::kNumCpuKernelPrelude; ++i) {
    const std::string name = util::kCpuKernelPrelude[i].name;
    if (name.rfind("cuda_fp16", 0) == 0 || name.rfind("cuda_bf16", 0) == 0) {
      write("cuda", util::kCpuKernelPrelude[i].name, util::kCpuKernelPrelude[i].text);
    }
  }
  return paths;
}

// The headers a program may include, as a digest computed once per process rather than their
// text (about 150 KB) in every key: they are this build's constants.
const std::string& headers_digest() {
  static const std::string digest = [] {
    std::string all;
    for (int i = 0; i < util::kNumEmbeddedHeaders; ++i) {
      all += util::kEmbeddedHeaders[i].name;
      all += '\0';
      all += util::kEmbeddedHeaders[i].text;
    }
    for (int i = 1; i < util::kNumCpuKernelPrelude; ++i) {
      all += util::kCpuKernelPrelude[i].name;
      all += '\0';
      all += util::kCpuKernelPrelude[i].text;
    }
    const uint64_t a = util::fnv1a(all.data(), all.size());
    const uint64_t b = util::fnv1a(all.data(), all.size(), a ^ 0x9e3779b97f4a7c15ULL);
    return "\nheaders " + util::hex64(a) + util::hex64(b) + " " + std::to_string(all.size());
  }();
  return digest;
}

}  // namespace

namespace {

BuiltProgram build_as(const ProgramSpec& spec, const std::string& cxx, bool regions_allowed) {
  BuiltProgram out;
  const bool checked = checked_build(spec);
  out.checked = checked;
  out.scanned = scan_source(spec.code, checked, regions_allowed);
  const std::vector<std::string> flags =
      compiler_flags(spec, cxx, checked, out.scanned.regions, plain_program(out.scanned, checked));
  const std::string source = full_source(spec, out.scanned, checked, out.entries, out.kernel_names);
  // Keyed without the module's name (which only names the file in messages), as NVRTC's are.
  std::string key = "accelpy cpu user program v3\ncompiler " + compiler_identity(cxx) + "\nflags";
  for (const std::string& f : flags) key += " " + f;
  ProgramSpec unnamed = spec;
  unnamed.name = "module";
  std::vector<std::string> unused_entries, unused_names;
  key += "\n" + full_source(unnamed, out.scanned, checked, unused_entries, unused_names);
  key += headers_digest();
  const util::DiskCache cache = program_cache(spec);
  if (std::optional<util::CompiledImage> hit = cache.load(key)) {
    out.shared_object = std::move(hit->data);
    out.from_disk = true;
    util::record_disk_hit();
    return out;
  }
  const auto t0 = std::chrono::steady_clock::now();
  char dir_template[] = "/tmp/accelpy-cxx-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (!dir) throw Error("cannot create a temporary directory to compile a kernel for the CPU");
  const std::string d = dir, src_path = d + "/" + file_name(spec) + ".cpp", so = d + "/k.so",
                    log_path = d + "/log";
  {
    std::ofstream f(src_path, std::ios::binary);
    f << source;
  }
  const std::vector<std::string> header_paths = write_headers(d);
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return q + "'";
  };
  std::string cmd = quote(cxx);
  for (const std::string& f : flags) cmd += " " + quote(f);
  // -iquote: the headers include each other by name, and their math.h must not hide <math.h>.
  cmd += " -iquote " + quote(d + "/include") + " -I " + quote(d + "/cuda");
  cmd += " -o " + quote(so) + " " + quote(src_path) + " > " + quote(log_path) + " 2>&1";
  const int status = std::system(cmd.c_str());
  out.log = read_file(log_path);
  const bool ok = status == 0;
  if (ok) out.shared_object = read_file(so);
  for (const std::string& p : {src_path, so, log_path}) std::remove(p.c_str());
  for (const std::string& p : header_paths) std::remove(p.c_str());
  rmdir((d + "/include").c_str());
  rmdir((d + "/cuda").c_str());
  rmdir(d.c_str());
  if (!ok || out.shared_object.empty()) {
    const std::string file = file_name(spec);
    const std::string excerpt = offending_lines(spec.code, as_nvrtc_log(out.log, file));
    std::string msg = "the C++ compiler (" + cxx + ") could not compile '" + spec.name +
                      "' for the CPU:\n" + out.log;
    if (!msg.empty() && msg.back() != '\n') msg += "\n";
    if (!excerpt.empty()) msg += "in the source:\n" + excerpt;
    msg += "options:";
    for (const std::string& f : flags) msg += " " + f;
    throw CompileError(msg, out.log, spec.name, excerpt);
  }
  util::record_compilation(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  cache.store(key, util::CompiledImage{out.shared_object, false});
  return out;
}

}  // namespace

BuiltProgram build_program(const ProgramSpec& spec) {
  if (!spec.image.empty()) {
    throw ValueError(
        "a compiled GPU image (cubin, PTX, fatbin) cannot run on the CPU: give the "
        "module's CUDA C source instead");
  }
  const std::string cxx = find_cxx_compiler();
  // Region-based execution where the source allows it (source_scan.hpp), with GCC; should the
  // coroutine rewrite not compile (a use the scanner cannot see, such as a macro that names
  // __syncthreads outside the kernel), the fibers run the same source.
  if (is_gcc(cxx) && kernel_regions_allowed()) {
    try {
      return build_as(spec, cxx, true);
    } catch (const CompileError&) {
      if (!scan_source(spec.code, checked_build(spec), true).regions) throw;
    }
  }
  return build_as(spec, cxx, false);
}

}  // namespace accel::cpu::user_kernels
