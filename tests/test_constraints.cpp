// Required and forbidden arcs, tiers and the in-degree limit (bnsl/constraints.hpp): the
// files' reader, and every mode against brute force over the DAGs that satisfy them. The
// oracle scores every parent set of tiny random data without bnsl's scorer, drops the
// families the constraints forbid (a forbidden parent, a required one missing, or more
// parents than the limit), and enumerates every acyclic assignment: the DAGs within epsilon
// of the constrained optimum, their classes (skeleton and v-structures) and the DAG-weighted
// edge probabilities. Exact mode (the exploration under the constraints, then the DP or the
// ILP), and the search over a cache explored without forbidden arcs, tiers and the limit and
// filtered by search_cache() (or, with required arcs, explored with them), must report
// exactly those.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bnsl/arcs.hpp"
#include "bnsl/cache.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
#include "exact_helpers.hpp"
#include "oracle.hpp"

namespace {

using bnsl::Constraints;
using bnsl::InputError;
using bnsl::ScoreKind;
using bnsl::ScoreParams;
using oracle::Mask;

const std::vector<std::string> kNames = {"A", "B", "C", "D"};

// The InputError message of f(), or "" when it throws none.
template <class F>
std::string input_error(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// Random constraints on n variables: a few forbidden arcs, and tiers on some seeds; with
// `required`, also one to three required arcs that agree with them and close no cycle (each
// from a lower to a higher index of a random permutation).
Constraints random_constraints(int n, std::uint64_t seed, bool required = false) {
  std::mt19937_64 rng(seed * 7919 + 3);
  Constraints c;
  std::uniform_int_distribution<int> pick(0, n - 1);
  const int arcs = 1 + static_cast<int>(seed % 4);
  for (int k = 0; k < arcs; ++k) {
    const int a = pick(rng), b = pick(rng);
    if (a != b) c.forbidden.emplace_back(a, b);
  }
  std::sort(c.forbidden.begin(), c.forbidden.end());
  c.forbidden.erase(std::unique(c.forbidden.begin(), c.forbidden.end()), c.forbidden.end());
  if (seed % 2 == 0) {
    c.tiers.assign(static_cast<std::size_t>(n), -1);
    for (int v = 0; v < n; ++v)
      if (rng() % 3 != 0) c.tiers[static_cast<std::size_t>(v)] = static_cast<int>(rng() % 3);
  }
  if (required) {
    std::vector<int> perm(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) perm[static_cast<std::size_t>(v)] = v;
    std::shuffle(perm.begin(), perm.end(), rng);
    const int want = 1 + static_cast<int>(rng() % 3);
    for (int tries = 0; tries < 50 && static_cast<int>(c.required.size()) < want; ++tries) {
      int i = pick(rng), j = pick(rng);
      if (i == j) continue;
      if (i > j) std::swap(i, j);
      const std::pair<int, int> arc(perm[static_cast<std::size_t>(i)],
                                    perm[static_cast<std::size_t>(j)]);
      if (!c.allowed(arc.first, arc.second) ||
          std::find(c.required.begin(), c.required.end(), arc) != c.required.end())
        continue;
      c.required.push_back(arc);
    }
    std::sort(c.required.begin(), c.required.end());
  }
  return c;
}

// Whether the family `f` of v satisfies the constraints: allowed parents, required ones held,
// no more than the in-degree limit.
bool family_allowed(const Constraints& c, int v, Mask f) {
  if (c.max_parents >= 0 && std::popcount(f) > c.max_parents) return false;
  for (int p : oracle::from_mask(f))
    if (!c.allowed(p, v)) return false;
  for (const auto& [from, to] : c.required)
    if (to == v && !(f >> from & 1)) return false;
  return true;
}

std::vector<Mask> masks_of(const bnsl::ParentSets& parents) {
  std::vector<Mask> out;
  for (const auto& p : parents) out.push_back(oracle::to_mask(p));
  return out;
}

// What brute force says of the allowed DAGs within eps of their optimum.
struct Truth {
  std::map<std::vector<Mask>, double> dags;      // DAG -> score
  std::map<oracle::ClassKey, std::size_t> size;  // class -> DAGs of it within eps (all of them)
  std::map<std::pair<int, int>, double> p;       // arc -> DAG-weighted probability
  double opt = oracle::kNegInf;
};

Truth brute_force(const bnsl::Dataset& d, const ScoreParams& params, const Constraints& c,
                  double eps) {
  oracle::Families fam = oracle::full_table(d, params, -1);
  for (std::size_t v = 0; v < fam.size(); ++v)
    std::erase_if(fam[v],
                  [&](const auto& f) { return !family_allowed(c, static_cast<int>(v), f.first); });
  const std::vector<oracle::Scored> all = oracle::all_dags(fam);
  Truth t;
  t.opt = all.front().score;
  const double threshold = t.opt - eps - 1e-9 * std::max(1.0, std::fabs(t.opt));
  double total = 0;
  for (const oracle::Scored& s : all) {
    if (s.score < threshold) break;  // sorted best first
    t.dags.emplace(s.dag, s.score);
    ++t.size[oracle::class_key(s.dag)];
    const double w = std::exp(s.score - t.opt);
    total += w;
    for (std::size_t v = 0; v < s.dag.size(); ++v)
      for (int p : oracle::from_mask(s.dag[v])) t.p[{p, static_cast<int>(v)}] += w;
  }
  for (auto& [arc, p] : t.p) p /= total;
  return t;
}

// A report listing every DAG of its classes against the truth: the same DAGs, each class's
// size, the edge probabilities, and no DAG breaking the constraints.
void check_report(const bnsl::PoolReport& r, const Truth& t, const Constraints& c) {
  std::set<std::vector<Mask>> listed;
  for (const bnsl::PoolDag& dag : r.dags) {
    CHECK(!c.violation(dag.parents));
    const auto m = masks_of(dag.parents);
    listed.insert(m);
    const auto it = t.dags.find(m);
    REQUIRE(it != t.dags.end());
    CHECK(dag.score == Approx(it->second).epsilon(1e-9));
  }
  CHECK(listed.size() == t.dags.size());
  REQUIRE(r.classes.size() == t.size.size());
  for (const bnsl::PoolClass& k : r.classes) {
    CHECK(!c.violation(k.dag));
    const auto it = t.size.find(oracle::class_key(masks_of(k.dag)));
    REQUIRE(it != t.size.end());
    CHECK(k.size == std::to_string(it->second));
  }
  std::size_t arcs = 0;
  for (const bnsl::EdgeProb& e : r.edges) {
    const auto it = t.p.find({e.from, e.to});
    REQUIRE(it != t.p.end());
    CHECK(e.p == Approx(it->second).margin(1e-9));
    CHECK(c.allowed(e.from, e.to));
    ++arcs;
  }
  CHECK(arcs == t.p.size());
  for (const auto& arc : c.required) CHECK(t.p.at(arc) == Approx(1.0).margin(1e-12));
  CHECK(r.constraints.required == c.required);
  CHECK(r.constraints.forbidden == c.forbidden);
  CHECK(r.constraints.tiers == c.tiers);
  CHECK(r.constraints.max_parents == c.max_parents);
}

// Exact mode from the data under the constraints (the exploration, then `method`): optimal,
// complete, and the truth's list.
void check_exact(const bnsl::Dataset& d, const ScoreParams& p, double eps, const Constraints& c,
                 bnsl::ExactMethod method, const Truth& t) {
  bnsl::ExactLearnOptions x;
  x.score = p;
  x.exact.method = method;
  x.exact.epsilon = bnsl::Epsilon::epsilon(eps);
  x.threads = 1;
  x.constraints = c;
  const bnsl::ExactLearnResult e = bnsl::learn_exact(d, x, bnsl::StopToken());
  CHECK(e.report.optimal);
  CHECK(e.report.complete);
  REQUIRE(!e.report.dags.empty());
  CHECK(e.report.dags.front().score == Approx(t.opt).epsilon(1e-9));
  check_report(e.report, t, c);
}

// The search over `cache` under the constraints (search_cache filters it; n <= 7: every order
// is enumerated, so the pool is complete): the truth's list.
void check_search(const bnsl::ScoreCache& cache, const bnsl::Dataset& d, const ScoreParams& p,
                  double eps, const Constraints& c, const Truth& t) {
  bnsl::SearchOptions s;
  s.epsilon = bnsl::Epsilon::epsilon(eps);
  s.threads = 1;
  s.dp_max_n = 0;
  s.constraints = c;
  const bnsl::SearchRunResult r =
      bnsl::search_cache(cache, s, bnsl::ReportContext{p, &d, true}, bnsl::StopToken(), {});
  REQUIRE(!r.report.classes.empty());
  CHECK(r.report.classes.front().score == Approx(t.opt).epsilon(1e-9));
  check_report(r.report, t, c);
}

}  // namespace

TEST_CASE("constraints: the files, their errors and the checks", "[constraints]") {
  const Constraints none;
  CHECK(none.empty());
  CHECK(none.describe() == "none");
  CHECK(none.fingerprint() == "none");

  const std::vector<int> tiers =
      bnsl::parse_tiers("# ages first\nvariable,tier\nA,0\n\"C\",2\nB, 1\n", "t.csv", kNames);
  CHECK(tiers == std::vector<int>{0, 1, 2, -1});
  Constraints c;
  c.tiers = tiers;
  c.forbidden = {{0, 3}};
  CHECK(c.allowed(0, 1));
  CHECK_FALSE(c.allowed(1, 0));  // tier 1 into tier 0
  CHECK_FALSE(c.allowed(2, 1));
  CHECK(c.allowed(3, 0));  // D is in no tier
  CHECK_FALSE(c.allowed(0, 3));
  CHECK(c.describe() == "1 forbidden arc, 3 tiers over 3 variables");
  CHECK(c.fingerprint() != none.fingerprint());
  Constraints other = c;
  other.tiers[3] = 0;
  CHECK(other.fingerprint() != c.fingerprint());
  const bnsl::ParentSets ok = {{}, {0}, {0, 1}, {1}}, bad = {{}, {0}, {0}, {0, 2}};
  CHECK(!c.violation(ok));
  REQUIRE(c.violation(bad));
  CHECK(c.violation(bad)->from == 0);
  CHECK(c.violation(bad)->to == 3);
  CHECK_FALSE(c.violation(bad)->missing);

  bnsl::ScoreCache cache(4, kNames);
  for (const std::vector<int>& p : {std::vector<int>{}, {0}, {1}, {0, 1}})
    cache.var(3).add(-10.0 - static_cast<double>(p.size()), p);
  cache.var(3).sort_best_first();
  CHECK(cache.apply(c) == 2);  // {0} and {0, 1}: A -> D is forbidden
  CHECK(cache.var(3).size() == 2);
  CHECK(cache.var(3).find(std::vector<int>{1}) >= 0);

  const auto tier_error = [&](const std::string& text) {
    return input_error([&] { bnsl::parse_tiers(text, "t.csv", kNames); });
  };
  CHECK(tier_error("") == "t.csv:1:1: empty file: expected the header line variable,tier");
  CHECK(tier_error("name,tier\n") == "t.csv:1:1: expected the header line variable,tier");
  CHECK(tier_error("variable,tier\nA,0\nE,1\n") == "t.csv:3:1: unknown variable 'E'");
  CHECK(tier_error("variable,tier\nA,0\nB,x\n").starts_with("t.csv:3:3: expected the tier"));
  CHECK(tier_error("variable,tier\nA,-1\n").starts_with("t.csv:2:3: expected the tier"));
  CHECK(tier_error("variable,tier\nA,0\nA,1\n") == "t.csv:3:1: 'A' is already listed on line 2");
  CHECK(tier_error("variable,tier\nA,0,1\n").starts_with("t.csv:2:5: expected variable,tier"));
  const std::string arc_error =
      input_error([&] { bnsl::parse_arcs("from,to\nA,B\nB,Z\n", "f.csv", kNames, false); });
  CHECK(arc_error == "f.csv:3:3: unknown variable 'Z'");
  CHECK(input_error([&] {
          bnsl::read_constraints({"", "/nonexistent/f.csv", ""}, kNames);
        }).starts_with("/nonexistent/f.csv"));
}

TEST_CASE("constraints: required arcs, their checks and their errors", "[constraints]") {
  const auto arcs = [](const std::string& text, const std::string& file) {
    return bnsl::parse_arcs(text, file, kNames, false);
  };
  const bnsl::ConstraintFiles files{"r.csv", "f.csv", "t.csv"};
  const auto make = [&](const std::string& require, const std::string& forbid,
                        std::vector<int> tiers = {}) {
    return bnsl::make_constraints(arcs(require, "r.csv"), arcs(forbid, "f.csv"), std::move(tiers),
                                  files, kNames);
  };
  const Constraints c = make("from,to\nA,B\nC,B\nB,D\n", "from,to\nA,D\n");
  CHECK(c.required == std::vector<std::pair<int, int>>{{0, 1}, {1, 3}, {2, 1}});
  CHECK(c.required_parents(1) == std::vector<int>{0, 2});
  CHECK(c.required_parents(0).empty());
  CHECK(c.max_required_parents() == 2);
  CHECK(c.allowed(0, 1));
  CHECK_FALSE(c.allowed(1, 0));  // the reverse of a required arc
  CHECK_FALSE(c.allowed(0, 3));  // forbidden
  CHECK(c.describe() == "3 required arcs, 1 forbidden arc");
  Constraints no_required = c;
  no_required.required.clear();
  CHECK(no_required.fingerprint() != c.fingerprint());
  Constraints forbid_only;
  forbid_only.forbidden = {{0, 3}};
  CHECK(no_required.fingerprint() == forbid_only.fingerprint());  // as caches record it

  const bnsl::ParentSets ok = {{}, {0, 2}, {}, {1}}, lacks = {{}, {0}, {}, {1}};
  CHECK(!c.violation(ok));
  REQUIRE(c.violation(lacks));
  CHECK(c.violation(lacks)->missing);
  CHECK(c.violation(lacks)->from == 2);
  CHECK(c.violation(lacks)->to == 1);

  bnsl::ScoreCache cache(4, kNames);
  for (const std::vector<int>& p : {std::vector<int>{}, {0}, {0, 2}, {0, 2, 3}, {2}})
    cache.var(1).add(-10.0 - static_cast<double>(p.size()), p);
  cache.var(1).sort_best_first();
  // {}, {0} and {2} lack a required parent of B; {0, 2, 3} holds D -> B, against B -> D.
  CHECK(cache.apply(c) == 4);
  REQUIRE(cache.var(1).size() == 1);
  CHECK(cache.var(1).find(std::vector<int>{0, 2}) == 0);

  const auto error = [&](const std::string& require, const std::string& forbid,
                         std::vector<int> tiers = {}) {
    return input_error([&] { make(require, forbid, tiers); });
  };
  CHECK(error("from,to\nA,B\nB,C\nC,A\n", "from,to\n") ==
        "r.csv:4:1: the required arc 'C' -> 'A' closes the cycle 'A' -> 'B' -> 'C' -> 'A'");
  CHECK(error("from,to\nA,B\nB,A\n", "from,to\n") ==
        "r.csv:3:1: the required arc 'B' -> 'A' closes the cycle 'A' -> 'B' -> 'A'");
  CHECK(error("from,to\nA,B\nA,D\n", "from,to\n# none\nA,D\n") ==
        "r.csv:3:1: the required arc 'A' -> 'D' is forbidden by f.csv line 3");
  CHECK(error("from,to\nB,A\n", "from,to\n", {0, 1, -1, -1}) ==
        "r.csv:2:1: the required arc 'B' -> 'A' goes from tier 1 into the earlier tier 0 of t.csv");
  CHECK(error("from,to\nA,E\n", "from,to\n") == "r.csv:2:3: unknown variable 'E'");
}

TEST_CASE("constraints: exact mode and the search equal brute force over the allowed DAGs",
          "[constraints][exact][search]") {
  std::size_t checked = 0, listed = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const int n = 4 + static_cast<int>(seed % 2);  // 4..5
    std::vector<int> arities(static_cast<std::size_t>(n), 2);
    arities[1] = 3;
    const bnsl::Dataset d = oracle::random_dataset(60 + 20 * (seed % 3), arities, seed, 0.3);
    const Constraints c = random_constraints(n, seed);
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}})
      for (double eps : {0.0, 1.0, std::log(20.0)}) {
        INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " eps " << eps << " "
                     << c.describe());
        const Truth t = brute_force(d, p, c, eps);
        // Exact mode from the data: the exploration never scores a forbidden parent.
        check_exact(d, p, eps, c, bnsl::ExactMethod::dp, t);
        // The search over a cache explored without the constraints (filtered by
        // search_cache; n <= 7: every order is enumerated, so the pool is complete).
        bnsl::ExploreOptions o;
        o.score = p;
        o.epsilon = bnsl::Epsilon::epsilon(eps);
        o.method = bnsl::ExploreMethod::is;
        o.threads = 1;
        const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken());
        check_search(cache, d, p, eps, c, t);
        ++checked;
        listed += t.dags.size();
      }
  }
  CHECK(checked == 48);
  CHECK(listed > 200);  // the cases are not trivial
}

