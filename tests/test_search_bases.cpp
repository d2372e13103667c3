// The ordering search on caches with base parents (src/search/base_sets.hpp): caches where
// every entry of some variables holds fixed parents, as `--require` makes them. Each is checked
// against independent work written here:
//  - bases versus set intersections of the entries; the repair of an order versus a literal
//    "earliest node whose base parents are all placed" loop, linear extensions checked arc by
//    arc;
//  - OBS on repaired orders versus a literal OBS, blocked swaps exactly those of a base parent
//    and its child, moves that stop at a base parent or child;
//  - ASOBS versus a literal ASOBS, sweeps keeping the order a linear extension;
//  - order enumeration versus brute force over the order's consistent choices;
//  - the search (OBS and ASOBS chains, all orders, the DP) versus brute force over every
//    acyclic choice of entries, every pooled DAG holding the base arcs; the greedy network;
//  - base arcs that close a cycle, and a missing base entry, refused with InputError.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/error.hpp"
#include "bnsl/search.hpp"
#include "oracle.hpp"
#include "pool/dag_pool.hpp"
#include "score/compare.hpp"
#include "search/base_sets.hpp"
#include "search/greedy_dag.hpp"
#include "search/order_enum.hpp"
#include "search/search_internal.hpp"

namespace {

using Parents = std::vector<std::vector<int>>;

// A cache whose variables have required parents R(v) (acyclic: arcs go forward in a random
// order, at most two per variable, each with probability `density`): every entry of v holds
// R(v), R(v) is one of them, and up to `extra` others add one or two random parents. Scores are
// spread so that several entries lie within a few units of each other.
struct RequiredCache {
  bnsl::ScoreCache cache;
  Parents required;  // R(v), ascending
};

RequiredCache required_cache(std::size_t n, int extra, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  RequiredCache rc{bnsl::ScoreCache(n), Parents(n)};
  std::bernoulli_distribution arc(density);
  for (std::size_t j = 1; j < n; ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (rc.required[perm[j]].size() < 2 && arc(rng)) rc.required[perm[j]].push_back(perm[i]);
  std::uniform_real_distribution<double> base(-200, -50), gain(-3, 12);
  for (std::size_t v = 0; v < n; ++v) {
    auto& r = rc.required[v];
    std::sort(r.begin(), r.end());
    const double s0 = base(rng);
    rc.cache.var(v).add(s0, r);
    std::set<std::vector<int>> seen{r};
    for (int t = 0; t < extra; ++t) {
      std::vector<int> ps = r;
      const int k = std::uniform_int_distribution<int>(1, 2)(rng);
      for (int j = 0; j < k; ++j) {
        int p = std::uniform_int_distribution<int>(0, static_cast<int>(n) - 2)(rng);
        if (p >= static_cast<int>(v)) ++p;
        if (std::find(ps.begin(), ps.end(), p) == ps.end()) ps.push_back(p);
      }
      std::sort(ps.begin(), ps.end());
      if (!seen.insert(ps).second) continue;
      rc.cache.var(v).add(s0 + gain(rng), ps);
    }
    rc.cache.var(v).sort_best_first();
  }
  return rc;
}

std::size_t arc_count(const Parents& required) {
  std::size_t k = 0;
  for (const auto& r : required) k += r.size();
  return k;
}

std::vector<int> random_order(std::size_t n, std::mt19937_64& rng) {
  std::vector<int> o(n);
  std::iota(o.begin(), o.end(), 0);
  std::shuffle(o.begin(), o.end(), rng);
  return o;
}

std::vector<int> positions(const std::vector<int>& order) {
  std::vector<int> pos(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) pos[order[i]] = static_cast<int>(i);
  return pos;
}

bool is_permutation_of_n(const std::vector<int>& order) {
  std::vector<int> s = order;
  std::sort(s.begin(), s.end());
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] != static_cast<int>(i)) return false;
  return true;
}

bool respects(const Parents& required, const std::vector<int>& order) {
  const auto pos = positions(order);
  for (std::size_t v = 0; v < required.size(); ++v)
    for (int p : required[v])
      if (pos[p] > pos[v]) return false;
  return true;
}

