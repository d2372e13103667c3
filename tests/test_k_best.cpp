// The K best networks and classes (bnsl exact --k-best, --k-best-classes; src/exact/k_best.cpp)
// and rule 7 (src/prune/rules.hpp), against brute force: every parent-set assignment of a cache
// enumerated literally, sorted by score, and grouped into classes by skeleton and v-structures
// (Verma & Pearl 1990) computed here, not by the library's essential graphs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"
#include "exact/k_best.hpp"
#include "exact_helpers.hpp"
#include "oracle.hpp"
#include "prune/rules.hpp"

namespace {

using bnsl::ExactMethod;
using bnsl::ScoreCache;
using bnsl::ScoreKind;
using bnsl::ScoreParams;
using exact_test::methods;
using exact_test::oracle_cache;
using oracle::all_dags;
using oracle::class_key;
using oracle::ClassKey;
using oracle::Dag;
using oracle::Mask;
using oracle::Scored;

// |a - b| within the library's tolerance (1e-9 relative).
bool tied(double a, double b) {
  return oracle::close_rel(a, b, 1e-9);
}

// The brute force's answer: the K best DAGs (classes) and every DAG (class) tied with the K-th;
// every DAG of the space when it holds fewer. `units` receives their number.
std::set<Dag> k_best_truth(const std::vector<Scored>& all, std::size_t k, bool classes,
                           std::size_t* units) {
  std::map<ClassKey, int> ids;
  std::set<int> seen;
  std::size_t end = all.size();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const int unit =
        classes ? ids.emplace(class_key(all[i].dag), static_cast<int>(ids.size())).first->second
                : static_cast<int>(i);
    if (seen.insert(unit).second && seen.size() == k) {
      end = i + 1;
      while (end < all.size() &&
             (all[end].score > all[i].score || tied(all[end].score, all[i].score)))
        ++end;
      break;
    }
  }
  std::set<Dag> out;
  std::set<ClassKey> keys;
  for (std::size_t i = 0; i < end; ++i) {
    out.insert(all[i].dag);
    keys.insert(class_key(all[i].dag));
  }
  *units = classes ? keys.size() : out.size();
  return out;
}

std::set<Dag> listed(const bnsl::PoolReport& r) {
  std::set<Dag> out;
  for (const auto& d : r.dags) {
    Dag g;
    for (const auto& p : d.parents) g.push_back(oracle::to_mask(p));
    CHECK(out.insert(g).second);  // listed once
  }
  return out;
}

bnsl::PoolReport k_best(const ScoreCache& cache, ExactMethod method, std::size_t k, bool classes,
                        bnsl::ExactStats* stats, std::size_t max_solutions = 1000000) {
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = method;
  o.k_best = {k, classes};
  o.threads = 1;
  o.max_solutions = max_solutions;
  return bnsl::solve_exact(cache, o, bnsl::StopToken(), stats);
}

}  // namespace

TEST_CASE("k-best: the K best DAGs and classes equal brute force on tiny data", "[exact][kbest]") {
  std::size_t cases = 0, with_ties = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const int n = 3 + static_cast<int>(seed % 2);  // 3, 4
    std::vector<int> arities(static_cast<std::size_t>(n), 2);
    arities[0] = 3;
    const bnsl::Dataset d = oracle::random_dataset(30 + 20 * (seed % 3), arities, seed, 0.3);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
      const oracle::Families fam = oracle::full_table(d, p, -1);
      const ScoreCache cache = oracle_cache(fam);
      const std::vector<Scored> all = all_dags(fam);
      for (bool classes : {false, true})
        for (std::size_t k : {1, 2, 3, 7, 20, 60, 1000}) {
          std::size_t units = 0;
          const std::set<Dag> truth = k_best_truth(all, k, classes, &units);
          for (ExactMethod m : methods()) {
            INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " k " << k
                         << (classes ? " classes " : " dags ") << bnsl::to_string(m));
            bnsl::ExactStats st;
            bnsl::PoolReport r = k_best(cache, m, k, classes, &st);
            CHECK(r.optimal);
            CHECK(r.complete);
            CHECK(listed(r) == truth);
            CHECK(st.k_best_units == units);
            CHECK(r.dags.front().score == Approx(all.front().score).epsilon(1e-12));
            // epsilon: OPT minus the last listed score, so the list is the epsilon list.
            CHECK(r.epsilon == Approx(all.front().score - r.dags.back().score).margin(1e-9));
            if (units < k) CHECK(truth.size() == all.size());  // fewer: the whole space
            ++cases;
            with_ties += units > k;
          }
        }
    }
  }
  CHECK(with_ties > 10);  // ties at the K-th occur (members of one class tie)
  CHECK(cases > 100);
}

