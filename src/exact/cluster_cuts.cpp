// Separation of cluster constraints for the family-variable ILP of Bayesian network learning
// (Jaakkola, Sontag, Globerson & Meila 2010; Bartlett & Cussens 2013, "Advances in Bayesian
// network learning using integer programming", section 3), with the k-cluster constraints of
// Jaakkola et al. (facets of the family polytope, Cussens, Järvisalo, Korhonen & Bartlett 2017).
//
// Why k > 1. With many rows the best families have many parents, and the LP mixes them with
// the empty set: on uci/adult (14 variables, BIC) the root LP point satisfies every plain
// cluster constraint, yet gives v0 {5,7,9,13} 0.28 and {} 0.49, v6 {4,7,9,13} 0.43 and
// {} 0.38, ...; its 2-cluster constraint for C = {4,6,9,13} (two of the four have at most one
// parent among them) is violated by 0.44. Plain clusters alone left adult's bound 0.2% above
// OPT after ten minutes of branching.
//
// At an LP point x with sum_i x(v,i) = 1 for every v, let h_C(j) be the mass of the families
// of C's nodes with exactly j parents in C; the k-cluster constraint of C reads
// h_C(0) + ... + h_C(k-1) >= k, so one histogram gives the violations of every k at once.
//
// Candidate clusters (exact separation is an NP-hard sub-IP, which GOBNILP solves) are grown
// greedily from every start node s, at each step adding the node u with the largest gain for
// the plain constraint, whose violation g(C) = sum_{v in C} in(v, C) - (|C| - 1), in(v, C)
// the mass of v's families with a parent in C, changes by
//   g(C ∪ {u}) - g(C) + 1 = sum_{v in C} mass of v's families avoiding C that contain u
//                           + in(u, C),
// continuing while some gain is positive (g may dip before it rises, e.g. along a fractional
// cycle). The plain separator keeps the most violated cluster of each path (k = 1); the
// strong one checks every cluster on the paths for every k and, when none is violated and
// n <= exhaustive_vars (exact.exhaustive_cut_vars), every C (2^n histograms over the LP support,
// about 5M additions at n = 16, 80M at n = 20), so it is exact there. On uci/letter (17 variables,
// BIC BF 20) the greedy paths alone left the root LP 2,441 above OPT after 53 rounds; exhaustive
// separation kept finding violated clusters until 1,357 above OPT (156 rounds, 121 s; uci/msnbc BIC
// BF 3: 1,468 -> 501 above OPT; bench/JOURNAL.md, session 7). Only truly violated cuts are
// returned, so cuts are always valid; a missed one costs bound strength, never correctness:
// integral points are separated exactly by their cycles (find_cycle) in ilp.cpp and
// collect.cpp.
//
// The functions below that count a family's parents in C (std::popcount) are cloned for the
// POPCNT instruction (target_clones): the default x86-64 build has none, and libgcc's software
// popcount is about ten times slower.
#include "exact/cluster_cuts.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

