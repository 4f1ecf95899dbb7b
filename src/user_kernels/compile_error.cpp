// The source excerpt of a compile error, from the compiler's log.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "accel/user_kernels.hpp"

namespace accel {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

std::string offending_lines(const std::string& source, const std::string& log) {
  const std::vector<std::string> lines = split_lines(source);
  std::vector<size_t> marked;  // 1-based line numbers the log reports errors at
  for (const std::string& l : split_lines(log)) {
    const size_t open = l.find('(');
    const size_t close = l.find("): ", open == std::string::npos ? 0 : open);
    if (open == std::string::npos || close == std::string::npos || close <= open + 1) continue;
    const std::string num = l.substr(open + 1, close - open - 1);
    if (num.find_first_not_of("0123456789") != std::string::npos) continue;
    if (l.find("error", close) == std::string::npos) continue;
    const size_t n = std::strtoull(num.c_str(), nullptr, 10);
    if (n >= 1 && n <= lines.size()) marked.push_back(n);
  }
  std::string out;
  size_t last_printed = 0;
  for (size_t i = 1; i <= lines.size(); ++i) {
    bool is_marked = false, near = false;
    for (size_t m : marked) {
      is_marked = is_marked || m == i;
      near = near || (i + 1 >= m && i <= m + 1);
    }
    if (!near) continue;
    if (last_printed && i > last_printed + 1) out += "      ...\n";
    char head[32];
    std::snprintf(head, sizeof head, "%s%5zu | ", is_marked ? ">" : " ", i);
    out += head + lines[i - 1] + "\n";
    last_printed = i;
  }
  return out;
}

}  // namespace accel
