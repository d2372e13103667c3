// Essential graphs (src/pool/cpdag.*): hand-made cases whose essential graphs are known, and
// a brute-force cross-check over every DAG of 4 and 5 nodes against two independent
// characterisations: Markov equivalence = same skeleton and v-structures (Verma & Pearl
// 1990), and the compelled arcs of a class = the arcs oriented alike in all its members. The
// pool's class key and exact comparison (src/pool/class_key.hpp) against the same oracle.
#include <catch2/catch.hpp>

#include <map>
#include <numeric>
#include <random>
#include <set>
#include <span>
#include <tuple>

#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "pool/class_key.hpp"
#include "pool/cpdag.hpp"

using bnsl::Cpdag;
using bnsl::ParentSets;

namespace {

bool has_arc(const Cpdag& c, int from, int to) {
  const auto& p = c.directed[to];
  return std::find(p.begin(), p.end(), from) != p.end();
}

bool has_edge(const Cpdag& c, int a, int b) {
  const auto& u = c.undirected[a];
  return std::find(u.begin(), u.end(), b) != u.end();
}

std::size_t arc_count(const Cpdag& c) {
  std::size_t k = 0;
  for (const auto& p : c.directed) k += p.size();
  return k;
}

std::size_t edge_count(const Cpdag& c) {
  std::size_t k = 0;
  for (const auto& u : c.undirected) k += u.size();
  return k / 2;
}

// Acyclicity by repeated removal of sinks (independent of the library).
bool acyclic(const ParentSets& g) {
  const std::size_t n = g.size();
  std::vector<bool> gone(n, false);
  for (std::size_t round = 0; round < n; ++round) {
    bool removed = false;
    for (std::size_t v = 0; v < n && !removed; ++v) {
      if (gone[v]) continue;
      bool has_child = false;
      for (std::size_t c = 0; c < n; ++c)
        if (!gone[c] && std::find(g[c].begin(), g[c].end(), static_cast<int>(v)) != g[c].end())
          has_child = true;
      if (!has_child) gone[v] = removed = true;
    }
    if (!removed) return false;
  }
  return true;
}

// Every DAG on n nodes: each pair is absent, i -> j or j -> i.
std::vector<ParentSets> all_dags(int n) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) pairs.push_back({i, j});
  std::size_t total = 1;
  for (std::size_t k = 0; k < pairs.size(); ++k) total *= 3;
  std::vector<ParentSets> out;
  for (std::size_t code = 0; code < total; ++code) {
    ParentSets g(n);
    std::size_t rest = code;
    for (auto [i, j] : pairs) {
      if (rest % 3 == 1) g[j].push_back(i);
      if (rest % 3 == 2) g[i].push_back(j);
      rest /= 3;
    }
    for (auto& p : g) std::sort(p.begin(), p.end());
    if (acyclic(g)) out.push_back(std::move(g));
  }
  return out;
}

bool adjacent(const ParentSets& g, int a, int b) {
  auto in = [&](int x, int y) { return std::find(g[y].begin(), g[y].end(), x) != g[y].end(); };
  return in(a, b) || in(b, a);
}

// Skeleton and v-structures (a -> c <- b, a < b, a and b not adjacent).
using Signature = std::pair<std::set<std::pair<int, int>>, std::set<std::tuple<int, int, int>>>;

Signature signature(const ParentSets& g) {
  Signature s;
  for (int c = 0; c < static_cast<int>(g.size()); ++c)
    for (int a : g[c]) {
      s.first.insert({std::min(a, c), std::max(a, c)});
      for (int b : g[c])
        if (a < b && !adjacent(g, a, b)) s.second.insert({a, c, b});
    }
  return s;
}

