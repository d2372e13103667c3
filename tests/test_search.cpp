// Ordering search and DAG pool, against independent checks written here:
//  - OBS and ASOBS on random caches and orders versus literal re-implementations (OBS: first
//    entry whose parents all precede; ASOBS: first entry that closes no cycle, checked by a
//    depth-first search per candidate), and ASOBS >= OBS on every order (Theorem 3);
//  - incremental OBS swaps and ASOBS sweeps versus recomputation from scratch;
//  - order enumeration and the search's pool versus brute force over every parent-set
//    assignment of small caches (acyclicity by Kahn's algorithm);
//  - pool invariants: acyclic, distinct, sorted, within epsilon of the best, scores equal to
//    the sum of their cache entries recomputed here; same seed, one thread: same pool.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/search.hpp"
#include "oracle.hpp"
#include "pool/class_members.hpp"
#include "pool/dag_pool.hpp"
#include "score/compare.hpp"
#include "search/complete_neighbours.hpp"
#include "search/greedy_dag.hpp"
#include "search/order_enum.hpp"
#include "search/report_cost.hpp"
#include "search/search_internal.hpp"

namespace {

using Parents = std::vector<std::vector<int>>;

// A random cache: every variable has the empty set and up to `extra` random parent sets of
// size 1..max_k, with scores spread so that several are within a few units of each other.
bnsl::ScoreCache random_cache(std::size_t n, int extra, int max_k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  bnsl::ScoreCache cache(n);
  std::uniform_real_distribution<double> base(-200, -50), gain(-3, 12);
  for (std::size_t v = 0; v < n; ++v) {
    const double s0 = base(rng);
    cache.var(v).add(s0, std::vector<int>{});
    std::set<std::vector<int>> seen;
    for (int t = 0; t < extra; ++t) {
      const int k = std::uniform_int_distribution<int>(1, max_k)(rng);
      std::vector<int> ps;
      for (int j = 0; j < k; ++j) {
        int p = std::uniform_int_distribution<int>(0, static_cast<int>(n) - 2)(rng);
        if (p >= static_cast<int>(v)) ++p;
        if (std::find(ps.begin(), ps.end(), p) == ps.end()) ps.push_back(p);
      }
      std::sort(ps.begin(), ps.end());
      if (!seen.insert(ps).second) continue;
      cache.var(v).add(s0 + gain(rng), ps);
    }
    cache.var(v).sort_best_first();
  }
  return cache;
}

std::vector<int> random_order(std::size_t n, std::mt19937_64& rng) {
  std::vector<int> o(n);
  std::iota(o.begin(), o.end(), 0);
  std::shuffle(o.begin(), o.end(), rng);
  return o;
}

std::vector<int> entry_parents(const bnsl::ScoreCache& c, std::size_t v, std::uint32_t e) {
  auto ps = c.var(v).parents(e);
  return {ps.begin(), ps.end()};
}

using oracle::acyclic;

// Literal OBS: first entry whose parents all precede v.
std::vector<std::uint32_t> literal_obs(const bnsl::ScoreCache& c, const std::vector<int>& order) {
  std::vector<int> pos(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) pos[order[i]] = static_cast<int>(i);
  std::vector<std::uint32_t> ch(order.size());
  for (std::size_t v = 0; v < order.size(); ++v)
    for (std::uint32_t e = 0; e < c.var(v).size(); ++e) {
      auto ps = entry_parents(c, v, e);
      if (std::all_of(ps.begin(), ps.end(), [&](int p) { return pos[p] < pos[v]; })) {
        ch[v] = e;
        break;
      }
    }
  return ch;
}

// Literal ASOBS: last to first, first entry whose arcs close no cycle in the graph so far.
std::vector<std::uint32_t> literal_asobs(const bnsl::ScoreCache& c, const std::vector<int>& order) {
  const std::size_t n = order.size();
  Parents g(n);
  std::vector<std::uint32_t> ch(n);
  for (std::size_t i = n; i-- > 0;) {
    const int v = order[i];
    for (std::uint32_t e = 0; e < c.var(v).size(); ++e) {
      g[v] = entry_parents(c, v, e);
      if (acyclic(g)) {
        ch[v] = e;
        break;
      }
    }
  }
  return ch;
}

// A cache of every parent set of up to 2 parents per variable, each scoring -0.5 per parent
// plus noise (drawn in variable order, then set order).
bnsl::ScoreCache two_parent_cache(std::size_t n, std::uniform_real_distribution<double>& noise,
                                  std::mt19937_64& rng) {
  bnsl::ScoreCache cache(n);
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<std::vector<int>> sets{{}};
    for (int a = 0; a < static_cast<int>(n); ++a) {
      if (a == static_cast<int>(v)) continue;
      sets.push_back({a});
      for (int b = a + 1; b < static_cast<int>(n); ++b)
        if (b != static_cast<int>(v)) sets.push_back({a, b});
    }
    for (const auto& ps : sets) cache.var(v).add(-0.5 * ps.size() + noise(rng), ps);
    cache.var(v).sort_best_first();
  }
  return cache;
}

// A random acyclic choice of entries: each variable's parents come before it in a random
// order, its entry drawn uniformly among those that allow.
bnsl::Choices random_acyclic_choices(const bnsl::ScoreCache& cache, std::mt19937_64& rng) {
  const std::size_t n = cache.n_vars();
  const auto order = random_order(n, rng);
  std::vector<std::size_t> at(n);
  for (std::size_t i = 0; i < n; ++i) at[order[i]] = i;
  bnsl::Choices g(n);
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<std::uint32_t> ok;
    for (std::uint32_t e = 0; e < cache.var(v).size(); ++e) {
      bool before = true;
      for (int u : cache.var(v).parents(e)) before = before && at[u] < at[v];
      if (before) ok.push_back(e);
    }
    g[v] = ok[std::uniform_int_distribution<std::size_t>(0, ok.size() - 1)(rng)];
  }
  return g;
}

// The parent lists of a choice of entries.
Parents choice_parents(const bnsl::ScoreCache& cache, const bnsl::Choices& ch) {
  Parents p(ch.size());
  for (std::size_t v = 0; v < ch.size(); ++v) p[v] = entry_parents(cache, v, ch[v]);
  return p;
}

double sum_scores(const bnsl::ScoreCache& c, const std::vector<std::uint32_t>& ch) {
  double s = 0;
  for (std::size_t v = 0; v < ch.size(); ++v) s += c.var(v).score(ch[v]);
  return s;
}

// Offers `count` random acyclic DAGs (random_acyclic_choices, from `seed`) to the pool.
void offer_random_dags(const bnsl::ScoreCache& cache, bnsl::DagPool& pool, int count,
                       std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int t = 0; t < count; ++t) {
    const bnsl::Choices ch = random_acyclic_choices(cache, rng);
    pool.offer(sum_scores(cache, ch), bnsl::dag_hash(ch), ch);
  }
}

// A random choice of entries (not checked for acyclicity: the pool does not check it).
bnsl::Choices random_choices(const bnsl::ScoreCache& cache, std::mt19937_64& rng) {
  bnsl::Choices ch(cache.n_vars());
  for (std::size_t v = 0; v < ch.size(); ++v)
    ch[v] = std::uniform_int_distribution<std::uint32_t>(
        0, static_cast<std::uint32_t>(cache.var(v).size() - 1))(rng);
  return ch;
}

// Every DAG (parent-set assignment from the cache) within eps of the optimum, by brute force.
std::map<Parents, double> brute_force_pool(const bnsl::ScoreCache& c, double eps) {
  const std::size_t n = c.n_vars();
  std::vector<std::uint32_t> idx(n, 0);
  std::vector<std::pair<Parents, double>> all;
  double best = -INFINITY;
  for (;;) {
    Parents g(n);
    double s = 0;
    for (std::size_t v = 0; v < n; ++v) {
      g[v] = entry_parents(c, v, idx[v]);
      s += c.var(v).score(idx[v]);
    }
    if (acyclic(g)) {
      best = std::max(best, s);
      all.push_back({g, s});
    }
    std::size_t v = 0;
    while (v < n && ++idx[v] == c.var(v).size()) idx[v++] = 0;
    if (v == n) break;
  }
  std::map<Parents, double> out;
  for (auto& [g, s] : all)
    if (s >= best - eps - bnsl::score_tolerance(best, best - eps)) out[g] = s;
  return out;
}

std::map<Parents, double> as_map(const bnsl::PoolReport& r) {
  std::map<Parents, double> out;
  for (const auto& d : r.dags) out[d.parents] = d.score;
  return out;
}

