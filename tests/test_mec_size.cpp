// Sizes of Markov equivalence classes (src/pool/mec_size.*, Clique-Picking), their members
// (src/pool/class_members.*) and the orientation fractions of their reversible edges
// (src/pool/orientations.*) against an independent enumeration: every orientation of a random
// DAG's skeleton that is acyclic and has the same v-structures (Verma & Pearl 1990) is a
// member of its class. Also graphs whose AMO counts are known in closed form, and the big
// integers that hold them. With constraints (forbidden arcs, tiers), the same against the
// enumerated members that satisfy them (Constraints::violation).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "bnsl/constraints.hpp"
#include "bnsl/error.hpp"
#include "pool/blocks.hpp"
#include "pool/class_members.hpp"
#include "pool/cpdag.hpp"
#include "pool/mec_size.hpp"
#include "pool/orientations.hpp"
#include "pool/rooted_split.hpp"
#include "util/big_uint.hpp"

using bnsl::BigUint;
using bnsl::ParentSets;

namespace {

using Adjacency = std::vector<std::vector<int>>;

bool acyclic(const ParentSets& g) {
  const std::size_t n = g.size();
  std::vector<int> state(n, 0);  // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<int, std::size_t>> stack;
  for (std::size_t s = 0; s < n; ++s) {
    if (state[s]) continue;
    stack.assign(1, {static_cast<int>(s), 0});
    state[s] = 1;
    while (!stack.empty()) {
      auto& [v, i] = stack.back();
      if (i < g[v].size()) {
        const int p = g[v][i++];
        if (state[p] == 1) return false;
        if (state[p] == 0) {
          state[p] = 1;
          stack.emplace_back(p, 0);
        }
      } else {
        state[v] = 2;
        stack.pop_back();
      }
    }
  }
  return true;
}

// (a, c, b) with a -> c <- b and a, b not adjacent, a < b.
std::set<std::tuple<int, int, int>> v_structures(const ParentSets& g) {
  const std::size_t n = g.size();
  std::set<std::pair<int, int>> adjacent;
  for (std::size_t v = 0; v < n; ++v)
    for (int p : g[v]) {
      adjacent.insert({p, static_cast<int>(v)});
      adjacent.insert({static_cast<int>(v), p});
    }
  std::set<std::tuple<int, int, int>> out;
  for (std::size_t c = 0; c < n; ++c)
    for (int a : g[c])
      for (int b : g[c])
        if (a < b && !adjacent.count({a, b})) out.insert({a, static_cast<int>(c), b});
  return out;
}

// Members of g's class (parent lists sorted), by trying every orientation of its skeleton.
std::set<ParentSets> brute_force_members(const ParentSets& g) {
  std::vector<std::pair<int, int>> edges;  // (parent, child) in g
  for (std::size_t v = 0; v < g.size(); ++v)
    for (int p : g[v]) edges.emplace_back(p, static_cast<int>(v));
  const auto target = v_structures(g);
  std::set<ParentSets> members;
  for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << edges.size()); ++mask) {
    ParentSets h(g.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const auto [a, b] = edges[e];
      if (mask >> e & 1)
        h[a].push_back(b);
      else
        h[b].push_back(a);
    }
    if (!acyclic(h) || v_structures(h) != target) continue;
    for (auto& ps : h) std::sort(ps.begin(), ps.end());
    members.insert(std::move(h));
  }
  return members;
}

std::uint64_t brute_force_class_size(const ParentSets& g) {
  return brute_force_members(g).size();
}

bool has_arc(const ParentSets& g, int from, int to) {
  return std::find(g[to].begin(), g[to].end(), from) != g[to].end();
}

// The fraction of `members` holding the arc from -> to.
double fraction_with_arc(const std::set<ParentSets>& members, int from, int to) {
  std::size_t forward = 0;
  for (const ParentSets& m : members) forward += has_arc(m, from, to);
  return static_cast<double>(forward) / static_cast<double>(members.size());
}

