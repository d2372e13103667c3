// The jkl text format's pieces that the cache journal (cache_journal.cpp) shares with the
// reader and the writer of whole caches (jkl.cpp, which describes the format).
#pragma once

#include <cstdint>
#include <istream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bnsl/cache.hpp"

namespace bnsl::jkl {

// The whole stream as text.
std::string read_stream(std::istream& in);
// Parses a whole jkl text (`file` names it in errors; `names` as read_jkl's).
ScoreCache parse_text(std::string_view text, const std::string& file,
                      const std::vector<std::string>& names);
// Appends the entry line "SCORE SIZE P1 .. PSIZE" (the score with `precision` digits).
void append_entry(std::string& out, double score, std::span<const std::int32_t> parents,
                  int precision);
// The provenance header: "# bnsl KEY VALUE" lines.
std::string provenance_header(const CacheProvenance& p);

}  // namespace bnsl::jkl
