// Arc lists (--prefer-arcs, --require, --forbid; bnsl/arcs.hpp), weighted and not, tier lists
// (--tiers; bnsl/constraints.hpp), and the checks of required arcs (cycles, forbidden ones),
// against three variable names.
#include <cstdint>
#include <string>
#include <vector>

#include "bnsl/arcs.hpp"
#include "bnsl/constraints.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::vector<std::string> names = {"age", "sex", "x y"};
  fuzz::tolerate([&] { return bnsl::parse_arcs(text, "fuzz.csv", names, true); });
  fuzz::tolerate([&] { return bnsl::parse_arcs(text, "fuzz.csv", names, false); });
  fuzz::tolerate([&] { return bnsl::parse_tiers(text, "fuzz.csv", names); });
  fuzz::tolerate([&] {  // the same arcs required, and forbidden from the file's second half
    const auto arcs = bnsl::parse_arcs(text, "fuzz.csv", names, false);
    const std::vector<bnsl::NamedArc> forbid(arcs.begin() + static_cast<long>(arcs.size() / 2),
                                             arcs.end());
    return bnsl::make_constraints(arcs, forbid, {}, {"fuzz.csv", "fuzz.csv", ""}, names);
  });
  return 0;
}