TEST_CASE("constraints: no cached set holds a forbidden parent, with or without screening",
          "[constraints][explore]") {
  const bnsl::Dataset d = oracle::random_dataset(300, std::vector<int>(12, 3), 5, 0.2, 3);
  Constraints c;
  c.tiers.assign(12, -1);
  for (int v = 0; v < 12; ++v) c.tiers[static_cast<std::size_t>(v)] = v % 3 == 0 ? -1 : v % 4;
  c.forbidden = {{0, 1}, {1, 2}, {2, 3}, {5, 4}};
  for (int candidates : {0, 4}) {
    bnsl::ExploreOptions o;
    o.candidates = candidates;
    o.time = 30;  // screening needs a budget; these end by themselves
    o.threads = 1;
    o.constraints = c;
    const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken());
    std::size_t entries = 0;
    for (std::size_t v = 0; v < cache.n_vars(); ++v)
      for (std::size_t i = 0; i < cache.var(v).size(); ++i, ++entries)
        for (int p : cache.var(v).parents(i)) CHECK(c.allowed(p, static_cast<int>(v)));
    CHECK(entries > 12);
  }
}

TEST_CASE("constraints: with required arcs, exact mode and the search equal brute force",
          "[constraints][exact][search]") {
  std::size_t checked = 0, listed = 0, required = 0;
  for (std::uint64_t seed = 11; seed <= 18; ++seed) {
    const int n = 4 + static_cast<int>(seed % 2);  // 4..5
    std::vector<int> arities(static_cast<std::size_t>(n), 2);
    arities[2] = 3;
    const bnsl::Dataset d = oracle::random_dataset(60 + 20 * (seed % 3), arities, seed, 0.3);
    const Constraints c = random_constraints(n, seed, true);
    REQUIRE(!c.required.empty());
    required += c.required.size();
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}})
      for (double eps : {0.0, 1.0, std::log(20.0)}) {
        INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " eps " << eps << " "
                     << c.describe());
        const Truth t = brute_force(d, p, c, eps);
        // Exact mode from the data: the exploration keeps the required parents in every set
        // and prunes among such sets; then the DP, and the ILP where CBC is built in.
        for (const bnsl::ExactMethod m : exact_test::methods()) check_exact(d, p, eps, c, m, t);
        // The search over a cache explored with them (best-first, then sequential).
        for (const bnsl::ExploreMethod method :
             {bnsl::ExploreMethod::is, bnsl::ExploreMethod::seq}) {
          bnsl::ExploreOptions o;
          o.score = p;
          o.epsilon = bnsl::Epsilon::epsilon(eps);
          o.method = method;
          o.max_parents = method == bnsl::ExploreMethod::seq ? n - 1 : -1;
          o.threads = 1;
          o.constraints = c;
          const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken());
          for (std::size_t v = 0; v < cache.n_vars(); ++v)
            for (std::size_t i = 0; i < cache.var(v).size(); ++i) {
              const auto ps = cache.var(v).parents(i);
              CHECK(family_allowed(c, static_cast<int>(v),
                                   oracle::to_mask(std::vector<int>(ps.begin(), ps.end()))));
            }
          check_search(cache, d, p, eps, c, t);
        }
        ++checked;
        listed += t.dags.size();
      }
  }
  CHECK(checked == 48);
  CHECK(required >= 12);
  CHECK(listed > 100);  // the cases are not trivial
}

