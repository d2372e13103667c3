// The LL ceiling of pruning rules 2 to 4 (rules.hpp): C = LL(X | every other variable), the
// most log-likelihood any parent set of X can reach on the data.
#pragma once

#include <cstddef>

#include "bnsl/tunables.hpp"
#include "score/counting.hpp"

namespace bnsl::prune {

// Computed up to max_vars variables (explore.ll_ceiling_max_vars, bnsl/tunables.hpp). It costs
// one count of X against every other variable, O(rows x variables) per child, and it is below
// 0 only where rows that agree on every other variable disagree on X: with hundreds of
// variables rows hardly repeat so, and C = 0.

// C for `child`: LL of the child given every other variable of the counter's data, at most 0;
// 0 (no ceiling: the plain rules) above max_vars variables.
double ll_ceiling(Counter& counter, int child,
                  std::size_t max_vars = ExploreTunables{}.ll_ceiling_max_vars);

}  // namespace bnsl::prune