// Invariants every pool must satisfy, checked independently.
void check_pool(const bnsl::ScoreCache& c, const bnsl::PoolReport& r, double eps) {
  REQUIRE(!r.dags.empty());
  const double best = r.dags.front().score;
  std::set<Parents> distinct;
  for (std::size_t i = 0; i < r.dags.size(); ++i) {
    const auto& d = r.dags[i];
    REQUIRE(acyclic(d.parents));
    REQUIRE(distinct.insert(d.parents).second);
    double s = 0;
    for (std::size_t v = 0; v < c.n_vars(); ++v) {
      const long e = c.var(v).find(d.parents[v]);
      REQUIRE(e >= 0);
      s += c.var(v).score(static_cast<std::size_t>(e));
    }
    REQUIRE(oracle::close_rel(s, d.score, 1e-12));
    REQUIRE(d.score >= best - eps - bnsl::score_tolerance(best, best - eps));
    if (i > 0) REQUIRE(r.dags[i - 1].score >= d.score);
  }
}

// A cache explored from random data with dependencies (n small).
bnsl::ScoreCache tiny_cache(std::size_t n, std::uint64_t seed, double eps) {
  std::mt19937_64 rng(seed);
  std::vector<int> ar(n);
  for (auto& a : ar) a = std::uniform_int_distribution<int>(2, 3)(rng);
  const std::size_t rows = std::uniform_int_distribution<std::size_t>(30, 300)(rng);
  auto cols = oracle::random_columns(rows, ar, seed, 0.3, 2);
  bnsl::Dataset d = bnsl::Dataset::from_codes(cols.columns, cols.arities);
  bnsl::ExploreOptions o;
  o.epsilon = bnsl::Epsilon::epsilon(eps);
  o.threads = 1;
  bnsl::StopToken stop;
  return bnsl::explore(d, o, stop);
}

}  // namespace

TEST_CASE("OBS and ASOBS match literal implementations, and ASOBS >= OBS", "[search]") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 60; ++round) {
    const std::size_t n = 3 + round % 25;
    auto cache = random_cache(n, 12, 3, 1000 + round);
    bnsl::ObsState obs(cache);
    bnsl::AsobsState asobs(cache);
    for (int t = 0; t < 20; ++t) {
      auto order = random_order(n, rng);
      obs.set_order(order);
      bnsl::Choices ach;
      const double as = asobs.evaluate(order, ach);
      REQUIRE(obs.choices() == literal_obs(cache, order));
      REQUIRE(ach == literal_asobs(cache, order));
      REQUIRE(oracle::close_rel(obs.score(), sum_scores(cache, obs.choices()), 1e-12));
      REQUIRE(oracle::close_rel(as, sum_scores(cache, ach), 1e-12));
      REQUIRE(as >= obs.score() - 1e-9);
    }
  }
}

TEST_CASE("incremental OBS swaps equal recomputation", "[search]") {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 30; ++round) {
    const std::size_t n = 2 + round % 20;
    auto cache = random_cache(n, 15, 3, 2000 + round);
    bnsl::ObsState obs(cache);
    auto order = random_order(n, rng);
    obs.set_order(order);
    for (int t = 0; t < 200; ++t) {
      const std::size_t i = std::uniform_int_distribution<std::size_t>(0, n - 2)(rng);
      const auto s = obs.try_swap(i);
      obs.apply(s);
      std::swap(order[i], order[i + 1]);
      const auto lit = literal_obs(cache, order);
      REQUIRE(obs.order() == order);
      REQUIRE(obs.choices() == lit);
      REQUIRE(oracle::close_rel(obs.score(), sum_scores(cache, lit), 1e-9));
      REQUIRE(obs.hash() == bnsl::dag_hash(lit));
    }
  }
}

TEST_CASE("ASOBS sweeps keep the network equal to ASOBS of the order and never worsen it",
          "[search]") {
  std::mt19937_64 rng(13);
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = 2 + round % 30;
    auto cache = random_cache(n, 10, 3, 3000 + round);
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(2), 1000, false);
    bnsl::SearchStats stats;
    bnsl::Offerer off{pool, stats, nullptr};
    bnsl::AsobsState asobs(cache);
    bnsl::Order order = random_order(n, rng);
    bnsl::Choices ch;
    double score = asobs.evaluate(order, ch);
    for (int pass = 0; pass < 10; ++pass) {
      const double before = score;
      const std::size_t acc = asobs.sweep(order, ch, score, off, {});
      REQUIRE(ch == literal_asobs(cache, order));
      REQUIRE(oracle::close_rel(score, sum_scores(cache, ch), 1e-9));
      REQUIRE(score >= before - 1e-9);
      if (acc == 0) break;
    }
  }
}

TEST_CASE("order enumeration finds every consistent DAG within the slack", "[pool]") {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 40; ++round) {
    const std::size_t n = 2 + round % 5;
    auto cache = random_cache(n, 5, 2, 4000 + round);
    const double eps = 3.0;
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(eps), 1000000, false);
    auto order = random_order(n, rng);
    auto r = bnsl::enumerate_order(cache, order, pool, {}, nullptr, 0);
    REQUIRE(!r.truncated);
    // Brute force over consistent assignments.
    std::vector<int> pos(n);
    for (std::size_t i = 0; i < n; ++i) pos[order[i]] = static_cast<int>(i);
    std::vector<std::vector<std::uint32_t>> ok(n);
    for (std::size_t v = 0; v < n; ++v)
      for (std::uint32_t e = 0; e < cache.var(v).size(); ++e) {
        auto ps = entry_parents(cache, v, e);
        if (std::all_of(ps.begin(), ps.end(), [&](int p) { return pos[p] < pos[v]; }))
          ok[v].push_back(e);
      }
    std::set<bnsl::Choices> expect;
    double best = -INFINITY;
    std::vector<std::pair<bnsl::Choices, double>> all;
    std::vector<std::size_t> k(n, 0);
    for (;;) {
      bnsl::Choices ch(n);
      for (std::size_t v = 0; v < n; ++v) ch[v] = ok[v][k[v]];
      const double s = sum_scores(cache, ch);
      best = std::max(best, s);
      all.push_back({ch, s});
      std::size_t v = 0;
      while (v < n && ++k[v] == ok[v].size()) k[v++] = 0;
      if (v == n) break;
    }
    REQUIRE(oracle::close_rel(r.best, best, 1e-12));
    for (auto& [ch, s] : all)
      if (s >= best - eps - bnsl::score_tolerance(best, best - eps)) expect.insert(ch);
    std::set<bnsl::Choices> got;
    for (auto& d : pool.snapshot()) got.insert(d.choices);
    REQUIRE(got == expect);
  }
}

// Neighbour completion from one DAG G (max_expanded 1: G alone is expanded) against a brute
// force: every DAG one family away from G, or G with one arc u -> v reversed when both new
// families are in the cache and the arc is not covered, that is acyclic and within epsilon of
// the best of them all. Full caches (every parent set of up to 2 parents) make reversals
// available; random scores make some of them better than G.
TEST_CASE("neighbour completion offers every one-family change and arc reversal", "[pool]") {
  const std::size_t n = 5;
  std::uint64_t reversals = 0;
  for (int round = 0; round < 30; ++round) {
    std::mt19937_64 rng(700 + round);
    std::uniform_real_distribution<double> noise(-1.5, 1.5);
    const bnsl::ScoreCache cache = two_parent_cache(n, noise, rng);
    // G: a random acyclic choice (parents earlier in a random order).
    bnsl::Choices g = random_acyclic_choices(cache, rng);
    const double eps = 3.0;
    const auto parents_of = [&](const bnsl::Choices& ch) { return choice_parents(cache, ch); };
    // The brute force's candidates.
    std::map<bnsl::Choices, double> cand{{g, sum_scores(cache, g)}};
    const Parents pg = parents_of(g);
    for (std::size_t v = 0; v < n; ++v)
      for (std::uint32_t e = 0; e < cache.var(v).size(); ++e) {
        bnsl::Choices h = g;
        h[v] = e;
        if (acyclic(parents_of(h))) cand.emplace(h, sum_scores(cache, h));
      }
    for (std::size_t v = 0; v < n; ++v)
      for (int u : pg[v]) {
        std::vector<int> pv, pu = pg[u];
        for (int p : pg[v])
          if (p != u) pv.push_back(p);
        if (pv == pg[u]) continue;  // covered
        pu.push_back(static_cast<int>(v));
        std::sort(pu.begin(), pu.end());
        const long jv = cache.var(v).find(pv), ju = cache.var(u).find(pu);
        if (jv < 0 || ju < 0) continue;
        bnsl::Choices h = g;
        h[v] = static_cast<std::uint32_t>(jv);
        h[u] = static_cast<std::uint32_t>(ju);
        if (acyclic(parents_of(h))) cand.emplace(h, sum_scores(cache, h));
      }
    double best = -INFINITY;
    for (auto& [c, sc] : cand) best = std::max(best, sc);
    std::set<bnsl::Choices> expect;
    for (auto& [c, sc] : cand)
      if (sc >= best - eps - bnsl::score_tolerance(best, best - eps)) expect.insert(c);

    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(eps), 100000, false);
    pool.offer(0, bnsl::dag_hash(g), g);
    const auto c = bnsl::complete_neighbours(  // G's neighbourhood only
        cache, pool, [] { return false; },
        {.max_expanded = 1, .climb = false, .members = false, .pairs = false});
    std::set<bnsl::Choices> got;
    for (const auto& d : pool.snapshot()) got.insert(d.choices);
    INFO("round " << round << ": " << expect.size() << " expected, " << c.reversals
                  << " reversals admitted");
    REQUIRE(got == expect);
    reversals += c.reversals;
  }
  CHECK(reversals > 0);  // the reversal moves were exercised
}