// Literal repair: repeatedly the earliest node of `order` not yet placed whose required
// parents are all placed.
std::vector<int> literal_repair(const Parents& required, const std::vector<int>& order) {
  const std::size_t n = order.size();
  std::vector<char> placed(n, 0);
  std::vector<int> out;
  while (out.size() < n)
    for (int v : order) {
      if (placed[v]) continue;
      bool ready = true;
      for (int p : required[v]) ready = ready && placed[p];
      if (!ready) continue;
      placed[v] = 1;
      out.push_back(v);
      break;
    }
  return out;
}

std::vector<int> entry_parents(const bnsl::ScoreCache& c, std::size_t v, std::uint32_t e) {
  auto ps = c.var(v).parents(e);
  return {ps.begin(), ps.end()};
}

Parents choice_parents(const bnsl::ScoreCache& c, const bnsl::Choices& ch) {
  Parents g(ch.size());
  for (std::size_t v = 0; v < ch.size(); ++v) g[v] = entry_parents(c, v, ch[v]);
  return g;
}

double sum_scores(const bnsl::ScoreCache& c, const bnsl::Choices& ch) {
  double s = 0;
  for (std::size_t v = 0; v < ch.size(); ++v) s += c.var(v).score(ch[v]);
  return s;
}

using oracle::acyclic;

bool holds_required(const Parents& g, const Parents& required) {
  for (std::size_t v = 0; v < g.size(); ++v)
    for (int p : required[v])
      if (std::find(g[v].begin(), g[v].end(), p) == g[v].end()) return false;
  return true;
}

// Literal OBS: each node's first entry whose parents all precede it (entries.size() if none).
bnsl::Choices literal_obs(const bnsl::ScoreCache& c, const std::vector<int>& order) {
  const auto pos = positions(order);
  bnsl::Choices ch(order.size());
  for (std::size_t v = 0; v < order.size(); ++v) {
    std::uint32_t e = 0;
    for (; e < c.var(v).size(); ++e) {
      const auto ps = entry_parents(c, v, e);
      if (std::all_of(ps.begin(), ps.end(), [&](int p) { return pos[p] < pos[v]; })) break;
    }
    ch[v] = e;
  }
  return ch;
}

// Literal ASOBS: last to first, the first entry whose arcs close no cycle in the graph so far.
bnsl::Choices literal_asobs(const bnsl::ScoreCache& c, const std::vector<int>& order) {
  const std::size_t n = order.size();
  Parents g(n);
  bnsl::Choices ch(n);
  for (std::size_t i = n; i-- > 0;) {
    const int v = order[i];
    std::uint32_t e = 0;
    for (; e < c.var(v).size(); ++e) {
      g[v] = entry_parents(c, v, e);
      if (acyclic(g)) break;
    }
    REQUIRE(e < c.var(v).size());
    ch[v] = e;
  }
  return ch;
}

// Every acyclic choice of entries, by brute force: the best score and those within eps.
struct Brute {
  double best = -INFINITY;
  std::map<Parents, double> within;
};

Brute brute_force(const bnsl::ScoreCache& c, double eps) {
  const std::size_t n = c.n_vars();
  std::vector<std::uint32_t> idx(n, 0);
  std::vector<std::pair<Parents, double>> all;
  Brute b;
  for (;;) {
    bnsl::Choices ch(idx.begin(), idx.end());
    const Parents g = choice_parents(c, ch);
    if (acyclic(g)) {
      const double s = sum_scores(c, ch);
      b.best = std::max(b.best, s);
      all.push_back({g, s});
    }
    std::size_t v = 0;
    while (v < n && ++idx[v] == c.var(v).size()) idx[v++] = 0;
    if (v == n) break;
  }
  for (auto& [g, s] : all)
    if (s >= b.best - eps - bnsl::score_tolerance(b.best, b.best - eps)) b.within[g] = s;
  return b;
}

// A random linear extension of the required arcs (Kahn's algorithm, random ready node).
std::vector<int> random_extension(const Parents& required, std::mt19937_64& rng) {
  const std::size_t n = required.size();
  std::vector<int> out;
  std::vector<char> placed(n, 0);
  while (out.size() < n) {
    std::vector<int> ready;
    for (std::size_t v = 0; v < n; ++v) {
      if (placed[v]) continue;
      bool ok = true;
      for (int p : required[v]) ok = ok && placed[p];
      if (ok) ready.push_back(static_cast<int>(v));
    }
    const int v = ready[std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng)];
    placed[v] = 1;
    out.push_back(v);
  }
  return out;
}

}  // namespace