TEST_CASE("k-best: the head of the DP's epsilon list on wine, by dp and ilp", "[exact][kbest]") {
  const bnsl::Dataset d = bnsl::read_csv(std::string(BNSL_DATASETS_DIR) + "/wine.csv",
                                         bnsl::CsvOptions{.header = false});
  bnsl::ExploreOptions eo;
  eo.epsilon = bnsl::Epsilon::epsilon(std::log(20.0));
  eo.method = bnsl::ExploreMethod::is;
  eo.max_parents = -1;
  eo.threads = 1;
  const ScoreCache cache = bnsl::explore(d, eo, bnsl::StopToken());
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = ExactMethod::dp;
  o.epsilon = bnsl::Epsilon::epsilon(std::log(20.0));
  o.threads = 1;
  bnsl::PoolReport full = bnsl::solve_exact(cache, o, bnsl::StopToken());
  REQUIRE(full.complete);
  REQUIRE(full.dags.size() > 1000);  // 3,449 DAGs in 101 classes
  bnsl::summarize(full, 1);
  for (std::size_t k : {1, 10, 250}) {
    for (ExactMethod m : methods()) {
      INFO("k " << k << " " << bnsl::to_string(m));
      bnsl::PoolReport r = k_best(cache, m, k, false, nullptr);
      REQUIRE(r.dags.size() >= k);
      const double kth = r.dags[k - 1].score;
      std::size_t expect = 0;  // the head of the full list down to the K-th score, ties included
      while (expect < full.dags.size() &&
             (full.dags[expect].score > kth || tied(full.dags[expect].score, kth)))
        ++expect;
      CHECK(r.dags.size() == expect);
      for (std::size_t i = 0; i < r.dags.size(); ++i)
        CHECK(r.dags[i].score == Approx(full.dags[i].score).epsilon(1e-12));
      bnsl::PoolReport c = k_best(cache, m, k, true, nullptr);
      bnsl::summarize(c, 1);
      REQUIRE(c.classes.size() >= std::min<std::size_t>(k, full.classes.size()));
      // The K best classes: the head of the full list's classes, sizes and scores.
      for (std::size_t i = 0; i < std::min<std::size_t>(k, full.classes.size()); ++i) {
        CHECK(c.classes[i].score == Approx(full.classes[i].score).epsilon(1e-12));
        CHECK(c.classes[i].members == full.classes[i].members);
      }
    }
  }
}

TEST_CASE("k-best: a listing cut by --max-solutions narrows epsilon, unless it holds the K best",
          "[exact][kbest]") {
  std::size_t narrowed = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const bnsl::Dataset d = oracle::random_dataset(60, {3, 2, 2, 2}, seed, 0.3);
    const oracle::Families fam = oracle::full_table(d, {ScoreKind::bic, 1.0}, -1);
    const ScoreCache cache = oracle_cache(fam);
    const std::vector<Scored> all = all_dags(fam);
    std::size_t units = 0;
    const std::set<Dag> truth = k_best_truth(all, 5, false, &units);
    // The widths tried are 1, 2, 4, ... nats; the first that holds the 5 best must overflow.
    double gap = 0;
    for (const Scored& g : all)
      if (truth.count(g.dag)) gap = std::max(gap, all.front().score - g.score);
    const double first = std::max(1.0, std::exp2(std::ceil(std::log2(std::max(gap, 1e-9)))));
    const std::size_t limit = truth.size() + 1;
    const auto within = std::count_if(all.begin(), all.end(), [&](const Scored& g) {
      return g.score >= all.front().score - first;
    });
    if (within <= static_cast<long>(limit)) continue;
    INFO("seed " << seed);
    // A limit of the K best and their ties exactly: the overflowing listing keeps them, but
    // its last score ties the K-th, so DAGs tied with it may be missing: epsilon narrows.
    bnsl::ExactStats st;
    bnsl::PoolReport r = k_best(cache, ExactMethod::dp, 5, false, &st, truth.size());
    CHECK(r.complete);
    CHECK(listed(r) == truth);
    // One more: the listing's last score is below the K-th, so every DAG tied with the K-th
    // is listed (ExactStats::listed_above): that listing is the answer, no narrowing.
    bnsl::ExactStats once;
    r = k_best(cache, ExactMethod::dp, 5, false, &once, limit);
    CHECK(r.complete);
    CHECK(listed(r) == truth);
    CHECK(once.k_best_rounds < st.k_best_rounds);
    ++narrowed;
  }
  CHECK(narrowed >= 3);
}

