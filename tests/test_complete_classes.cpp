// Class completion (src/pool/complete_classes.cpp) against brute force: on 5 variables with
// every family cached (BIC of random data, computed by the oracle), completing a pool that
// holds one DAG yields exactly the DAGs with its skeleton and v-structures (Verma & Pearl
// 1990, checked here directly, not through bnsl's CPDAG code); with families missing from the
// cache, or a cap per class, it only ever adds members of the class. Neighbour completion
// (src/pool/complete_neighbours.cpp) against brute force: from the optimal DAG, exactly the
// DAGs within epsilon connected to it by one-family changes through DAGs within epsilon.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <queue>

#include <random>
#include <set>
#include <vector>

#include "bnsl/cache.hpp"
#include "oracle.hpp"
#include "pool/complete_classes.hpp"
#include "pool/complete_neighbours.hpp"
#include "pool/dag_pool.hpp"

namespace {

using oracle::Mask;
using Dag = std::vector<Mask>;  // parent mask per variable

// Skeleton (as a set of unordered pairs) and v-structures a -> c <- b, a and b not adjacent.
std::pair<std::set<std::pair<int, int>>, std::set<std::tuple<int, int, int>>> pattern(
    const Dag& g) {
  const int n = static_cast<int>(g.size());
  const auto adjacent = [&](int a, int b) { return (g[a] >> b & 1) || (g[b] >> a & 1); };
  std::set<std::pair<int, int>> skeleton;
  std::set<std::tuple<int, int, int>> colliders;
  for (int c = 0; c < n; ++c)
    for (int a = 0; a < n; ++a) {
      if (!(g[c] >> a & 1)) continue;
      skeleton.insert({std::min(a, c), std::max(a, c)});
      for (int b = a + 1; b < n; ++b)
        if ((g[c] >> b & 1) && !adjacent(a, b)) colliders.insert({a, b, c});
    }
  return {skeleton, colliders};
}

struct Fixture {
  bnsl::ScoreCache cache;
  std::vector<std::vector<Mask>> masks;  // masks[v][entry]