// The pair pass against brute force: for a random DAG G (full caches of up to 2 parents,
// random scores), every DAG that changes v's family to an entry scoring above v's own that is
// cyclic alone and the family of any of its new parents w, that is acyclic and within the
// threshold, is pooled by G's walk. The pass only tries w as the first of the new parents
// descended from v and tests acyclicity by two conditions (complete_neighbours.cpp): the brute
// force tries every w and tests acyclicity by search. Every pooled DAG is acyclic.
TEST_CASE("neighbour completion pairs a cyclic gain with the change that breaks it", "[pool]") {
  const std::size_t n = 6;
  std::uint64_t pairs = 0, expected = 0, tight_expected = 0;
  for (int round = 0; round < 40; ++round) {
    std::mt19937_64 rng(1300 + round);
    std::uniform_real_distribution<double> noise(-4.0, 4.0);
    const bnsl::ScoreCache cache = two_parent_cache(n, noise, rng);
    // G: a random DAG of up to 2 parents per vertex (earlier in a random order), or the best.
    bnsl::Choices g = random_acyclic_choices(cache, rng);
    const auto parents_of = [&](const bnsl::Choices& ch) { return choice_parents(cache, ch); };
    // Half the rounds admit every DAG (the pairs' acyclicity tested alone); the others keep
    // the slack tight, from G the best of all orders' best networks (its pairs then lose
    // more than the slack in w's family and gain it back in v's).
    const bool tight = round % 2 == 1;
    const double eps = tight ? 2.0 + round % 3 : 1000.0;
    if (tight) {
      std::vector<std::size_t> perm(n);
      std::iota(perm.begin(), perm.end(), 0);
      double top = -INFINITY;
      do {
        std::vector<std::size_t> rank(n);
        for (std::size_t k = 0; k < n; ++k) rank[perm[k]] = k;
        bnsl::Choices h(n);
        for (std::size_t v = 0; v < n; ++v)
          for (std::uint32_t e = 0; e < cache.var(v).size(); ++e) {  // best first
            bool before = true;
            for (int u : cache.var(v).parents(e)) before = before && rank[u] < rank[v];
            if (before) {
              h[v] = e;
              break;
            }
          }
        if (sum_scores(cache, h) > top) {
          top = sum_scores(cache, h);
          g = h;
        }
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(eps), 1000000, false);
    pool.offer(0, bnsl::dag_hash(g), g);
    const auto c = bnsl::complete_neighbours(  // G's pairs (and neighbours) only
        cache, pool, [] { return false; }, {.max_expanded = 1, .climb = false, .members = false});
    std::set<bnsl::Choices> got;
    for (const auto& d : pool.snapshot()) {
      got.insert(d.choices);
      REQUIRE(acyclic(parents_of(d.choices)));
    }
    const double best = pool.best();
    for (std::size_t v = 0; v < n; ++v) {
      const double own = cache.var(v).score(g[v]);
      for (std::uint32_t i = 0; i < cache.var(v).size(); ++i) {
        if (!bnsl::clearly_greater(cache.var(v).score(i), own)) continue;
        bnsl::Choices h = g;
        h[v] = i;
        if (acyclic(parents_of(h))) continue;  // a single change
        for (int w : cache.var(v).parents(i))
          for (std::uint32_t j = 0; j < cache.var(w).size(); ++j) {
            bnsl::Choices k = h;
            k[w] = j;
            const double sc = sum_scores(cache, k);
            if (!acyclic(parents_of(k)) || sc < best - eps + 1e-9) continue;
            ++expected;
            tight_expected += tight;
            INFO("round " << round << ": v " << v << " w " << w);
            CHECK(got.count(k) == 1);
          }
      }
    }
    pairs += c.pairs;
  }
  CHECK(expected > 20);  // the pairs were exercised
  CHECK(tight_expected > 0);
  CHECK(pairs > 0);
}

// The member pass: the pool keeps one DAG of a class, and a class one family away from another
// member only is found by expanding that member. Variables a, b, c (0, 1, 2): G = a -> b and
// b -> a form one class; b -> a <- c is one family from b -> a (a's family becomes {b, c}) and
// two from G. Every score fits: G and b -> a score -28, b -> a <- c -28.5, the empty network
// -30 (epsilon 1).
TEST_CASE("neighbour completion expands the other members of a pooled class", "[pool]") {
  bnsl::ScoreCache cache(3);
  const auto add = [&](std::size_t v, double score, std::vector<int> ps) {
    cache.var(v).add(score, ps);
  };
  add(0, -10, {});
  add(0, -8, {1});
  add(0, -8.5, {1, 2});
  add(1, -10, {});
  add(1, -8, {0});
  add(2, -10, {});
  for (std::size_t v = 0; v < 3; ++v) cache.var(v).sort_best_first();
  const auto entry = [&](std::size_t v, std::vector<int> ps) {
    return static_cast<std::uint32_t>(cache.var(v).find(ps));
  };
  const bnsl::Choices g{entry(0, {}), entry(1, {0}), entry(2, {})};
  const bnsl::Choices target{entry(0, {1, 2}), entry(1, {}), entry(2, {})};
  bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(1.0), 100);
  pool.offer(sum_scores(cache, g), bnsl::dag_hash(g), g);
  const auto c = bnsl::complete_neighbours(cache, pool, [] { return false; },
                                           {.max_expanded = 100, .climb = false, .pairs = false});
  CHECK(c.members == 1);  // b -> a
  REQUIRE(pool.size() == 2);
  std::set<bnsl::Choices> got;
  for (const auto& d : pool.snapshot()) got.insert(d.choices);
  CHECK(got.count(target) == 1);
}

