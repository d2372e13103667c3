// Forbidden arcs and tiers (bnsl/constraints.hpp): the files' reader, and every mode against
// brute force over the DAGs that satisfy them. The oracle scores every parent set of tiny
// random data without bnsl's scorer, drops the families the constraints forbid, and
// enumerates every acyclic assignment: the DAGs within epsilon of the constrained optimum,
// their classes (skeleton and v-structures) and the DAG-weighted edge probabilities. Exact
// mode (the exploration under the constraints, then the DP), and the search over a cache
// explored without them and filtered by search_cache(), must report exactly those.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/error.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
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

// Random constraints on n variables: a few forbidden arcs, and tiers on some seeds.
Constraints random_constraints(int n, std::uint64_t seed) {
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
  return c;
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
    std::erase_if(fam[v], [&](const auto& f) {
      for (int p : oracle::from_mask(f.first))
        if (!c.allowed(p, static_cast<int>(v))) return true;
      return false;
    });
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
  CHECK(r.constraints.forbidden == c.forbidden);
  CHECK(r.constraints.tiers == c.tiers);
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
  CHECK(c.violation(bad) == std::pair<int, int>(0, 3));

  bnsl::ScoreCache cache(4, kNames);
  for (const std::vector<int>& p : {std::vector<int>{}, {0}, {1}, {0, 1}})
    cache.var(3).add(-10.0 - static_cast<double>(p.size()), p);
  cache.var(3).sort_best_first();
  CHECK(c.apply(cache) == 2);  // {0} and {0, 1}: A -> D is forbidden
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
          bnsl::read_constraints("/nonexistent/f.csv", "", kNames);
        }).starts_with("/nonexistent/f.csv"));
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
        bnsl::ExactLearnOptions x;
        x.score = p;
        x.exact.method = bnsl::ExactMethod::dp;
        x.exact.epsilon = bnsl::Epsilon::epsilon(eps);
        x.threads = 1;
        x.constraints = c;
        const bnsl::ExactLearnResult e = bnsl::learn_exact(d, x, bnsl::StopToken());
        CHECK(e.report.optimal);
        CHECK(e.report.complete);
        REQUIRE(!e.report.dags.empty());
        CHECK(e.report.dags.front().score == Approx(t.opt).epsilon(1e-9));
        check_report(e.report, t, c);
        // The search over a cache explored without the constraints (filtered by
        // search_cache; n <= 7: every order is enumerated, so the pool is complete).
        bnsl::ExploreOptions o;
        o.score = p;
        o.epsilon = bnsl::Epsilon::epsilon(eps);
        o.method = bnsl::ExploreMethod::is;
        o.threads = 1;
        const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken());
        bnsl::SearchOptions s;
        s.epsilon = o.epsilon;
        s.threads = 1;
        s.dp_max_n = 0;
        s.constraints = c;
        const bnsl::SearchRunResult r =
            bnsl::search_cache(cache, s, bnsl::ReportContext{p, &d, true}, bnsl::StopToken(), {});
        REQUIRE(!r.report.classes.empty());
        CHECK(r.report.classes.front().score == Approx(t.opt).epsilon(1e-9));
        check_report(r.report, t, c);
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
