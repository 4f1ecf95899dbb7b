// Reading a kernel's parameter list from its cubin or PTX (image_params.hpp).
//
// A cubin's `.nv.info.<kernel>` section is a run of records: a format byte, an attribute byte,
// then either a 16-bit value (formats 1-3) or a 16-bit length and that many bytes (format 4,
// EIFMT_SVAL). Each parameter has an EIATTR_KPARAM_INFO record (ordinal, offset, size) and the
// kernel one EIATTR_CBANK_PARAM_SIZE (the bytes of all parameters). NVIDIA does not document
// this layout (cuobjdump -elf prints it), so what is read is checked twice: here, the records
// must cover ordinals 0..n-1 once each and end at the bank size; by the caller, the driver's
// own offsets and sizes must agree with them, else the caller asks the driver as before.
#include "src/cuda/user_kernels/image_params.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>

namespace accel::cuda {

namespace {

constexpr uint8_t kFormatSval = 4;            // EIFMT_SVAL: a length, then that many bytes
constexpr uint8_t kAttrKparamInfo = 0x17;     // EIATTR_KPARAM_INFO
constexpr uint8_t kAttrParamBankSize = 0x19;  // EIATTR_CBANK_PARAM_SIZE

template <class T>
bool read(std::string_view s, size_t at, T& out) {
  if (at > s.size() || s.size() - at < sizeof(T)) return false;
  std::memcpy(&out, s.data() + at, sizeof(T));
  return true;
}

// The contents of the ELF section called `wanted`, or an empty view.
std::string_view elf_section(std::string_view elf, std::string_view wanted) {
  uint64_t shoff = 0;
  uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
  if (!read(elf, 0x28, shoff) || !read(elf, 0x3a, shentsize) || !read(elf, 0x3c, shnum) ||
      !read(elf, 0x3e, shstrndx) || shentsize < 64 || shstrndx >= shnum) {
    return {};
  }
  auto section = [&](size_t i, uint32_t& name, uint64_t& off, uint64_t& size) {
    const size_t at = size_t(shoff) + i * shentsize;
    return read(elf, at, name) && read(elf, at + 24, off) && read(elf, at + 32, size) &&
           off <= elf.size() && size <= elf.size() - off;
  };
  uint32_t unused = 0;
  uint64_t names_off = 0, names_size = 0;
  if (!section(shstrndx, unused, names_off, names_size)) return {};
  const std::string_view names = elf.substr(size_t(names_off), size_t(names_size));
  for (size_t i = 0; i < shnum; ++i) {
    uint32_t name = 0;
    uint64_t off = 0, size = 0;
    if (!section(i, name, off, size) || name >= names.size()) continue;
    const std::string_view n = names.substr(name);
    if (n.size() > wanted.size() && n.compare(0, wanted.size(), wanted) == 0 &&
        n[wanted.size()] == '\0') {
      return elf.substr(size_t(off), size_t(size));
    }
  }
  return {};
}

std::optional<std::vector<ImageParam>> cubin_params(std::string_view elf, std::string_view name) {
  const std::string_view info = elf_section(elf, ".nv.info." + std::string(name));
  if (info.empty()) return std::nullopt;
  std::vector<std::optional<ImageParam>> by_ordinal;
  std::optional<uint16_t> bank_size;
  for (size_t at = 0; at + 4 <= info.size();) {
    const uint8_t format = uint8_t(info[at]), attr = uint8_t(info[at + 1]);
    uint16_t value = 0;
    read(info, at + 2, value);
    std::string_view payload;
    if (format == kFormatSval) {
      if (info.size() - at - 4 < value) return std::nullopt;
      payload = info.substr(at + 4, value);
      at += 4 + size_t(value);
    } else {
      at += 4;
    }
    if (attr == kAttrParamBankSize && format != kFormatSval) bank_size = value;
    if (attr != kAttrKparamInfo) continue;
    uint16_t ordinal = 0, offset = 0;
    uint32_t flags = 0;
    if (!read(payload, 4, ordinal) || !read(payload, 6, offset) || !read(payload, 8, flags)) {
      return std::nullopt;
    }
    if (ordinal >= by_ordinal.size()) by_ordinal.resize(size_t(ordinal) + 1);
    if (by_ordinal[ordinal]) return std::nullopt;  // an ordinal twice
    by_ordinal[ordinal] = ImageParam{offset, (flags >> 18) & 0x3fff};
  }
  std::vector<ImageParam> params;
  size_t end = 0;
  for (const std::optional<ImageParam>& p : by_ordinal) {
    if (!p) return std::nullopt;  // an ordinal missing
    params.push_back(*p);
    end = std::max(end, p->offset + p->size);
  }
  if (end != (bank_size ? *bank_size : 0)) return std::nullopt;
  return params;
}

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// PTX: `.entry name(` then the parameters, each declared with `.param`, up to `)`.
std::optional<std::vector<ImageParam>> ptx_params(std::string_view ptx, std::string_view name) {
  for (size_t at = ptx.find(".entry"); at != std::string_view::npos;
       at = ptx.find(".entry", at + 1)) {
    size_t i = at + 6;
    if (i >= ptx.size() || !std::isspace(static_cast<unsigned char>(ptx[i]))) continue;
    while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i]))) ++i;
    if (ptx.compare(i, name.size(), name) != 0) continue;
    i += name.size();
    if (i < ptx.size() && ident(ptx[i])) continue;  // a longer name
    while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i]))) ++i;
    if (i >= ptx.size() || ptx[i] != '(') return std::vector<ImageParam>{};  // no parameters
    const size_t close = ptx.find(')', i);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view list = ptx.substr(i, close - i);
    size_t n = 0;
    for (size_t p = list.find(".param"); p != std::string_view::npos;
         p = list.find(".param", p + 6)) {
      if (p + 6 < list.size() && !ident(list[p + 6])) ++n;
    }
    return std::vector<ImageParam>(n);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<ImageParam>> image_params(std::string_view image, std::string_view name) {
  // A 64-bit little-endian ELF file: a cubin.
  constexpr char kElf[] = {0x7f, 'E', 'L', 'F', 2, 1};
  if (image.size() >= 64 && image.compare(0, sizeof kElf, kElf, sizeof kElf) == 0) {
    return cubin_params(image, name);
  }
  if (image.find(".entry") != std::string_view::npos) return ptx_params(image, name);
  return std::nullopt;
}

}  // namespace accel::cuda
