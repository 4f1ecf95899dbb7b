// The run-time library loader shared by the CUDA and BLAS loaders: the search order, the
// environment override, file-name prefixes under site-packages, and why a library was passed over.
#include "src/util/dynamic_library.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

namespace accel::dynlib {
namespace {

constexpr const char* kEnv = "ACCELPY_TEST_DYNLIB";

struct TempSite {
  std::string path;
  TempSite() {
    char tmpl[] = "/tmp/accelpy_dynlib_test_XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempSite() { std::system(("rm -rf '" + path + "'").c_str()); }
  // Creates an (empty) file at `rel`, with its directories.
  std::string touch(const std::string& rel) const {
    std::string dir = path;
    for (size_t at = 0, slash; (slash = rel.find('/', at)) != std::string::npos; at = slash + 1) {
      dir = path + "/" + rel.substr(0, slash);
      mkdir(dir.c_str(), 0700);
    }
    std::ofstream(path + "/" + rel) << "";
    return path + "/" + rel;
  }
};

struct EnvVar {
  explicit EnvVar(const char* value) { setenv(kEnv, value, 1); }
  ~EnvVar() { unsetenv(kEnv); }
};

Search test_search() {
  return {kEnv, true, {"libfoo.so.2", "libfoo.so"}, {"pkg/lib", "libs/libbar*"}, false};
}

TEST(DynamicLibrary, SiteDirectoriesThenBareNames) {
  TempSite site;
  const std::string foo2 = site.touch("pkg/lib/libfoo.so.2");
  const std::string foo = site.touch("pkg/lib/libfoo.so");
  const std::string bar_b = site.touch("libs/libbar_b.so.1");
  const std::string bar_a = site.touch("libs/libbar_a-1234.so");
  site.touch("libs/libbaz.so");         // another prefix
  site.touch("libs/libbar_notes.txt");  // not a shared library
  const std::vector<std::string> c =
      candidates(test_search(), {site.path, "/nonexistent", site.path});
  const std::vector<std::string> want = {foo2, foo, bar_a, bar_b, "libfoo.so.2", "libfoo.so"};
  EXPECT_EQ(c, want);
}

TEST(DynamicLibrary, EnvOverrideIsTheOnlyPlace) {
  TempSite site;
  {
    const EnvVar env("/nonexistent/libmine.so");
    EXPECT_EQ(candidates(test_search(), {site.path}),
              std::vector<std::string>{"/nonexistent/libmine.so"});
  }
  {
    // A directory: searched for the names; without them, reported as the first name's path.
    const EnvVar env(site.path.c_str());
    EXPECT_EQ(candidates(test_search(), {}), std::vector<std::string>{site.path + "/libfoo.so.2"});
    const std::string foo = site.touch("libfoo.so");
    EXPECT_EQ(candidates(test_search(), {}), std::vector<std::string>{foo});
  }
  {
    const EnvVar env("off");
    EXPECT_TRUE(candidates(test_search(), {site.path}).empty());
    Search s = test_search();
    s.env_can_disable = false;
    EXPECT_EQ(candidates(s, {}), std::vector<std::string>{"off"});
  }
}

TEST(DynamicLibrary, OpenFirstSaysWhyEachWasPassedOver) {
  LoadStatus s;
  EXPECT_EQ(open_first({"/nonexistent/libnone.so"}, s, exporting("cos")), nullptr);
  EXPECT_NE(s.error.find("/nonexistent/libnone.so"), std::string::npos) << s.error;
  EXPECT_EQ(s.tried, std::vector<std::string>{"/nonexistent/libnone.so"});

  // A library that opened but was rejected explains more than a later one that did not open.
  LoadStatus r;
  EXPECT_EQ(open_first({"libm.so.6", "/nonexistent/libnone.so"}, r, exporting("no_such_fn")),
            nullptr);
  EXPECT_NE(r.error.find("libm.so.6: does not export no_such_fn"), std::string::npos) << r.error;
  EXPECT_EQ(r.tried.size(), 2u);
  EXPECT_FALSE(r.ok);

  LoadStatus none;
  EXPECT_EQ(open_first({}, none, exporting("cos")), nullptr);
  EXPECT_FALSE(none.error.empty());
}

TEST(DynamicLibrary, OpenFirstTakesTheFirstAccepted) {
  LoadStatus s;
  const auto reject_first = [n = 0](void*, const std::string& path) mutable -> std::string {
    return n++ == 0 ? path + ": not this one" : "";
  };
  void* h = open_first({"libm.so.6", "libc.so.6"}, s, reject_first);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(s.path, "libc.so.6");
  EXPECT_TRUE(s.error.empty()) << s.error;
  EXPECT_EQ(s.tried.size(), 2u);
  dlclose(h);
}

TEST(DynamicLibrary, SymbolsRecordWhatIsMissing) {
  void* h = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(h, nullptr);
  Symbols symbols(h);
  double (*cos_fn)(double) = nullptr;
  double (*absent)(double) = nullptr;
  double (*optional)(double) = nullptr;
  EXPECT_TRUE(symbols.need("cos", cos_fn));
  ASSERT_NE(cos_fn, nullptr);
  EXPECT_EQ(cos_fn(0.0), 1.0);
  EXPECT_TRUE(symbols.missing().empty());
  EXPECT_FALSE(symbols.want("accelpy_optional_fn", optional));
  EXPECT_TRUE(symbols.missing().empty());  // optional ones are not missing
  EXPECT_FALSE(symbols.need("accelpy_absent_a", absent));
  EXPECT_FALSE(symbols.need("accelpy_absent_b", absent));
  EXPECT_EQ(symbols.missing(), "accelpy_absent_a, accelpy_absent_b");
  EXPECT_EQ(symbols.error("libm.so.6", "libmore", "2"),
            "libm.so.6: libmore entry points missing (libmore 2 or newer is needed): "
            "accelpy_absent_a, accelpy_absent_b");
  // A library with none of them is another library altogether.
  Symbols other(h);
  EXPECT_FALSE(other.need("accelpy_absent_a", absent));
  EXPECT_FALSE(other.need("accelpy_absent_b", absent));
  EXPECT_EQ(other.error("libm.so.6", "libmore", "2"),
            "libm.so.6: not libmore (does not export accelpy_absent_a)");
  Symbols complete(h);
  EXPECT_TRUE(complete.need("sin", cos_fn));
  EXPECT_EQ(complete.error("libm.so.6", "libm", "1"), "");
  dlclose(h);
}

}  // namespace
}  // namespace accel::dynlib
