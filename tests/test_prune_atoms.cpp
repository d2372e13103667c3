// Rule 8, the BDeu atom bound (prune/bdeu_atoms.hpp), against independent oracles: the bound
// of every parent set is at least the best BDeu score of its proper supersets, scored by the
// oracle's own counts (tests/oracle.hpp); and every family a network within eps of OPT uses
// survives the sequential exploration, against the brute force over orders.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/score.hpp"
#include "bnsl/stop.hpp"
#include "oracle.hpp"
#include "prune/bdeu_atoms.hpp"
#include "score/counting.hpp"
#include "score/row_groups.hpp"

namespace {

using bnsl::Dataset;
using bnsl::ScoreKind;
using bnsl::ScoreParams;
using oracle::Mask;

// Few variables of 2 or 3 states and many rows: rows repeat on every set of variables, so
// most children have mixed atoms (rows equal on the others that differ on the child).
Dataset atom_data(int n, std::size_t rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + static_cast<std::uint64_t>(n) * 31 + rows);
  std::vector<int> arities(static_cast<std::size_t>(n));
  for (auto& r : arities) r = std::uniform_int_distribution<int>(2, 3)(rng);
  const oracle::RandomColumns c = oracle::random_columns(rows, arities, rng(), 0.3, 2);
  for (int a : c.arities)
    if (a < 2) return atom_data(n, rows, seed + 1000);  // keep every column a candidate
  return Dataset::from_codes(c.columns, c.arities);
}

double bound_of(bnsl::Counter& counter, const bnsl::prune::BdeuAtoms& atoms,
                const std::vector<int>& parents, double ess) {
  bnsl::ConfigIndex index;
  counter.build(parents, index);
  bnsl::prune::BdeuBoundScratch scratch;
  return bnsl::prune::bdeu_superset_bound(atoms, index, index.q, ess, scratch);
}

}  // namespace

TEST_CASE("rule 8: the atom bound is at least every proper superset's BDeu score",
          "[pruning][bdeu]") {
  std::size_t sets = 0, tighter = 0, with_atoms = 0, failures = 0;
  std::string first;
  for (double ess : {0.1, 1.0, 10.0})
    for (int n = 3; n <= 5; ++n)
      for (std::size_t rows : {30, 200, 1000})
        for (std::uint64_t seed = 0; seed < 3; ++seed)
          for (bool grouped : {false, true}) {
            const Dataset d = atom_data(n, rows, seed);
            const ScoreParams p{ScoreKind::bdeu, ess};
            const auto groups = grouped ? bnsl::group_rows(d, 1.0) : std::nullopt;
            bnsl::Counter counter(d, p, groups ? &*groups : nullptr);
            const oracle::Families full = oracle::full_table(d, p, n - 1);
            for (int v = 0; v < n; ++v) {
              const bnsl::prune::BdeuAtoms atoms = bnsl::prune::bdeu_atoms(counter, v);
              if (!atoms.empty()) ++with_atoms;
              for (const auto& [m, s] : full[static_cast<std::size_t>(v)]) {
                double best_super = oracle::kNegInf;
                for (const auto& [m2, s2] : full[static_cast<std::size_t>(v)])
                  if (m2 != m && (m2 & m) == m) best_super = std::max(best_super, s2);
                if (best_super == oracle::kNegInf) continue;  // no proper superset
                const std::vector<int> pa = oracle::from_mask(m);
                const double b = bound_of(counter, atoms, pa, ess);
                const oracle::Counts c = oracle::count(d, v, pa);
                std::size_t cells = 0;
                for (const auto& row : c.n_jk)
                  for (auto x : row) cells += x > 0;
                const double rule6 = -static_cast<double>(cells) * std::log(d.arity(v));
                ++sets;
                if (b < rule6 - 1e-9) ++tighter;
                if (b < best_super - 1e-9 || b > rule6 + 1e-9) {
                  if (failures++ == 0) {
                    std::ostringstream o;
                    o.precision(12);
                    o << "ess " << ess << " n " << n << " rows " << rows << " seed " << seed
                      << " var " << v << " set " << oracle::mask_str(m) << ": bound " << b
                      << ", best proper superset " << best_super << ", rule 6 " << rule6;
                    first = o.str();
                  }
                }
              }
            }
          }
  INFO(first);
  CHECK(failures == 0);
  INFO("sets " << sets << ", tighter than rule 6 " << tighter << ", children with atoms "
               << with_atoms);
  CHECK(with_atoms > 0);
  CHECK(tighter * 4 > sets);  // not vacuous: the bound improves on rule 6 often
}