ParentSets random_dag(int n, double density, std::mt19937_64& rng) {
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::bernoulli_distribution arc(density);
  ParentSets g(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (arc(rng)) g[order[i]].push_back(order[j]);
  return g;
}

Adjacency complete(int n) {
  Adjacency a(n);
  for (int v = 0; v < n; ++v)
    for (int w = 0; w < n; ++w)
      if (v != w) a[v].push_back(w);
  return a;
}

std::uint64_t size_u64(const BigUint& b) {
  std::uint64_t x = 0;
  REQUIRE(b.to_u64(x));
  return x;
}

}  // namespace

TEST_CASE("mec size: random DAGs of up to 10 nodes against enumeration", "[mec]") {
  std::mt19937_64 rng(20261124);
  int checked = 0, nontrivial = 0;
  for (int n = 1; n <= 10; ++n)
    for (double density : {0.2, 0.4, 0.7})
      for (int rep = 0; rep < 12; ++rep) {
        const ParentSets g = random_dag(n, density, rng);
        std::size_t arcs = 0;
        for (const auto& p : g) arcs += p.size();
        if (arcs > 18) continue;  // 2^18 orientations at most
        const std::uint64_t expected = brute_force_class_size(g);
        const BigUint got = bnsl::mec_size(bnsl::essential_graph(g));
        INFO("n " << n << ", density " << density << ", rep " << rep);
        CHECK(size_u64(got) == expected);
        ++checked;
        if (expected > 2) ++nontrivial;
      }
  CHECK(checked > 200);
  CHECK(nontrivial > 50);  // not only trees and singletons
}

// Random DAGs of up to max_n (<= 10) nodes whose skeleton has at most 18 arcs (2^18
// orientations), with enough classes of more than two members.
template <typename Check>
void for_random_classes(std::uint64_t seed, Check check, int max_n = 10) {
  std::mt19937_64 rng(seed);
  int nontrivial = 0;
  for (int n = 2; n <= max_n; ++n)
    for (double density : {0.2, 0.4, 0.7})
      for (int rep = 0; rep < 8; ++rep) {
        const ParentSets g = random_dag(n, density, rng);
        std::size_t arcs = 0;
        for (const auto& p : g) arcs += p.size();
        if (arcs > 18) continue;
        const std::set<ParentSets> members = brute_force_members(g);
        if (members.size() > 2) ++nontrivial;
        INFO("n " << n << ", density " << density << ", rep " << rep);
        check(g, members);
      }
  CHECK(nontrivial > 4 * max_n);
}

TEST_CASE("class members: the covered-arc walk lists exactly the class", "[mec]") {
  for_random_classes(7, [](const ParentSets& g, const std::set<ParentSets>& members) {
    const std::vector<ParentSets> listed = bnsl::class_members(g, 1u << 20);
    const std::set<ParentSets> got(listed.begin(), listed.end());
    CHECK(got.size() == listed.size());  // no DAG twice
    CHECK(got == members);
    ParentSets first = g;
    for (auto& ps : first) std::sort(ps.begin(), ps.end());
    CHECK(listed.front() == first);
    if (members.size() > 1)
      CHECK(bnsl::class_members(g, members.size() - 1).size() == members.size() - 1);
  });
}

