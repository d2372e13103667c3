// The ILP's cluster and k-cluster cuts against their definitions: every DAG satisfies every
// cut in both row forms, the forms agree on every point of the convexity rows, the strong
// separator (exact for small n) finds a violated cut exactly when brute force over all node
// sets and k finds one, and separators only ever return violated cuts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "exact/cluster_cuts.hpp"
#include "exact/families.hpp"

namespace {

using bnsl::exact::ClusterCut;
using bnsl::exact::ColumnLayout;
using bnsl::exact::FamilyTable;
using bnsl::exact::Mask;
using bnsl::exact::Separation;

constexpr double kMinViolation = 1e-4;

// n variables, each with the empty set and up to `extra` random other parent sets.
FamilyTable random_table(int n, int extra, std::mt19937_64& rng) {
  FamilyTable fam;
  fam.set_vars(n);
  for (int v = 0; v < n; ++v) {
    fam.masks[v].push_back(0);
    for (int j = 0; j < extra; ++j) {
      const Mask m = rng() & ((Mask{1} << n) - 1) & ~(Mask{1} << v);
      bool seen = false;
      for (Mask old : fam.masks[v]) seen = seen || old == m;
      if (!seen) fam.masks[v].push_back(m);
    }
    for (std::size_t i = 0; i < fam.masks[v].size(); ++i) {
      fam.scores[v].push_back(-static_cast<double>(i));
      fam.entry[v].push_back(static_cast<std::uint32_t>(i));
    }
  }
  return fam;
}

// The definition: k minus the mass of C's families with fewer than k parents in C.
double violation(const FamilyTable& fam, const ColumnLayout& cols, const std::vector<double>& x,
                 Mask c, int k) {
  double lhs = 0;
  for (int v = 0; v < fam.n; ++v)
    if (c >> v & 1)
      for (std::size_t i = 0; i < fam.size(v); ++i) {
        int inside = 0;
        for (int u = 0; u < fam.n; ++u) inside += (fam.masks[v][i] >> u & 1) && (c >> u & 1);
        if (inside < k) lhs += x[cols.offset[v] + i];
      }
  return k - lhs;
}

double row_value(const bnsl::exact::ClusterRow& row, const std::vector<double>& x) {
  double s = 0;
  for (int c : row.columns) s += x[c];
  return s;
}

std::vector<double> point_of(const FamilyTable& fam, const ColumnLayout& cols,
                             const std::vector<std::uint32_t>& choice) {
  std::vector<double> x(cols.columns(), 0.0);
  for (int v = 0; v < fam.n; ++v) x[cols.offset[v] + choice[v]] = 1.0;
  return x;
}

std::vector<std::uint32_t> random_choice(const FamilyTable& fam, std::mt19937_64& rng) {
  std::vector<std::uint32_t> choice(fam.n);
  for (int v = 0; v < fam.n; ++v) choice[v] = static_cast<std::uint32_t>(rng() % fam.size(v));
  return choice;
}

}  // namespace

TEST_CASE("cluster cuts: every DAG satisfies every k-cluster row, in both forms", "[exact][cuts]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const FamilyTable fam = random_table(5, 4, rng);
    const ColumnLayout cols(fam);
    std::vector<std::uint32_t> choice(fam.n, 0);
    int dags = 0;
    for (;;) {  // every parent-set assignment
      if (!bnsl::exact::find_cycle(fam, choice)) {
        ++dags;
        const auto x = point_of(fam, cols, choice);
        for (Mask c = 1; c < (Mask{1} << fam.n); ++c)
          for (int k = 1; k < std::popcount(c); ++k)
            for (bool sparse : {false, true}) {
              const auto row = bnsl::exact::cluster_row(fam, cols, ClusterCut{c, k}, sparse);
              const double value = row_value(row, x);
              REQUIRE(value >= row.lb - 1e-9);
              REQUIRE(value <= row.ub + 1e-9);
            }
      } else {  // a cycle violates the plain cluster constraint of its node set by 1
        const Mask cycle = bnsl::exact::find_cycle(fam, choice);
        REQUIRE(violation(fam, cols, point_of(fam, cols, choice), cycle, 1) == Approx(1.0));
      }
      int v = 0;
      while (v < fam.n && ++choice[v] == fam.size(v)) choice[v++] = 0;
      if (v == fam.n) break;
    }
    REQUIRE(dags > 0);
  }
}

TEST_CASE("cluster cuts: separators return only violated cuts; strong misses none (n <= 16)",
          "[exact][cuts]") {
  std::mt19937_64 rng(5);
  int violated_points = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 3 + trial % 4;
    const FamilyTable fam = random_table(n, 5, rng);
    const ColumnLayout cols(fam);
    // A point of the convexity rows: the average of a few parent-set assignments.
    const int parts = 2 + trial % 3;
    std::vector<double> x(cols.columns(), 0.0);
    for (int p = 0; p < parts; ++p) {
      const auto choice = random_choice(fam, rng);
      for (int v = 0; v < fam.n; ++v) x[cols.offset[v] + choice[v]] += 1.0 / parts;
    }
    double worst = 0;
    for (Mask c = 1; c < (Mask{1} << n); ++c)
      for (int k = 1; k < std::popcount(c); ++k) {
        const double viol = violation(fam, cols, x, c, k);
        worst = std::max(worst, viol);
        for (bool sparse : {false, true}) {  // both forms say the same at x
          const auto row = bnsl::exact::cluster_row(fam, cols, ClusterCut{c, k}, sparse);
          const double value = row_value(row, x);
          const bool holds = value >= row.lb - 1e-9 && value <= row.ub + 1e-9;
          REQUIRE(holds == (viol <= 1e-9));
        }
      }
    const auto strong =
        separate_clusters(fam, cols, x.data(), kMinViolation, 32, Separation::strong);
    const auto plain = separate_clusters(fam, cols, x.data(), kMinViolation, 32, Separation::plain);
    REQUIRE(strong.empty() == (worst <= kMinViolation));
    for (const ClusterCut& cut : strong) {
      REQUIRE(cut.k >= 1);
      REQUIRE(cut.k < std::popcount(cut.nodes));
      REQUIRE(violation(fam, cols, x, cut.nodes, cut.k) > kMinViolation);
    }
    for (const ClusterCut& cut : plain) {
      REQUIRE(cut.k == 1);
      REQUIRE(violation(fam, cols, x, cut.nodes, 1) > kMinViolation);
    }
    violated_points += worst > kMinViolation;
  }
  REQUIRE(violated_points > 50);  // the test exercises both outcomes
  REQUIRE(violated_points < 300);
}
