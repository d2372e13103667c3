// Exact mode against independent checks: GOBNILP's wine optimum, the oracle's brute force over
// variable orders (OPT), and literal enumeration of every parent-set assignment of a cache
// (the set of DAGs within epsilon). The DP and the ILP are also compared with each other.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/report.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"
#include "exact/dp.hpp"
#include "exact/subsets.hpp"
#include "exact_helpers.hpp"
#include "oracle.hpp"

namespace {

using bnsl::ExactMethod;
using bnsl::ScoreCache;
using bnsl::ScoreKind;
using bnsl::ScoreParams;
using exact_test::methods;
using exact_test::oracle_cache;
using oracle::Mask;

const std::string kDir = BNSL_DATASETS_DIR;
constexpr double kWineOpt = -1258.445909;

bnsl::Dataset read_wine() {
  return bnsl::read_csv(kDir + "/wine.csv", bnsl::CsvOptions{.header = false});
}

ScoreCache explore_cache(const bnsl::Dataset& d, const ScoreParams& params, double eps) {
  bnsl::ExploreOptions o;
  o.score = params;
  o.epsilon = bnsl::Epsilon::epsilon(eps);
  o.method = bnsl::ExploreMethod::is;
  o.max_parents = -1;
  o.prune = true;
  o.threads = 1;
  return bnsl::explore(d, o, bnsl::StopToken());
}

// The ILP's collection enumerates small regions directly (ExactOptions::
// collect_enumerate_steps); kBranchOnly turns that off so that its LP branching is tested too.
const std::uint64_t kDefaultSteps = bnsl::ExactOptions{}.collect_enumerate_steps;
constexpr std::uint64_t kBranchOnly = 0;

bnsl::PoolReport solve(const ScoreCache& cache, ExactMethod method, double eps,
                       bnsl::ExactStats* stats = nullptr,
                       std::uint64_t enumerate_steps = kDefaultSteps, int threads = 1) {
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = method;
  o.epsilon = bnsl::Epsilon::epsilon(eps);
  o.threads = threads;
  o.collect_enumerate_steps = enumerate_steps;
  return bnsl::solve_exact(cache, o, bnsl::StopToken(), stats);
}

std::vector<Mask> dag_masks(const bnsl::ParentSets& parents) {
  std::vector<Mask> out;
  for (const auto& p : parents) out.push_back(oracle::to_mask(p));
  return out;
}

// Literal enumeration: every assignment of one cache entry per variable, acyclic ones with
// score >= OPT - eps (same tolerance as the library: 1e-9 relative).
std::set<std::vector<Mask>> brute_force_within(const ScoreCache& cache, double eps,
                                               double* opt_out) {
  const oracle::Families fam = [&] {
    oracle::Families f(cache.n_vars());
    for (std::size_t v = 0; v < cache.n_vars(); ++v)
      for (std::size_t i = 0; i < cache.var(v).size(); ++i) {
        const auto p = cache.var(v).parents(i);
        f[v].emplace_back(oracle::to_mask({p.begin(), p.end()}), cache.var(v).score(i));
      }
    return f;
  }();
  const std::size_t n = fam.size();
  std::vector<std::pair<std::vector<Mask>, double>> dags;
  std::vector<std::size_t> pick(n, 0);
  std::vector<Mask> parents(n);
  for (;;) {
    double total = 0;
    for (std::size_t v = 0; v < n; ++v) parents[v] = fam[v][pick[v]].first;
    for (std::size_t v = 0; v < n; ++v) total += fam[v][pick[v]].second;
    if (oracle::acyclic(parents)) dags.emplace_back(parents, total);
    std::size_t v = 0;
    while (v < n && ++pick[v] == fam[v].size()) pick[v++] = 0;
    if (v == n) break;
  }
  double opt = oracle::kNegInf;
  for (const auto& d : dags) opt = std::max(opt, d.second);
  const double threshold = opt - eps - 1e-9 * std::max(1.0, std::fabs(opt));
  std::set<std::vector<Mask>> out;
  for (const auto& d : dags)
    if (d.second >= threshold) out.insert(d.first);
  if (opt_out) *opt_out = opt;
  return out;
}

int class_count(const std::set<std::vector<Mask>>& dags, std::size_t n) {
  bnsl::PoolReport r;
  for (std::size_t v = 0; v < n; ++v) r.variables.push_back(std::string("V") += std::to_string(v));
  for (const auto& d : dags) {
    bnsl::ParentSets p;
    for (Mask m : d) p.push_back(oracle::from_mask(m));
    r.dags.push_back({0.0, p, -1});
  }
  bnsl::summarize(r);
  return r.mec_count;
}

// The listed DAGs: distinct, acyclic, sorted best first, scores re-summed from the cache.
std::set<std::vector<Mask>> check_listed(const bnsl::PoolReport& r, const ScoreCache& cache) {
  std::set<std::vector<Mask>> out;
  for (std::size_t k = 0; k < r.dags.size(); ++k) {
    const auto masks = dag_masks(r.dags[k].parents);
    CHECK(oracle::acyclic(masks));
    CHECK(out.insert(masks).second);  // listed once
    double s = 0;
    for (std::size_t v = 0; v < masks.size(); ++v) {
      const long i = cache.var(v).find(r.dags[k].parents[v]);
      REQUIRE(i >= 0);
      s += cache.var(v).score(static_cast<std::size_t>(i));
    }
    CHECK(r.dags[k].score == Approx(s).epsilon(1e-12));
    if (k > 0) CHECK(r.dags[k - 1].score >= r.dags[k].score);
  }
  return out;
}

// A listing past o.max_solutions, and what it says of itself: OPT proven, not complete,
// truncated, max_solutions DAGs.
bnsl::PoolReport solve_truncated(const ScoreCache& cache, const bnsl::ExactOptions& o,
                                 bnsl::ExactStats& st) {
  bnsl::PoolReport r = bnsl::solve_exact(cache, o, bnsl::StopToken(), &st);
  CHECK(r.optimal);
  CHECK(!r.complete);
  CHECK(st.truncated);
  REQUIRE(r.dags.size() == o.max_solutions);
  return r;
}

// The ILP's collection: its default, branching only, and enumeration budgets so small that
// some regions are enumerated and others stopped and split (3: most of them, few families
// into each enumeration); branching and the budget of 24 also with 3 threads, which hand
// regions to each other (collect.cpp).
struct Collection {
  std::uint64_t steps = kDefaultSteps;
  int threads = 1;
};
std::vector<Collection> collect_variants(ExactMethod m) {
  if (m != ExactMethod::ilp) return {Collection{}};
  return {{kDefaultSteps, 1}, {kBranchOnly, 1}, {24, 1}, {3, 1}, {kBranchOnly, 3}, {24, 3}};
}

// What the ILP's collection did over several runs: family columns fixed by reduced cost, and
// enumerations stopped on their budget and split.
struct CollectTally {
  std::uint64_t fixed = 0, splits = 0;
};

// Returns the number of DAGs within eps. Adds to *tally what the ILP's collection did, if given.
std::size_t check_enumeration(const ScoreCache& cache, ExactMethod method, double eps,
                              const std::string& ctx, Collection c = {},
                              CollectTally* tally = nullptr) {
  INFO(ctx << " method " << bnsl::to_string(method) << " eps " << eps << " enumerate steps "
           << c.steps << " threads " << c.threads);
  double opt = 0;
  const auto truth = brute_force_within(cache, eps, &opt);
  bnsl::ExactStats st;
  bnsl::PoolReport r = solve(cache, method, eps, &st, c.steps, c.threads);
  if (tally) {
    tally->fixed += st.collect_fixed;
    tally->splits += st.collect_splits;
  }
  CHECK(r.optimal);
  CHECK(r.complete);
  REQUIRE(!r.dags.empty());
  CHECK(r.dags[0].score == Approx(opt).epsilon(1e-12));
  const auto listed = check_listed(r, cache);
  CHECK(listed.size() == truth.size());
  CHECK(listed == truth);
  bnsl::summarize(r);
  CHECK(r.mec_count == class_count(truth, cache.n_vars()));
  return truth.size();
}

const double kEpsilons[] = {0.0, 0.5, 2.0, std::log(20.0), 8.0};

}  // namespace