  void add(int v, Mask m, double score) {
    cache.var(v).add(score, oracle::from_mask(m));
    masks[v].push_back(m);
  }
  long entry(int v, Mask m) const {
    for (std::size_t i = 0; i < masks[v].size(); ++i)
      if (masks[v][i] == m) return static_cast<long>(i);
    return -1;
  }
  bnsl::Choices choices(const Dag& g) const {
    bnsl::Choices c(g.size());
    for (std::size_t v = 0; v < g.size(); ++v) c[v] = static_cast<std::uint32_t>(entry(v, g[v]));
    return c;
  }
  Dag dag(const bnsl::Choices& c) const {
    Dag g(c.size());
    for (std::size_t v = 0; v < c.size(); ++v) g[v] = masks[v][c[v]];
    return g;
  }
};

// Every family of 5 variables, BIC of random data; `drop`: share of non-empty families left
// out, except those of `keep`.
Fixture make_fixture(std::uint64_t seed, double drop, const Dag& keep) {
  const bnsl::Dataset d = oracle::random_dataset(300, {2, 3, 2, 2, 3}, seed);
  const oracle::Families fam = oracle::full_table(d, {bnsl::ScoreKind::bic, 1.0}, -1);
  Fixture f{bnsl::ScoreCache(fam.size()), std::vector<std::vector<Mask>>(fam.size())};
  std::mt19937_64 rng(seed * 7 + 1);
  std::bernoulli_distribution dropped(drop);
  for (std::size_t v = 0; v < fam.size(); ++v)
    for (const auto& [m, s] : fam[v])
      if (m == 0 || m == keep[v] || !dropped(rng)) f.add(static_cast<int>(v), m, s);
  return f;
}

Dag random_dag(int n, std::mt19937_64& rng) {
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::bernoulli_distribution arc(0.55);
  Dag g(n, 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (arc(rng)) g[order[i]] |= Mask{1} << order[j];
  return g;
}

// Every DAG over the cached families with the pattern of g.
std::set<Dag> brute_force_class(const Fixture& f, const Dag& g) {
  const auto target = pattern(g);
  std::set<Dag> out;
  const int n = static_cast<int>(g.size());
  std::vector<std::size_t> idx(n, 0);
  for (;;) {
    Dag h(n);
    for (int v = 0; v < n; ++v) h[v] = f.masks[v][idx[v]];
    if (oracle::acyclic(h) && pattern(h) == target) out.insert(h);
    int v = 0;
    while (v < n && ++idx[v] == f.masks[v].size()) idx[v++] = 0;
    if (v == n) break;
  }
  return out;
}

std::set<Dag> pooled(const Fixture& f, const bnsl::DagPool& pool) {
  std::set<Dag> out;
  for (const auto& d : pool.snapshot()) out.insert(f.dag(d.choices));
  return out;
}

const auto never = [] { return false; };

}  // namespace

TEST_CASE("class completion adds exactly the Markov equivalent DAGs", "[pool]") {
  std::size_t largest = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed);
    const Dag g = random_dag(5, rng);
    const Fixture f = make_fixture(seed, 0.0, g);
    const std::set<Dag> expected = brute_force_class(f, g);
    REQUIRE(expected.count(g) == 1);
    largest = std::max(largest, expected.size());
    bnsl::DagPool pool(f.cache, bnsl::Epsilon::epsilon(0.5), 1000000);
    const auto c = f.choices(g);
    REQUIRE(pool.offer(bnsl::dag_score(f.cache, c), bnsl::dag_hash(c), c));
    const bnsl::ClassCompletion r = bnsl::complete_classes(f.cache, pool, never, 1000000);
    CHECK(r.classes == 1);
    CHECK(r.members == expected.size());
    CHECK(r.admitted + 1 == expected.size());  // BIC is score equivalent: all within epsilon
    CHECK(r.missing == 0);
    CHECK_FALSE(r.stopped);
    CHECK(pooled(f, pool) == expected);
    if (expected.size() > 2) {  // a cap of 2 DAGs per class
      bnsl::DagPool capped(f.cache, bnsl::Epsilon::epsilon(0.5), 1000000);
      capped.offer(bnsl::dag_score(f.cache, c), bnsl::dag_hash(c), c);
      const bnsl::ClassCompletion rc = bnsl::complete_classes(f.cache, capped, never, 2);
      CHECK(rc.capped == 1);
      CHECK(rc.members == 2);
      CHECK(capped.size() == 2);
    }
  }
  CHECK(largest >= 6);  // the check bites: some classes have many members
}

TEST_CASE("class completion with families missing or a cap adds only class members", "[pool]") {
  std::uint64_t missing = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed + 100);
    const Dag g = random_dag(5, rng);
    const Fixture f = make_fixture(seed, 0.4, g);
    const std::set<Dag> expected = brute_force_class(f, g);
    for (const std::uint64_t cap : {std::uint64_t{1000000}, std::uint64_t{2}}) {
      bnsl::DagPool pool(f.cache, bnsl::Epsilon::epsilon(0.5), 1000000);
      const auto c = f.choices(g);
      pool.offer(bnsl::dag_score(f.cache, c), bnsl::dag_hash(c), c);
      const bnsl::ClassCompletion r = bnsl::complete_classes(f.cache, pool, never, cap);
      const std::set<Dag> got = pooled(f, pool);
      for (const Dag& h : got) CHECK(expected.count(h) == 1);
      CHECK(got.count(g) == 1);
      CHECK(r.members <= std::min<std::uint64_t>(cap, expected.size()));
      if (r.capped > 0) CHECK(r.members == cap);
      missing += r.missing;
    }
  }
  CHECK(missing > 0);  // some reversals met a family that is not cached
}

TEST_CASE("class completion stops when asked", "[pool]") {
  std::mt19937_64 rng(5);
  Dag g;
  do g = random_dag(5, rng);
  while (brute_force_class(make_fixture(5, 0.0, g), g).size() < 3);
  const Fixture f = make_fixture(5, 0.0, g);
  bnsl::DagPool pool(f.cache, bnsl::Epsilon::epsilon(0.5), 1000000);
  const auto c = f.choices(g);
  pool.offer(bnsl::dag_score(f.cache, c), bnsl::dag_hash(c), c);
  int polls = 0;
  const bnsl::ClassCompletion r = bnsl::complete_classes(
      f.cache, pool, [&] { return ++polls > 2; }, 1000000);
  CHECK(r.stopped);
  CHECK(pool.size() <= 3);
}