TEST_CASE("constraints: required parents exceeding the in-degree limit are refused",
          "[constraints][explore]") {
  const bnsl::Dataset d = oracle::random_dataset(50, std::vector<int>(4, 2), 3, 0.2);
  bnsl::ExploreOptions o;
  o.method = bnsl::ExploreMethod::seq;
  o.max_parents = 1;
  o.threads = 1;
  o.constraints.required = {{0, 3}, {1, 3}};
  CHECK(input_error([&] {
          bnsl::explore(d, o, bnsl::StopToken());
        }).find("has 2 required parents, more than the in-degree limit of 1") != std::string::npos);
  o.max_parents = 2;
  const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken());
  REQUIRE(cache.var(3).size() == 1);
  const auto ps = cache.var(3).parents(0);
  CHECK(std::vector<int>(ps.begin(), ps.end()) == std::vector<int>{0, 1});
}

TEST_CASE("constraints: every DAG of a Markov equivalence class has the same in-degrees",
          "[constraints]") {
  // Every DAG on 4 and 5 nodes, grouped by skeleton and v-structures: the sorted in-degrees
  // are the class's (what lets an in-degree limit take or drop whole classes).
  for (int n : {4, 5}) {
    oracle::Families every(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v)
      for (Mask m = 0; m < (Mask{1} << n); ++m)
        if (!(m >> v & 1)) every[static_cast<std::size_t>(v)].emplace_back(m, 0.0);
    std::map<oracle::ClassKey, std::vector<int>> degrees;
    std::size_t dags = 0, shared = 0;
    for (const oracle::Scored& s : oracle::all_dags(every)) {
      std::vector<int> d;
      for (Mask m : s.dag) d.push_back(std::popcount(m));
      std::sort(d.begin(), d.end());
      const auto [it, fresh] = degrees.emplace(oracle::class_key(s.dag), d);
      CHECK(it->second == d);
      ++dags;
      shared += !fresh;
    }
    CHECK(dags == (n == 4 ? 543u : 29281u));  // OEIS A003024
    CHECK(shared > dags / 2);                 // most DAGs share their class
  }
}