namespace bnsl::exact {

ColumnLayout::ColumnLayout(const FamilyTable& fam) {
  offset.assign(static_cast<std::size_t>(fam.n) + 1, 0);
  for (int v = 0; v < fam.n; ++v) offset[v + 1] = offset[v] + fam.size(v);
}

__attribute__((target_clones("popcnt", "default"))) ClusterRow cluster_row(const FamilyTable& fam,
                                                                           const ColumnLayout& cols,
                                                                           ClusterCut cut,
                                                                           bool sparse) {
  constexpr double kInf = std::numeric_limits<double>::max();
  ClusterRow few{{}, static_cast<double>(cut.k), kInf};
  ClusterRow many{{}, -kInf, static_cast<double>(std::popcount(cut.nodes) - cut.k)};
  for (Mask rest = cut.nodes; rest != 0; rest &= rest - 1) {
    const int v = std::countr_zero(rest);
    for (std::size_t i = 0; i < fam.size(v); ++i)
      (std::popcount(fam.masks[v][i] & cut.nodes) < cut.k ? few : many)
          .columns.push_back(static_cast<int>(cols.offset[v] + i));
  }
  return sparse && many.columns.size() < few.columns.size() ? many : few;
}

__attribute__((target_clones("popcnt", "default"))) double cut_violation(const FamilyTable& fam,
                                                                         const ColumnLayout& cols,
                                                                         const double* x,
                                                                         ClusterCut cut) {
  double lhs = 0;
  for (Mask rest = cut.nodes; rest != 0; rest &= rest - 1) {
    const int v = std::countr_zero(rest);
    for (std::size_t i = 0; i < fam.size(v); ++i)
      if (std::popcount(fam.masks[v][i] & cut.nodes) < cut.k) lhs += x[cols.offset[v] + i];
  }
  return cut.k - lhs;
}

std::vector<std::uint32_t> integral_choice(const FamilyTable& fam, const ColumnLayout& cols,
                                           const double* x, double tol) {
  std::vector<std::uint32_t> choice(static_cast<std::size_t>(fam.n));
  for (int v = 0; v < fam.n; ++v) {
    int ones = 0;
    for (std::size_t i = 0; i < fam.size(v); ++i) {
      const double value = x[cols.offset[v] + i];
      if (value > 1 - tol) {
        choice[v] = static_cast<std::uint32_t>(i);
        ++ones;
      } else if (value > tol) {
        return {};
      }
    }
    if (ones != 1) return {};
  }
  return choice;
}

namespace {

struct Support {  // families of one variable with positive LP value
  std::vector<std::pair<Mask, double>> fams;
};

std::vector<Support> support_of(const FamilyTable& fam, const ColumnLayout& cols, const double* x) {
  std::vector<Support> s(static_cast<std::size_t>(fam.n));
  for (int v = 0; v < fam.n; ++v)
    for (std::size_t i = 0; i < fam.size(v); ++i)
      if (x[cols.offset[v] + i] > 1e-9)
        s[v].fams.emplace_back(fam.masks[v][i], x[cols.offset[v] + i]);
  return s;
}

using Found = std::vector<std::pair<double, ClusterCut>>;

// Appends every k-cluster cut of C that x violates by more than min_violation.
__attribute__((target_clones("popcnt", "default"))) void check_cluster(
    const std::vector<Support>& sup, Mask c, double min_violation, std::vector<double>& hist,
    Found& found, int kmax) {
  const int size = std::popcount(c);
  std::fill(hist.begin(), hist.begin() + size, 0.0);  // a family has at most size - 1 in C
  for (Mask rest = c; rest != 0; rest &= rest - 1)
    for (const auto& [m, x] : sup[std::countr_zero(rest)].fams) hist[std::popcount(m & c)] += x;
  double lhs = 0;
  for (int k = 1; k < size && k <= kmax; ++k) {
    lhs += hist[k - 1];
    if (k - lhs > min_violation) found.emplace_back(k - lhs, ClusterCut{c, k});
  }
}

// Grows a cluster from `start` (see the top of the file); appends every cluster on the path.
void grow(const std::vector<Support>& sup, int n, int start, std::vector<Mask>& path) {
  Mask c = Mask{1} << start;
  std::vector<double> gain(static_cast<std::size_t>(n));
  for (int size = 1; size < n; ++size) {
    std::fill(gain.begin(), gain.end(), 0.0);
    for (Mask rest = c; rest != 0; rest &= rest - 1)
      for (const auto& [m, x] : sup[std::countr_zero(rest)].fams)
        if ((m & c) == 0)
          for (Mask bits = m; bits != 0; bits &= bits - 1) gain[std::countr_zero(bits)] += x;
    int best_u = -1;
    for (int u = 0; u < n; ++u) {
      if (c >> u & 1) continue;
      for (const auto& [m, x] : sup[u].fams)
        if (m & c) gain[u] += x;
      if (gain[u] > 1e-9 && (best_u < 0 || gain[u] > gain[best_u])) best_u = u;
    }
    if (best_u < 0) break;
    c |= Mask{1} << best_u;
    path.push_back(c);
  }
}

}  // namespace

std::vector<ClusterCut> separate_clusters(const FamilyTable& fam, const ColumnLayout& cols,
                                          const double* x, double min_violation,
                                          std::size_t max_cuts, Separation how,
                                          int exhaustive_vars) {
  const std::vector<Support> sup = support_of(fam, cols, x);
  std::vector<double> hist(static_cast<std::size_t>(fam.n) + 1);
  Found found;
  if (how == Separation::plain) {  // k = 1, the most violated cluster on each start's path
    for (int s = 0; s < fam.n; ++s) {
      std::vector<Mask> path;
      Found on_path;
      grow(sup, fam.n, s, path);
      for (Mask c : path) check_cluster(sup, c, min_violation, hist, on_path, 1);
      if (!on_path.empty())
        found.push_back(
            *std::max_element(on_path.begin(), on_path.end(),
                              [](const auto& a, const auto& b) { return a.first < b.first; }));
    }
  } else {
    std::vector<Mask> path;
    for (int s = 0; s < fam.n; ++s) grow(sup, fam.n, s, path);
    std::sort(path.begin(), path.end());
    path.erase(std::unique(path.begin(), path.end()), path.end());
    for (Mask c : path) check_cluster(sup, c, min_violation, hist, found, fam.n);
    if (found.empty() && fam.n <= exhaustive_vars) {
      const Mask full = (Mask{1} << fam.n) - 1;
      for (Mask c = 3; c <= full; ++c)
        if (std::popcount(c) >= 2) check_cluster(sup, c, min_violation, hist, found, fam.n);
    }
  }
  // Most violated first; ties by smaller k, then node set, so the order is deterministic.
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    if (a.second.k != b.second.k) return a.second.k < b.second.k;
    return a.second.nodes < b.second.nodes;
  });
  std::vector<ClusterCut> out;
  for (std::size_t i = 0; i < found.size() && out.size() < max_cuts; ++i) {
    // recomputed from all columns, not the support: only truly violated cuts leave
    if (cut_violation(fam, cols, x, found[i].second) > min_violation)
      out.push_back(found[i].second);
  }
  return out;
}

}  // namespace bnsl::exact