// With `climb`, the best climbs by family changes and arc reversals first and a neighbour
// better than every DAG before is walked next, whatever the cap: the walk from one DAG, capped
// at one expansion, ends at a local optimum of single-family changes and reversals (brute
// force: no acyclic one-family change or reversal of the pool's best scores higher), and its
// pool holds that best's one-family neighbours within epsilon.
TEST_CASE("neighbour completion climbs to a local optimum first", "[pool]") {
  const std::size_t n = 5;
  std::uint64_t climbed = 0, reversals = 0;
  for (int round = 0; round < 30; ++round) {
    std::mt19937_64 rng(900 + round);
    std::uniform_real_distribution<double> noise(-3.0, 3.0);
    bnsl::ScoreCache cache(n);
    for (std::size_t v = 0; v < n; ++v) {
      std::vector<std::vector<int>> sets{{}};
      for (int a = 0; a < static_cast<int>(n); ++a)
        if (a != static_cast<int>(v)) sets.push_back({a});
      for (const auto& ps : sets) cache.var(v).add(-0.5 * ps.size() + noise(rng), ps);
      cache.var(v).sort_best_first();
    }
    bnsl::Choices g(n);  // the empty network
    for (std::size_t v = 0; v < n; ++v) g[v] = static_cast<std::uint32_t>(cache.var(v).find({}));
    const double eps = 1.0;
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(eps), 100000, false);
    pool.offer(sum_scores(cache, g), bnsl::dag_hash(g), g);
    const auto c = bnsl::complete_neighbours(cache, pool, [] { return false; },
                                             {.max_expanded = 1, .members = false, .pairs = false});
    climbed += c.climbed + c.rises;
    const bnsl::Choices top = pool.best_choices();
    const double best = sum_scores(cache, top);
    std::set<bnsl::Choices> got;
    for (const auto& d : pool.snapshot()) got.insert(d.choices);
    const auto parents_of = [&](const bnsl::Choices& ch) { return choice_parents(cache, ch); };
    INFO("round " << round << ": " << c.climbed << " climbed, " << c.rises << " rises");
    for (std::size_t v = 0; v < n; ++v)
      for (std::uint32_t e = 0; e < cache.var(v).size(); ++e) {
        bnsl::Choices h = top;
        h[v] = e;
        if (!acyclic(parents_of(h))) continue;
        const double s = sum_scores(cache, h);
        CHECK_FALSE(bnsl::clearly_greater(s, best));  // a local optimum
        if (s >= best - eps + 1e-9) CHECK(got.count(h) == 1);
      }
    const bnsl::ParentSets parents = parents_of(top);
    for (std::size_t v = 0; v < n; ++v)
      for (const int u : parents[v]) {  // reversing u -> v: pa(v) - u, pa(u) + v
        std::vector<int> pv, pu = parents[static_cast<std::size_t>(u)];
        for (const int p : parents[v])
          if (p != u) pv.push_back(p);
        pu.push_back(static_cast<int>(v));
        std::sort(pu.begin(), pu.end());
        const long jv = cache.var(v).find(pv), ju = cache.var(static_cast<std::size_t>(u)).find(pu);
        if (jv < 0 || ju < 0) continue;
        bnsl::Choices h = top;
        h[v] = static_cast<std::uint32_t>(jv);
        h[static_cast<std::size_t>(u)] = static_cast<std::uint32_t>(ju);
        if (!acyclic(parents_of(h))) continue;
        CHECK_FALSE(bnsl::clearly_greater(sum_scores(cache, h), best));
        ++reversals;
      }
  }
  CHECK(climbed > 0);    // the climb was exercised
  CHECK(reversals > 0);  // and reversals were checked
}

// A pool too small for every class within epsilon, with score bands, keeps classes across
// the range instead of the best ones only. Two variables: v0's entries score 0, -0.01, ...,
// -0.29 (near the best), v1's 0 and -2.5, -2.51, ... (far). epsilon 3 in 4 bands of 0.75.
TEST_CASE("a full pool with score bands drops from its most populated band", "[pool]") {
  bnsl::ScoreCache cache(2);
  for (int k = 0; k < 30; ++k) cache.var(0).add(-0.01 * k, std::vector<int>{});
  cache.var(1).add(0, std::vector<int>{});
  for (int k = 0; k < 20; ++k) cache.var(1).add(-2.5 - 0.01 * k, std::vector<int>{});
  auto offer = [&](bnsl::DagPool& pool, std::uint32_t a, std::uint32_t b) {
    const bnsl::Choices ch{a, b};
    return pool.offer(0, bnsl::dag_hash(ch), ch);
  };
  auto fill = [&](bnsl::DagPool& pool) {
    for (std::uint32_t a = 0; a < 30; ++a) offer(pool, a, 0);   // band 0, the best first
    for (std::uint32_t b = 1; b <= 20; ++b) offer(pool, 0, b);  // band 3
  };
  SECTION("one band keeps the best 8") {
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(3), 8, false, 1);
    fill(pool);
    const auto snap = pool.snapshot();
    REQUIRE(snap.size() == 8);
    CHECK(pool.truncated());
    for (std::size_t i = 0; i < 8; ++i) CHECK(snap[i].score == Approx(-0.01 * i).margin(1e-12));
  }
  SECTION("four bands keep the best 4 of each populated band") {
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(3), 8, false, 4);
    fill(pool);
    const auto snap = pool.snapshot();
    REQUIRE(snap.size() == 8);
    CHECK(pool.truncated());
    CHECK(pool.band_counts() == std::vector<std::size_t>{4, 0, 0, 4});
    for (std::size_t i = 0; i < 4; ++i) {
      CHECK(snap[i].score == Approx(-0.01 * i).margin(1e-12));
      CHECK(snap[4 + i].score == Approx(-2.5 - 0.01 * i).margin(1e-12));
    }
    // The band thresholds: band 0 and 3 are full (a class there must beat their worst).
    CHECK(!pool.may_accept(-0.035));
    CHECK(pool.may_accept(-0.025));
    CHECK(pool.may_accept(-1.0));   // band 1: band 3 would give its worst
    CHECK(!pool.may_accept(-3.1));  // below epsilon
    // A new best shifts the bands (floor -2.8: no class leaves) and takes band 0's worst's place.
    cache.var(0).add(0.2, std::vector<int>{});
    REQUIRE(offer(pool, 30, 0));
    CHECK(pool.best() == Approx(0.2));
    CHECK(pool.size() == 8);
    CHECK(pool.band_counts() == std::vector<std::size_t>{4, 0, 0, 4});
    CHECK(pool.snapshot()[3].score == Approx(-0.02).margin(1e-12));
  }
  SECTION("room for all: bands change nothing") {
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(3), 100, false, 4);
    fill(pool);
    CHECK(pool.size() == 50);
    CHECK(!pool.truncated());
    CHECK(pool.band_counts() == std::vector<std::size_t>{30, 0, 0, 20});
  }
}

// Random offers to a small banded pool: whatever the order, the pool holds distinct DAGs
// within epsilon including the best offered, its band counts match its scores, and it is
// exactly the set within epsilon unless it reports truncation at full size.
TEST_CASE("a banded pool keeps its invariants under random offers", "[pool]") {
  for (int round = 0; round < 4; ++round) {
    auto cache = random_cache(4, 6, 2, 300 + round);
    const double eps = 4.0;
    const std::size_t cap = 10, bands = 4;
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(eps), cap, false, bands);
    std::mt19937_64 rng(round);
    std::map<bnsl::Choices, double> offered;
    for (int t = 0; t < 400; ++t) {
      const bnsl::Choices ch = random_choices(cache, rng);
      const double s = sum_scores(cache, ch);
      offered[ch] = s;
      pool.offer(s, bnsl::dag_hash(ch), ch);
      double best = -INFINITY;
      bnsl::Choices best_ch;
      for (auto& [c, sc] : offered)
        if (sc > best) best = sc, best_ch = c;
      const double floor = best - eps - bnsl::score_tolerance(best, best - eps);
      std::set<bnsl::Choices> within, got;
      for (auto& [c, sc] : offered)
        if (sc >= floor) within.insert(c);
      std::vector<std::size_t> counts(bands, 0);
      for (auto& d : pool.snapshot()) {
        REQUIRE(got.insert(d.choices).second);
        REQUIRE(within.count(d.choices));
        const double x = (best - d.score) / (eps / bands);
        ++counts[std::min<std::size_t>(bands - 1, static_cast<std::size_t>(std::max(0.0, x)))];
      }
      REQUIRE(got.count(best_ch));
      REQUIRE(pool.band_counts() == counts);  // no score lies on a band edge here
      if (got != within) {
        REQUIRE(pool.truncated());
        REQUIRE(got.size() == cap);
      }
    }
  }
}

// `bnsl merge` caps its pool with banded_selection, which must keep what a search's full pool
// keeps when the same classes are offered best first: 512 DAGs of random scores (3 variables,
// 8 entries each, no parents, so every choice is a DAG of its own), every capacity and band
// count below.
TEST_CASE("banded selection keeps what a full banded pool keeps", "[pool]") {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> score(-2.0, 0.0);
  bnsl::ScoreCache cache(3);
  for (std::size_t v = 0; v < 3; ++v) {
    for (int k = 0; k < 8; ++k) cache.var(v).add(score(rng), std::vector<int>{});
    cache.var(v).sort_best_first();
  }
  std::vector<std::pair<double, bnsl::Choices>> all;
  for (std::uint32_t a = 0; a < 8; ++a)
    for (std::uint32_t b = 0; b < 8; ++b)
      for (std::uint32_t c = 0; c < 8; ++c) {
        const bnsl::Choices ch{a, b, c};
        all.push_back({bnsl::dag_score(cache, ch), ch});
      }
  std::sort(all.begin(), all.end(), [](auto& x, auto& y) { return x.first > y.first; });
  const double eps = 2.5;
  const double floor = all[0].first - eps - bnsl::score_tolerance(all[0].first, all[0].first - eps);
  std::vector<double> scores;
  for (const auto& [s, ch] : all)
    if (s >= floor) scores.push_back(s);
  REQUIRE(scores.size() > 100);
  for (std::size_t bands : {1ul, 3ul, 16ul})
    for (std::size_t cap : {1ul, 7ul, 40ul, 100ul, scores.size()}) {
      bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(eps), cap, false, bands);
      for (const auto& [s, ch] : all) pool.offer(s, bnsl::dag_hash(ch), ch);
      std::set<bnsl::Choices> kept, selected;
      for (const auto& d : pool.snapshot()) kept.insert(d.choices);
      for (const std::size_t i : bnsl::banded_selection(scores, eps, cap, bands))
        selected.insert(all[i].second);
      INFO(bands << " bands, capacity " << cap);
      CHECK(selected.size() == std::min(cap, scores.size()));
      CHECK(selected == kept);
    }
}