TEST_CASE("exact dp: wine OPT from an explored cache and from wine.BIC.3", "[exact][wine]") {
  const bnsl::Dataset d = read_wine();
  const ScoreCache explored = explore_cache(d, {ScoreKind::bic, 1.0}, std::log(20.0));
  bnsl::ExactStats st;
  const bnsl::PoolReport a = solve(explored, ExactMethod::dp, 0.0, &st);
  CHECK(a.optimal);
  CHECK(st.optimal);
  CHECK(a.dags[0].score == Approx(kWineOpt).margin(1e-6));
  const ScoreCache file = bnsl::read_jkl(kDir + "/wine.BIC.3", d.names());
  const bnsl::PoolReport b = solve(file, ExactMethod::dp, 0.0);
  CHECK(b.optimal);
  CHECK(b.dags[0].score == Approx(kWineOpt).margin(1e-6));
  // The optimum re-scored from the data by the oracle.
  double s = 0;
  for (int v = 0; v < 14; ++v)
    s += oracle::bic(oracle::count(d, v, a.dags[0].parents[static_cast<std::size_t>(v)]));
  CHECK(s == Approx(kWineOpt).margin(1e-6));
}

TEST_CASE("exact dp: OPT equals the oracle's brute force over orders", "[exact][dp]") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const int n = 3 + static_cast<int>(seed % 5);  // 3..7
    std::vector<int> arities;
    for (int v = 0; v < n; ++v) arities.push_back(2 + static_cast<int>((seed + v) % 3));
    const bnsl::Dataset d = oracle::random_dataset(60 + 40 * (seed % 4), arities, seed);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
      const oracle::Families fam = oracle::full_table(d, p, -1);
      const double opt = oracle::brute_force_orders(fam).opt;
      const bnsl::PoolReport r = solve(oracle_cache(fam), ExactMethod::dp, 0.0);
      INFO("seed " << seed << " n " << n << " " << bnsl::to_string(p.kind));
      CHECK(r.optimal);
      CHECK(r.dags[0].score == Approx(opt).epsilon(1e-12));
    }
  }
}

