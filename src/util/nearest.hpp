// The name a mistyped one was meant to be: "did you mean 'learn'?" for `bnsl lear`, and
// "search.stall_share" for `--set search.stal_share=...`.
//
//   std::string n = bnsl::nearest_name("lear", {"learn", "score"});   // "learn", or "" if none
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace bnsl {

// Levenshtein distance: insertions, deletions and substitutions of one byte each.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name among `names` that `name` begins (at least two letters) or is within two edits (or
// a third of its letters) of, the nearest first; "" when none is that near.
std::string nearest_name(std::string_view name, std::span<const std::string_view> names);

}  // namespace bnsl