TEST_CASE("the pool dedupes exactly when distinct DAGs share a 64-bit hash", "[pool]") {
  // Every DAG is offered under the same hash: the pool must tell them apart by their choices,
  // keep each once, and keep deduping after the first DAG of the hash is trimmed away.
  auto cache = random_cache(4, 6, 2, 7);
  std::mt19937_64 rng(3);
  std::map<bnsl::Choices, double> offered;
  bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(1.5), 1000, false);
  for (int t = 0; t < 300; ++t) {
    const bnsl::Choices ch = random_choices(cache, rng);
    const double s = sum_scores(cache, ch);
    const bool fresh = offered.emplace(ch, s).second;
    const bool admitted = pool.offer(s, 42, ch);
    double best = -INFINITY;
    for (auto& [c, sc] : offered) best = std::max(best, sc);
    const double floor = best - 1.5 - bnsl::score_tolerance(best, best - 1.5);
    if (!fresh) REQUIRE(!admitted);
    std::set<bnsl::Choices> expect, got;
    for (auto& [c, sc] : offered)
      if (sc >= floor) expect.insert(c);
    for (auto& d : pool.snapshot()) REQUIRE(got.insert(d.choices).second);
    REQUIRE(got == expect);
  }
}

TEST_CASE("pool capacity: the DAG cap, and the cell cap with its floor", "[pool]") {
  bnsl::SearchOptions o;
  o.classes = false;                      // random caches are not score equivalent
  CHECK(o.pool_capacity(37) == 100000);   // 10M / 37 > 100,000
  CHECK(o.pool_capacity(1041) == 9606);   // munin
  CHECK(o.pool_capacity(50000) == 1000);  // never fewer than 1,000
  o.pool_max = 500;
  CHECK(o.pool_capacity(50000) == 500);  // an explicit smaller cap wins
  o.pool_max = 200000;
  o.pool_max_cells = 0;
  CHECK(o.pool_capacity(1041) == 200000);  // no cell cap
}

TEST_CASE("the pool keeps distinct DAGs within epsilon, re-trims, and caps", "[pool]") {
  auto cache = random_cache(4, 6, 2, 99);
  bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(2.0), 3, false);
  std::mt19937_64 rng(5);
  std::map<bnsl::Choices, double> offered;
  for (int t = 0; t < 400; ++t) {
    const bnsl::Choices ch = random_choices(cache, rng);
    const double s = sum_scores(cache, ch);
    offered[ch] = s;
    pool.offer(s, bnsl::dag_hash(ch), ch);
    // Expected: the best min(3, #within eps) distinct offered so far.
    std::vector<std::pair<double, bnsl::Choices>> all;
    double best = -INFINITY;
    for (auto& [c, sc] : offered) best = std::max(best, sc);
    for (auto& [c, sc] : offered)
      if (sc >= best - 2.0 - bnsl::score_tolerance(best, best - 2.0)) all.push_back({sc, c});
    std::sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.first > b.first; });
    auto snap = pool.snapshot();
    REQUIRE(snap.size() == std::min<std::size_t>(3, all.size()));
    for (std::size_t i = 0; i < snap.size(); ++i) {
      REQUIRE(snap[i].score == Approx(all[i].first).epsilon(1e-12));
      if (i) REQUIRE(snap[i - 1].score >= snap[i].score);
    }
    REQUIRE(pool.best() == Approx(best).epsilon(1e-12));
  }
}

// A rise of the best trims only the classes it leaves more than epsilon below, re-bands the
// others, and counts what it trimmed; a class turned away for room comes in when a rise has made
// room. Eight variables, v0 the child of one other or none (eight classes: their skeletons
// differ), the others parentless. epsilon 3 in 2 bands, room for 5 classes.
TEST_CASE("a rise of the best keeps what is still within epsilon, and makes room", "[pool]") {
  bnsl::ScoreCache cache(8);
  // v0's entries, best first: its parent (-1: none) and score.
  const std::vector<std::pair<int, double>> entries{{6, 0.5},  {-1, 0.0}, {1, -0.2}, {2, -0.4},
                                                    {5, -0.6}, {4, -2.7}, {3, -2.9}};
  for (const auto& [p, score] : entries)
    cache.var(0).add(score, p < 0 ? std::vector<int>{} : std::vector<int>{p});
  for (std::size_t v = 1; v < 8; ++v) cache.var(v).add(0, std::vector<int>{});
  enum : std::uint32_t { E, A, B, C, X, F, D };
  auto offer = [&](bnsl::DagPool& pool, std::uint32_t e) {
    bnsl::Choices ch(8, 0);
    ch[0] = e;
    return pool.offer(0, bnsl::dag_hash(ch), ch);
  };
  bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(3), 5, true, 2);
  for (const std::uint32_t e : {A, B, C, D, F}) REQUIRE(offer(pool, e));
  CHECK(pool.band_counts() == std::vector<std::size_t>{3, 2});
  // Band 0 (-1.5, 0] is the most populated, and X its worst: turned away.
  CHECK(!offer(pool, X));
  CHECK(pool.losses().for_room == 1);
  // The best rises by 0.5: D and F fall below 0.5 - 3, the rest stay, all now in band 0.
  REQUIRE(offer(pool, E));
  CHECK(pool.size() == 4);
  CHECK(pool.band_counts() == std::vector<std::size_t>{4, 0});
  const bnsl::DagPool::Losses losses = pool.losses();
  CHECK(losses.left_epsilon == 2);
  CHECK(losses.last_trimmed == 2);
  CHECK(losses.last_rise == Approx(0.5));
  // X, within epsilon of the new best, is admitted now that there is room.
  REQUIRE(offer(pool, X));
  CHECK(pool.size() == 5);
  CHECK(pool.band_counts() == std::vector<std::size_t>{5, 0});
  CHECK(pool.inserted() == 7);
}

TEST_CASE("a pool's sample spreads evenly over its classes, best first", "[pool]") {
  auto cache = random_cache(6, 6, 2, 17);
  bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(30.0), 1000, false);
  offer_random_dags(cache, pool, 300, 3);
  const auto snap = pool.snapshot();
  REQUIRE(snap.size() >= 10);
  CHECK(pool.sample(0).empty());
  for (std::size_t count : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7},
                            snap.size() - 1, snap.size(), snap.size() + 5}) {
    const auto sample = pool.sample(count);
    const std::size_t m = std::min(count, snap.size());
    REQUIRE(sample.size() == m);
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t rank = m == 1 ? 0 : i * (snap.size() - 1) / (m - 1);
      CHECK(sample[i].score == snap[rank].score);
      CHECK(sample[i].hash == snap[rank].hash);
      CHECK(sample[i].choices == snap[rank].choices);
    }
  }
}