namespace {

// Every family of 5 variables (BIC of random data), each variable's list sorted best first
// as the search's caches are.
Fixture make_sorted_fixture(std::uint64_t seed) {
  const bnsl::Dataset d = oracle::random_dataset(300, {2, 3, 2, 2, 3}, seed);
  const oracle::Families fam = oracle::full_table(d, {bnsl::ScoreKind::bic, 1.0}, -1);
  Fixture f{bnsl::ScoreCache(fam.size()), std::vector<std::vector<Mask>>(fam.size())};
  for (std::size_t v = 0; v < fam.size(); ++v) {
    std::vector<std::pair<double, Mask>> list;
    for (const auto& [m, sc] : fam[v]) list.emplace_back(sc, m);
    std::stable_sort(list.begin(), list.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [sc, m] : list) f.add(static_cast<int>(v), m, sc);
  }
  return f;
}

}  // namespace

TEST_CASE("neighbour completion adds the one-family component within epsilon", "[pool]") {
  std::size_t largest = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const Fixture f = make_sorted_fixture(seed);
    const int n = 5;
    // Brute force: every acyclic choice of cached families, scored by the oracle's table.
    std::map<Dag, double> dags;
    std::vector<std::size_t> idx(n, 0);
    for (;;) {
      Dag h(n);
      double sc = 0;
      for (int v = 0; v < n; ++v) {
        h[v] = f.masks[v][idx[v]];
        sc += f.cache.var(v).score(idx[v]);
      }
      if (oracle::acyclic(h)) dags.emplace(h, sc);
      int v = 0;
      while (v < n && ++idx[v] == f.masks[v].size()) idx[v++] = 0;
      if (v == n) break;
    }
    const auto best = std::max_element(
        dags.begin(), dags.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    for (const double eps : {1.0, 4.0, 12.0}) {
      const double threshold = best->second - eps;
      // The component of the optimum among DAGs within epsilon, one family changed per step.
      std::set<Dag> expected{best->first};
      std::queue<Dag> todo;
      todo.push(best->first);
      while (!todo.empty()) {
        const Dag g = todo.front();
        todo.pop();
        for (int v = 0; v < n; ++v)
          for (const Mask m : f.masks[v]) {
            Dag h = g;
            h[v] = m;
            const auto it = dags.find(h);
            if (it == dags.end() || it->second < threshold - 1e-9) continue;
            if (expected.insert(h).second) todo.push(h);
          }
      }
      largest = std::max(largest, expected.size());
      bnsl::DagPool pool(f.cache, bnsl::Epsilon::epsilon(eps), 1000000);
      const auto c = f.choices(best->first);
      REQUIRE(pool.offer(bnsl::dag_score(f.cache, c), bnsl::dag_hash(c), c));
      const bnsl::NeighbourCompletion r = bnsl::complete_neighbours(f.cache, pool, never, 1000000);
      INFO("seed " << seed << ", eps " << eps);
      CHECK_FALSE(r.stopped);
      CHECK(r.admitted + 1 == expected.size());
      CHECK(r.expanded == expected.size());
      CHECK(pooled(f, pool) == expected);
    }
  }
  CHECK(largest >= 10);  // the check bites
}

TEST_CASE("neighbour completion stops when asked and respects its expansion cap", "[pool]") {
  const Fixture f = make_sorted_fixture(3);
  const Dag g(5, 0);  // the empty DAG
  const auto c = f.choices(g);
  bnsl::DagPool pool(f.cache, bnsl::Epsilon::epsilon(1e6), 1000000);  // everything within
  pool.offer(bnsl::dag_score(f.cache, c), bnsl::dag_hash(c), c);
  int polls = 0;
  const bnsl::NeighbourCompletion r = bnsl::complete_neighbours(
      f.cache, pool, [&] { return ++polls > 3; }, 1000000);
  CHECK(r.stopped);
  CHECK(r.expanded == 3);
  bnsl::DagPool capped(f.cache, bnsl::Epsilon::epsilon(1e6), 1000000);
  capped.offer(bnsl::dag_score(f.cache, c), bnsl::dag_hash(c), c);
  const bnsl::NeighbourCompletion rc = bnsl::complete_neighbours(f.cache, capped, never, 4);
  CHECK(rc.expanded == 4);
  CHECK(rc.admitted > 3);  // offers go on; only expansion is capped
}
