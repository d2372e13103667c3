// A first network for the ILP: a short ordering search over the cache; see start.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/stop.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

// The best network a short ASOBS search (the search of `bnsl search`, never its DP) finds,
// as family indices of `fam` (made from `cache`), or the identity order's network if that is
// better or the search cannot run; empty only if neither exists. Its time: at most 5% of the
// time `stop` leaves and 1 s per 50,000 families (at least 0.1 s).
std::vector<std::uint32_t> start_network(const ScoreCache& cache, const FamilyTable& fam,
                                         int threads, const StopToken& stop);

}  // namespace bnsl::exact