TEST_CASE("the search's report of pooled DAGs, and the measured cost of a report", "[search]") {
  auto cache = random_cache(10, 6, 2, 23);
  bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(40.0), 1000);
  offer_random_dags(cache, pool, 400, 9);
  const auto snap = pool.snapshot();
  REQUIRE(snap.size() >= 16);
  bnsl::SearchOptions o;
  SECTION("classes: one per pooled DAG, their members listed up to the cap") {
    const bnsl::PoolReport r = bnsl::make_report(cache, snap, o, 25);
    REQUIRE(r.classes.size() == snap.size());
    for (std::size_t i = 0; i < snap.size(); ++i) {
      CHECK(r.classes[i].score == snap[i].score);
      CHECK(r.classes[i].dag == choice_parents(cache, snap[i].choices));
    }
    CHECK(r.dags.size() == 25);
    for (const auto& d : r.dags) {
      REQUIRE(d.mec >= 0);
      CHECK(d.score == r.classes[static_cast<std::size_t>(d.mec)].score);
      CHECK(acyclic(d.parents));
    }
  }
  SECTION("without classes: the pooled DAGs themselves") {
    o.classes = false;
    const bnsl::PoolReport r = bnsl::make_report(cache, snap, o, 25);
    CHECK(r.classes.empty());
    REQUIRE(r.dags.size() == snap.size());
    for (std::size_t i = 0; i < snap.size(); ++i)
      CHECK(r.dags[i].parents == choice_parents(cache, snap[i].choices));
  }
  SECTION("rates need a sample of 16 classes, or all the cells allow; sizes any") {
    const bnsl::ReportCost guess;
    const bnsl::ReportCost cost = bnsl::measure_report_cost(cache, pool, o);
    CHECK(cost.measurements == 1);
    CHECK((cost.class_cell > 0 && std::isfinite(cost.class_cell)));
    CHECK((cost.dag_cell > 0 && std::isfinite(cost.dag_cell)));
    CHECK(cost.seconds(2, 3, 10) ==
          Approx((2 * cost.class_cell + 3 * cost.dag_cell) * 10).epsilon(1e-12));
    bnsl::DagPool few(cache, bnsl::Epsilon::epsilon(40.0), 15);
    for (const auto& d : snap) few.offer(d.score, d.hash, d.choices);
    REQUIRE(few.size() == 15);
    const bnsl::ReportCost none = bnsl::measure_report_cost(cache, few, o);
    CHECK(none.measurements == 0);
    CHECK(none.class_cell == guess.class_cell);
    CHECK(none.dag_cell == guess.dag_cell);
    // ... but the classes' sizes: each class's members, enumerated by covered-arc reversals.
    double members = 0;
    for (const auto& d : few.snapshot())
      members += static_cast<double>(
          bnsl::class_members(choice_parents(cache, d.choices), 1'000'000).size());
    CHECK(none.members_per_class == Approx(members / 15).epsilon(1e-9));
    // search.report_min_sample 15: then 15 classes give the rates too.
    bnsl::SearchOptions fifteen = o;
    fifteen.tune.report_min_sample = 15;
    CHECK(bnsl::measure_report_cost(cache, few, fifteen).measurements == 1);
    // Cells for 5 classes of 10 variables: 15 classes are a full sample.
    o.tune.report_sample_cells = 50;
    CHECK(bnsl::measure_report_cost(cache, few, o).measurements == 1);
    bnsl::DagPool empty(cache, bnsl::Epsilon::epsilon(40.0), 15);
    const bnsl::ReportCost nothing = bnsl::measure_report_cost(cache, empty, o);
    CHECK(nothing.measurements == 0);
    CHECK(nothing.members_per_class == 0);
  }
}

TEST_CASE("search pools satisfy the invariants on random caches", "[search]") {
  for (int round = 0; round < 12; ++round) {
    const std::size_t n = 8 + 3 * round;
    auto cache = random_cache(n, 12, 3, 5000 + round);
    bnsl::SearchOptions o;
    o.classes = false;  // random caches are not score equivalent
    o.algo = round % 2 ? bnsl::SearchAlgo::obs : bnsl::SearchAlgo::asobs;
    o.threads = 1 + round % 2;
    o.seed = round;
    const bool factor = round % 3 == 2;  // epsilon = (rho - 1) |best|
    o.epsilon = factor ? bnsl::Epsilon::factor(1.002) : bnsl::Epsilon::epsilon(3.0);
    o.max_restarts = 5;
    o.perturb_tries = 5;
    o.pool_max = 5000;
    o.time = 20;
    o.dp_max_n = 0;  // the chains, not the exact DP
    bnsl::StopToken stop;
    bnsl::SearchStats stats;
    auto r = bnsl::search(cache, o, stop, &stats);
    const double eps = factor ? 0.002 * std::fabs(r.dags.front().score) : 3.0;
    REQUIRE(oracle::close_rel(r.epsilon, eps, 1e-12));
    check_pool(cache, r, eps);
    REQUIRE(stats.pool_size == r.dags.size());
    REQUIRE(stats.restarts == 5);
  }
}

// Mode 0 (the default for n <= 7) enumerates every order, so the pool must be exact. Mode 1
// (local search only) must find the optimum and only DAGs within epsilon of it.
TEST_CASE("on tiny caches the pool is exactly the brute-force set within epsilon", "[search]") {
  for (int round = 0; round < 16; ++round) {
    const std::size_t n = 2 + round % 4;  // 2..5 variables
    const double eps = round % 3 == 0 ? std::log(20.0) : 6.0;
    auto cache = tiny_cache(n, 6000 + round, eps);
    const auto expect = brute_force_pool(cache, eps);
    for (int mode = 0; mode < 2; ++mode) {
      bnsl::SearchOptions o;
      o.classes = false;  // random caches are not score equivalent
      o.epsilon = bnsl::Epsilon::epsilon(eps);
      o.threads = 1;
      o.time = 30;
      o.exhaustive_max_n = mode == 0 ? 7 : 0;  // all orders / local search only
      o.dp_max_n = 0;
      o.max_restarts = 200;
      bnsl::StopToken stop;
      auto r = bnsl::search(cache, o, stop);
      check_pool(cache, r, eps);
      const auto got = as_map(r);
      INFO("n = " << n << ", mode " << mode << ", expect " << expect.size() << " got "
                  << got.size());
      double best = -INFINITY;
      for (auto& [g, s] : expect) best = std::max(best, s);
      REQUIRE(oracle::close_rel(r.dags.front().score, best, 1e-9));
      for (auto& [g, s] : got) REQUIRE(expect.count(g) == 1);  // within eps of the optimum
      if (mode == 1) continue;  // local search alone: a heuristic, complete only by luck
      REQUIRE(r.optimal);
      REQUIRE(r.complete);
      REQUIRE(got.size() == expect.size());
    }
  }
}

// Under a time limit the chains of a tiny problem meet every DAG they will meet within
// milliseconds and then admit nothing: the stall rule (src/search/driver.cpp) stops them after
// search.stall_min_seconds, completes the pool, and resumes them; the completion runs again at the
// end. The pool stays within epsilon of the optimum and valid through both rounds.
TEST_CASE("a stalled search completes its pool before the end, then resumes", "[search]") {
  for (int threads = 1; threads <= 2; ++threads) {
    const double eps = 6.0;
    auto cache = tiny_cache(5, 6100 + threads, eps);
    const auto expect = brute_force_pool(cache, eps);
    bnsl::SearchOptions o;
    o.classes = false;  // random caches are not score equivalent
    o.epsilon = bnsl::Epsilon::epsilon(eps);
    o.threads = threads;
    o.time = 2.5;
    o.exhaustive_max_n = 0;  // the chains, not all orders or the DP
    o.dp_max_n = 0;
    bnsl::StopToken stop;
    bnsl::SearchStats stats;
    auto r = bnsl::search(cache, o, stop, &stats);
    check_pool(cache, r, eps);
    REQUIRE(stats.completion_runs == 2 + stats.resumes);  // resumes: after the walk at the end
    double best = -INFINITY;
    for (auto& [g, s] : expect) best = std::max(best, s);
    REQUIRE(oracle::close_rel(r.dags.front().score, best, 1e-9));
    for (auto& [g, s] : as_map(r)) REQUIRE(expect.count(g) == 1);
  }
}

// A search round (SearchOptions::plateau) ends when its best stops rising, long before its time,
// with the best network it would have reported at the end: on a tiny cache the chains reach
// the optimum at once, and the round ends after the plateau's window: at most plateau_seconds,
// and with those far longer than the round, plateau_climbs climbs of a chain (microseconds
// each here) or plateau_min_seconds.
TEST_CASE("a search round ends at its plateau with the best network", "[search]") {
  const double eps = 6.0;
  auto cache = tiny_cache(5, 6300, eps);
  const auto expect = brute_force_pool(cache, eps);
  double best = -INFINITY;
  for (auto& [g, s] : expect) best = std::max(best, s);
  bnsl::SearchOptions o;
  o.classes = false;
  o.epsilon = bnsl::Epsilon::epsilon(eps);
  o.threads = 2;
  o.time = 60;
  o.exhaustive_max_n = 0;
  o.dp_max_n = 0;
  o.complete_classes = false;
  o.plateau = 1e-4;
  for (const double window : {0.3, 1000.0}) {
    o.tune.plateau_seconds = window;
    bnsl::StopToken stop;
    auto r = bnsl::search(cache, o, stop);
    INFO("plateau_seconds " << window);
    REQUIRE(!r.dags.empty());
    CHECK(oracle::close_rel(r.dags.front().score, best, 1e-9));
    CHECK(stop.elapsed() < o.time / 2);  // it ended at the plateau, not at its time
  }
}