TEST_CASE("exact: enumeration (dp and ilp) equals brute force on tiny data", "[exact][enum]") {
  std::size_t listed = 0, max_listed = 0;
  CollectTally tally;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const int n = 3 + static_cast<int>(seed % 3);  // 3..5
    std::vector<int> arities(static_cast<std::size_t>(n), 2);
    arities[0] = 3;
    const bnsl::Dataset d = oracle::random_dataset(40 + 30 * (seed % 3), arities, seed, 0.3);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
      const std::string ctx = "seed " + std::to_string(seed) + " " + bnsl::to_string(p.kind);
      if (n <= 4) {  // every parent set: the enumeration must cope with a full table
        const ScoreCache full = oracle_cache(oracle::full_table(d, p, -1));
        for (double eps : kEpsilons)
          for (ExactMethod m : methods())
            for (const Collection c : collect_variants(m)) {
              const std::size_t k = check_enumeration(full, m, eps, ctx + " full", c, &tally);
              listed += k;
              max_listed = std::max(max_listed, k);
            }
      }
      for (double eps : kEpsilons) {
        const ScoreCache pruned = explore_cache(d, p, eps);
        for (ExactMethod m : methods())
          for (const Collection c : collect_variants(m))
            listed += check_enumeration(pruned, m, eps, ctx + " pruned", c, &tally);
      }
    }
  }
  CHECK(max_listed > 50);  // the cases are not trivial
  CHECK(listed > 1000);
  if (bnsl::ilp_available()) {  // the oracle sees the fixing and the splits at work
    CHECK(tally.fixed > 0);
    CHECK(tally.splits > 0);
  }
}

// The DP without its best-family tables (dp.cpp: each variable's families scanned) lists what
// brute force lists, on full and pruned caches.
TEST_CASE("exact dp without best-family tables: the enumeration equals brute force",
          "[exact][dp]") {
  std::size_t listed = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const int n = 3 + static_cast<int>(seed % 3);  // 3..5
    std::vector<int> arities(static_cast<std::size_t>(n), 2);
    arities[0] = 3;
    const bnsl::Dataset d = oracle::random_dataset(40 + 30 * (seed % 3), arities, seed, 0.3);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}})
      for (double eps : kEpsilons) {
        INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " eps " << eps);
        std::vector<ScoreCache> caches{explore_cache(d, p, eps)};
        if (n <= 4) caches.push_back(oracle_cache(oracle::full_table(d, p, -1)));
        for (const ScoreCache& cache : caches) {
          double opt = 0;
          const auto truth = brute_force_within(cache, eps, &opt);
          bnsl::ExactOptions o;
          o.start = bnsl::ilp_start();  // as the pipeline does
          o.method = ExactMethod::dp;
          o.epsilon = bnsl::Epsilon::epsilon(eps);
          o.threads = 2;
          o.dp_max_bytes = bnsl::exact::SubsetDp::scan_bytes(n);  // the tables do not fit
          bnsl::ExactStats st;
          const bnsl::PoolReport r = bnsl::solve_exact(cache, o, bnsl::StopToken(), &st);
          CHECK(st.dp_scans);
          CHECK(r.optimal);
          CHECK(r.complete);
          REQUIRE(!r.dags.empty());
          CHECK(r.dags[0].score == Approx(opt).epsilon(1e-12));
          CHECK(check_listed(r, cache) == truth);
          listed += truth.size();
        }
      }
  }
  CHECK(listed > 1000);
}

// Scanning with tables for some variables (those with the longest scans, within the memory
// left) gives what the tables give everywhere: every best(S), every best family, the optimal
// DAG and the enumeration's list, on wine's cache.
TEST_CASE("exact dp: tables for some variables and scans for the others answer as tables",
          "[exact][dp]") {
  using bnsl::exact::SubsetDp;
  const ScoreCache cache = explore_cache(read_wine(), {ScoreKind::bic, 1.0}, std::log(20.0));
  const auto fam = bnsl::exact::make_family_table(cache, bnsl::exact::kDpMaxVars);
  const int n = fam.n;
  const std::uint32_t all = (std::uint32_t{1} << n) - 1;
  const std::size_t per_table = (std::size_t{1} << (n - 1)) * sizeof(std::uint32_t);
  const bnsl::StopToken stop;
  SubsetDp tables(fam, SubsetDp::table_bytes(n), 2);
  REQUIRE(tables.run(stop));
  REQUIRE(!tables.scans());
  const double threshold = tables.opt() - std::log(20.0) - 1e-9 * std::fabs(tables.opt());
  const auto listed = bnsl::exact::enumerate_within(fam, tables, threshold, 1000000, stop, false);
  REQUIRE(listed.dags.size() > 1000);  // 3,449
  for (const int k : {0, 1, 5}) {
    INFO(k << " tables");
    // table_worth 0: every variable is worth a table, as many as the budget holds
    SubsetDp mixed(fam, SubsetDp::scan_bytes(n) + k * per_table, 2,
                   std::numeric_limits<std::size_t>::max(), 0.0);
    REQUIRE(mixed.run(stop));
    CHECK(mixed.scans());
    CHECK(mixed.tables() == k);
    CHECK(mixed.bytes() == SubsetDp::scan_bytes(n) + k * per_table);
    std::size_t wrong_best = 0, wrong_family = 0;
    for (std::uint32_t set = 0; set <= all; ++set)
      wrong_best += mixed.best(set) != tables.best(set);
    for (int v = 0; v < n; ++v)
      for (std::uint32_t c = 0; c <= all; ++c)
        if (!(c >> v & 1)) wrong_family += mixed.best_family(v, c) != tables.best_family(v, c);
    CHECK(wrong_best == 0);
    CHECK(wrong_family == 0);
    CHECK(mixed.best_choice() == tables.best_choice());
    CHECK(bnsl::exact::enumerate_within(fam, mixed, threshold, 1000000, stop, false).dags ==
          listed.dags);
  }
}

