#include "src/util/dynamic_library.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>

namespace accel::dynlib {

namespace {

bool is_dir(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool is_file(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

// Shared libraries in `dir` whose name starts with `stem`, sorted (deterministic).
std::vector<std::string> files_starting(const std::string& dir, const std::string& stem) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n.rfind(stem, 0) == 0 && n.find(".so") != std::string::npos && is_file(dir + "/" + n))
      out.push_back(dir + "/" + n);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace

std::vector<std::string> candidates(const Search& search,
                                    const std::vector<std::string>& site_dirs) {
  std::vector<std::string> out;
  // The files of `search.names` that exist in `dir`.
  auto add_dir = [&](const std::string& dir) {
    if (dir.empty() || !is_dir(dir)) return;
    for (const std::string& n : search.names) {
      if (const std::string p = dir + "/" + n; is_file(p)) add_unique(out, p);
    }
  };
  if (const char* env = search.env ? std::getenv(search.env) : nullptr; env && *env) {
    const std::string v = env;
    if (search.env_can_disable && (v == "0" || v == "off")) return out;
    if (!is_dir(v)) return {v};
    add_dir(v);
    if (out.empty() && !search.names.empty()) out.push_back(v + "/" + search.names[0]);
    return out;
  }
  for (const std::string& site : site_dirs) {
    if (site.empty()) continue;
    for (const std::string& sub : search.site_paths) {
      if (sub.empty() || sub.back() != '*') {
        add_dir(site + "/" + sub);
        continue;
      }
      const size_t slash = sub.rfind('/');
      const std::string dir = site + "/" + (slash == std::string::npos ? "" : sub.substr(0, slash));
      const std::string stem = sub.substr(slash + 1, sub.size() - slash - 2);
      for (const std::string& f : files_starting(dir, stem)) add_unique(out, f);
    }
  }
  if (search.cuda_toolkit) {
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
      if (const char* root = std::getenv(var); root && *root) {
        add_dir(std::string(root) + "/lib64");
        add_dir(std::string(root) + "/lib");
      }
    }
    add_dir("/usr/local/cuda/lib64");
    add_dir("/usr/local/cuda/lib");
  }
  for (const std::string& n : search.names) add_unique(out, n);
  return out;
}

void SiteDirs::add(const std::vector<std::string>& dirs) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& d : dirs) add_unique(dirs_, d);
}

std::vector<std::string> SiteDirs::get() const {
  std::vector<std::string> out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    out = dirs_;
  }
  out.push_back(own_site_dir());
  return out;
}

std::string own_site_dir() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&own_site_dir), &info) == 0 || !info.dli_fname) return {};
  std::string p = info.dli_fname;
  for (int up = 0; up < 2; ++up) {
    const size_t slash = p.rfind('/');
    if (slash == std::string::npos) return {};
    p.resize(slash);
  }
  return p;
}

Accept exporting(const char* symbol) {
  return [symbol](void* handle, const std::string& path) -> std::string {
    if (dlsym(handle, symbol)) return {};
    return path + ": does not export " + symbol;
  };
}

void* open_first(const std::vector<std::string>& candidates, LoadStatus& status,
                 const Accept& accept) {
  std::string load_error, rejected;
  for (const std::string& path : candidates) {
    status.tried.push_back(path);
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* e = dlerror();
      load_error = e ? std::string(e) : path + ": cannot be opened";
      continue;
    }
    if (std::string why = accept(h, path); !why.empty()) {
      rejected += (rejected.empty() ? "" : "; ") + why;
      dlclose(h);
      continue;
    }
    status.path = path;
    status.error.clear();
    return h;
  }
  status.error = !rejected.empty()     ? rejected
                 : !load_error.empty() ? load_error
                                       : "no candidate file found";
  return nullptr;
}

void* Symbols::address(const char* name) const { return dlsym(handle_, name); }

std::string Symbols::error(const std::string& path, const std::string& library,
                           const std::string& minimum) const {
  if (missing_.empty()) return {};
  if (found_ == 0) {
    return path + ": not " + library + " (does not export " +
           missing_.substr(0, missing_.find(',')) + ")";
  }
  return path + ": " + library + " entry points missing (" + library + " " + minimum +
         " or newer is needed): " + missing_;
}

}  // namespace accel::dynlib