// The best rises in the search's last moments: the first checkpoint (the seed network's, before
// any chain starts) lasts until the chains' share of the budget is spent, so no chain climbs and
// the best rises in the neighbour walk's climb from the seed network, after the chains. The walk
// still runs around that final best with its share of the time, finishes, and fills the pool to
// what brute force finds within epsilon; the report's account says so.
TEST_CASE("a best found in the search's last moments still gets the walk around it", "[search]") {
  const double eps = 6.0, budget = 6.0;
  int cases = 0;
  for (std::uint64_t seed = 6200; seed < 6240 && cases < 2; ++seed) {
    auto cache = tiny_cache(5, seed, eps);
    const auto expect = brute_force_pool(cache, eps);
    double best = -INFINITY;
    for (auto& [g, s] : expect) best = std::max(best, s);
    // The seed network (the identity order's OBS network) must lie below the optimum.
    const std::vector<int> identity{0, 1, 2, 3, 4};
    if (!(sum_scores(cache, literal_obs(cache, identity)) < best - 1e-6)) continue;
    ++cases;
    bnsl::SearchOptions o;
    o.classes = false;  // every DAG within epsilon, compared with brute force
    o.epsilon = bnsl::Epsilon::epsilon(eps);
    o.threads = 1;
    o.time = budget;
    o.exhaustive_max_n = 0;  // the chains, not all orders or the DP
    o.dp_max_n = 0;
    o.greedy_start = false;
    o.pool_max = 1000;    // a report's reserve of a few milliseconds
    o.checkpoint = 1000;  // the first checkpoint only
    const auto start = std::chrono::steady_clock::now();
    // The chains stop 5% of the budget (the walk's share) and the report's reserve before the
    // deadline: the checkpoint returns within that last 5%.
    const auto spent = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(0.96 * budget));
    bool first = true;
    bnsl::StopToken stop;
    bnsl::SearchStats stats;
    auto r = bnsl::search(cache, o, stop, &stats, [&](bnsl::PoolReport&) {
      if (std::exchange(first, false)) std::this_thread::sleep_until(spent);
    });
    INFO("seed " << seed << ", expect " << expect.size() << " got " << r.dags.size());
    CHECK(stats.local_optima == 0);                           // no chain climbed
    CHECK(stats.climb_changes + stats.neighbours_rises > 0);  // the best rose in the walk
    REQUIRE(stats.account.walk_finished);
    CHECK(stats.account.walk_seconds > 0);
    check_pool(cache, r, eps);
    REQUIRE(oracle::close_rel(r.dags.front().score, best, 1e-9));
    REQUIRE(as_map(r) == expect);
    REQUIRE(r.account);
    CHECK(r.account->within == r.classes.size());
    CHECK(r.account->walk_finished);
    CHECK(r.account->note.empty());
  }
  REQUIRE(cases == 2);
}

// A checkpoint runs on the monitor's thread while the chains run, and the walk after them
// waits for it. Here each checkpoint takes 1 s (the test's callback sleeps), every 0.25 s of a
// 3 s budget: one that would end after the chains' end is skipped, the chains stop by their
// end themselves, and the walk has its share (before, the monitor sat in a checkpoint until
// past the deadline while the chains ran on, and the walk was stopped at once).
TEST_CASE("a checkpoint that would delay the walk is skipped", "[search]") {
  const double eps = 6.0;
  auto cache = tiny_cache(5, 6150, eps);
  const auto expect = brute_force_pool(cache, eps);
  bnsl::SearchOptions o;
  o.classes = false;
  o.epsilon = bnsl::Epsilon::epsilon(eps);
  o.threads = 2;
  o.time = 3;
  o.exhaustive_max_n = 0;
  o.dp_max_n = 0;
  o.pool_max = 1000;
  o.checkpoint = 0.25;
  int written = 0;
  bnsl::StopToken stop;
  bnsl::SearchStats stats;
  auto r = bnsl::search(cache, o, stop, &stats, [&](bnsl::PoolReport& snap) {
    check_pool(cache, snap, eps);
    ++written;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  });
  CHECK(written >= 1);
  CHECK(stats.checkpoints_skipped >= 1);
  REQUIRE(stats.account.walk_finished);
  check_pool(cache, r, eps);
  REQUIRE(as_map(r) == expect);
}

// A search whose deadline leaves no time for the report of its whole pool (all orders of 10
// variables, millions of them, stopped after 0.3 s) summarizes by the report's own clock: the
// best class always, the classes it had no time for cut with their DAGs, counted, and the
// report not complete.
TEST_CASE("the final report keeps the best classes its summary had time for", "[search]") {
  auto cache = random_cache(10, 12, 3, 4242);
  bnsl::SearchOptions o;
  o.classes = false;  // random caches are not score equivalent
  o.threads = 1;
  o.time = 0.3;
  o.exhaustive_max_n = 10;
  o.dp_max_n = 0;
  o.pool_max = 100000;
  o.epsilon = bnsl::Epsilon::epsilon(40.0);
  bnsl::StopToken stop;
  bnsl::SearchStats stats;
  auto r = bnsl::search(cache, o, stop, &stats);
  REQUIRE(stats.pool_size > 1);
  REQUIRE(stats.report_classes_cut > 0);
  REQUIRE(r.mec_count == static_cast<int>(r.classes.size()));
  REQUIRE(!r.classes.empty());
  REQUIRE(!r.complete);
  REQUIRE(!r.optimal);
  check_pool(cache, r, 40.0);
  for (const auto& d : r.dags) REQUIRE(d.mec < r.mec_count);
  for (std::size_t i = 1; i < r.dags.size(); ++i) REQUIRE(r.dags[i - 1].score >= r.dags[i].score);
}

TEST_CASE("same seed and one thread give the same pool", "[search]") {
  auto cache = random_cache(25, 15, 3, 77);
  auto run = [&](std::uint64_t seed) {
    bnsl::SearchOptions o;
    o.classes = false;  // random caches are not score equivalent
    o.threads = 1;
    o.seed = seed;
    o.max_restarts = 8;
    o.perturb_tries = 4;
    o.pool_max = 5000;
    o.epsilon = bnsl::Epsilon::epsilon(4.0);
    bnsl::StopToken stop;
    return as_map(bnsl::search(cache, o, stop));
  };
  const auto a = run(42), b = run(42);
  REQUIRE(a == b);
  REQUIRE(!a.empty());
}

TEST_CASE("a search stopped at once still returns a network", "[search]") {
  auto cache = random_cache(30, 10, 3, 123);
  bnsl::SearchOptions o;
  o.classes = false;  // random caches are not score equivalent
  o.threads = 2;
  bnsl::StopToken stop;
  stop.request_stop();
  auto r = bnsl::search(cache, o, stop);
  REQUIRE(r.dags.size() >= 1);
  check_pool(cache, r, o.epsilon.resolve(0));
}

TEST_CASE("checkpoints deliver valid snapshots while the search runs", "[search]") {
  auto cache = random_cache(40, 10, 3, 321);
  bnsl::SearchOptions o;
  o.classes = false;  // random caches are not score equivalent
  o.threads = 2;
  // No deadline: the chains run until the third snapshot stops them, however slow the machine
  // (with o.time = 3, a loaded CI machine once wrote only the seed network's snapshot).
  o.checkpoint = 0.25;
  o.epsilon = bnsl::Epsilon::epsilon(2.0);
  int calls = 0;
  bnsl::StopToken stop;
  auto r = bnsl::search(cache, o, stop, nullptr, [&](bnsl::PoolReport& snap) {
    ++calls;
    check_pool(cache, snap, 2.0);
    if (calls >= 3) stop.request_stop();
  });
  REQUIRE(calls >= 3);
  check_pool(cache, r, 2.0);
}