TEST_CASE("orientations: reversible edges' fractions equal enumeration, exact and sampled",
          "[mec]") {
  for_random_classes(11, [](const ParentSets& g, const std::set<ParentSets>& members) {
    const bnsl::Cpdag e = bnsl::essential_graph(g);
    const bnsl::EdgeOrientations exact = bnsl::edge_orientations(e);
    CHECK(exact.sampled == 0);
    CHECK(size_u64(exact.size) == members.size());
    bnsl::OrientationLimits sampling;
    sampling.max_subproblems = 0;  // every component sampled
    sampling.samples = 4000;
    const bnsl::EdgeOrientations sampled = bnsl::edge_orientations(e, sampling);
    std::size_t reversible = 0;
    for (const auto& u : e.undirected) reversible += u.size();
    REQUIRE(exact.fractions.size() * 2 == reversible);
    REQUIRE(sampled.fractions.size() == exact.fractions.size());
    for (std::size_t i = 0; i < exact.fractions.size(); ++i) {
      const auto [u, v, p] = exact.fractions[i];
      const double want = fraction_with_arc(members, u, v);
      INFO("edge " << u << " - " << v);
      CHECK(std::fabs(p - want) < 1e-12);
      const double sd = std::sqrt(want * (1 - want) / sampling.samples);
      CHECK(std::fabs(std::get<2>(sampled.fractions[i]) - want) <= 5 * sd + 1e-12);
    }
  });
}

// The subgraph of g induced by the sorted vertex set s, over indices 0..|s|-1.
Adjacency induced(const Adjacency& g, const std::vector<int>& s) {
  Adjacency h(s.size());
  for (std::size_t i = 0; i < s.size(); ++i)
    for (int w : g[static_cast<std::size_t>(s[i])]) {
      auto it = std::lower_bound(s.begin(), s.end(), w);
      if (it != s.end() && *it == w) h[i].push_back(static_cast<int>(it - s.begin()));
    }
  return h;
}

TEST_CASE("orientations: the AMOs of a chordal graph split by their source", "[mec]") {
  // Chain components of random CPDAGs: the rooted splits' counts add up to the AMO count.
  std::mt19937_64 rng(13);
  int components = 0;
  for (int n = 3; n <= 10; ++n)
    for (int rep = 0; rep < 20; ++rep) {
      const bnsl::Cpdag e = bnsl::essential_graph(random_dag(n, 0.5, rng));
      Adjacency und(static_cast<std::size_t>(n));
      for (int v = 0; v < n; ++v)
        for (int u : e.undirected[static_cast<std::size_t>(v)]) {
          und[static_cast<std::size_t>(v)].push_back(u);
          und[static_cast<std::size_t>(u)].push_back(v);
        }
      for (auto& row : und) {
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
      }
      std::vector<char> seen(static_cast<std::size_t>(n), 0);
      for (int s = 0; s < n; ++s) {
        if (seen[static_cast<std::size_t>(s)] || und[static_cast<std::size_t>(s)].empty()) continue;
        std::vector<int> comp, stack{s};
        seen[static_cast<std::size_t>(s)] = 1;
        while (!stack.empty()) {
          const int v = stack.back();
          stack.pop_back();
          comp.push_back(v);
          for (int w : und[static_cast<std::size_t>(v)])
            if (!seen[static_cast<std::size_t>(w)]) {
              seen[static_cast<std::size_t>(w)] = 1;
              stack.push_back(w);
            }
        }
        std::sort(comp.begin(), comp.end());
        const Adjacency h = induced(und, comp);
        BigUint sum;
        for (std::size_t r = 0; r < h.size(); ++r) {
          BigUint product(1);
          for (const auto& piece : bnsl::rooted_split(h, static_cast<int>(r)).pieces)
            product *= bnsl::count_amos(induced(h, piece));
          sum += product;
        }
        INFO("n " << n << ", rep " << rep << ", component of " << comp.size());
        CHECK(sum == bnsl::count_amos(h));
        ++components;
      }
    }
  CHECK(components > 50);
}