void brute_force_check(int n, std::size_t expected_classes) {
  const auto dags = all_dags(n);
  std::map<Signature, std::vector<std::size_t>> classes;
  for (std::size_t i = 0; i < dags.size(); ++i) classes[signature(dags[i])].push_back(i);
  REQUIRE(classes.size() == expected_classes);  // OEIS A007984
  std::map<std::vector<std::uint32_t>, Signature> by_code;
  for (const auto& [sig, members] : classes) {
    const Cpdag c = bnsl::essential_graph(dags[members.front()]);
    // Same CPDAG within the class ...
    for (std::size_t m : members) REQUIRE(bnsl::essential_graph(dags[m]) == c);
    // ... and a different one for every other class.
    REQUIRE(by_code.emplace(c.encode(), sig).second);
    // Compelled arcs = arcs oriented alike in every member; the rest undirected.
    for (auto [a, b] : sig.first) {
      bool always_ab = true, always_ba = true;
      for (std::size_t m : members) {
        const auto& g = dags[m];
        const bool ab = std::find(g[b].begin(), g[b].end(), a) != g[b].end();
        always_ab = always_ab && ab;
        always_ba = always_ba && !ab;
      }
      CHECK(has_arc(c, a, b) == always_ab);
      CHECK(has_arc(c, b, a) == always_ba);
      CHECK(has_edge(c, a, b) == (!always_ab && !always_ba));
    }
    CHECK(arc_count(c) + edge_count(c) == sig.first.size());
  }
}

}  // namespace

TEST_CASE("cpdag: chain and fork are fully undirected", "[cpdag]") {
  const Cpdag chain = bnsl::essential_graph({{}, {0}, {1}});  // 0 -> 1 -> 2
  CHECK(arc_count(chain) == 0);
  CHECK(has_edge(chain, 0, 1));
  CHECK(has_edge(chain, 1, 2));
  CHECK(edge_count(chain) == 2);
  const Cpdag fork = bnsl::essential_graph({{1}, {}, {1}});  // 0 <- 1 -> 2
  CHECK(fork == chain);
}

TEST_CASE("cpdag: a collider is compelled, a shielded collider is not", "[cpdag]") {
  const Cpdag collider = bnsl::essential_graph({{}, {}, {0, 1}});  // 0 -> 2 <- 1
  CHECK(has_arc(collider, 0, 2));
  CHECK(has_arc(collider, 1, 2));
  CHECK(edge_count(collider) == 0);
  // 0 -> 2 <- 1 with 0 -> 1: a complete DAG, equivalent to every ordering of the 3 nodes.
  const Cpdag shielded = bnsl::essential_graph({{}, {0}, {0, 1}});
  CHECK(arc_count(shielded) == 0);
  CHECK(edge_count(shielded) == 3);
}

TEST_CASE("cpdag: Meek rule 1 propagates a collider downstream", "[cpdag]") {
  // 0 -> 2 <- 1, 2 -> 3: 2 -> 3 compelled since 0 (and 1) are not adjacent to 3.
  const Cpdag c = bnsl::essential_graph({{}, {}, {0, 1}, {2}});
  CHECK(has_arc(c, 0, 2));
  CHECK(has_arc(c, 1, 2));
  CHECK(has_arc(c, 2, 3));
  CHECK(edge_count(c) == 0);
}

TEST_CASE("cpdag: Meek rule 2 orients against a directed path", "[cpdag]") {
  // 3 -> 1 <- 0 (collider), 1 -> 2 (rule 1), and 0 -> 2 forced by 0 -> 1 -> 2 (rule 2).
  const Cpdag c = bnsl::essential_graph({{}, {0, 3}, {0, 1}, {}});
  CHECK(has_arc(c, 3, 1));
  CHECK(has_arc(c, 0, 1));
  CHECK(has_arc(c, 1, 2));
  CHECK(has_arc(c, 0, 2));
  CHECK(edge_count(c) == 0);
}

TEST_CASE("cpdag: Meek rule 3 orients the diagonal of a kite", "[cpdag]") {
  // 2 -> 1 <- 3 (collider), 0 adjacent to 1, 2, 3: 0 -> 1 compelled, 0 - 2 and 0 - 3 not.
  const Cpdag c = bnsl::essential_graph({{}, {0, 2, 3}, {0}, {0}});
  CHECK(has_arc(c, 2, 1));
  CHECK(has_arc(c, 3, 1));
  CHECK(has_arc(c, 0, 1));
  CHECK(has_edge(c, 0, 2));
  CHECK(has_edge(c, 0, 3));
  CHECK(arc_count(c) == 3);
  CHECK(edge_count(c) == 2);
}

