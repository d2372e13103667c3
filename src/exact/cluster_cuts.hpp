// Cluster constraints of the family-variable ILP (Jaakkola et al. 2010; Bartlett & Cussens
// 2013) and their separation; see cluster_cuts.cpp. Independent of the LP solver.
//
// Column layout: family i of variable v is column offset[v] + i. For a node set C and
// 1 <= k < |C| the k-cluster constraint is
//   sum_{v in C} sum_{i : |parents(v,i) ∩ C| < k} x(v,i) >= k
// (the first k nodes of C in a topological order have fewer than k parents in C), so every
// DAG satisfies it; k = 1 is the plain cluster constraint (some node of C has no parent in C),
// which a parent-set choice with a directed cycle violates for the cycle's node set.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <vector>

#include "bnsl/tunables.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

struct ColumnLayout {
  std::vector<std::size_t> offset;  // offset[v]: column of v's first family; offset[n]: total
  explicit ColumnLayout(const FamilyTable& fam);
  std::size_t columns() const { return offset.back(); }
};

struct ClusterCut {
  Mask nodes = 0;
  int k = 1;
  bool operator==(const ClusterCut&) const = default;
};
struct ClusterCutHash {
  std::size_t operator()(const ClusterCut& c) const {
    return std::hash<Mask>()(c.nodes) * 31 + static_cast<std::size_t>(c.k);
  }
};

// A cut as an LP row with unit coefficients: the `columns` of v in C with fewer than k
// parents in C and lb = k (the form above), or, if `sparse` and it has fewer columns, the
// `columns` of v in C with at least k parents in C and ub = |C| - k (the same row subtracted
// from the convexity rows sum_i x(v,i) = 1 of C's nodes); small clusters have the sparser
// second form, as most families have no parent in a small C.
struct ClusterRow {
  std::vector<int> columns;
  double lb, ub;  // one of them infinite: -/+ std::numeric_limits<double>::max(), which is
                  // COIN_DBL_MAX, the infinity of CBC's rows and cuts
};
ClusterRow cluster_row(const FamilyTable& fam, const ColumnLayout& cols, ClusterCut cut,
                       bool sparse);

// By how much x violates the cut: k minus the left-hand side of the first form.
double cut_violation(const FamilyTable& fam, const ColumnLayout& cols, const double* x,
                     ClusterCut cut);

// Family choice of an integral point (x(v,i) > 0.5), or empty if x is not integral within tol.
std::vector<std::uint32_t> integral_choice(const FamilyTable& fam, const ColumnLayout& cols,
                                           const double* x, double tol = 1e-6);

// Separation at a fractional point x: up to max_cuts distinct cuts that x violates by more
// than min_violation, most violated first. Only violated cuts are returned; some may be
// missed (see cluster_cuts.cpp). `plain`: k = 1 only, by greedy growth from each node (cheap;
// the collector's many small re-solves). `strong`: every k on every cluster of the growth
// paths, and when none is violated and n <= exhaustive_vars, every cluster C and every k
// (exact separation; CBC's proof of OPT). Every caller separates with the exact.min_violation
// and exact.cuts_per_round of its ExactOptions::tune (bnsl/tunables.hpp): only clearly
// violated clusters, and a few cuts a round (the root LP, the collector, the ILP's root).
enum class Separation { plain, strong };
std::vector<ClusterCut> separate_clusters(
    const FamilyTable& fam, const ColumnLayout& cols, const double* x, double min_violation,
    std::size_t max_cuts, Separation how,
    int exhaustive_vars = ExactTunables{}.exhaustive_cut_vars);

}  // namespace bnsl::exact
