// See ll_ceiling.hpp. The ceiling is counted like every family (Counter). An LL is the
// difference of two sums of n ln n, each at most N ln N, so a computed LL is exact only to a
// few ulps of N ln N (not of LL itself): C is raised by kScoreTolerance N ln N, far more than
// that rounding, so that LL(P) <= C holds for the computed values too. It costs no pruning
// worth having (0.0003 at 30,000 rows).
#include "prune/ll_ceiling.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "score/compare.hpp"

namespace bnsl::prune {

double ll_ceiling(Counter& counter, int child, std::size_t max_vars) {
  const std::size_t n = counter.data().n_vars();
  if (n > max_vars) return 0;
  std::vector<int> others;
  others.reserve(n);
  for (std::size_t v = 0; v < n; ++v)
    if (static_cast<int>(v) != child) others.push_back(static_cast<int>(v));
  ConfigIndex all;
  counter.build(others, all);
  const double rows = static_cast<double>(counter.data().n_rows());
  const double margin = kScoreTolerance * rows * std::log(std::max(rows, 2.0));
  return std::min(0.0, counter.score(all, child).ll + margin);
}

}  // namespace bnsl::prune
