// Rows gathered and added to an LP in one call. Osi's addRow on a column-ordered matrix costs
// O(nonzeros) per call, so the exact methods gather the rows of a round (cluster cuts, cycle
// cuts, no-goods) in a RowBatch and add them with one addRows.
#include "exact/lp_rows.hpp"

#ifdef BNSL_HAVE_CBC

#include <CoinTypes.hpp>
#include <OsiSolverInterface.hpp>

namespace bnsl::exact {

void RowBatch::add(const std::vector<int>& columns, const std::vector<double>& coefs, double lb,
                   double ub) {
  columns_.insert(columns_.end(), columns.begin(), columns.end());
  coefs_.insert(coefs_.end(), coefs.begin(), coefs.end());
  starts_.push_back(static_cast<int>(columns_.size()));
  lower_.push_back(lb);
  upper_.push_back(ub);
}

void RowBatch::flush(OsiSolverInterface& lp) {
  static_assert(sizeof(CoinBigIndex) == sizeof(int));
  if (lower_.empty()) return;
  lp.addRows(static_cast<int>(lower_.size()), starts_.data(), columns_.data(), coefs_.data(),
             lower_.data(), upper_.data());
  starts_.assign(1, 0);
  columns_.clear();
  coefs_.clear();
  lower_.clear();
  upper_.clear();
}

void add_cluster_rows(const FamilyTable& fam, const ColumnLayout& cols, OsiSolverInterface& lp,
                      const std::vector<ClusterCut>& clusters, bool sparse) {
  RowBatch rows;
  for (ClusterCut c : clusters) {
    const ClusterRow row = cluster_row(fam, cols, c, sparse);
    rows.add(row.columns, std::vector<double>(row.columns.size(), 1.0), row.lb, row.ub);
  }
  rows.flush(lp);
}

}  // namespace bnsl::exact

#endif  // BNSL_HAVE_CBC
