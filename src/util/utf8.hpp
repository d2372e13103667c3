// UTF-8 as the network formats' names (io/legal_names.cpp) and the pool file (io/pool_json.cpp)
// read it: a code point is valid when it is encoded in its shortest form, is not a surrogate
// and is at most U+10FFFF; any other byte counts as one character of its own.
//
//   auto [c, len] = bnsl::utf8_code_point(s, i);   // c < 0: s[i] is a byte that is not UTF-8
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

namespace bnsl {

// The code point at s[i] and its length in bytes; an invalid byte gives (-1, 1).
inline std::pair<long, std::size_t> utf8_code_point(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return {b, 1};
  // Lead bytes: C2-DF (2), E0-EF (3), F0-F4 (4); C0, C1 and F5-FF never start a character.
  std::size_t len = b >= 0xF0 && b < 0xF5   ? 4
                    : b >= 0xE0 && b < 0xF0 ? 3
                    : b >= 0xC2 && b < 0xE0 ? 2
                                            : 0;
  if (len == 0 || i + len > s.size()) return {-1, 1};
  long cp = b & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return {-1, 1};
    cp = (cp << 6) | (c & 0x3F);
  }
  const long min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {-1, 1};
  return {cp, len};
}

inline bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto [c, len] = utf8_code_point(s, i);
    if (c < 0) return false;
    i += len;
  }
  return true;
}

}  // namespace bnsl
