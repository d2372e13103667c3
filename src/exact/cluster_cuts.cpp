// Separation of cluster constraints for the family-variable ILP of Bayesian network learning
// (Jaakkola, Sontag, Globerson & Meila 2010; Bartlett & Cussens 2013, "Advances in Bayesian
// network learning using integer programming", section 3).
//
// At an LP point x with sum_i x(v,i) = 1 for every v, write in(v, C) for the mass of v's
// families with a parent in C. C's constraint is violated by
//   g(C) = sum_{v in C} in(v, C) - (|C| - 1)   (violated iff g(C) > 0),
// since the left-hand side is |C| - sum_{v in C} in(v, C). Exact separation is an NP-hard
// sub-IP (GOBNILP solves one); here a greedy heuristic grows C from every start node s: at
// each step it adds the node u with the largest gain
//   g(C ∪ {u}) - g(C) + 1 = sum_{v in C} mass of v's families avoiding C that contain u
//                           + in(u, C),
// continuing while some gain is positive (g may dip before it rises, e.g. along a fractional
// cycle), and keeps the most violated C seen. It only ever returns truly violated clusters
// (checked by recomputing the left-hand side), so cuts are always valid; it may miss some,
// which costs bound strength, never correctness: integral points are separated exactly by
// their cycles (find_cycle) in ilp.cpp.
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

std::vector<int> cluster_columns(const FamilyTable& fam, const ColumnLayout& cols, Mask cluster) {
  std::vector<int> out;
  for (Mask rest = cluster; rest != 0; rest &= rest - 1) {
    const int v = std::countr_zero(rest);
    for (std::size_t i = 0; i < fam.size(v); ++i)
      if ((fam.masks[v][i] & cluster) == 0) out.push_back(static_cast<int>(cols.offset[v] + i));
  }
  return out;
}

double cluster_lhs(const FamilyTable& fam, const ColumnLayout& cols, const double* x,
                   Mask cluster) {
  double s = 0;
  for (int c : cluster_columns(fam, cols, cluster)) s += x[c];
  return s;
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

// Grows a cluster from `start`; returns the most violated (g, C) met, g <= 0 if none.
std::pair<double, Mask> grow(const std::vector<Support>& sup, int n, int start) {
  Mask c = Mask{1} << start;
  double g = 0, best_g = 0;
  Mask best_c = 0;
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
    g += gain[best_u] - 1;
    if (g > best_g) best_g = g, best_c = c;
  }
  return {best_g, best_c};
}

}  // namespace

std::vector<Mask> separate_clusters(const FamilyTable& fam, const ColumnLayout& cols,
                                    const double* x, double min_violation, std::size_t max_cuts) {
  const std::vector<Support> sup = support_of(fam, cols, x);
  std::vector<std::pair<double, Mask>> found;
  for (int s = 0; s < fam.n; ++s) {
    const auto [g, c] = grow(sup, fam.n, s);
    if (g <= min_violation) continue;
    const double violation = 1 - cluster_lhs(fam, cols, x, c);  // exact, not the running sum
    if (violation > min_violation) found.emplace_back(violation, c);
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<Mask> out;
  for (const auto& [v, c] : found) {
    if (std::find(out.begin(), out.end(), c) != out.end()) continue;
    out.push_back(c);
    if (out.size() >= max_cuts) break;
  }
  return out;
}

}  // namespace bnsl::exact
