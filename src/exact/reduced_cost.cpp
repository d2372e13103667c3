// The collector's bound on a region from its LP, family by family: the Lagrangian bound U at
// the LP's row duals (valid for any duals) and each family's penalty (screen()), which the
// region enumeration prunes by, and reduced-cost fixing of the families no DAG reaching the
// cut can use (fix_by_reduced_cost()).
#include "exact/collector.hpp"

#ifdef BNSL_HAVE_CBC

#include <algorithm>
#include <cmath>
#include <vector>

namespace bnsl::exact::detail {

// enumerate_region()'s Lagrangian bound at the LP's current duals: U, and the m_v in least_
// (+inf for a variable no family of which is allowed: then U = -inf). Without a finite Y (a row
// with a nonzero dual has an infinite side), or with U not finite or below the LP bound z (at
// the LP optimum U is z; below it, roundoff), the penalties are not used: the screen is then the
// LP optimum's reduced costs against z. z >= cut - slack at every node searched (process()
// prunes the others), so `allowed` is then >= 0.
Collector::Screen Collector::screen() {
  const int n = fam_.n;
  const double* d = lp_.getReducedCost();
  const double* lo = lp_.getColLower();
  const double* up = lp_.getColUpper();
  const double* y = lp_.getRowPrice();
  const double* row_lo = lp_.getRowLower();
  const double* row_up = lp_.getRowUpper();
  const double bound = -lp_.getObjValue();
  const Screen plain{false, bound - (cut_ - slack_)};
  double lagrange = 0;  // Y
  for (int r = 0, rows = lp_.getNumRows(); r < rows; ++r) {
    if (y[r] == 0) continue;
    const double side = y[r] > 0 ? row_lo[r] : row_up[r];
    if (std::fabs(side) >= 1e30) return plain;
    lagrange += y[r] * side;
  }
  double upper = -lagrange;  // U once the m_v are subtracted
  least_.assign(static_cast<std::size_t>(n), kInf);
  for (int v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const std::size_t c = cols_.offset[v] + i;
      if (up[c] < 0.5) continue;
      if (lo[c] > 0.5) {  // fixed to 1: the only family of v here
        least_[v] = d[c];
        break;
      }
      least_[v] = std::min(least_[v], d[c]);
    }
    upper -= least_[v];
  }
  if (!std::isfinite(upper) || upper < bound - 1e-6 * std::max(1.0, std::fabs(bound))) return plain;
  return {true, upper - (cut_ - slack_)};
}

// Reduced-cost fixing: by enumerate_region()'s Lagrangian bound (valid for any duals), every
// DAG of the node's region that uses family (v, i) scores at most U - p(v, i), p(v, i) =
// d(v, i) - m_v; where that is below the cut, (v, i) is fixed to 0 for the node's children
// (their LPs, with other duals, might otherwise use it). Without a finite U (see screen()),
// the LP optimum's classic form: a column at 0 with reduced cost d_j > 0 gives every point of
// the region with x_j = 1 a score at most z - d_j, z the LP bound. Only columns at 0 in the LP
// point are fixed, so the node's point stays optimal. Returns the columns fixed, which node()
// frees again when it returns.
std::vector<int> Collector::fix_by_reduced_cost() {
  std::vector<int> fixed;
  const Screen screened = screen();
  const double allowed = screened.allowed;
  if (!(allowed >= 0)) return fixed;
  const double* d = lp_.getReducedCost();
  const double* lo = lp_.getColLower();
  const double* up = lp_.getColUpper();
  const double* x = lp_.getColSolution();
  for (int v = 0; v < fam_.n; ++v)
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const std::size_t c = cols_.offset[v] + i;
      if (up[c] < 0.5 || lo[c] > 0.5 || x[c] >= 1e-9) continue;
      if (penalty(screened, v, c, d) > allowed + 1e-6 * (1 + allowed)) {
        lp_.setColUpper(static_cast<int>(c), 0.0);
        fixed.push_back(static_cast<int>(c));
      }
    }
  out_.columns_fixed += fixed.size();
  return fixed;
}

}  // namespace bnsl::exact::detail

#endif  // BNSL_HAVE_CBC