TEST_CASE("bases: the intersection of a variable's entries, and its entry", "[search][bases]") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const std::size_t n = 3 + seed % 12;
    const RequiredCache rc = required_cache(n, 6, 0.4, seed);
    const bnsl::BaseSets b(rc.cache);
    INFO("seed " << seed);
    std::size_t arcs = 0;
    for (std::size_t v = 0; v < n; ++v) {
      // The intersection, by sets.
      std::set<int> meet;
      for (int p : entry_parents(rc.cache, v, 0)) meet.insert(p);
      for (std::uint32_t e = 1; e < rc.cache.var(v).size(); ++e) {
        std::set<int> next;
        for (int p : entry_parents(rc.cache, v, e))
          if (meet.count(p)) next.insert(p);
        meet = next;
      }
      const std::vector<int> expect(meet.begin(), meet.end());
      const auto got = b.parents(static_cast<int>(v));
      REQUIRE(std::vector<int>(got.begin(), got.end()) == expect);
      REQUIRE(expect == rc.required[v]);  // R(v) is an entry, and every entry holds it
      REQUIRE(b.entry(static_cast<int>(v)) != bnsl::BaseSets::kNoEntry);
      REQUIRE(entry_parents(rc.cache, v, b.entry(static_cast<int>(v))) == expect);
      for (int u = 0; u < static_cast<int>(n); ++u)
        REQUIRE(b.holds(u, static_cast<int>(v)) == (meet.count(u) == 1));
      arcs += expect.size();
    }
    REQUIRE(b.arcs() == arcs);
    REQUIRE(b.empty() == (arcs == 0));
    REQUIRE(b.cycle_vertex() == -1);
  }
}

TEST_CASE("bases: repair gives the literal linear extension, and keeps one unchanged",
          "[search][bases]") {
  std::mt19937_64 rng(5);
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const std::size_t n = 3 + seed % 20;
    const RequiredCache rc = required_cache(n, 3, 0.3, 100 + seed);
    const bnsl::BaseSets b(rc.cache);
    Parents base(n);
    for (std::size_t v = 0; v < n; ++v) {
      const auto ps = b.parents(static_cast<int>(v));
      base[v].assign(ps.begin(), ps.end());
    }
    for (int t = 0; t < 30; ++t) {
      const std::vector<int> order = random_order(n, rng);
      std::vector<int> fixed = order;
      b.repair(fixed);
      INFO("seed " << seed << " t " << t);
      REQUIRE(is_permutation_of_n(fixed));
      REQUIRE(respects(base, fixed));
      REQUIRE(b.respects(fixed));
      REQUIRE(b.respects(order) == respects(base, order));
      REQUIRE(fixed == literal_repair(base, order));
      if (respects(base, order)) REQUIRE(fixed == order);
      std::vector<int> again = fixed;
      b.repair(again);
      REQUIRE(again == fixed);
      const std::vector<int> ext = random_extension(base, rng);
      std::vector<int> same = ext;
      b.repair(same);
      REQUIRE(same == ext);
    }
  }
}

TEST_CASE("bases: a cycle of base arcs, or a missing base entry, is refused", "[search][bases]") {
  // 0 <- 1 <- 2 <- 0 in every entry, and 3 below the cycle (every entry of 3 holds 0).
  bnsl::ScoreCache cyc(4, {"a", "b", "c", "d"});
  cyc.var(0).add(-10, std::vector<int>{1});
  cyc.var(0).add(-9, std::vector<int>{1, 3});
  cyc.var(1).add(-10, std::vector<int>{2});
  cyc.var(2).add(-10, std::vector<int>{0});
  cyc.var(2).add(-11, std::vector<int>{0, 1});
  cyc.var(3).add(-10, std::vector<int>{0});
  for (std::size_t v = 0; v < 4; ++v) cyc.var(v).sort_best_first();
  const bnsl::BaseSets b(cyc);
  const int x = b.cycle_vertex();
  REQUIRE(x >= 0);
  REQUIRE(x <= 2);  // on the cycle, not 3 below it
  bnsl::SearchOptions o;
  o.classes = false;
  o.threads = 1;
  o.max_restarts = 1;
  bnsl::StopToken stop;
  REQUIRE_THROWS_AS(bnsl::search(cyc, o, stop), bnsl::InputError);
  try {
    bnsl::search(cyc, o, stop);
  } catch (const bnsl::InputError& e) {
    const std::string what = e.what();
    INFO(what);
    const std::string names[] = {"variable a ", "variable b ", "variable c "};
    REQUIRE(what.find(names[x]) != std::string::npos);
    REQUIRE(what.find("cycle") != std::string::npos);
  }
  REQUIRE_THROWS_AS(bnsl::greedy_network(cyc, stop), bnsl::InputError);

  // Every entry of 0 holds 1, but no entry is {1} alone.
  bnsl::ScoreCache missing(4, {"a", "b", "c", "d"});
  missing.var(0).add(-10, std::vector<int>{1, 2});
  missing.var(0).add(-11, std::vector<int>{1, 3});
  for (std::size_t v = 1; v < 4; ++v) missing.var(v).add(-10, std::vector<int>{});
  REQUIRE(bnsl::BaseSets(missing).entry(0) == bnsl::BaseSets::kNoEntry);
  try {
    bnsl::search(missing, o, stop);
    FAIL("accepted");
  } catch (const bnsl::InputError& e) {
    const std::string what = e.what();
    INFO(what);
    REQUIRE(what.find("variable a ") != std::string::npos);
    REQUIRE(what.find("required parents") != std::string::npos);
    REQUIRE(what.find("{b}") != std::string::npos);
  }
}

