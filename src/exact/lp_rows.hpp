// Rows added to an LP in one call (RowBatch), and cluster cuts as rows: the collector, the
// ILP's cut loop and the class no-goods add their rows through these (lp_rows.cpp).
#pragma once

#include <vector>

#include "exact/cluster_cuts.hpp"
#include "exact/families.hpp"

class OsiSolverInterface;

namespace bnsl::exact {

// Rows gathered and added to an LP in one call: Osi's addRow on a column-ordered matrix costs
// O(nonzeros) per call (uci/sensors, 841,414 families: CBC's model, built row by row, took
// about a minute, past the deadline).
class RowBatch {
 public:
  void add(const std::vector<int>& columns, const std::vector<double>& coefs, double lb, double ub);
  void flush(OsiSolverInterface& lp);  // adds the rows gathered so far, then forgets them

 private:
  std::vector<int> starts_{0}, columns_;
  std::vector<double> coefs_, lower_, upper_;
};

// Adds these cluster cuts as rows (see cluster_row for `sparse`), in one call.
void add_cluster_rows(const FamilyTable& fam, const ColumnLayout& cols, OsiSolverInterface& lp,
                      const std::vector<ClusterCut>& clusters, bool sparse);

}  // namespace bnsl::exact