// The DP's layers: chunks of k-subsets unranked and stepped in numeric order cover every
// subset of n variables once, in numeric order within each size.
TEST_CASE("exact dp: k-subsets by rank and by Gosper's step", "[exact][dp]") {
  using bnsl::exact::binomial;
  for (const int n : {1, 5, 12, 20}) {
    std::vector<int> seen(std::size_t{1} << n, 0);
    for (int k = 0; k <= n; ++k) {
      std::vector<std::uint32_t> by_value;  // the k-subsets in numeric order
      for (std::uint32_t s = 0; s < (std::uint32_t{1} << n); ++s)
        if (std::popcount(s) == k) by_value.push_back(s);
      REQUIRE(by_value.size() == binomial(n, k));
      if (k == 0) continue;
      if (n <= 12)  // every rank (n = 20: the chunks' first ranks below)
        for (std::uint64_t r = 0; r < by_value.size(); ++r)
          REQUIRE(bnsl::exact::unrank_subset(r, k) == by_value[r]);
      // chunks that start unranked, as the DP's (of 2^14)
      const std::uint64_t chunk = n <= 12 ? 7 : 4093;
      for (std::uint64_t first = 0; first < by_value.size(); first += chunk) {
        std::uint32_t s = bnsl::exact::unrank_subset(first, k);
        for (std::uint64_t r = first; r < std::min<std::uint64_t>(by_value.size(), first + chunk);
             ++r, s = r < by_value.size() ? bnsl::exact::next_subset(s) : s) {
          REQUIRE(s == by_value[r]);
          ++seen[s];
        }
      }
    }
    CHECK(std::count(seen.begin() + 1, seen.end(), 1) == (1 << n) - 1);
  }
}

TEST_CASE("exact dp: a stopped run still returns a network, not proven", "[exact][dp]") {
  const bnsl::Dataset d = read_wine();
  const ScoreCache cache = explore_cache(d, {ScoreKind::bic, 1.0}, std::log(20.0));
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = ExactMethod::dp;
  bnsl::StopToken stop;
  stop.request_stop();
  const bnsl::PoolReport r = bnsl::solve_exact(cache, o, stop);
  REQUIRE(r.dags.size() == 1);
  CHECK(!r.optimal);
  CHECK(!r.complete);
  CHECK(oracle::acyclic(dag_masks(r.dags[0].parents)));
}

TEST_CASE("exact dp: limits are reported as input errors", "[exact][dp]") {
  const bnsl::Dataset d = read_wine();
  const ScoreCache cache = explore_cache(d, {ScoreKind::bic, 1.0}, 0.0);
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = ExactMethod::dp;
  o.dp_max_bytes = 1000;
  CHECK_THROWS_AS(bnsl::solve_exact(cache, o, bnsl::StopToken()), bnsl::InputError);
  ScoreCache empty_var(2);
  empty_var.var(0).add(-1.0, std::vector<int>{});
  o.dp_max_bytes = std::size_t{1} << 30;
  CHECK_THROWS_AS(bnsl::solve_exact(empty_var, o, bnsl::StopToken()), bnsl::InputError);
}

namespace {

// 3 or 4 variables (one of 3 states, the others binary) and 40 to 100 rows, by seed.
bnsl::Dataset few_variables(std::uint64_t seed) {
  const int n = 3 + static_cast<int>(seed % 2);
  std::vector<int> arities(static_cast<std::size_t>(n), 2);
  arities[0] = 3;
  return oracle::random_dataset(40 + 30 * (seed % 3), arities, seed, 0.3);
}

// How many of `all` (every DAG, best first) score within eps of the best.
std::size_t oracle_within(const std::vector<oracle::Scored>& all, double eps) {
  const double opt = all.front().score;
  std::size_t within = 0;
  while (within < all.size() &&
         all[within].score >= opt - eps - 1e-9 * std::max(1.0, std::fabs(opt)))
    ++within;
  return within;
}

// f(seed, score, cache, all) for the full tables of six few_variables data sets under BIC and
// BDeu, with every DAG of each (oracle::all_dags: best first).
template <class F>
void for_each_small_table(F&& f) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const bnsl::Dataset d = few_variables(seed);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
      const oracle::Families fam = oracle::full_table(d, p, -1);
      f(seed, p, oracle_cache(fam), oracle::all_dags(fam));
    }
  }
}

}  // namespace