TEST_CASE("OBS with base arcs: repaired orders, blocked swaps, moves that stop",
          "[search][bases]") {
  std::mt19937_64 rng(21);
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::size_t n = 4 + seed % 14;
    const RequiredCache rc = required_cache(n, 6, 0.35, 200 + seed);
    const Parents& req = rc.required;
    bnsl::ObsState obs(rc.cache);
    const auto order0 = random_order(n, rng);
    obs.set_order(order0);
    INFO("seed " << seed);
    REQUIRE(obs.order() == literal_repair(req, order0));
    for (int t = 0; t < 200; ++t) {
      const std::vector<int> order = obs.order();
      REQUIRE(respects(req, order));
      const bnsl::Choices lit = literal_obs(rc.cache, order);
      for (std::size_t v = 0; v < n; ++v) REQUIRE(lit[v] < rc.cache.var(v).size());
      REQUIRE(obs.choices() == lit);
      REQUIRE(obs.score() == Approx(sum_scores(rc.cache, lit)).epsilon(1e-12));
      REQUIRE(obs.hash() == bnsl::dag_hash(lit));
      if (t % 2 == 0) {  // an adjacent swap
        const std::size_t i = std::uniform_int_distribution<std::size_t>(0, n - 2)(rng);
        const int u = order[i], w = order[i + 1];
        const auto s = obs.try_swap(i);
        const bool base_pair = std::count(req[w].begin(), req[w].end(), u) > 0;
        REQUIRE(s.blocked == base_pair);
        if (s.blocked) {
          REQUIRE(std::isinf(s.score));
          REQUIRE(s.score < 0);
          continue;
        }
        std::vector<int> swapped = order;
        std::swap(swapped[i], swapped[i + 1]);
        const bnsl::Choices after = literal_obs(rc.cache, swapped);
        REQUIRE(s.score == Approx(sum_scores(rc.cache, after)).epsilon(1e-12));
        obs.apply(s);
        REQUIRE(obs.order() == swapped);
      } else {  // a long move, stopping at the first base parent (left) or child (right)
        const int v = static_cast<int>(rng() % n);
        const std::size_t to = rng() % n;
        const auto pos = positions(order);
        const std::size_t from = static_cast<std::size_t>(pos[v]);
        std::size_t stop_at = to;  // where v should end
        if (to < from) {
          for (std::size_t j = from; j-- > to;)
            if (std::count(req[v].begin(), req[v].end(), order[j])) {
              stop_at = j + 1;
              break;
            }
        } else {
          for (std::size_t j = from + 1; j <= to; ++j)
            if (std::count(req[order[j]].begin(), req[order[j]].end(), v)) {
              stop_at = j - 1;
              break;
            }
        }
        const bool reached = obs.move(v, to);
        REQUIRE(reached == (stop_at == to));
        REQUIRE(obs.position(v) == static_cast<int>(stop_at));
        std::vector<int> others, after;
        for (int u : order)
          if (u != v) others.push_back(u);
        for (int u : obs.order())
          if (u != v) after.push_back(u);
        REQUIRE(after == others);
      }
    }
  }
}

