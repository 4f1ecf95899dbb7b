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

// A non-template __global__ function at global scope, as declared at one place.
struct KernelDecl {
  std::string name;
  size_t head = 0;                     // its first token
  size_t end = 0;                      // after its body or `;`
  size_t void_at = std::string::npos;  // its `void` return type
  // Its body's `{` and `}` (npos: a prototype).
  size_t body_begin = std::string::npos, body_end = std::string::npos;
};

// The end of the bracketed range opened at `open` (its matching closer), or npos.
size_t matching(const std::string& c, size_t open, char opener, char closer) {
  int depth = 0;
  for (size_t i = open; i < c.size(); ++i) {
    depth += c[i] == opener ? 1 : c[i] == closer ? -1 : 0;
    if (depth == 0) return i;
  }
  return std::string::npos;
}

// Where each identifier `word` occurs in c[begin, end).
std::vector<size_t> find_ident(const std::string& c, std::string_view word, size_t begin,
                               size_t end) {
  std::vector<size_t> at;
  for (size_t i = begin; i < end;) {
    if (!is_ident(c[i])) {
      ++i;
      continue;
    }
    const size_t b = i;
    while (i < end && is_ident(c[i])) ++i;
    if (std::string_view(c).substr(b, i - b) == word) at.push_back(b);
  }
  return at;
}

// The first token of the declaration that starts at `at`: white space and preprocessor lines
// skipped.
size_t declaration_head(const std::string& c, size_t at) {
  for (at = skip_space(c, at); at < c.size() && c[at] == '#'; at = skip_space(c, at)) {
    while (at < c.size() && c[at] != '\n') at += c[at] == '\\' ? 2 : 1;
  }
  return at;
}

// Whether c[begin, end) holds something that may be a lambda: `]` then `(`, `{` or `mutable`.
bool may_hold_lambda(const std::string& c, size_t begin, size_t end) {
  for (size_t i = begin; i < end; ++i) {
    if (c[i] != ']') continue;
    const size_t j = skip_space(c, i + 1);
    if (j < end && (c[j] == '(' || c[j] == '{' || c.compare(j, 7, "mutable") == 0)) return true;
  }
  return false;
}

// Each `__shared__ T name[...];` of c[begin, end) (one declarator, no initializer) renamed, with
// a reference of the old name after it: the reference lives in the coroutine's frame, where
// the array itself (thread-local) would cost a call per region to find in a dlopen'ed module.
void shared_references(const std::string& c, size_t begin, size_t end, std::vector<Edit>& edits) {
  for (size_t at : find_ident(c, "__shared__", begin, end)) {
    const size_t semi = c.find(';', at);
    if (semi == std::string::npos || semi >= end) continue;
    const std::string_view decl = std::string_view(c).substr(at, semi - at);
    if (decl.find_first_of(",={}()") != std::string_view::npos) continue;
    size_t before = at;  // `extern __shared__` is the launch's dynamic shared memory
    while (before > 0 && is_space(c[before - 1])) --before;
    if (before >= 6 && c.compare(before - 6, 6, "extern") == 0) continue;
    size_t stop = decl.find('[');
    if (stop == std::string_view::npos) stop = decl.size();
    size_t name_end = stop;
    while (name_end > 10 && is_space(decl[name_end - 1])) --name_end;
    size_t name_begin = name_end;
    while (name_begin > 10 && is_ident(decl[name_begin - 1])) --name_begin;
    if (name_begin == name_end || name_begin <= 10 || !is_space(decl[name_begin - 1])) continue;
    const std::string name(decl.substr(name_begin, name_end - name_begin));
    edits.push_back({at + name_begin, at + name_end, "__accel_shared_" + name});
    edits.push_back({semi + 1, semi + 1, " auto& " + name + " = __accel_shared_" + name + ";"});
  }
}

