// Sizes of Markov equivalence classes (src/pool/mec_size.*, Clique-Picking), their members
// (src/pool/class_members.*) and the orientation fractions of their reversible edges
// (src/pool/orientations.*) against an independent enumeration: every orientation of a random
// DAG's skeleton that is acyclic and has the same v-structures (Verma & Pearl 1990) is a
// member of its class. Also graphs whose AMO counts are known in closed form, and the big
// integers that hold them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "bnsl/error.hpp"
#include "pool/class_members.hpp"
#include "pool/cpdag.hpp"
#include "pool/mec_size.hpp"
#include "pool/orientations.hpp"
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

// Random DAGs of up to 10 nodes whose skeleton has at most 18 arcs (2^18 orientations), with
// enough classes of more than two members.
template <typename Check>
void for_random_classes(std::uint64_t seed, Check check) {
  std::mt19937_64 rng(seed);
  int nontrivial = 0;
  for (int n = 2; n <= 10; ++n)
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
  CHECK(nontrivial > 40);
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
      std::size_t forward = 0;
      for (const ParentSets& m : members) forward += has_arc(m, u, v);
      const double want = static_cast<double>(forward) / static_cast<double>(members.size());
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