// The insertion move's evaluation (ObsState::best_insertion, which moves nothing) against the
// literal OBS network of every position v can reach: each position between its nearest base
// parent on the left and base child on the right, one by one, without and with base arcs.
TEST_CASE("an insertion's evaluation equals the literal OBS of every position it can reach",
          "[search][bases]") {
  std::mt19937_64 rng(37);
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const std::size_t n = 2 + seed % 13;
    const RequiredCache rc = required_cache(n, 6, seed % 3 == 0 ? 0.0 : 0.3, 700 + seed);
    const Parents& req = rc.required;
    bnsl::ObsState obs(rc.cache);
    obs.set_order(random_order(n, rng));
    for (int t = 0; t < 4; ++t) {
      const std::vector<int> order = obs.order();
      const int v = static_cast<int>(rng() % n);
      const std::size_t from = static_cast<std::size_t>(positions(order)[v]);
      std::size_t lo = 0, hi = n - 1;  // v's reach: past no base parent left, no child right
      for (std::size_t j = from; j-- > 0;)
        if (std::count(req[v].begin(), req[v].end(), order[j])) {
          lo = j + 1;
          break;
        }
      for (std::size_t j = from + 1; j < n; ++j)
        if (std::count(req[order[j]].begin(), req[order[j]].end(), v)) {
          hi = j - 1;
          break;
        }
      std::vector<int> others;
      for (int u : order)
        if (u != v) others.push_back(u);
      std::vector<double> literal(n, -std::numeric_limits<double>::infinity());
      std::set<bnsl::Choices> networks;  // those of every position v can reach
      const bnsl::Choices start = literal_obs(rc.cache, order);
      for (std::size_t to = lo; to <= hi; ++to) {
        std::vector<int> moved = others;
        moved.insert(moved.begin() + static_cast<long>(to), v);
        const bnsl::Choices ch = literal_obs(rc.cache, moved);
        literal[to] = sum_scores(rc.cache, ch);
        networks.insert(ch);
      }
      const double best_literal = *std::max_element(literal.begin(), literal.end());

      bnsl::DagPool pool(rc.cache, bnsl::Epsilon::epsilon(1e9), 1000000, false);
      bnsl::SearchStats stats;
      bnsl::Offerer off{pool, stats, nullptr};
      const double before = obs.score();
      const bnsl::ObsState::Insertion ins = obs.best_insertion(v, &off);
      INFO("seed " << seed << " v " << v << " from " << from << " to " << ins.to);
      REQUIRE(obs.order() == order);  // nothing moved
      REQUIRE(obs.score() == before);
      REQUIRE(ins.to >= lo);
      REQUIRE(ins.to <= hi);
      REQUIRE(ins.score == Approx(literal[ins.to]).epsilon(1e-12));
      REQUIRE_FALSE(bnsl::clearly_greater(best_literal, ins.score));
      if (ins.to != from) REQUIRE(bnsl::clearly_greater(ins.score, before));
      // Every network it passes through is offered (but v's own, which may come back), each
      // once (its hash right), and no other.
      std::set<bnsl::Choices> offered;
      for (const auto& d : pool.snapshot()) offered.insert(d.choices);
      REQUIRE(offered.size() == pool.size());
      for (const auto& ch : offered) REQUIRE(networks.count(ch) == 1);
      for (const auto& ch : networks) REQUIRE((ch == start || offered.count(ch) == 1));

      obs.move(v, ins.to);
      REQUIRE(obs.choices() == literal_obs(rc.cache, obs.order()));
      REQUIRE(obs.score() == Approx(ins.score).epsilon(1e-12));
    }
  }
}

TEST_CASE("ASOBS with base arcs equals literal ASOBS; sweeps keep linear extensions",
          "[search][bases]") {
  std::mt19937_64 rng(23);
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::size_t n = 3 + seed % 20;
    const RequiredCache rc = required_cache(n, 6, 0.35, 300 + seed);
    bnsl::DagPool pool(rc.cache, bnsl::Epsilon::epsilon(2), 1000, false);
    bnsl::SearchStats stats;
    bnsl::Offerer off{pool, stats, nullptr};
    bnsl::AsobsState asobs(rc.cache);
    bnsl::ObsState obs(rc.cache);
    INFO("seed " << seed);
    for (int t = 0; t < 10; ++t) {
      obs.set_order(random_order(n, rng));
      bnsl::Order order = obs.order();
      bnsl::Choices ch;
      double score = asobs.evaluate(order, ch);
      REQUIRE(ch == literal_asobs(rc.cache, order));
      REQUIRE(score >= obs.score() - 1e-9);
      for (int pass = 0; pass < 10; ++pass) {
        const double before = score;
        const std::size_t acc = asobs.sweep(order, ch, score, off, {});
        REQUIRE(respects(rc.required, order));
        REQUIRE(ch == literal_asobs(rc.cache, order));
        REQUIRE(holds_required(choice_parents(rc.cache, ch), rc.required));
        REQUIRE(score == Approx(sum_scores(rc.cache, ch)).epsilon(1e-12));
        REQUIRE(score >= before - 1e-9);
        if (acc == 0) break;
      }
    }
  }
}