TEST_CASE("k-best cut: ties at the K-th and units counted by class", "[exact][kbest]") {
  using bnsl::PoolDag;
  const std::vector<PoolDag> sorted = {{-1, {}, -1}, {-2, {}, -1}, {-2, {}, -1}, {-3, {}, -1}};
  auto cut = bnsl::exact::k_best_cut(sorted, {}, 2);
  CHECK(cut.dags == 3);  // the third ties with the second
  CHECK(cut.units == 3);
  cut = bnsl::exact::k_best_cut(sorted, {0, 1, 1, 2}, 2);
  CHECK(cut.dags == 3);  // two classes: {0}, {1, 2}
  CHECK(cut.units == 2);
  cut = bnsl::exact::k_best_cut(sorted, {0, 1, 1, 2}, 5);
  CHECK(cut.dags == 4);  // fewer than K units: all of them
  CHECK(cut.units == 3);
}

// Rule 7 on data of 2 to 5 rows, where its cap (2 or 3 parents) binds on 5 variables: brute
// force over every DAG of a full table; no DAG among the K best or tied with the K-th, and no
// DAG of the K best classes, has a family of more parents than the cap.
TEST_CASE("rule 7: the K best networks and classes never need more parents than its cap",
          "[pruning][kbest]") {
  CHECK(bnsl::prune::k_best_max_parents(1024, 511) == 8);  // the paper's example, N = 2^10
  CHECK(bnsl::prune::k_best_max_parents(1024, 1000) == 9);
  CHECK(bnsl::prune::k_best_max_parents(1, 5) == -1);
  std::size_t binding = 0, checked = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const std::size_t rows = 2 + seed % 4;  // 2..5
    const bnsl::Dataset d = oracle::random_dataset(rows, {2, 2, 2, 2, 2}, seed, 0.5);
    const oracle::Families fam = oracle::full_table(d, {ScoreKind::bic, 1.0}, -1);
    const std::vector<Scored> all = all_dags(fam);
    for (bool classes : {false, true})
      for (std::size_t k : {1, 3, 7, 15, 40}) {
        const int cap = bnsl::prune::k_best_max_parents(rows, k);
        REQUIRE(cap >= 0);
        std::size_t units = 0;
        const std::set<Dag> best = k_best_truth(all, k, classes, &units);
        INFO("seed " << seed << " rows " << rows << " k " << k << " cap " << cap);
        for (const Dag& g : best)
          for (Mask m : g) CHECK(std::popcount(m) <= cap);
        for (const auto& f : fam)
          for (const auto& [m, s] : f) binding += std::popcount(m) > cap;
        ++checked;
      }
  }
  CHECK(binding > 0);  // the cap cut some families of the full tables
  CHECK(checked == 120);
}

TEST_CASE("k-best from data: rule 7 caps the exploration, the answer equals brute force",
          "[exact][kbest]") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const bnsl::Dataset d = oracle::random_dataset(4 + seed % 2, {2, 2, 2, 2, 2}, seed, 0.5);
    const std::vector<Scored> all = all_dags(oracle::full_table(d, {ScoreKind::bic, 1.0}, -1));
    for (std::size_t k : {3, 12}) {
      bnsl::ExactLearnOptions o;
      o.exact.k_best = {k, false};
      o.exact.method = ExactMethod::dp;
      o.threads = 1;
      const bnsl::ExactLearnResult r = bnsl::learn_exact(d, o, bnsl::StopToken());
      INFO("seed " << seed << " k " << k);
      CHECK(r.explore.k_best_max_parents >= 0);
      CHECK(r.cache_exhaustive);
      CHECK(r.report.complete);
      std::size_t units = 0;
      CHECK(listed(r.report) == k_best_truth(all, k, false, &units));
    }
  }
}
