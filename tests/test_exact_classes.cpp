// bnsl exact --classes (src/exact/enumerate.cpp, the covered-arc rule; the ILP's collection,
// classes recognised by their imset keys or cut by imset no-goods, src/exact/imset.cpp)
// against brute force: every DAG of a cache enumerated literally, those
// within epsilon grouped by skeleton and v-structures computed in tests/oracle.hpp. The class
// list must hold each class of the brute force's list once, with its size; on caches missing
// random families (a jkl taken as given) too, where a reversal may leave the cache.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/report.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"
#include "exact/imset.hpp"
#include "exact_helpers.hpp"
#include "oracle.hpp"

namespace {

using bnsl::ExactMethod;
using bnsl::ScoreCache;
using bnsl::ScoreKind;
using bnsl::ScoreParams;
using exact_test::methods;
using exact_test::oracle_cache;
using oracle::ClassKey;
using oracle::Dag;

// Drops each non-empty family with probability `drop` (the empty set stays: a DAG exists).
oracle::Families thin(const oracle::Families& fam, double drop, std::mt19937_64& rng) {
  oracle::Families out(fam.size());
  std::bernoulli_distribution coin(drop);
  for (std::size_t v = 0; v < fam.size(); ++v)
    for (const auto& f : fam[v])
      if (f.first == 0 || !coin(rng)) out[v].push_back(f);
  return out;
}

// Brute force: the classes within eps of OPT and how many DAGs of the cache each holds.
std::map<ClassKey, std::size_t> classes_within(const oracle::Families& fam, double eps) {
  const auto all = oracle::all_dags(fam);
  const double threshold =
      all.front().score - eps - 1e-9 * std::max(1.0, std::fabs(all.front().score));
  std::map<ClassKey, std::size_t> out;
  for (const auto& d : all)
    if (d.score >= threshold) ++out[oracle::class_key(d.dag)];
  return out;
}

// Checks one class listing against the brute force; returns the number of classes.
// enumerate_steps: the ILP collection's region enumeration (0: its LP search lists every
// class); nogoods: ExactOptions::class_nogoods.
std::size_t check_classes(const oracle::Families& fam, ExactMethod method, double eps, bool full,
                          std::uint64_t enumerate_steps = std::uint64_t{1} << 18,
                          bool nogoods = false, int threads = 1) {
  const auto truth = classes_within(fam, eps);
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = method;
  o.epsilon = bnsl::Epsilon::epsilon(eps);
  o.classes = true;
  o.threads = threads;
  o.collect_enumerate_steps = enumerate_steps;
  o.class_nogoods = nogoods;
  bnsl::ExactStats st;
  bnsl::PoolReport r = bnsl::solve_exact(oracle_cache(fam), o, bnsl::StopToken(), &st);
  CHECK(r.optimal);
  CHECK(r.complete);
  CHECK(r.dags.empty());  // the classes carry their DAGs
  std::set<ClassKey> listed;
  for (const auto& c : r.classes) {
    Dag g;
    for (const auto& p : c.dag) g.push_back(oracle::to_mask(p));
    CHECK(listed.insert(oracle::class_key(g)).second);  // each class once
    CHECK(truth.count(oracle::class_key(g)) == 1);
  }
  CHECK(listed.size() == truth.size());
  if (full) {  // every DAG of each class is in a full table: sizes are the class sizes
    r.variables.assign(fam.size(), "");
    for (std::size_t v = 0; v < fam.size(); ++v) r.variables[v] = "V" + std::to_string(v);
    bnsl::summarize(r, 1);
    REQUIRE(r.classes.size() == truth.size());
    for (const auto& c : r.classes) {
      Dag g;
      for (const auto& p : c.dag) g.push_back(oracle::to_mask(p));
      CHECK(c.size == std::to_string(truth.at(oracle::class_key(g))));
    }
  }
  if (method == ExactMethod::dp) CHECK(st.enum_leaves >= listed.size());
  if (method == ExactMethod::ilp && enumerate_steps == 0) {
    // Without enumeration the collection lists every class (the optimum's too) at an LP point,
    // with a no-good row each when asked.
    CHECK(st.collect_nogoods == (nogoods ? listed.size() : 0));
    CHECK(st.collect_dags >= listed.size());
  }
  return listed.size();
}

// The random data of the tests below: 3 or 4 variables, one of them ternary.
bnsl::Dataset tiny_data(std::uint64_t seed) {
  const int n = 3 + static_cast<int>(seed % 2);  // 3, 4
  std::vector<int> arities(static_cast<std::size_t>(n), 2);
  arities[1] = 3;
  return oracle::random_dataset(40 + 25 * (seed % 3), arities, seed, 0.3);
}

}  // namespace