TEST_CASE("constraints: with an in-degree limit, exact mode and the search equal brute force",
          "[constraints][exact][search]") {
  std::size_t checked = 0, listed = 0, cut = 0;
  for (std::uint64_t seed = 21; seed <= 28; ++seed) {
    const int n = 4 + static_cast<int>(seed % 2);  // 4..5
    std::vector<int> arities(static_cast<std::size_t>(n), 2);
    arities[0] = 3;
    const bnsl::Dataset d = oracle::random_dataset(80 + 40 * (seed % 3), arities, seed, 0.4);
    // The limit alone on half the seeds, with arcs and tiers (and required arcs) on the others.
    Constraints c = seed % 2 ? Constraints() : random_constraints(n, seed, seed % 4 == 0);
    // 1 or 2, or the most required parents of a variable
    c.max_parents =
        std::max(1 + static_cast<int>(seed / 2 % 2), static_cast<int>(c.max_required_parents()));
    for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}})
      for (double eps : {0.0, 1.0, std::log(20.0)}) {
        INFO("seed " << seed << " " << bnsl::to_string(p.kind) << " eps " << eps << " "
                     << c.describe());
        const Truth t = brute_force(d, p, c, eps);
        Constraints unlimited = c;
        unlimited.max_parents = -1;
        cut += brute_force(d, p, unlimited, eps).opt > t.opt + 1e-9;
        for (const bnsl::ExactMethod m : exact_test::methods()) check_exact(d, p, eps, c, m, t);
        // The search over a cache explored without the limit (with the required arcs, as
        // they must be), filtered by search_cache.
        bnsl::ExploreOptions o;
        o.score = p;
        o.epsilon = bnsl::Epsilon::epsilon(eps);
        o.method = bnsl::ExploreMethod::seq;
        o.max_parents = n - 1;
        o.threads = 1;
        o.constraints = unlimited;
        check_search(bnsl::explore(d, o, bnsl::StopToken()), d, p, eps, c, t);
        ++checked;
        listed += t.dags.size();
      }
  }
  CHECK(checked == 48);
  CHECK(listed > 100);
  CHECK(cut > 10);  // the limit cuts off the unlimited optimum on many cases
}