// A connected chordal graph as a DAG (an AMO of it): each new vertex takes as parents a
// nonempty subset of a clique met before (a single vertex half the time, so the graph has
// many blocks), then the vertices are renamed at random.
ParentSets random_chordal_amo(int n, std::mt19937_64& rng) {
  std::vector<std::vector<int>> cliques{{0}};
  ParentSets g(static_cast<std::size_t>(n));
  for (int v = 1; v < n; ++v) {
    const auto& c = cliques[std::uniform_int_distribution<std::size_t>(0, cliques.size() - 1)(rng)];
    std::vector<int> s;
    if (std::bernoulli_distribution(0.5)(rng)) {
      s.push_back(c[std::uniform_int_distribution<std::size_t>(0, c.size() - 1)(rng)]);
    } else {
      for (int u : c)
        if (std::bernoulli_distribution(0.6)(rng)) s.push_back(u);
      if (s.empty()) s.push_back(c.front());
    }
    g[static_cast<std::size_t>(v)] = s;
    s.push_back(v);
    cliques.push_back(s);
  }
  std::vector<int> name(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) name[static_cast<std::size_t>(v)] = v;
  std::shuffle(name.begin(), name.end(), rng);
  ParentSets renamed(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v)
    for (int p : g[static_cast<std::size_t>(v)])
      renamed[static_cast<std::size_t>(name[static_cast<std::size_t>(v)])].push_back(
          name[static_cast<std::size_t>(p)]);
  return renamed;
}

TEST_CASE("blocks: chordal graphs of many blocks, counts and fractions against enumeration",
          "[mec]") {
  std::mt19937_64 rng(29);
  int with_cuts = 0;
  for (int n = 2; n <= 9; ++n)
    for (int rep = 0; rep < 25; ++rep) {
      const ParentSets g = random_chordal_amo(n, rng);
      const bnsl::Cpdag e = bnsl::essential_graph(g);
      for (const auto& d : e.directed) REQUIRE(d.empty());  // every AMO of it is in the class
      Adjacency und(static_cast<std::size_t>(n));
      std::size_t edges = 0;
      for (int v = 0; v < n; ++v)
        for (int u : e.undirected[static_cast<std::size_t>(v)]) {
          und[static_cast<std::size_t>(v)].push_back(u);
          ++edges;
        }
      edges /= 2;
      // The blocks hold every edge once.
      const bnsl::BlockTree t = bnsl::block_tree(und);
      std::size_t in_blocks = 0;
      for (const auto& b : t.blocks)
        for (int v : b)
          for (int w : und[static_cast<std::size_t>(v)])
            in_blocks += v < w && std::binary_search(b.begin(), b.end(), w);
      CHECK(in_blocks == edges);
      with_cuts += t.blocks.size() > 1;
      const std::set<ParentSets> members = brute_force_members(g);
      INFO("n " << n << ", rep " << rep << ", " << t.blocks.size() << " blocks");
      CHECK(size_u64(bnsl::count_amos(und)) == members.size());
      const bnsl::EdgeOrientations exact = bnsl::edge_orientations(e);
      bnsl::OrientationLimits sampling;
      sampling.max_subproblems = 0;  // every block sampled
      sampling.samples = 4000;
      const bnsl::EdgeOrientations sampled = bnsl::edge_orientations(e, sampling);
      CHECK(size_u64(exact.size) == members.size());
      CHECK(size_u64(sampled.size) == members.size());
      REQUIRE(exact.fractions.size() == edges);
      REQUIRE(sampled.fractions.size() == edges);
      for (std::size_t i = 0; i < edges; ++i) {
        const auto [u, v, p] = exact.fractions[i];
        const double want = fraction_with_arc(members, u, v);
        INFO("edge " << u << " - " << v);
        CHECK(std::fabs(p - want) < 1e-12);
        // A mix of independent estimates with weights summing to 1: sd <= 0.5 / sqrt(samples).
        CHECK(std::fabs(std::get<2>(sampled.fractions[i]) - want) <= 5 * 0.5 / std::sqrt(4000.0));
      }
    }
  CHECK(with_cuts > 100);
}

