#include "src/cpu/user_kernels/source_scan.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

namespace accel::cpu::user_kernels {

namespace {

// `code` with comments, string and character literals blanked (same length and newlines), so
// that braces and names are found only in code.
std::string code_only(const std::string& s) {
  std::string out = s;
  size_t i = 0;
  while (i < s.size()) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') out[i++] = ' ';
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? s.size() : end + 2;
      for (; i < stop; ++i) {
        if (out[i] != '\n') out[i] = ' ';
      }
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i++];
      while (i < s.size() && s[i] != q && s[i] != '\n') {
        if (s[i] == '\\') out[i++] = ' ';
        if (i < s.size()) out[i++] = ' ';
      }
      ++i;
    } else {
      ++i;
    }
  }
  return out;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

ScannedSource scan_source(const std::string& code) {
  ScannedSource out;
  const std::string c = code_only(code);
  static const std::regex barrier(
      R"(\b(__syncthreads\w*|__syncwarp|__shfl\w*|__ballot_sync|__any_sync|__all_sync|__activemask|__reduce_\w+_sync)\b)");
  out.barriers = std::regex_search(c, barrier);

  // Brace scopes: those opened by `extern "C"` are transparent, any other hides its contents
  // (namespaces, classes, function bodies) from the kernel search.
  std::vector<bool> transparent;
  size_t opaque_depth = 0;
  std::vector<std::pair<size_t, size_t>> dyn_shared;  // (begin, end) of each declaration
  for (size_t i = 0; i < c.size(); ++i) {
    const char ch = c[i];
    if (ch == '{') {
      size_t j = i;
      while (j > 0 && std::isspace(static_cast<unsigned char>(c[j - 1]))) --j;
      // code_only blanked the "C": `extern "C" {` reads `extern     {`.
      const bool ext = j >= 6 && c.compare(j - 6, 6, "extern") == 0;
      transparent.push_back(ext);
      if (!ext) ++opaque_depth;
    } else if (ch == '}') {
      if (!transparent.empty()) {
        if (!transparent.back()) --opaque_depth;
        transparent.pop_back();
      }
    } else if (c.compare(i, 10, "__global__") == 0 && (i == 0 || !is_ident(c[i - 1])) &&
               !is_ident(c[i + 10]) && opaque_depth == 0) {
      // The declaration starts after the previous ; { or }: a template is skipped.
      const size_t start = c.find_last_of(";{}", i);
      const size_t from = start == std::string::npos ? 0 : start;
      const std::string head = c.substr(from, i - from);
      if (std::regex_search(head, std::regex(R"(\btemplate\b)"))) continue;
      size_t j = i + 10;
      std::string last;
      while (j < c.size()) {
        if (std::isspace(static_cast<unsigned char>(c[j])) || c[j] == '*' || c[j] == '&') {
          ++j;
        } else if (is_ident(c[j])) {
          const size_t b = j;
          while (j < c.size() && is_ident(c[j])) ++j;
          last = c.substr(b, j - b);
        } else if (c[j] == '(') {
          if (last == "__launch_bounds__" || last == "__align__" || last == "__attribute__") {
            int depth = 0;
            do {
              depth += c[j] == '(' ? 1 : c[j] == ')' ? -1 : 0;
              ++j;
            } while (j < c.size() && depth > 0);
            last.clear();
            continue;
          }
          break;
        } else {
          last.clear();
          break;
        }
      }
      if (!last.empty() &&
          std::find(out.kernels.begin(), out.kernels.end(), last) == out.kernels.end()) {
        out.kernels.push_back(last);
      }
    } else if (c.compare(i, 6, "extern") == 0 && (i == 0 || !is_ident(c[i - 1]))) {
      static const std::regex decl(R"(^extern\s+__shared__\s+[^;\[]*?\s*\b\w+\s*\[\s*\]\s*;)");
      std::smatch m;
      const std::string tail = c.substr(i, std::min<size_t>(400, c.size() - i));
      if (std::regex_search(tail, m, decl)) dyn_shared.emplace_back(i, i + size_t(m.length(0)));
    }
  }
  // Rewrite the extern __shared__ declarations, keeping the line count (a #define needs lines
  // of its own, so a global one takes the declaration's line and the next).
  out.code.clear();
  size_t at = 0;
  for (const auto& [b, e] : dyn_shared) {
    out.code.append(code, at, b - at);
    std::smatch m;
    const std::string decl_text = c.substr(b, e - b);
    static const std::regex decl(R"(^extern\s+__shared__\s+([^;\[]*?)\s*\b(\w+)\s*\[\s*\]\s*;)");
    std::regex_search(decl_text, m, decl);
    const std::string type =
        std::regex_replace(m[1].str(), std::regex(R"(__align__\s*\([^)]*\))"), "");
    // In a function, a local pointer; at global scope, a macro standing for every use.
    size_t depth = 0;
    for (size_t k = 0; k < b; ++k) depth += c[k] == '{' ? 1 : c[k] == '}' ? size_t(-1) : 0;
    const std::string cast = "reinterpret_cast<" + type + "*>(__accel_self->dyn_shared)";
    // Scopes opened by extern "C" do not count: a function body holds a `(`...`)` before `{`.
    const size_t open = c.rfind('{', b);
    const size_t fn_close = open == std::string::npos ? std::string::npos : c.rfind(')', open);
    const size_t semi = open == std::string::npos ? std::string::npos : c.rfind(';', open);
    const bool in_function = open != std::string::npos && fn_close != std::string::npos &&
                             (semi == std::string::npos || fn_close > semi) && depth > 0;
    if (in_function) {
      out.code += type + "* const " + m[2].str() + " = " + cast + ";";
    } else {
      out.code += "\n#define " + m[2].str() + " (" + cast + ")\n";
      const size_t line = size_t(std::count(code.begin(), code.begin() + long(e), '\n')) + 1;
      out.code += "#line " + std::to_string(line) + "\n";  // the numbering goes on as before
    }
    at = e;
  }
  out.code.append(code, at, std::string::npos);
  // __shared__ already means `static thread_local`.
  static const std::regex static_shared(R"(\bstatic(\s+)__shared__\b)");
  out.code = std::regex_replace(out.code, static_shared, "$1__shared__");
  return out;
}

}  // namespace accel::cpu::user_kernels