TEST_CASE("cpdag: textbook networks (sprinkler, asia)", "[cpdag]") {
  // Cloudy 0 -> Sprinkler 1, Cloudy -> Rain 2, 1 -> Wet 3 <- 2, Wet -> Slippery 4.
  const Cpdag s = bnsl::essential_graph({{}, {0}, {0}, {1, 2}, {3}});
  CHECK(has_edge(s, 0, 1));
  CHECK(has_edge(s, 0, 2));
  CHECK(has_arc(s, 1, 3));
  CHECK(has_arc(s, 2, 3));
  CHECK(has_arc(s, 3, 4));
  CHECK(arc_count(s) == 3);
  CHECK(edge_count(s) == 2);
  // ASIA: asia 0, tub 1, smoke 2, lung 3, bronc 4, either 5, xray 6, dysp 7.
  const Cpdag a = bnsl::essential_graph({{}, {0}, {}, {2}, {2}, {1, 3}, {5}, {4, 5}});
  CHECK(has_edge(a, 0, 1));
  CHECK(has_edge(a, 2, 3));
  CHECK(has_edge(a, 2, 4));
  CHECK(edge_count(a) == 3);
  for (auto [x, y] : {std::pair{1, 5}, {3, 5}, {5, 6}, {5, 7}, {4, 7}}) CHECK(has_arc(a, x, y));
  CHECK(arc_count(a) == 5);
}

TEST_CASE("cpdag: cycles and bad indices are rejected", "[cpdag]") {
  CHECK_THROWS_AS(bnsl::essential_graph({{1}, {2}, {0}}), bnsl::RuntimeError);
  CHECK_THROWS_AS(bnsl::essential_graph({{0}}), bnsl::RuntimeError);
  CHECK_THROWS_AS(bnsl::essential_graph({{5}, {}}), bnsl::RuntimeError);
}

TEST_CASE("cpdag: equivalence classes of a pool", "[cpdag]") {
  std::vector<bnsl::PoolDag> dags(4);
  dags[0].parents = {{}, {0}, {1}};    // 0 -> 1 -> 2
  dags[1].parents = {{1}, {2}, {}};    // 0 <- 1 <- 2: equivalent
  dags[2].parents = {{}, {0, 2}, {}};  // 0 -> 1 <- 2: a collider, not equivalent
  dags[3].parents = {{1}, {}, {1}};    // 0 <- 1 -> 2: equivalent to the chain
  bnsl::MecIndex index(dags);
  CHECK(index.class_of(0) == 0);
  CHECK(index.class_of(1) == 0);
  CHECK(index.class_of(2) == 1);
  CHECK(index.class_of(3) == 0);
  CHECK(index.size() == 2);
  bnsl::MecIndex recomputing(dags, 0);  // keeps no encoding: compares by recomputation
  for (std::size_t i = 0; i < dags.size(); ++i) CHECK(recomputing.class_of(i) == (i == 2));
  CHECK(recomputing.size() == 2);
}

TEST_CASE("cpdag: brute force over every DAG of 4 nodes", "[cpdag]") {
  REQUIRE(all_dags(4).size() == 543);  // OEIS A003024
  brute_force_check(4, 185);
}

TEST_CASE("cpdag: brute force over every DAG of 5 nodes", "[cpdag][slow]") {
  REQUIRE(all_dags(5).size() == 29281);
  brute_force_check(5, 8782);
}

namespace {

auto parents_of(const ParentSets& g) {
  return [&g](std::size_t v) { return std::span<const int>(g[v]); };
}

bool equivalent(const ParentSets& a, const ParentSets& b) {
  return bnsl::markov_equivalent(a.size(), parents_of(a), parents_of(b));
}

std::uint64_t key(const ParentSets& g) {
  return bnsl::class_key(g.size(), parents_of(g));
}

}  // namespace

TEST_CASE("class key: every pair of DAGs of 4 nodes against skeleton and v-structures", "[cpdag]") {
  const auto dags = all_dags(4);
  std::vector<Signature> sig;
  for (const auto& g : dags) sig.push_back(signature(g));
  std::size_t same = 0;
  for (std::size_t i = 0; i < dags.size(); ++i)
    for (std::size_t j = 0; j < dags.size(); ++j) {
      const bool oracle = sig[i] == sig[j];
      same += oracle;
      REQUIRE(equivalent(dags[i], dags[j]) == oracle);
      REQUIRE((key(dags[i]) == key(dags[j])) == oracle);
    }
  CHECK(same > dags.size());  // some classes have several members
}