// A trap of the shape pigs' pedigrees set (bench/JOURNAL.md): the optimum a -> c <- b, c -> d,
// and a local optimum that reverses the collider (c -> a, c -> b, a -> b) by 16 units. From an
// order c, d, a, b no adjacent swap and no single insertion improves (moving c behind a and b
// also takes it behind its child d; moving a or b in front of c alone loses), but pulling c's
// better parents a, b in front of it does. Every climb, from any start, must reach the optimum.
TEST_CASE("a climb leaves a reversed collider by pulling both parents", "[search]") {
  enum { c, d, a, b };  // the identity order (seeding the pool without greedy_start) is the trap
  bnsl::ScoreCache cache(4);
  cache.var(a).add(-4310, std::vector<int>{c});
  cache.var(a).add(-5190, std::vector<int>{});
  cache.var(b).add(-3987, std::vector<int>{a, c});
  cache.var(b).add(-5206, std::vector<int>{});
  cache.var(c).add(-3112, std::vector<int>{a, b});
  cache.var(c).add(-5227, std::vector<int>{});
  cache.var(d).add(-3000, std::vector<int>{c});
  cache.var(d).add(-5000, std::vector<int>{});
  for (std::size_t v = 0; v < 4; ++v) cache.var(v).sort_best_first();
  const auto all = brute_force_pool(cache, 0.0);
  REQUIRE(all.size() == 1);
  const double optimum = all.begin()->second;
  REQUIRE(optimum == -5190 - 5206 - 3112 - 3000);
  for (auto algo : {bnsl::SearchAlgo::asobs, bnsl::SearchAlgo::obs})
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      bnsl::SearchOptions o;
      o.classes = false;  // random caches are not score equivalent
      o.algo = algo;
      o.seed = seed;
      o.epsilon = bnsl::Epsilon::epsilon(0.0);
      o.exhaustive_max_n = 0;  // local search only
      o.dp_max_n = 0;
      o.max_restarts = 1;  // one climb from one random order ...
      o.greedy_start = false;
      o.perturb_tries = 0;  // ... and no perturbation
      o.enumerate = false;
      bnsl::StopToken stop;
      auto r = bnsl::search(cache, o, stop);
      INFO("seed " << seed << ", " << bnsl::to_string(algo));
      REQUIRE(r.dags.front().score == optimum);
    }
}

// For dp_max_n >= n the search is exact mode's subset DP and sink enumeration; checked against
// the enumeration of every order (exhaustive_max_n), an independent exact method: the same
// DAGs, optimal and complete; and with a pool too small for them all, the best ones, as many
// as it holds.
TEST_CASE("small problems are solved exactly by the DP: the pool equals all orders' pool",
          "[search]") {
  for (int round = 0; round < 6; ++round) {
    const std::size_t n = 8 + round % 2;
    auto cache = random_cache(n, 6, 3, 9100 + round);
    const double eps = round < 3 ? 3.0 : 8.0;
    auto solve = [&](int exhaustive_max_n, std::size_t pool_max) {
      bnsl::SearchOptions o;
      o.classes = false;  // random caches are not score equivalent
      o.epsilon = bnsl::Epsilon::epsilon(eps);
      o.exhaustive_max_n = exhaustive_max_n;
      o.pool_max = pool_max;
      bnsl::StopToken stop;
      return bnsl::search(cache, o, stop);
    };
    const auto orders = solve(static_cast<int>(n), 100000);
    const auto dp = solve(0, 100000);
    INFO("round " << round << ": " << orders.dags.size() << " DAGs by all orders, "
                  << dp.dags.size() << " by the DP");
    check_pool(cache, dp, eps);
    REQUIRE(orders.optimal);
    REQUIRE(orders.complete);
    REQUIRE(dp.optimal);
    REQUIRE(dp.complete);
    REQUIRE(as_map(dp) == as_map(orders));
    const std::size_t small = std::max<std::size_t>(1, orders.dags.size() / 3);
    if (orders.dags.size() < 3) continue;
    const auto capped = solve(0, small);
    check_pool(cache, capped, eps);
    REQUIRE(capped.optimal);
    REQUIRE(!capped.complete);
    REQUIRE(capped.dags.size() == small);  // the list is at most 3 pools: offered whole
    for (std::size_t i = 0; i < capped.dags.size(); ++i)  // the best of the full list
      REQUIRE(oracle::close_rel(capped.dags[i].score, orders.dags[i].score, 1e-12));
  }
}

// The DP runs only when the time left covers twice its estimate: a stopped DP has no answer,
// so with less the ordering search runs instead and still returns a valid network.
TEST_CASE("the DP gives way to the chains when the budget cannot cover it", "[search]") {
  const std::size_t n = 20;
  const auto cache = random_cache(n, 6, 3, 9300);
  REQUIRE(bnsl::dp_seconds_estimate(static_cast<int>(n)) > 0.25);
  auto solve = [&](double time) {
    bnsl::SearchOptions o;
    o.classes = false;  // random caches are not score equivalent
    o.epsilon = bnsl::Epsilon::epsilon(2.0);
    o.time = time;
    o.threads = 1;
    bnsl::StopToken stop;
    return bnsl::search(cache, o, stop);
  };
  const auto exact = solve(0);  // no deadline: the DP
  REQUIRE(exact.algorithm == "dp");
  REQUIRE(exact.optimal);
  const auto chains = solve(0.2);
  REQUIRE(chains.algorithm != "dp");
  REQUIRE(!chains.optimal);
  REQUIRE(!chains.dags.empty());
  check_pool(cache, chains, 2.0);
  REQUIRE(chains.dags.front().score <= exact.dags.front().score + 1e-9);
}

// The greedy network (search/greedy_dag.cpp) on random caches of up to 300 variables: it is
// acyclic, its order is topological, its score is the sum of its entries, and it is a local
// optimum: every entry of a variable better than its chosen one closes a cycle with the
// others' choices (checked by a depth-first search here). Its order seeds the search, whose
// OBS network on that order scores at least as much.
TEST_CASE("greedy network: acyclic, topologically ordered, locally optimal", "[search]") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::size_t n = seed % 3 == 0 ? 300 : 5 + seed % 17;
    const bnsl::ScoreCache cache = random_cache(n, 12, 3, seed);
    const bnsl::GreedyDagResult g = bnsl::greedy_dag(cache, {});
    INFO("seed " << seed << ", n " << n);
    REQUIRE(g.choices.size() == n);
    REQUIRE(!g.stopped);
    Parents parents(n);
    double sum = 0;
    for (std::size_t v = 0; v < n; ++v) {
      parents[v] = entry_parents(cache, v, g.choices[v]);
      sum += cache.var(v).score(g.choices[v]);
    }
    REQUIRE(acyclic(parents));
    CHECK(g.score == Approx(sum).epsilon(1e-12));
    std::vector<int> pos(n, -1);
    REQUIRE(g.order.size() == n);
    for (std::size_t i = 0; i < n; ++i) pos[g.order[i]] = static_cast<int>(i);
    for (std::size_t v = 0; v < n; ++v) {
      REQUIRE(pos[v] >= 0);
      for (int p : parents[v]) REQUIRE(pos[p] < pos[v]);
    }
    // Local optimality: v reaches (through the chosen arcs) some parent of every better entry.
    CHECK(oracle::no_better_acyclic_family(cache, g.choices));
    bnsl::ObsState obs(cache);
    obs.set_order(g.order);
    CHECK(obs.score() >= g.score - 1e-9 * std::fabs(g.score));
  }
}

// ObsState::move (obs.cpp) jumps over nodes unrelated to the moved one and swaps past the
// related ones: after every move, the network equals OBS recomputed from scratch on the new
// order, and the other nodes keep their relative order.
TEST_CASE("OBS: long moves by jumps and swaps keep the exact OBS network", "[search]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::size_t n = 10 + seed * 7;
    const bnsl::ScoreCache cache = random_cache(n, 6, 3, seed);
    std::mt19937_64 rng(seed);
    bnsl::ObsState obs(cache);
    obs.set_order(random_order(n, rng));
    for (int t = 0; t < 60; ++t) {
      const int v = static_cast<int>(rng() % n);
      const std::size_t to = rng() % n;
      std::vector<int> others;
      for (int u : obs.order())
        if (u != v) others.push_back(u);
      obs.move(v, to);
      INFO("seed " << seed << " move " << t);
      REQUIRE(obs.order()[to] == v);
      std::vector<int> after;
      for (int u : obs.order())
        if (u != v) after.push_back(u);
      REQUIRE(after == others);
      for (std::size_t i = 0; i < n; ++i)
        REQUIRE(obs.position(obs.order()[i]) == static_cast<int>(i));
      bnsl::ObsState fresh(cache);
      fresh.set_order(obs.order());
      REQUIRE(obs.choices() == fresh.choices());
      REQUIRE(obs.score() == Approx(fresh.score()).epsilon(1e-12));
      REQUIRE(obs.hash() == fresh.hash());
    }
  }
}
