// Arc lists (--prefer-arcs, --forbid; bnsl/arcs.hpp), weighted and not, and tier lists
// (--tiers; bnsl/constraints.hpp), against three variable names.
#include <cstdint>
#include <string>

#include "bnsl/arcs.hpp"
#include "bnsl/constraints.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> names = {"age", "sex", "x y"};
  fuzz::tolerate([&] { return bnsl::parse_arcs(text, "fuzz.csv", names, true); });
  fuzz::tolerate([&] { return bnsl::parse_arcs(text, "fuzz.csv", names, false); });
  fuzz::tolerate([&] { return bnsl::parse_tiers(text, "fuzz.csv", names); });
  return 0;
}