TEST_CASE("blocks: a tree of 3,000 vertices in closed form", "[mec]") {
  // One AMO per source; u -> v exactly when the source lies on u's side of the edge.
  const int n = 3000;
  std::mt19937_64 rng(31);
  std::vector<int> parent(n, -1);
  Adjacency tree(n);
  ParentSets dag(n);
  for (int v = 1; v < n; ++v) {
    parent[v] = std::uniform_int_distribution<int>(std::max(0, v - 3), v - 1)(rng);  // long paths
    tree[v].push_back(parent[v]);
    tree[parent[v]].push_back(v);
    dag[v].push_back(parent[v]);
  }
  for (auto& a : tree) std::sort(a.begin(), a.end());
  std::vector<int> below(n, 1);  // vertices in v's subtree
  for (int v = n - 1; v > 0; --v) below[parent[v]] += below[v];
  CHECK(size_u64(bnsl::count_amos(tree)) == static_cast<std::uint64_t>(n));
  const bnsl::EdgeOrientations o = bnsl::edge_orientations(bnsl::essential_graph(dag));
  CHECK(o.sampled == 0);
  REQUIRE(o.fractions.size() == static_cast<std::size_t>(n - 1));
  for (const auto& [u, v, p] : o.fractions) {
    // u < v, and here v's parent is u or u's is v; the child's side is its subtree.
    const double child_side = parent[v] == u ? below[v] : below[u];
    const double want = parent[v] == u ? 1 - child_side / n : child_side / n;
    INFO("edge " << u << " - " << v);
    CHECK(std::fabs(p - want) < 1e-12);
  }
}

TEST_CASE("mec size: closed forms", "[mec]") {
  // A clique of n nodes: every order is an AMO.
  for (int n = 1; n <= 8; ++n)
    CHECK(size_u64(bnsl::count_amos(complete(n))) == size_u64(BigUint::factorial(n)));
  CHECK(bnsl::count_amos(complete(30)).to_string() == "265252859812191058636308480000000");
  // A tree of n nodes: one AMO per choice of root.
  for (int n : {2, 5, 40}) {
    Adjacency path(n);
    for (int v = 0; v + 1 < n; ++v) {
      path[v].push_back(v + 1);
      path[v + 1].push_back(v);
    }
    for (auto& a : path) std::sort(a.begin(), a.end());
    CHECK(size_u64(bnsl::count_amos(path)) == static_cast<std::uint64_t>(n));
  }
  // Disconnected: the product over components (two triangles: 6 * 6).
  Adjacency two(6);
  for (int base : {0, 3})
    for (int v = base; v < base + 3; ++v)
      for (int w = base; w < base + 3; ++w)
        if (v != w) two[v].push_back(w);
  CHECK(size_u64(bnsl::count_amos(two)) == 36);
  // A chordless 4-cycle is no chain component of a CPDAG.
  const Adjacency cycle = {{1, 3}, {0, 2}, {1, 3}, {0, 2}};
  CHECK_THROWS_AS(bnsl::count_amos(cycle), bnsl::RuntimeError);
}

TEST_CASE("big uint: arithmetic and decimal text", "[mec]") {
  BigUint a = BigUint::factorial(25);
  CHECK(a.to_string() == "15511210043330985984000000");
  BigUint b = a;
  b *= BigUint::factorial(20);
  b -= a;
  b += BigUint(1);
  BigUint c = a * (BigUint::factorial(20) - BigUint(1)) + BigUint(1);
  CHECK(b == c);
  CHECK(BigUint(0).to_string() == "0");
  CHECK(BigUint(1000000000).to_string() == "1000000000");
  CHECK(BigUint(18446744073709551615ull).to_string() == "18446744073709551615");
  CHECK(std::abs(a.log10() - std::log10(1.5511210043330985984e25)) < 1e-9);
  CHECK_THROWS(BigUint(3) -= BigUint(4));
}