TEST_CASE("order enumeration with base arcs: brute force over the order's consistent DAGs",
          "[search][bases]") {
  std::mt19937_64 rng(29);
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::size_t n = 3 + seed % 3;
    const RequiredCache rc = required_cache(n, 4, 0.4, 400 + seed);
    INFO("seed " << seed);
    for (int t = 0; t < 6; ++t) {
      const std::vector<int> order = random_order(n, rng);
      const auto pos = positions(order);
      // Consistent choices by brute force.
      const double eps = 5.0;
      std::vector<std::uint32_t> idx(n, 0);
      std::vector<std::pair<Parents, double>> all;
      double best = -INFINITY;
      for (;;) {
        bnsl::Choices ch(idx.begin(), idx.end());
        const Parents g = choice_parents(rc.cache, ch);
        bool ok = true;
        for (std::size_t v = 0; v < n; ++v)
          for (int p : g[v]) ok = ok && pos[p] < pos[v];
        if (ok) {
          const double s = sum_scores(rc.cache, ch);
          best = std::max(best, s);
          all.push_back({g, s});
        }
        std::size_t v = 0;
        while (v < n && ++idx[v] == rc.cache.var(v).size()) idx[v++] = 0;
        if (v == n) break;
      }
      bnsl::DagPool pool(rc.cache, bnsl::Epsilon::epsilon(eps), 100000, false);
      const bnsl::OrderEnumResult r = bnsl::enumerate_order(rc.cache, order, pool, {}, nullptr, 0);
      REQUIRE(all.empty() == !respects(rc.required, order));
      if (all.empty()) {
        REQUIRE(r.offered == 0);
        REQUIRE(std::isinf(r.best));
        REQUIRE(pool.size() == 0);
        continue;
      }
      REQUIRE(r.best == Approx(best).epsilon(1e-12));
      std::set<Parents> expect;
      for (auto& [g, s] : all)
        if (s >= best - eps - bnsl::score_tolerance(best, best - eps)) expect.insert(g);
      std::set<Parents> got;
      for (const auto& d : pool.snapshot()) got.insert(choice_parents(rc.cache, d.choices));
      REQUIRE(got == expect);
    }
  }
}

// Random tiny problems with required arcs: the chains (OBS and ASOBS, a few seeds), all orders
// and the DP find the brute-force optimum, and pool only DAGs that hold the required arcs, are
// acyclic, are made of cache entries and lie within epsilon (all orders and the DP: exactly the
// brute-force set).
TEST_CASE("search with base arcs finds the brute-force optimum and keeps them", "[search][bases]") {
  const double eps = 4.0;
  int with_arcs = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const std::size_t n = 4 + seed % 3;  // 4..6 variables
    const RequiredCache rc = required_cache(n, 4, 0.35, 500 + seed);
    with_arcs += arc_count(rc.required) > 0;
    const Brute brute = brute_force(rc.cache, eps);
    REQUIRE(std::isfinite(brute.best));
    for (int mode = 0; mode < 4; ++mode) {  // OBS chains, ASOBS chains, all orders, DP
      for (std::uint64_t run = 0; run < (mode < 2 ? 3u : 1u); ++run) {
        bnsl::SearchOptions o;
        o.classes = false;  // random caches are not score equivalent
        o.epsilon = bnsl::Epsilon::epsilon(eps);
        o.threads = 1;
        o.seed = seed * 10 + run;
        o.algo = mode == 1 ? bnsl::SearchAlgo::asobs : bnsl::SearchAlgo::obs;
        o.exhaustive_max_n = mode == 2 ? 7 : 0;
        o.dp_max_n = mode == 3 ? 22 : 0;
        o.max_restarts = 50;
        o.perturb_tries = 5;
        o.time = 20;
        o.checkpoint = 0;
        bnsl::StopToken stop;
        const bnsl::PoolReport r = bnsl::search(rc.cache, o, stop);
        INFO("seed " << seed << " n " << n << " mode " << mode << " run " << run << " arcs "
                     << arc_count(rc.required));
        REQUIRE(!r.dags.empty());
        REQUIRE(r.dags.front().score == Approx(brute.best).epsilon(1e-12));
        std::set<Parents> got;
        for (const auto& d : r.dags) {
          REQUIRE(acyclic(d.parents));
          REQUIRE(holds_required(d.parents, rc.required));
          double s = 0;
          for (std::size_t v = 0; v < n; ++v) {
            const long e = rc.cache.var(v).find(d.parents[v]);
            REQUIRE(e >= 0);
            s += rc.cache.var(v).score(static_cast<std::size_t>(e));
          }
          REQUIRE(s == Approx(d.score).epsilon(1e-12));
          REQUIRE(brute.within.count(d.parents) == 1);
          got.insert(d.parents);
        }
        if (mode >= 2) {
          REQUIRE(r.optimal);
          REQUIRE(got.size() == brute.within.size());
        }
      }
    }
  }
  REQUIRE(with_arcs >= 8);  // the generator gives most problems some required arcs
}