// Past --max-solutions the list keeps the best: the max_solutions best DAGs within epsilon
// (ties with the last broken any way), and stats.listed_above, the last listed score, with
// every DAG above it listed. Brute force over every DAG of a full table gives the truth.
TEST_CASE("exact: past --max-solutions the best DAGs are listed, every one above listed_above",
          "[exact][enum]") {
  std::size_t cases = 0, truncated = 0, tied = 0;
  for_each_small_table([&](std::uint64_t seed, ScoreParams p, const ScoreCache& cache,
                           const std::vector<oracle::Scored>& all) {
    const double opt = all.front().score;
    const auto tied_with = [](double a, double b) {
      return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)});
    };
    for (const double eps : {2.0, 8.0}) {
      const std::size_t within = oracle_within(all, eps);
      for (const std::size_t max : {1, 3, 10, 40}) {
        if (max >= within) continue;             // the complete lists are tested above
        const double last = all[max - 1].score;  // the max-th best score
        tied += tied_with(all[max].score, last);
        for (const ExactMethod m : methods())
          for (const Collection c : collect_variants(m)) {
            INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " eps " << eps << " max "
                         << max << " " << bnsl::to_string(m) << " steps " << c.steps << " threads "
                         << c.threads);
            bnsl::ExactOptions o;
            o.start = bnsl::ilp_start();  // as the pipeline does
            o.method = m;
            o.epsilon = bnsl::Epsilon::epsilon(eps);
            o.threads = c.threads;
            o.collect_enumerate_steps = c.steps;
            o.max_solutions = max;
            bnsl::ExactStats st;
            const bnsl::PoolReport r = solve_truncated(cache, o, st);
            CHECK(r.dags[0].score == Approx(opt).epsilon(1e-12));
            const auto listed = check_listed(r, cache);
            // The best max: every listed DAG scores at least the max-th best score (or ties
            // with it), every DAG above it is listed.
            CHECK((r.dags.back().score >= last || tied_with(r.dags.back().score, last)));
            for (std::size_t k = 0; k < within; ++k)
              if (all[k].score > last && !tied_with(all[k].score, last))
                CHECK(listed.count(all[k].dag) == 1);
            CHECK(st.listed_above == Approx(last).epsilon(1e-12));
            ++cases;
            truncated += st.truncated;
          }
      }
    }
  });
  CHECK(cases > 40);
  CHECK(truncated == cases);
  CHECK(tied > 0);  // ties at the cut occur (equivalent DAGs share their score)
}

// --count: past max_solutions the DP counts every DAG within epsilon; the oracle counts them
// among all DAGs of 3 and 4 variables. Without it the count is known only for complete lists.
TEST_CASE("exact: the DP's count of the DAGs within epsilon past --max-solutions, brute force",
          "[exact][enum]") {
  std::size_t cases = 0;
  for_each_small_table([&](std::uint64_t seed, ScoreParams p, const ScoreCache& cache,
                           const std::vector<oracle::Scored>& all) {
    for (const double eps : {2.0, 8.0}) {
      const std::size_t within = oracle_within(all, eps);
      for (const std::size_t max : {std::size_t{1}, std::size_t{3}, within}) {
        INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " eps " << eps << " max " << max
                     << " within " << within);
        bnsl::ExactOptions o;
        o.start = bnsl::ilp_start();  // as the pipeline does
        o.method = ExactMethod::dp;
        o.epsilon = bnsl::Epsilon::epsilon(eps);
        o.max_solutions = max;
        for (const bool count : {false, true}) {
          o.count_within = count;
          bnsl::ExactStats st;
          const bnsl::PoolReport r = bnsl::solve_exact(cache, o, bnsl::StopToken(), &st);
          if (max >= within) {  // complete: the list's size, counted or not
            REQUIRE(r.complete);
            CHECK(st.dags_within == within);
            CHECK(r.dags_within == std::optional<std::uint64_t>(within));
            CHECK(r.dags_within_exact);
          } else if (count) {
            CHECK(st.truncated);
            CHECK(st.dags_within == within);
            CHECK(st.dags_within_exact);
            CHECK(r.dags_within == std::optional<std::uint64_t>(within));
            CHECK(r.dags_within_exact);
            CHECK(st.count_nodes > 0);
            ++cases;
          } else {
            CHECK(st.dags_within == 0);
            CHECK(!r.dags_within);
          }
        }
      }
    }
  });
  CHECK(cases > 10);
}

TEST_CASE("exact: past --max-solutions on wine, the best DAGs of the complete list", "[exact]") {
  const bnsl::Dataset d = read_wine();
  const ScoreCache cache = explore_cache(d, {ScoreKind::bic, 1.0}, std::log(20.0));
  const bnsl::PoolReport full = solve(cache, ExactMethod::dp, std::log(20.0));
  REQUIRE(full.complete);
  REQUIRE(full.dags.size() > 1000);  // 3,449
  for (const ExactMethod method : methods())
    for (const std::size_t max : {std::size_t{1}, std::size_t{10}, std::size_t{500}}) {
      INFO(bnsl::to_string(method) << " max " << max);
      bnsl::ExactOptions o;
      o.start = bnsl::ilp_start();  // as the pipeline does
      o.method = method;
      o.max_solutions = max;
      o.threads = 2;
      bnsl::ExactStats st;
      const bnsl::PoolReport r = solve_truncated(cache, o, st);
      for (std::size_t k = 0; k < max; ++k)
        CHECK(r.dags[k].score == Approx(full.dags[k].score).epsilon(1e-12));
      CHECK(st.listed_above == Approx(full.dags[max - 1].score).epsilon(1e-12));
    }
}

