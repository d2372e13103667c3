// A first network for the ILP: a short ordering search over the cache; see start.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/stop.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

// The best network a short ASOBS search (the search of `bnsl search`, never its DP; one
// thread, a fixed number of climbs, so the same cache gives the same start) finds, as family
// indices of `fam` (made from `cache`), or the identity order's network if that is better or the
// search cannot run; empty only if neither exists. At most 10% of the time `stop` leaves, and 60 s.
std::vector<std::uint32_t> start_network(const ScoreCache& cache, const FamilyTable& fam,
                                         const StopToken& stop);

}  // namespace bnsl::exact
