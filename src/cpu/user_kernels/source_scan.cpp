#include "src/cpu/user_kernels/source_scan.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

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
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Calls f(word) for each identifier of `s`. The scanner is written out rather than taken from
// std::regex: libstdc++'s regex recurses per character and crashed on a GPU host's build.
template <class F>
bool any_ident(std::string_view s, F f) {
  for (size_t i = 0; i < s.size();) {
    if (!is_ident(s[i])) {
      ++i;
      continue;
    }
    const size_t b = i;
    while (i < s.size() && is_ident(s[i])) ++i;
    if (f(s.substr(b, i - b))) return true;
  }
  return false;
}

// Names whose use needs the block's threads as fibers (barriers and warp primitives).
bool is_barrier_name(std::string_view w) {
  auto starts = [&](std::string_view p) { return w.substr(0, p.size()) == p; };
  auto ends = [&](std::string_view p) {
    return w.size() >= p.size() && w.substr(w.size() - p.size()) == p;
  };
  return starts("__syncthreads") || w == "__syncwarp" || starts("__shfl") || w == "__ballot_sync" ||
         w == "__any_sync" || w == "__all_sync" || w == "__activemask" ||
         (starts("__reduce_") && ends("_sync") && w.size() > 14);
}

size_t skip_space(std::string_view s, size_t i) {
  while (i < s.size() && is_space(s[i])) ++i;
  return i;
}

// A dynamic shared declaration at the start of `s`: `extern __shared__ <type> <name>[];`.
struct SharedDecl {
  size_t length = 0;  // 0: not one
  std::string type, name;
};
SharedDecl parse_shared_decl(std::string_view s) {
  SharedDecl d;
  if (s.substr(0, 6) != "extern" || s.size() < 7 || !is_space(s[6])) return d;
  size_t i = skip_space(s, 6);
  if (s.substr(i, 10) != "__shared__" || i + 10 >= s.size() || !is_space(s[i + 10])) return d;
  i = skip_space(s, i + 10);
  const size_t stop = s.find_first_of(";[", i);
  if (stop == std::string_view::npos || s[stop] != '[') return d;
  size_t end = stop;
  while (end > i && is_space(s[end - 1])) --end;
  size_t name_begin = end;
  while (name_begin > i && is_ident(s[name_begin - 1])) --name_begin;
  if (name_begin == end) return d;
  size_t j = skip_space(s, stop + 1);
  if (j >= s.size() || s[j] != ']') return d;
  j = skip_space(s, j + 1);
  if (j >= s.size() || s[j] != ';') return d;
  d.length = j + 1;
  d.name = std::string(s.substr(name_begin, end - name_begin));
  std::string type(s.substr(i, name_begin - i));
  // __align__(n) qualifiers go: the cast below names the element type alone.
  for (size_t a; (a = type.find("__align__")) != std::string::npos;) {
    const size_t close = type.find(')', a);
    type.erase(a, close == std::string::npos ? std::string::npos : close + 1 - a);
  }
  while (!type.empty() && is_space(type.back())) type.pop_back();
  d.type = type;
  return d;
}

// One parameter `T* name` (qualifiers after the * dropped) as `__accel_checked<T> name`, or ""
// when it is no object pointer (a value, a reference, an array, void*, a function pointer).
std::string checked_param(std::string_view param) {
  static const char* const kQualifiers[] = {"const", "volatile", "__restrict__", "__restrict",
                                            "restrict"};
  int depth = 0;
  size_t star = std::string_view::npos;
  for (size_t i = 0; i < param.size(); ++i) {
    const char ch = param[i];
    if (ch == '<') ++depth;
    if (ch == '>') --depth;
    if (ch == '(' || ch == '[' || ch == '&') return "";
    if (ch == '*' && depth == 0) star = i;
  }
  if (star == std::string_view::npos) return "";
  std::string name;
  bool other = false;
  any_ident(param.substr(star + 1), [&](std::string_view w) {
    if (std::find(std::begin(kQualifiers), std::end(kQualifiers), w) != std::end(kQualifiers)) {
      return false;
    }
    if (!name.empty()) other = true;
    name = std::string(w);
    return false;
  });
  if (other) return "";
  std::string type(param.substr(0, star));
  while (!type.empty() && is_space(type.back())) type.pop_back();
  while (!type.empty() && is_space(type.front())) type.erase(type.begin());
  bool is_void = true;  // only `void` and its qualifiers
  any_ident(type, [&](std::string_view w) {
    if (w != "void" && w != "const" && w != "volatile") is_void = false;
    return false;
  });
  if (is_void) return "";
  return "__accel_checked<" + type + "> " + name;
}