TEST_CASE("exact ilp: wine OPT proven from an explored cache and from wine.BIC.3",
          "[exact][ilp][wine]") {
  if (!bnsl::ilp_available()) {
    WARN("built without CBC: --method ilp is unavailable");
    CHECK_THROWS_AS(solve(ScoreCache(1), ExactMethod::ilp, 0.0), bnsl::InputError);
    return;
  }
  const bnsl::Dataset d = read_wine();
  const ScoreCache explored = explore_cache(d, {ScoreKind::bic, 1.0}, std::log(20.0));
  bnsl::ExactStats st;
  const bnsl::PoolReport a = solve(explored, ExactMethod::ilp, 0.0, &st);
  CHECK(a.optimal);
  CHECK(st.bound == st.opt);
  CHECK(a.dags[0].score == Approx(kWineOpt).margin(1e-6));
  const ScoreCache file = bnsl::read_jkl(kDir + "/wine.BIC.3", d.names());
  const bnsl::PoolReport b = solve(file, ExactMethod::ilp, 0.0);
  CHECK(b.optimal);
  CHECK(b.dags[0].score == Approx(kWineOpt).margin(1e-6));
}

// At ln 150, searching by its LP alone, the collection's LP grows past purge_rows' limit and
// its nodes fix columns by reduced cost; with its enumeration, the enumerations stopped on
// their budget split the rest of their regions: the lists stay the DP's.
TEST_CASE("exact ilp: wine within ln 150, slack cut rows dropped, columns fixed, the dp's list",
          "[exact][ilp][wine]") {
  if (!bnsl::ilp_available()) return;
  const bnsl::Dataset d = read_wine();
  const ScoreCache cache = explore_cache(d, {ScoreKind::bic, 1.0}, std::log(150.0));
  bnsl::ExactStats st, st_branch;
  const bnsl::PoolReport dp = solve(cache, ExactMethod::dp, std::log(150.0));
  const bnsl::PoolReport ilp = solve(cache, ExactMethod::ilp, std::log(150.0), &st);
  const bnsl::PoolReport branch =
      solve(cache, ExactMethod::ilp, std::log(150.0), &st_branch, kBranchOnly);
  REQUIRE(dp.complete);
  CHECK(ilp.complete);
  CHECK(branch.complete);
  CHECK(st.collect_splits > 0);
  CHECK(st_branch.collect_rows_purged > 0);
  CHECK(st_branch.collect_fixed > 0);
  CHECK(check_listed(ilp, cache) == check_listed(dp, cache));
  CHECK(check_listed(branch, cache) == check_listed(dp, cache));
}

TEST_CASE("exact ilp: wine, every DAG within ln 3 equals the dp enumeration",
          "[exact][ilp][wine]") {
  if (!bnsl::ilp_available()) return;
  const bnsl::Dataset d = read_wine();
  const ScoreCache cache = explore_cache(d, {ScoreKind::bic, 1.0}, std::log(3.0));
  bnsl::PoolReport dp = solve(cache, ExactMethod::dp, std::log(3.0));
  bnsl::ExactStats st, st_branch, st_team;
  bnsl::PoolReport ilp = solve(cache, ExactMethod::ilp, std::log(3.0), &st);
  bnsl::PoolReport branch = solve(cache, ExactMethod::ilp, std::log(3.0), &st_branch, kBranchOnly);
  bnsl::PoolReport team = solve(cache, ExactMethod::ilp, std::log(3.0), &st_team, kBranchOnly, 3);
  CHECK(dp.complete);
  CHECK(ilp.complete);
  CHECK(branch.complete);
  CHECK(team.complete);
  const auto a = check_listed(dp, cache);
  const auto b = check_listed(ilp, cache);
  CHECK(a.size() == 308);
  CHECK(a == b);
  CHECK(check_listed(branch, cache) == a);
  CHECK(check_listed(team, cache) == a);
  CHECK(st.collect_enumerations > 0);  // both collection paths ran
  CHECK(st_branch.collect_enumerations == 0);
  CHECK(st_branch.ilp_nodes > st.ilp_nodes);
  CHECK(st_branch.collect_iterations > 0);  // its LP search pivots (counted, and reported)
  CHECK(st.collect_workers == 1);
  CHECK(st_team.collect_workers == 3);
  CHECK(st_team.collect_handed > 0);  // the workers shared the search
  bnsl::summarize(dp);
  bnsl::summarize(ilp);
  CHECK(dp.mec_count == ilp.mec_count);
}

// Wine, BIC, epsilon ln 20: the exhaustive epsilon-safe cache and the DP's complete list of
// every DAG within epsilon, summarised.
struct WineList {
  double eps = std::log(20.0);
  ScoreCache cache;
  bnsl::PoolReport dp;
};

WineList wine_complete_list() {
  WineList w;
  w.cache = explore_cache(read_wine(), {ScoreKind::bic, 1.0}, w.eps);
  w.dp = solve(w.cache, ExactMethod::dp, w.eps);
  REQUIRE(w.dp.complete);
  bnsl::summarize(w.dp);
  return w;
}

// Two independent counts of each class: the members the DP's sink enumeration lists (every DAG
// within epsilon; a class's DAGs share its score, and the exhaustive epsilon-safe cache keeps
// every parent set they use) and Clique-Picking's count from the essential graph.
TEST_CASE("exact dp: wine, each class of the complete list holds the DAGs its size says",
          "[exact][dp][wine][mec]") {
  const WineList w = wine_complete_list();
  const bnsl::PoolReport& dp = w.dp;
  REQUIRE(dp.classes.size() == static_cast<std::size_t>(dp.mec_count));
  std::size_t total = 0, multi = 0;
  for (const bnsl::PoolClass& c : dp.classes) {
    CHECK(c.size == std::to_string(c.members));
    CHECK(c.log10_size == Approx(std::log10(static_cast<double>(c.members))).margin(1e-12));
    CHECK(dp.dags[c.first].score == c.score);
    total += c.members;
    multi += c.members > 1;
  }
  CHECK(total == dp.dags.size());
  CHECK(multi > 0);  // not all singletons: the sizes were put to the test
  CHECK(bnsl::class_dag_count(dp) == std::to_string(dp.dags.size()));
}