TEST_CASE("rule 8: the Dirichlet supremum bounds the predictive probability for every a",
          "[pruning][bdeu]") {
  // ln of the Dirichlet-multinomial probability of the counts, directly from its definition.
  const auto dm = [](const std::vector<std::uint32_t>& n, int r, double a) {
    double s = std::lgamma(a), total = 0;
    for (auto k : n) {
      total += k;
      if (k > 0) s += std::lgamma(a / r + k) - std::lgamma(a / r);
    }
    return s - std::lgamma(a + total);
  };
  const std::vector<std::vector<std::uint32_t>> cases = {
      {5, 5}, {9, 1}, {1, 1}, {3, 0, 2}, {1, 1, 1}, {20, 3, 7}, {2, 40}, {0, 4, 4, 1}};
  for (const auto& n : cases)
    for (double a_hi : {0.001, 0.05, 0.5, 5.0})
      for (int step = 1; step <= 50; ++step) {
        const double a = a_hi * step / 50;
        const int r = static_cast<int>(n.size());
        INFO("counts size " << r << " a_hi " << a_hi << " a " << a);
        CHECK(bnsl::prune::dirichlet_sup(n, r, a_hi) >= dm(n, r, a) - 1e-9);
      }
}

TEST_CASE("rule 8: every family within eps of OPT survives (BDeu, repeated rows)",
          "[pruning][bdeu][explore]") {
  std::size_t failures = 0, runs = 0;
  std::uint64_t cut = 0;
  std::string first;
  for (double ess : {0.1, 1.0, 10.0})
    for (int n = 4; n <= 5; ++n)
      for (std::size_t rows : {40, 300, 2000})
        for (std::uint64_t seed = 0; seed < 3; ++seed) {
          const Dataset d = atom_data(n, rows, seed);
          const ScoreParams p{ScoreKind::bdeu, ess};
          const oracle::Families full = oracle::full_table(d, p, n - 1);
          const oracle::OrderResult brute = oracle::brute_force_orders(full);
          for (double eps : {0.0, 1.0, std::log(20.0)}) {
            bnsl::ExploreOptions opt;
            opt.score = p;
            opt.epsilon = bnsl::Epsilon::epsilon(eps);
            opt.method = bnsl::ExploreMethod::seq;
            opt.max_parents = n - 1;
            opt.time = 0;
            opt.time_per_var = 0;
            opt.threads = 1;
            const bnsl::StopToken stop;
            bnsl::ExploreStats stats;
            const bnsl::ScoreCache cache = bnsl::explore(d, opt, stop, &stats);
            cut += stats.pruned_rule8;
            ++runs;
            for (std::size_t v = 0; v < full.size(); ++v)
              for (const auto& [m, s] : full[v]) {
                const double bw = brute.best_with[v][m];
                if (bw >= brute.opt - eps - 1e-7 && cache.var(v).find(oracle::from_mask(m)) < 0 &&
                    failures++ == 0) {
                  std::ostringstream o;
                  o.precision(12);
                  o << "ess " << ess << " n " << n << " rows " << rows << " seed " << seed
                    << " eps " << eps << " var " << v << " family " << oracle::mask_str(m)
                    << " is in a network scoring " << bw << " >= OPT - eps = " << brute.opt - eps
                    << " but was pruned";
                  first = o.str();
                }
              }
          }
        }
  INFO(first);
  CHECK(failures == 0);
  INFO("runs " << runs << ", sets whose supersets rule 8 cut " << cut);
  CHECK(cut > 0);  // not vacuous
}

TEST_CASE("rule 8's probe: never tried at 0, and its caches hold the default's entries",
          "[pruning][bdeu][explore]") {
  const Dataset d = atom_data(5, 300, 1);
  const auto run = [&](std::uint64_t probe, bnsl::ExploreStats& stats) {
    bnsl::ExploreOptions opt;
    opt.score = ScoreParams{ScoreKind::bdeu, 1.0};
    opt.epsilon = bnsl::Epsilon::epsilon(std::log(20.0));
    opt.method = bnsl::ExploreMethod::seq;
    opt.max_parents = 4;
    opt.threads = 1;
    opt.tune.rule8_probe = probe;
    return bnsl::explore(d, opt, bnsl::StopToken(), &stats);
  };
  bnsl::ExploreStats base_stats, off_stats, one_stats;
  const bnsl::ScoreCache base = run(bnsl::ExploreTunables{}.rule8_probe, base_stats);
  const bnsl::ScoreCache off = run(0, off_stats);
  const bnsl::ScoreCache one = run(1, one_stats);
  CHECK(base_stats.pruned_rule8 > 0);
  CHECK(off_stats.pruned_rule8 == 0);
  CHECK(one_stats.pruned_rule8 <= base_stats.pruned_rule8);
  for (std::size_t v = 0; v < d.n_vars(); ++v)
    for (std::size_t e = 0; e < base.var(v).size(); ++e) {
      const auto ps = base.var(v).parents(e);
      const std::vector<int> parents(ps.begin(), ps.end());
      CHECK(off.var(v).find(parents) >= 0);
      CHECK(one.var(v).find(parents) >= 0);
    }
}