namespace {

// The members that satisfy c.
std::set<ParentSets> satisfying(const std::set<ParentSets>& members, const bnsl::Constraints& c) {
  std::set<ParentSets> out;
  for (const ParentSets& m : members)
    if (!c.violation(m)) out.insert(m);
  return out;
}

// Forbidden arcs: each reversible edge's direction against g with probability p (never an arc
// of g), and a few pairs at random that g does not hold as arcs (most are no edge at all).
bnsl::Constraints random_forbidden(const ParentSets& g, double p, std::mt19937_64& rng) {
  const int n = static_cast<int>(g.size());
  const bnsl::Cpdag e = bnsl::essential_graph(g);
  std::set<std::pair<int, int>> arcs;
  for (int v = 0; v < n; ++v)
    for (int u : e.undirected[static_cast<std::size_t>(v)])
      if (std::bernoulli_distribution(p)(rng))
        arcs.insert(has_arc(g, u, v) ? std::pair(v, u) : std::pair(u, v));
  for (int k = 0; k < 2 && n > 1; ++k) {
    const int a = std::uniform_int_distribution<int>(0, n - 1)(rng);
    const int b = std::uniform_int_distribution<int>(0, n - 1)(rng);
    if (a != b && !has_arc(g, a, b)) arcs.insert({a, b});
  }
  bnsl::Constraints c;
  c.forbidden.assign(arcs.begin(), arcs.end());
  return c;
}

// Tiers consistent with g: along a topological order of g, the tier grows by one with
// probability p; a variable is left out of the tiers with probability 0.2.
bnsl::Constraints random_tiers(const ParentSets& g, double p, std::mt19937_64& rng) {
  const std::size_t n = g.size();
  std::vector<int> order, placed(n, 0);
  while (order.size() < n)
    for (std::size_t v = 0; v < n; ++v)
      if (!placed[v] && std::all_of(g[v].begin(), g[v].end(), [&](int u) {
            return placed[static_cast<std::size_t>(u)] != 0;
          })) {
        placed[v] = 1;
        order.push_back(static_cast<int>(v));
      }
  bnsl::Constraints c;
  c.tiers.assign(n, -1);
  int tier = 0;
  for (int v : order) {
    if (std::bernoulli_distribution(p)(rng)) ++tier;
    if (!std::bernoulli_distribution(0.2)(rng)) c.tiers[static_cast<std::size_t>(v)] = tier;
  }
  return c;
}

// The class of g under c against enumeration: size, fractions (exact, also through a cache
// already holding the unconstrained components) and listed members. Returns the size.
std::size_t check_constrained(const ParentSets& g, const std::set<ParentSets>& members,
                              const bnsl::Constraints& c) {
  ParentSets first = g;
  for (auto& ps : first) std::sort(ps.begin(), ps.end());
  REQUIRE(!c.violation(first));
  const std::set<ParentSets> kept = satisfying(members, c);
  REQUIRE(kept.count(first) == 1);
  const bnsl::Cpdag e = bnsl::essential_graph(g);
  bnsl::OrientationCache cache;
  bnsl::edge_orientations(e, {}, &cache);
  for (bnsl::OrientationCache* with : {static_cast<bnsl::OrientationCache*>(nullptr), &cache}) {
    const bnsl::EdgeOrientations o = bnsl::edge_orientations(e, {}, with, &c);
    CHECK(!o.size_estimated);
    CHECK(o.sampled == 0);
    CHECK(size_u64(o.size) == kept.size());
    std::size_t reversible = 0;
    for (const auto& u : e.undirected) reversible += u.size();
    REQUIRE(o.fractions.size() * 2 == reversible);
    for (const auto& [u, v, p] : o.fractions) {
      INFO("edge " << u << " - " << v);
      CHECK(std::fabs(p - fraction_with_arc(kept, u, v)) < 1e-9);
    }
  }
  const std::vector<ParentSets> listed = bnsl::class_members(g, 1u << 20, &c);
  const std::set<ParentSets> got(listed.begin(), listed.end());
  CHECK(got.size() == listed.size());
  CHECK(got == kept);
  CHECK(listed.front() == first);
  return kept.size();
}

}  // namespace