// Edge probabilities weighting each listed DAG by exp(score - best): the definition, for a
// list of every DAG of its classes.
std::map<std::pair<int, int>, double> dag_weighted_arcs(const bnsl::PoolReport& r) {
  std::map<std::pair<int, int>, double> mass;
  double total = 0;
  for (const auto& d : r.dags) {
    const double w = std::exp(d.score - r.dags.front().score);
    total += w;
    for (std::size_t v = 0; v < d.parents.size(); ++v)
      for (int p : d.parents[v]) mass[{p, static_cast<int>(v)}] += w;
  }
  for (auto& [arc, m] : mass) m /= total;
  return mass;
}

// r lists the classes of the complete list dp (same CPDAGs, sizes and scores; every member
// listed when `members`), and the edge probabilities of both equal those of dp's DAG list.
void require_same_classes(const bnsl::PoolReport& r, const bnsl::PoolReport& dp, bool members) {
  REQUIRE(r.classes.size() == dp.classes.size());
  std::map<std::pair<std::vector<std::pair<int, int>>, std::vector<std::pair<int, int>>>,
           std::pair<std::string, double>>
      want;
  for (const auto& c : dp.classes) want[{c.arcs, c.edges}] = {c.size, c.score};
  for (const auto& c : r.classes) {
    auto it = want.find({c.arcs, c.edges});
    REQUIRE(it != want.end());
    CHECK(c.size == it->second.first);
    CHECK(c.score == Approx(it->second.second).epsilon(1e-12));
    if (members) CHECK(c.members == std::stoul(c.size));  // every member listed
  }
  const auto oracle = dag_weighted_arcs(dp);
  for (const bnsl::PoolReport* report : {&r, &dp}) {
    CHECK(report->edges.size() == oracle.size());
    for (const auto& e : report->edges) {
      INFO(e.from << " -> " << e.to);
      auto it = oracle.find({e.from, e.to});
      REQUIRE(it != oracle.end());
      CHECK(std::fabs(e.p - it->second) < 1e-9);
      auto back = oracle.find({e.to, e.from});
      CHECK(std::fabs(e.p_edge - it->second - (back == oracle.end() ? 0 : back->second)) < 1e-9);
    }
  }
}

TEST_CASE("search: wine's class pool lists the exact list's classes, DAGs and edge probabilities",
          "[exact][dp][wine][mec]") {
  const WineList w = wine_complete_list();
  const bnsl::PoolReport& dp = w.dp;
  bnsl::SearchOptions o;
  o.epsilon = bnsl::Epsilon::epsilon(w.eps);
  o.threads = 1;
  bnsl::StopToken stop;
  bnsl::PoolReport r = bnsl::search(w.cache, o, stop);  // the DP fills the pool of classes
  REQUIRE(r.complete);
  bnsl::summarize(r);
  require_same_classes(r, dp, true);
  std::set<bnsl::ParentSets> listed, exact;
  for (const auto& g : r.dags) listed.insert(g.parents);
  for (auto g : dp.dags) {
    for (auto& ps : g.parents) std::sort(ps.begin(), ps.end());
    exact.insert(g.parents);
  }
  CHECK(listed.size() == r.dags.size());
  CHECK(listed == exact);
}

// Issue 27's acceptance on the bundled data: the heuristic alone (the ordering search's chains
// and the neighbour walk, as `learn --exact-max-vars 0` runs them) reports the same classes,
// sizes and edge probabilities as the exact list. One thread and a fixed number of restarts:
// the same pool on every run.
TEST_CASE("search: the chains and the neighbour walk find wine's exact classes",
          "[exact][dp][wine][mec]") {
  const WineList w = wine_complete_list();
  bnsl::SearchOptions o;
  o.epsilon = bnsl::Epsilon::epsilon(w.eps);
  o.threads = 1;
  o.seed = 1;
  o.exhaustive_max_n = 0;  // neither all orders ...
  o.dp_max_n = 0;          // ... nor the DP: the chains
  o.max_restarts = 50;
  bnsl::StopToken stop;
  bnsl::PoolReport r = bnsl::search(w.cache, o, stop);
  CHECK(r.algorithm == "asobs");
  bnsl::summarize(r);
  require_same_classes(r, w.dp, true);
}

