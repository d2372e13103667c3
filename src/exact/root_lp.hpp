// The ILP's root relaxation solved by column generation, and the families it rules out; see
// root_lp.cpp. Needs CBC's LP solver (built only with BNSL_HAVE_CBC).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bnsl/stop.hpp"
#include "exact/cluster_cuts.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

struct RootResult {
  // usable[c] for every column c of ColumnLayout(fam): whether a DAG scoring >= threshold
  // may use that family (0: proven that none does).
  std::vector<char> usable;
  std::vector<ClusterCut> cuts;  // cluster cuts of the root LP binding at the end (dual != 0)
  double bound = 0;              // upper bound on the score of every DAG
  std::size_t lp_columns = 0;    // families in the LP when it stopped
  std::uint64_t rounds = 0;      // LP solves
  bool converged = false;        // no violated cut found and no family priced in
};

// Solves the LP relaxation (convexity rows and cluster cuts, separated as in CBC's search)
// over a growing subset of the families, starting from the best tune.root_first_families of
// each variable, its empty parent set and the DAG `start` (may be empty), pricing the others in
// by their reduced costs (at most tune.priced_per_var of each variable a round). Stops when nothing
// is added or on `stop`; either way the bound and the screening are valid (Lagrangian duality).
// Without CBC throws InputError.
RootResult solve_root(const FamilyTable& fam, const std::vector<std::uint32_t>& start,
                      double threshold, const StopToken& stop, const ExactTunables& tune = {});

}  // namespace bnsl::exact