TEST_CASE("constraints: forbidden arcs, class sizes, fractions and members against enumeration",
          "[mec][constraints]") {
  int restricted = 0;  // classes the constraints cut down, with more than one member left
  for (std::uint64_t seed : {101, 102, 103})
    for_random_classes(
        seed,
        [&](const ParentSets& g, const std::set<ParentSets>& members) {
          std::mt19937_64 rng(seed * 1000 + members.size() + g.size());
          for (double p : {0.2, 0.5}) {
            const bnsl::Constraints c = random_forbidden(g, p, rng);
            const std::size_t kept = check_constrained(g, members, c);
            restricted += kept < members.size() && kept > 1;
          }
        },
        8);
  CHECK(restricted > 30);
}

TEST_CASE("constraints: tiers, class sizes, fractions and members against enumeration",
          "[mec][constraints]") {
  int restricted = 0;
  for (std::uint64_t seed : {201, 202, 203})
    for_random_classes(
        seed,
        [&](const ParentSets& g, const std::set<ParentSets>& members) {
          std::mt19937_64 rng(seed * 1000 + members.size() + g.size());
          for (double p : {0.15, 0.4}) {
            const bnsl::Constraints c = random_tiers(g, p, rng);
            const std::size_t kept = check_constrained(g, members, c);
            restricted += kept < members.size() && kept > 1;
          }
        },
        8);
  CHECK(restricted > 30);
}

TEST_CASE("constraints: chordal graphs of many blocks against enumeration", "[mec][constraints]") {
  // One chain component of many blocks: the constrained blocks combine as blocks.hpp says.
  std::mt19937_64 rng(37);
  int restricted = 0;
  for (int n = 3; n <= 9; ++n)
    for (int rep = 0; rep < 20; ++rep) {
      const ParentSets g = random_chordal_amo(n, rng);
      const std::set<ParentSets> members = brute_force_members(g);
      INFO("n " << n << ", rep " << rep);
      const bnsl::Constraints c =
          rep % 2 ? random_forbidden(g, 0.3, rng) : random_tiers(g, 0.3, rng);
      const std::size_t kept = check_constrained(g, members, c);
      restricted += kept < members.size() && kept > 1;
    }
  CHECK(restricted > 30);
}

TEST_CASE("constraints: beyond the budget, sizes and fractions are estimated by sampling",
          "[mec][constraints]") {
  bnsl::OrientationLimits limits;
  limits.max_subproblems = 0;  // every constrained component estimated
  limits.samples = 4000;
  int estimated = 0;
  for (std::uint64_t seed : {301, 302})
    for_random_classes(
        seed,
        [&](const ParentSets& g, const std::set<ParentSets>& members) {
          std::mt19937_64 rng(seed * 1000 + members.size() + g.size());
          const bnsl::Constraints c =
              members.size() % 2 ? random_forbidden(g, 0.4, rng) : random_tiers(g, 0.3, rng);
          const std::set<ParentSets> kept = satisfying(members, c);
          const bnsl::Cpdag e = bnsl::essential_graph(g);
          const bnsl::EdgeOrientations exact = bnsl::edge_orientations(e, {}, nullptr, &c);
          const bnsl::EdgeOrientations o = bnsl::edge_orientations(e, limits, nullptr, &c);
          REQUIRE(size_u64(exact.size) == kept.size());
          // Estimated exactly when some component has a constrained edge; unconstrained
          // components are then sampled as ever, with their counts exact.
          bool constrained = false;
          for (std::size_t v = 0; v < e.n_vars(); ++v)
            for (int u : e.undirected[v])
              constrained = constrained || !c.allowed(u, static_cast<int>(v)) ||
                            !c.allowed(static_cast<int>(v), u);
          CHECK(o.size_estimated == constrained);
          if (!constrained) return;
          ++estimated;
          CHECK(o.sampled > 0);
          // Importance weights w in (0, 1] with E[w] = q, the share of a component's AMOs that
          // satisfy the constraints (at least the class's share): E[w^2] <= q bounds the sd of
          // the count's relative error by 1 / sqrt(4000 q) (then rounded), and of a fraction by
          // 0.5 / sqrt(4000 q), as 4000 q draws kept by rejection would.
          const double q = static_cast<double>(kept.size()) / static_cast<double>(members.size());
          const double tolerance = 5 / std::sqrt(4000 * q);
          const double got = static_cast<double>(size_u64(o.size));
          const double want = static_cast<double>(kept.size());
          CHECK(got >= 1);
          CHECK(std::fabs(got - want) <= tolerance * want + 1);
          REQUIRE(o.fractions.size() == exact.fractions.size());
          for (std::size_t i = 0; i < o.fractions.size(); ++i) {
            const auto [u, v, p] = exact.fractions[i];
            INFO("edge " << u << " - " << v);
            CHECK(std::get<0>(o.fractions[i]) == u);
            CHECK(std::get<1>(o.fractions[i]) == v);
            CHECK(std::fabs(std::get<2>(o.fractions[i]) - p) <= tolerance * 0.5 + 1e-12);
          }
        },
        8);
  CHECK(estimated > 50);
}

