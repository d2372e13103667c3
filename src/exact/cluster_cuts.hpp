// Cluster constraints of the family-variable ILP (Jaakkola et al. 2010; Bartlett & Cussens
// 2013) and their separation; see cluster_cuts.cpp. Independent of the LP solver.
//
// Column layout: family i of variable v is column offset[v] + i. For a node set C the cluster
// constraint is  sum_{v in C} sum_{i : parents(v,i) ∩ C = {}} x(v,i) >= 1  (some node of C has
// no parent inside C); every DAG satisfies it, and a parent-set choice with a directed cycle
// violates it for the cycle's node set.
#pragma once

#include <cstddef>
#include <vector>

#include "exact/families.hpp"

namespace bnsl::exact {

struct ColumnLayout {
  std::vector<std::size_t> offset;  // offset[v]: column of v's first family; offset[n]: total
  explicit ColumnLayout(const FamilyTable& fam);
  std::size_t columns() const { return offset.back(); }
};

// Columns (and coefficient 1) of the cluster constraint of C.
std::vector<int> cluster_columns(const FamilyTable& fam, const ColumnLayout& cols, Mask cluster);

// Left-hand side of C's cluster constraint at the point x.
double cluster_lhs(const FamilyTable& fam, const ColumnLayout& cols, const double* x, Mask cluster);

// Family choice of an integral point (x(v,i) > 0.5), or empty if x is not integral within tol.
std::vector<std::uint32_t> integral_choice(const FamilyTable& fam, const ColumnLayout& cols,
                                           const double* x, double tol = 1e-6);

// Heuristic separation at a fractional point: greedy growth of a cluster from every start node,
// adding the node that most increases the violation; returns up to max_cuts distinct clusters
// whose constraint x violates by more than min_violation, most violated first.
std::vector<Mask> separate_clusters(const FamilyTable& fam, const ColumnLayout& cols,
                                    const double* x, double min_violation, std::size_t max_cuts);

}  // namespace bnsl::exact