TEST_CASE("constraints: the in-degree limit: description, fingerprint, violation, cache filter",
          "[constraints]") {
  Constraints c;
  CHECK(c.empty());
  c.max_parents = 2;
  CHECK(!c.empty());
  CHECK(c.arcs_empty());
  CHECK(c.fingerprint() == "none");  // a cache explored without it may be filtered by it
  CHECK(c.describe() == "at most 2 parents per variable");
  c.forbidden = {{0, 1}};
  CHECK(c.describe() == "1 forbidden arc, at most 2 parents per variable");
  Constraints arcs = c;
  arcs.max_parents = -1;
  CHECK(c.fingerprint() == arcs.fingerprint());
  CHECK(c.same_arcs(arcs));
  const bnsl::ParentSets three = {{}, {}, {}, {0, 1, 2}};
  const auto v = c.violation(three);
  REQUIRE(v);
  CHECK(v->in_degree);
  CHECK(v->to == 3);
  CHECK(!c.violation({{}, {}, {}, {0, 1}}));
  bnsl::ScoreCache cache(4);
  cache.var(3).add(-10, std::vector<int>{0, 1, 2});
  cache.var(3).add(-11, std::vector<int>{0, 2});
  cache.var(3).add(-12, std::vector<int>{});
  cache.var(3).sort_best_first();
  CHECK(cache.apply(c) == 1);
  CHECK(cache.var(3).size() == 2);
}

