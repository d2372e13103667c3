// The ILP's root LP (column generation and reduced-cost screening) against brute force over
// every DAG of small random family tables: its bound is at least the optimum, and no DAG
// scoring at least the threshold uses a family the screening removed, whether the loop
// converged (pricing from one family per variable) or was stopped before it started.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "bnsl/exact.hpp"
#include "exact/cluster_cuts.hpp"
#include "exact/families.hpp"
#include "exact/root_lp.hpp"

namespace {

using bnsl::exact::ColumnLayout;
using bnsl::exact::FamilyTable;
using bnsl::exact::Mask;

// n variables, each with the empty set and up to `extra` random other parent sets, random
// scores, best first (the empty set is not always the best, so the optimum has arcs).
FamilyTable random_table(int n, int extra, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> score(-10.0, 0.0);
  FamilyTable fam;
  fam.set_vars(n);
  for (int v = 0; v < n; ++v) {
    std::vector<std::pair<double, Mask>> sets{{score(rng), 0}};
    for (int j = 0; j < extra; ++j) {
      const Mask m = rng() & ((Mask{1} << n) - 1) & ~(Mask{1} << v);
      if (std::none_of(sets.begin(), sets.end(), [&](const auto& s) { return s.second == m; }))
        sets.emplace_back(score(rng), m);
    }
    std::sort(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a > b; });
    for (std::size_t i = 0; i < sets.size(); ++i) {
      fam.masks[v].push_back(sets[i].second);
      fam.scores[v].push_back(sets[i].first);
      fam.entry[v].push_back(static_cast<std::uint32_t>(i));
    }
  }
  return fam;
}

// Every DAG of the table (family choices), by brute force over all choices.
std::vector<std::vector<std::uint32_t>> all_dags(const FamilyTable& fam) {
  std::vector<std::vector<std::uint32_t>> dags;
  std::vector<std::uint32_t> choice(fam.n, 0);
  for (;;) {
    if (bnsl::exact::find_cycle(fam, choice) == 0) dags.push_back(choice);
    int v = 0;
    while (v < fam.n && ++choice[v] == fam.size(v)) choice[v++] = 0;
    if (v == fam.n) return dags;
  }
}

}  // namespace

TEST_CASE(
    "root LP: bound above OPT, screening keeps every family of every DAG above the "
    "threshold",
    "[exact][ilp]") {
  if (!bnsl::ilp_available()) return;
  std::mt19937_64 rng(20261123);
  int screened = 0, priced = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = 3 + trial % 3;
    const FamilyTable fam = random_table(n, 10, rng);
    const ColumnLayout cols(fam);
    const auto dags = all_dags(fam);
    double opt = -INFINITY;
    std::vector<std::uint32_t> best;
    for (const auto& d : dags)
      if (fam.score(d) > opt) opt = fam.score(d), best = d;
    for (double eps : {0.0, 0.5, 2.0, 6.0}) {
      const double threshold = opt - eps;
      for (bool stopped : {false, true}) {
        bnsl::StopToken stop;
        if (stopped) stop.request_stop();
        bnsl::ExactTunables tune;
        tune.root_first_families = stopped ? 16 : 1;
        const bnsl::exact::RootResult r = bnsl::exact::solve_root(
            fam, stopped ? std::vector<std::uint32_t>{} : best, threshold, stop, tune);
        INFO("trial " << trial << " eps " << eps << " stopped " << stopped);
        CHECK(r.bound >= opt - 1e-6);
        if (!stopped) {
          CHECK(r.converged);
          priced += r.lp_columns > static_cast<std::size_t>(2 * n);
        }
        REQUIRE(r.usable.size() == cols.columns());
        for (const auto& d : dags)
          if (fam.score(d) >= threshold)
            for (int v = 0; v < n; ++v) CHECK(r.usable[cols.offset[v] + d[v]]);
        screened += static_cast<int>(std::count(r.usable.begin(), r.usable.end(), 0));
      }
    }
  }
  // The test means something: families were priced in and screened out.
  CHECK(priced > 0);
  CHECK(screened > 0);
}