TEST_CASE("class key: every DAG of 5 nodes, one key per class", "[cpdag][slow]") {
  const auto dags = all_dags(5);
  std::map<Signature, std::vector<std::size_t>> classes;
  for (std::size_t i = 0; i < dags.size(); ++i) classes[signature(dags[i])].push_back(i);
  std::map<std::uint64_t, const Signature*> keys;
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::size_t> any(0, dags.size() - 1);
  for (const auto& [s, members] : classes) {
    const ParentSets& first = dags[members.front()];
    REQUIRE(keys.emplace(key(first), &s).second);  // distinct classes, distinct keys
    for (std::size_t m : members) {
      REQUIRE(key(dags[m]) == key(first));
      REQUIRE(equivalent(dags[m], first));
    }
    for (int t = 0; t < 20; ++t) {
      const std::size_t other = any(rng);
      REQUIRE(equivalent(dags[other], first) == (signature(dags[other]) == s));
    }
  }
  CHECK(keys.size() == 8782);
}

namespace {

// children[v]: the nodes whose parents hold v, ascending.
ParentSets children_of(const ParentSets& g) {
  ParentSets ch(g.size());
  for (int v = 0; v < static_cast<int>(g.size()); ++v)
    for (int p : g[v]) ch[p].push_back(v);
  return ch;
}

// class_key_near(key(r), changed, r, d) against class_key(d); `changed` holds every node whose
// parents differ, and `extra` nodes more (allowed: the key must not depend on them).
void check_near(const ParentSets& r, const ParentSets& d, std::vector<int> extra) {
  std::vector<int> changed = std::move(extra);
  for (int v = 0; v < static_cast<int>(r.size()); ++v)
    if (r[v] != d[v]) changed.push_back(v);
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  const ParentSets ch = children_of(r);
  const auto children = [&ch](std::size_t v) { return std::span<const int>(ch[v]); };
  REQUIRE(bnsl::class_key_near(key(r), changed, parents_of(r), parents_of(d), children) == key(d));
}

}  // namespace

TEST_CASE("class key near a reference: every pair of DAGs of 4 nodes", "[cpdag]") {
  const auto dags = all_dags(4);
  for (const auto& r : dags)
    for (const auto& d : dags) check_near(r, d, {});
}

TEST_CASE("class key near a reference: random DAGs of 12 nodes, a few families redrawn",
          "[cpdag]") {
  std::mt19937 rng(12);
  const int n = 12;
  // parents of v drawn among the nodes before it in `order`, each with probability p
  const auto draw = [&](const std::vector<int>& order, int v, double p) {
    std::vector<int> ps;
    for (int u : order) {
      if (u == v) break;
      if (std::bernoulli_distribution(p)(rng)) ps.push_back(u);
    }
    std::sort(ps.begin(), ps.end());
    return ps;
  };
  int reversed = 0;  // arcs of d reversed in r: the test must have some
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    const double p = std::uniform_real_distribution<double>(0.1, 0.6)(rng);
    ParentSets r(n);
    for (int v = 0; v < n; ++v) r[v] = draw(order, v, p);
    ParentSets d = r;
    // Steps that keep `order` a topological order of d: redraw a family among the nodes
    // before it, or swap two neighbours of the order with no arc between them (after a
    // redraw that dropped it, so arcs come back reversed too).
    for (int step = 0; step < 4; ++step) {
      const int i = std::uniform_int_distribution<int>(0, n - 2)(rng);
      if (std::bernoulli_distribution(0.5)(rng)) d[order[i + 1]] = draw(order, order[i + 1], p);
      if (!adjacent(d, order[i], order[i + 1])) std::swap(order[i], order[i + 1]);
      if (std::bernoulli_distribution(0.5)(rng)) d[order[i + 1]] = draw(order, order[i + 1], p);
    }
    REQUIRE(acyclic(d));
    for (int v = 0; v < n; ++v)
      for (int u : d[v]) reversed += std::find(r[u].begin(), r[u].end(), v) != r[u].end();
    std::vector<int> extra;
    if (trial % 3 == 0) extra.push_back(std::uniform_int_distribution<int>(0, n - 1)(rng));
    check_near(r, d, extra);
    check_near(d, r, extra);
  }
  CHECK(reversed > 100);
}