// Larger problems (no brute force): the chains' pools hold the required arcs throughout, with
// every move type at work (insertions and pulls meet base parents and children).
TEST_CASE("search pools with base arcs satisfy the invariants on larger caches",
          "[search][bases]") {
  for (std::uint64_t round = 0; round < 8; ++round) {
    const std::size_t n = 12 + 6 * round;
    const RequiredCache rc = required_cache(n, 8, 0.2, 600 + round);
    bnsl::SearchOptions o;
    o.classes = false;
    o.algo = round % 2 ? bnsl::SearchAlgo::obs : bnsl::SearchAlgo::asobs;
    o.threads = 1;
    o.seed = round;
    o.epsilon = bnsl::Epsilon::epsilon(3.0);
    o.max_restarts = 4;
    o.perturb_tries = 4;
    o.pool_max = 2000;
    o.time = 20;
    o.dp_max_n = 0;
    o.checkpoint = 0;
    bnsl::StopToken stop;
    const bnsl::PoolReport r = bnsl::search(rc.cache, o, stop);
    INFO("round " << round);
    REQUIRE(!r.dags.empty());
    const double best = r.dags.front().score;
    for (const auto& d : r.dags) {
      REQUIRE(acyclic(d.parents));
      REQUIRE(holds_required(d.parents, rc.required));
      REQUIRE(d.score >= best - 3.0 - bnsl::score_tolerance(best, best - 3.0));
    }
    // Not worse than the greedy network, which the search is seeded with.
    const bnsl::GreedyDagResult g = bnsl::greedy_dag(rc.cache, {});
    REQUIRE(best >= g.score - 1e-9 * std::fabs(g.score));
  }
}

TEST_CASE("greedy network with base arcs: acyclic, holds them, topologically ordered",
          "[search][bases]") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const std::size_t n = seed % 3 == 0 ? 200 : 4 + seed % 17;
    const RequiredCache rc = required_cache(n, 6, 0.3, 700 + seed);
    const bnsl::GreedyDagResult g = bnsl::greedy_dag(rc.cache, {});
    INFO("seed " << seed << ", n " << n);
    REQUIRE(g.choices.size() == n);
    const Parents parents = choice_parents(rc.cache, g.choices);
    REQUIRE(acyclic(parents));
    REQUIRE(holds_required(parents, rc.required));
    REQUIRE(g.score == Approx(sum_scores(rc.cache, g.choices)).epsilon(1e-12));
    REQUIRE(g.order.size() == n);
    REQUIRE(is_permutation_of_n(g.order));
    const auto pos = positions(g.order);
    for (std::size_t v = 0; v < n; ++v)
      for (int p : parents[v]) REQUIRE(pos[p] < pos[v]);
    // Local optimality: every clearly better entry closes a cycle.
    CHECK(oracle::no_better_acyclic_family(rc.cache, g.choices));
    // The greedy network's value against an independent ceiling: no better than the best of
    // each variable's entries.
    double ceiling = 0;
    for (std::size_t v = 0; v < n; ++v) ceiling += rc.cache.var(v).score(0);
    REQUIRE(g.score <= ceiling + 1e-9 * std::fabs(ceiling));
  }
}