// The edits that make the barrier kernels coroutines (see ScannedSource::regions), or false
// when the source does not allow it.
bool region_edits(const std::string& c, const std::vector<KernelDecl>& decls,
                  std::vector<Edit>& edits) {
  if (any_ident(c, [](std::string_view w) { return is_barrier_name(w) && w != "__syncthreads"; }))
    return false;
  std::vector<std::string> waiting;  // kernels whose body names __syncthreads
  for (size_t at : find_ident(c, "__syncthreads", 0, c.size())) {
    const KernelDecl* in = nullptr;
    for (const KernelDecl& d : decls) {
      if (d.body_begin != std::string::npos && d.body_begin < at && at < d.body_end) in = &d;
    }
    if (!in) return false;  // in a __device__ function, a template, a macro...
    if (std::find(waiting.begin(), waiting.end(), in->name) == waiting.end())
      waiting.push_back(in->name);
  }
  std::vector<Edit> mine;
  for (const KernelDecl& d : decls) {
    if (std::find(waiting.begin(), waiting.end(), d.name) == waiting.end()) continue;
    if (d.void_at == std::string::npos || d.end == 0) return false;
    // C++ linkage: GCC names a coroutine's parts after the function, which under C linkage
    // gives them one symbol. extern "C" (the scanner sees `extern " "`) becomes extern "C++".
    size_t q = skip_space(c, d.head + 6);
    if (c.compare(d.head, 6, "extern") == 0 && q < c.size() && c[q] == '"') {
      q = c.find('"', q + 1);
      if (q == std::string::npos) return false;
      mine.push_back({d.head, q + 1, "extern \"C++\" {"});
    } else {
      mine.push_back({d.head, d.head, "extern \"C++\" { "});
    }
    mine.push_back({d.end, d.end, " }"});
    mine.push_back({d.void_at, d.void_at + 4, "__accel_task"});
    if (d.body_begin == std::string::npos) continue;
    if (may_hold_lambda(c, d.body_begin, d.body_end)) return false;
    for (size_t r : find_ident(c, "return", d.body_begin, d.body_end))
      mine.push_back({r, r + 6, "co_return"});
    shared_references(c, d.body_begin, d.body_end, mine);
    // The thread's state copied into the frame, and a local `__accel_self` pointing to it that
    // shadows the thread-local one threadIdx and the others read (found by a call per region
    // in a dlopen'ed module): a thread's coordinates do not change while it runs.
    mine.push_back({d.body_begin + 1, d.body_begin + 1,
                    " const __accel_thread __accel_self_here = *::__accel_self; const "
                    "__accel_thread* const __accel_self = &__accel_self_here;"});
  }
  edits.insert(edits.end(), mine.begin(), mine.end());
  return !waiting.empty();
}

}  // namespace

ScannedSource scan_source(const std::string& code, bool checked, bool regions_allowed) {
  ScannedSource out;
  const std::string c = code_only(code);
  out.barriers = any_ident(c, is_barrier_name);

  // Brace scopes: those opened by `extern "C"` are transparent, any other hides its contents
  // (namespaces, classes, function bodies) from the kernel search.
  std::vector<bool> transparent;
  size_t opaque_depth = 0;
  std::vector<std::pair<size_t, size_t>> dyn_shared;  // (begin, end) of each declaration
  std::vector<Edit> edits;
  std::vector<KernelDecl> decls;
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
      KernelDecl decl;
      for (size_t v : find_ident(c, "void", from, i)) decl.void_at = v;
      while (j < c.size()) {
        if (std::isspace(static_cast<unsigned char>(c[j])) || c[j] == '*' || c[j] == '&') {
          ++j;
        } else if (is_ident(c[j])) {
          const size_t b = j;
          while (j < c.size() && is_ident(c[j])) ++j;
          last = c.substr(b, j - b);
          if (last == "void") decl.void_at = b;
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
      if (!last.empty() && j < c.size() && c[j] == '(') {
        decl.name = last;
        const size_t close = matching(c, j, '(', ')');
        const size_t body = close == std::string::npos ? close : c.find_first_of("{;", close);
        if (body != std::string::npos && c[body] == '{') {
          decl.body_begin = body;
          decl.body_end = matching(c, body, '{', '}');
          if (decl.body_end == std::string::npos) decl.body_begin = std::string::npos;
          if (decl.body_end != std::string::npos) decl.end = decl.body_end + 1;
        } else if (body != std::string::npos) {
          decl.end = body + 1;
        }
        decl.head = declaration_head(c, start == std::string::npos ? 0 : start + 1);
        decls.push_back(decl);
      }
    } else if (c.compare(i, 6, "extern") == 0 && (i == 0 || !is_ident(c[i - 1]))) {
      const SharedDecl d =
          parse_shared_decl(std::string_view(c).substr(i, std::min<size_t>(400, c.size() - i)));
      if (d.length) dyn_shared.emplace_back(i, i + d.length);
    }
  }
  out.regions = regions_allowed && !checked && out.barriers && region_edits(c, decls, edits);
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
  std::sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) {
    return x.begin < y.begin || (x.begin == y.begin && x.end < y.end);
  });
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