struct Edit {
  size_t begin, end;
  std::string text;
};

// The parameter list whose `(` is at `open` in `c` (code only): an edit per pointer parameter.
void check_params(const std::string& c, size_t open, std::vector<Edit>& edits) {
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < c.size(); ++i) {
    const char ch = c[i];
    if (ch == '(' || ch == '<' || ch == '[') ++depth;
    const bool close = ch == ')' || ch == '>' || ch == ']';
    if (close) --depth;
    if ((ch == ',' && depth == 1) || (ch == ')' && depth == 0)) {
      const std::string text = checked_param(std::string_view(c).substr(start, i - start));
      if (!text.empty()) {
        // The parameter's newlines stay, so the lines after it keep their numbers.
        const long lines = long(std::count(c.begin() + long(start), c.begin() + long(i), '\n'));
        edits.push_back({start, i, text + std::string(size_t(lines), '\n')});
      }
      start = i + 1;
      if (ch == ')') return;
    }
  }
}

}  // namespace

ScannedSource scan_source(const std::string& code, bool checked) {
  ScannedSource out;
  const std::string c = code_only(code);
  out.barriers = any_ident(c, is_barrier_name);

  // Brace scopes: those opened by `extern "C"` are transparent, any other hides its contents
  // (namespaces, classes, function bodies) from the kernel search.
  std::vector<bool> transparent;
  size_t opaque_depth = 0;
  std::vector<std::pair<size_t, size_t>> dyn_shared;  // (begin, end) of each declaration
  std::vector<Edit> edits;
  for (size_t i = 0; i < c.size(); ++i) {
    const char ch = c[i];
    if (ch == '{') {
      size_t j = i;
      while (j > 0 && (is_space(c[j - 1]) || c[j - 1] == '"')) --j;
      // code_only blanked the C of "C" (not the quotes): `extern "C" {` reads `extern " " {`.
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
      if (any_ident(head, [](std::string_view w) { return w == "template"; })) continue;
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
      if (checked && !last.empty() && j < c.size() && c[j] == '(') check_params(c, j, edits);
    } else if (c.compare(i, 6, "extern") == 0 && (i == 0 || !is_ident(c[i - 1]))) {
      const SharedDecl d =
          parse_shared_decl(std::string_view(c).substr(i, std::min<size_t>(400, c.size() - i)));
      if (d.length) dyn_shared.emplace_back(i, i + d.length);
    }
  }
  // Rewrite the extern __shared__ declarations, keeping the line count (a #define needs lines
  // of its own, so a global one takes the declaration's line and the next).
  for (const auto& [b, e] : dyn_shared) {
    const SharedDecl decl = parse_shared_decl(std::string_view(c).substr(b, e - b));
    const std::string& type = decl.type;
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
      edits.push_back({b, e, type + "* const " + decl.name + " = " + cast + ";"});
    } else {
      const size_t line = size_t(std::count(code.begin(), code.begin() + long(e), '\n')) + 1;
      // The numbering goes on as before.
      edits.push_back(
          {b, e,
           "\n#define " + decl.name + " (" + cast + ")\n#line " + std::to_string(line) + "\n"});
    }
  }
  std::sort(edits.begin(), edits.end(),
            [](const Edit& x, const Edit& y) { return x.begin < y.begin; });
  out.code.clear();
  size_t at = 0;
  for (const Edit& ed : edits) {
    out.code.append(code, at, ed.begin - at);
    out.code += ed.text;
    at = ed.end;
  }
  out.code.append(code, at, std::string::npos);
  // __shared__ already means `static thread_local`.
  std::string dropped;
  dropped.reserve(out.code.size());
  for (size_t i = 0; i < out.code.size();) {
    const std::string& t = out.code;
    if (t.compare(i, 6, "static") == 0 && (i == 0 || !is_ident(t[i - 1])) && i + 6 < t.size() &&
        is_space(t[i + 6])) {
      const size_t j = skip_space(t, i + 6);
      if (t.compare(j, 10, "__shared__") == 0 && (j + 10 == t.size() || !is_ident(t[j + 10]))) {
        i += 6;  // keep the white space, drop `static`
        continue;
      }
    }
    dropped += t[i++];
  }
  out.code = std::move(dropped);
  return out;
}

}  // namespace accel::cpu::user_kernels