TEST_CASE("exact --classes: each class within epsilon once, as brute force groups the DAGs",
          "[exact][classes]") {
  std::size_t classes = 0, cases = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const bnsl::Dataset d = tiny_data(seed);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
      const oracle::Families full = oracle::full_table(d, p, -1);
      std::mt19937_64 rng(seed);
      for (double eps : {0.0, 1.0, std::log(20.0), 8.0, 30.0})
        for (ExactMethod m : methods()) {
          INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " eps " << eps << " "
                       << bnsl::to_string(m));
          classes += check_classes(full, m, eps, true);
          INFO("a cache missing a third of the families");
          classes += check_classes(thin(full, 0.35, rng), m, eps, false);
          cases += 2;
          if (m != ExactMethod::ilp) continue;
          for (const bool nogoods : {false, true}) {
            INFO("the ILP's LP search alone, no-goods " << nogoods);
            check_classes(full, m, eps, true, 0, nogoods);
            check_classes(thin(full, 0.35, rng), m, eps, false, 0, nogoods);
          }
          INFO("enumerations stopped after 3 families, the rest split");
          check_classes(full, m, eps, true, 3);
          check_classes(thin(full, 0.35, rng), m, eps, false, 3);
          INFO("the ILP's LP search alone on 3 threads");
          check_classes(full, m, eps, true, 0, false, 3);
          check_classes(thin(full, 0.35, rng), m, eps, false, 0, false, 3);
        }
    }
  }
  CHECK(cases == 6 * 2 * 5 * 2 * methods().size());  // 120 per method (dp; ilp with CBC)
  CHECK(classes > 2000);                             // wide epsilons list many classes
}

// Past --max-solutions (counting classes), the best classes: as many as allowed, none scoring
// below the max-th best class, every class above it listed, and ExactStats::listed_above the
// max-th best class's score.
TEST_CASE("exact --classes: past --max-solutions the best classes are listed", "[exact][classes]") {
  std::size_t cases = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const bnsl::Dataset d = tiny_data(seed);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
      const oracle::Families fam = oracle::full_table(d, p, -1);
      const auto all = oracle::all_dags(fam);         // best first
      std::vector<std::pair<ClassKey, double>> best;  // classes best first, each once
      std::set<ClassKey> met;
      for (const auto& g : all)
        if (met.insert(oracle::class_key(g.dag)).second)
          best.emplace_back(oracle::class_key(g.dag), g.score);
      const double opt = all.front().score, eps = 8.0;
      std::size_t within = 0;
      while (within < best.size() &&
             best[within].second >= opt - eps - 1e-9 * std::max(1.0, std::fabs(opt)))
        ++within;
      for (const std::size_t max : {1, 4, 12}) {
        if (max >= within) continue;
        const double last = best[max - 1].second;
        const auto tied = [&](double s) {
          return std::fabs(s - last) <= 1e-9 * std::max({1.0, std::fabs(s), std::fabs(last)});
        };
        for (ExactMethod m : methods())
          for (const int threads : {1, 3}) {
            if (m == ExactMethod::dp && threads > 1) continue;
            INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " max " << max << " "
                         << bnsl::to_string(m) << " threads " << threads);
            bnsl::ExactOptions o;
            o.start = bnsl::ilp_start();  // as the pipeline does
            o.method = m;
            o.epsilon = bnsl::Epsilon::epsilon(eps);
            o.classes = true;
            o.threads = threads;
            o.max_solutions = max;
            bnsl::ExactStats st;
            const bnsl::PoolReport r =
                bnsl::solve_exact(oracle_cache(fam), o, bnsl::StopToken(), &st);
            CHECK(r.optimal);
            CHECK(!r.complete);
            CHECK(st.truncated);
            REQUIRE(r.classes.size() == max);
            std::set<ClassKey> listed;
            for (const auto& c : r.classes) {
              Dag g;
              for (const auto& q : c.dag) g.push_back(oracle::to_mask(q));
              CHECK(listed.insert(oracle::class_key(g)).second);
              CHECK((c.score >= last || tied(c.score)));
            }
            for (std::size_t k = 0; k < within; ++k)
              if (best[k].second > last && !tied(best[k].second))
                CHECK(listed.count(best[k].first) == 1);
            CHECK(st.listed_above == Approx(last).epsilon(1e-12));
            ++cases;
          }
      }
    }
  }
  CHECK(cases > 20);
}

