// A first network for the ILP: the identity order's network, or the caller's start
// (ExactOptions::start) when it is better; see start.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/graph.hpp"
#include "bnsl/stop.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

using StartFn = std::function<ParentSets(const ScoreCache&, const StopToken&)>;

// As family indices of `fam` (made from `cache`): the better of the identity order's network
// and `start`'s (when given, and its network's families are all in `fam`); empty only if
// neither exists.
std::vector<std::uint32_t> start_network(const ScoreCache& cache, const FamilyTable& fam,
                                         const StopToken& stop, const StartFn& start);

}  // namespace bnsl::exact