TEST_CASE("exact ilp: OPT equals dp OPT on random data (BIC and BDeu)", "[exact][ilp]") {
  if (!bnsl::ilp_available()) return;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const int n = 4 + static_cast<int>(seed % 7);  // 4..10
    std::vector<int> arities;
    for (int v = 0; v < n; ++v) arities.push_back(2 + static_cast<int>((seed * 7 + v) % 3));
    const bnsl::Dataset d = oracle::random_dataset(100 + 50 * (seed % 5), arities, seed, 0.2, 3);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
      const ScoreCache cache = explore_cache(d, p, 0.0);
      const bnsl::PoolReport a = solve(cache, ExactMethod::dp, 0.0);
      const bnsl::PoolReport b = solve(cache, ExactMethod::ilp, 0.0);
      INFO("seed " << seed << " n " << n << " " << bnsl::to_string(p.kind));
      CHECK(a.optimal);
      CHECK(b.optimal);
      CHECK(b.dags[0].score == Approx(a.dags[0].score).epsilon(1e-10));
      CHECK(check_listed(a, cache) == check_listed(b, cache));  // all optimal DAGs
    }
  }
}

TEST_CASE("exact ilp: a stopped run still returns a DAG, not proven", "[exact][ilp]") {
  if (!bnsl::ilp_available()) return;
  const bnsl::Dataset d = read_wine();
  const ScoreCache cache = explore_cache(d, {ScoreKind::bic, 1.0}, std::log(20.0));
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.method = ExactMethod::ilp;
  bnsl::StopToken stop;
  stop.request_stop();
  const bnsl::PoolReport r = bnsl::solve_exact(cache, o, stop);
  REQUIRE(!r.dags.empty());
  CHECK(!r.complete);
  CHECK(oracle::acyclic(dag_masks(r.dags[0].parents)));
}

TEST_CASE("method auto is dp up to 29 variables, then ilp when built in", "[exact]") {
  using bnsl::resolve_exact_method;
  REQUIRE(resolve_exact_method(ExactMethod::automatic, 5) == ExactMethod::dp);
  REQUIRE(resolve_exact_method(ExactMethod::automatic, 29) == ExactMethod::dp);
  REQUIRE(resolve_exact_method(ExactMethod::automatic, 30) ==
          (bnsl::ilp_available() ? ExactMethod::ilp : ExactMethod::dp));
  REQUIRE(resolve_exact_method(ExactMethod::ilp, 5) == ExactMethod::ilp);
  REQUIRE(resolve_exact_method(ExactMethod::dp, 25) == ExactMethod::dp);
  REQUIRE(bnsl::parse_exact_method("auto") == ExactMethod::automatic);
  REQUIRE(bnsl::to_string(ExactMethod::automatic) == std::string("auto"));
  REQUIRE_THROWS_AS(bnsl::parse_exact_method("best"), bnsl::InputError);
}

namespace {

// n variables, each with the empty family (-10) and the next variable as parent (-9): the
// best DAGs cut the cycle at one variable, n of them, within 0.5 of each other.
ScoreCache cycle_cache(int n) {
  ScoreCache cache(n);
  for (int v = 0; v < n; ++v) {
    const std::vector<int> none, next{(v + 1) % n};
    cache.var(v).add(-10.0, none);
    cache.var(v).add(-9.0, next);
    cache.var(v).sort_best_first();
  }
  return cache;
}

}  // namespace

// auto above exact.ilp_first_above (24) variables tries the ILP first: on 25 variables whose ILP
// proves OPT and lists the 25 DAGs within 0.5 at once, its answer stands (the DP would take
// seconds).
TEST_CASE("method auto above 24 variables keeps the ILP's answer when it finishes first",
          "[exact]") {
  if (!bnsl::ilp_available()) return;  // the DP alone: 2 GiB of tables at 25 variables
  const int n = 25;
  const ScoreCache cache = cycle_cache(n);
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.epsilon = bnsl::Epsilon::epsilon(0.5);
  o.threads = 2;
  bnsl::ExactStats st;
  const bnsl::PoolReport r = bnsl::solve_exact(cache, o, bnsl::StopToken(), &st);
  CHECK(r.optimal);
  CHECK(r.complete);
  CHECK(r.dags.size() == static_cast<std::size_t>(n));  // the cycle cut at any one variable
  CHECK(r.dags[0].score == Approx(-9.0 * (n - 1) - 10.0));
  CHECK(st.method == "ilp");
  CHECK(st.seconds_ilp_first > 0);
}

// auto gives the DP way when the time left cannot cover it (a stopped DP has only the
// identity order's network): on 20 variables (estimate about 0.3 s) with a 0.1 s deadline it
// runs the ILP, which still returns a valid network; with no deadline the DP.
TEST_CASE("method auto runs the ILP when the deadline is too close for the DP", "[exact]") {
  const int n = 20;
  REQUIRE(!bnsl::dp_fits(n, 0.1));
  const ScoreCache cache = cycle_cache(n);
  bnsl::ExactOptions o;
  o.start = bnsl::ilp_start();  // as the pipeline does
  o.epsilon = bnsl::Epsilon::epsilon(0.5);
  o.threads = 1;
  bnsl::ExactStats st;
  const bnsl::PoolReport unhurried = bnsl::solve_exact(cache, o, bnsl::StopToken(), &st);
  CHECK(st.method == "dp");
  CHECK(unhurried.optimal);
  CHECK(unhurried.dags[0].score == Approx(-9.0 * (n - 1) - 10.0));
  const bnsl::PoolReport hurried = bnsl::solve_exact(cache, o, bnsl::StopToken(0.1), &st);
  CHECK(st.method == (bnsl::ilp_available() ? "ilp" : "dp"));
  REQUIRE(!hurried.dags.empty());
  CHECK(oracle::acyclic(dag_masks(hurried.dags[0].parents)));
}