TEST_CASE("exact --classes: 5 variables, the DP visits fewer DAGs than the classes hold",
          "[exact][classes]") {
  const bnsl::Dataset d = oracle::random_dataset(80, {2, 2, 3, 2, 2}, 7, 0.3);
  const oracle::Families full = oracle::full_table(d, {ScoreKind::bic, 1.0}, -1);
  const auto truth = classes_within(full, 12.0);
  std::size_t dags = 0;
  for (const auto& [key, size] : truth) dags += size;
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = ExactMethod::dp;
  o.epsilon = bnsl::Epsilon::epsilon(12.0);
  o.classes = true;
  o.threads = 1;
  bnsl::ExactStats st;
  const bnsl::PoolReport r = bnsl::solve_exact(oracle_cache(full), o, bnsl::StopToken(), &st);
  CHECK(r.classes.size() == truth.size());
  CHECK(st.enum_leaves < dags);  // the covered-arc rule skipped members
  CHECK(st.covered_cuts > 0);
}

TEST_CASE("imset key: equal exactly for Markov equivalent DAGs, on every DAG of 4 and 5 nodes",
          "[exact][classes]") {
  for (int n : {4, 5}) {
    // Every parent set of every node, scored 0: all_dags lists every DAG on n nodes.
    oracle::Families every(static_cast<std::size_t>(n));
    bnsl::exact::FamilyTable fam;
    fam.set_vars(n);
    for (int v = 0; v < n; ++v)
      for (oracle::Mask m = 0; m < (oracle::Mask{1} << n); ++m) {
        fam.masks[v].push_back(m);  // family m of v is the parent set m (choice = mask)
        fam.scores[v].push_back(0);
        fam.entry[v].push_back(static_cast<std::uint32_t>(m));
        if (!(m >> v & 1)) every[v].push_back({m, 0.0});
      }
    std::map<ClassKey, bnsl::exact::ImsetKey> by_class;
    std::map<bnsl::exact::ImsetKey, ClassKey> by_imset;
    std::size_t dags = 0;
    for (const auto& d : oracle::all_dags(every)) {
      const std::vector<std::uint32_t> choice(d.dag.begin(), d.dag.end());
      const auto key = bnsl::exact::imset_key(fam, choice);
      const auto cls = oracle::class_key(d.dag);
      CHECK(by_class.try_emplace(cls, key).first->second == key);
      CHECK(by_imset.try_emplace(key, cls).first->second == cls);
      ++dags;
    }
    INFO(n << " nodes");
    CHECK(dags == (n == 4 ? 543u : 29281u));            // OEIS A003024
    CHECK(by_class.size() == (n == 4 ? 185u : 8782u));  // OEIS A007984
    CHECK(by_imset.size() == by_class.size());
  }
}