TEST_CASE("constraints by name equal those by index, and name the list in errors",
          "[constraints]") {
  const std::vector<std::string> names{"A", "B", "C", "D"};
  const bnsl::ConstraintFiles lists{"require", "forbid", "tiers"};
  const bnsl::Constraints c = bnsl::constraints_by_name({{"A", "B"}}, {{"C", "D"}, {"D", "A"}},
                                                        {{"B", 0}, {"C", 1}}, lists, names);
  // By hand: A -> B required, C -> D and D -> A forbidden, B in tier 0 before C in tier 1.
  CHECK(c.required_parents(1) == std::vector<int>{0});
  CHECK(c.forbidden == std::vector<std::pair<int, int>>{{2, 3}, {3, 0}});
  CHECK(c.tiers == std::vector<int>{-1, 0, 1, -1});
  CHECK_FALSE(c.allowed(2, 1));  // against the tiers
  CHECK(c.allowed(1, 2));
  CHECK_THROWS_WITH(bnsl::constraints_by_name({}, {{"A", "Z"}}, {}, lists, names),
                    "forbid: unknown variable 'Z'");
  CHECK_THROWS_WITH(bnsl::constraints_by_name({}, {}, {{"A", -1}}, lists, names),
                    "tiers: the tier of 'A' must be >= 0");
  CHECK_THROWS_WITH(bnsl::constraints_by_name({{"A", "B"}, {"B", "A"}}, {}, {}, lists, names),
                    Catch::Contains("require:2:1:"));  // the second item closes a cycle
}