TEST_CASE("constraints: a rare satisfying orientation, and classes with none",
          "[mec][constraints]") {
  // A clique of 9 in 9 tiers: one of its 9! AMOs satisfies them. Exactly with the default
  // budget (only one root is allowed at each level), and estimated with none: every draw is
  // that AMO, of weight 1 / 9! (where rejection would keep one draw in 9!).
  const int n = 9;
  ParentSets clique(n);
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < v; ++u) clique[static_cast<std::size_t>(v)].push_back(u);
  bnsl::Constraints tiers;
  for (int v = 0; v < n; ++v) tiers.tiers.push_back(n - 1 - v);  // v -> u for u < v only
  ParentSets order(n);                                           // the compliant member
  for (int v = 0; v < n; ++v)
    for (int u = v + 1; u < n; ++u) order[static_cast<std::size_t>(v)].push_back(u);
  const bnsl::Cpdag e = bnsl::essential_graph(clique);
  const bnsl::EdgeOrientations exact = bnsl::edge_orientations(e, {}, nullptr, &tiers);
  CHECK(!exact.size_estimated);
  CHECK(size_u64(exact.size) == 1);
  bnsl::OrientationLimits limits;
  limits.max_subproblems = 0;
  limits.samples = 10;
  const bnsl::EdgeOrientations estimated = bnsl::edge_orientations(e, limits, nullptr, &tiers);
  CHECK(estimated.size_estimated);
  CHECK(size_u64(estimated.size) == 1);
  REQUIRE(exact.fractions.size() == static_cast<std::size_t>(n * (n - 1) / 2));
  REQUIRE(estimated.fractions == exact.fractions);
  for (const auto& [u, v, p] : exact.fractions) CHECK(p == 0);  // v -> u
  const std::vector<ParentSets> listed = bnsl::class_members(order, 100, &tiers);
  CHECK(listed == std::vector<ParentSets>{order});

  // Constraints no member satisfies: size 0, the fractions over all members.
  const ParentSets path = {{}, {0}, {1}};  // 0 - 1 - 2 reversible
  bnsl::Constraints both;
  both.forbidden = {{0, 1}, {1, 0}};
  bnsl::Constraints collider;  // 0 -> 1 <- 2 is a v-structure
  collider.forbidden = {{1, 0}, {1, 2}};
  for (const bnsl::Constraints* c : {&both, &collider})
    for (std::size_t budget : {std::size_t{0}, std::size_t{1024}}) {
      bnsl::OrientationLimits l;
      l.max_subproblems = budget;
      const bnsl::EdgeOrientations o =
          bnsl::edge_orientations(bnsl::essential_graph(path), l, nullptr, c);
      CHECK(o.size.is_zero());
      CHECK(!o.size_estimated);
      REQUIRE(o.fractions.size() == 2);
      // 0 -> 1 in 1 of the 3 members (sampled with no budget).
      CHECK(std::fabs(std::get<2>(o.fractions[0]) - 1.0 / 3) < (budget == 0 ? 0.1 : 1e-12));
    }
}
