// Exact structure learning by integer programming with COIN-OR CBC; see ilp.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "bnsl/exact.hpp"
#include "bnsl/stop.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

// Proves OPT (or reaches a gap by the deadline), then lists every DAG scoring >= OPT - eps
// (eps resolved with |OPT|) into the returned vector (family indices per variable), best
// first. `start`: a DAG of fam (family indices; may be empty), the first incumbent.
// Fills stats (opt, bound, epsilon, optimal, complete, truncated, ilp and root counters).
// Without CBC throws InputError("--method ilp is unavailable ...").
std::vector<std::vector<std::uint32_t>> solve_ilp(const FamilyTable& fam,
                                                  const std::vector<std::uint32_t>& start,
                                                  const ExactOptions& options,
                                                  const StopToken& stop, ExactStats& stats);

}  // namespace bnsl::exact
