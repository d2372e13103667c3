// bnsl/graph.hpp: topological order, acyclicity and adjacency of DAGs as parent sets, against
// an independent oracle: every directed graph of a few nodes (each ordered pair an arc or not),
// acyclic exactly when no node reaches itself (the transitive closure by repeated squaring of
// the adjacency matrix), and an order valid exactly when every arc goes forward in it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "bnsl/graph.hpp"

namespace {

// Graph `code` over n nodes: bit (u * n + v) set is the arc u -> v (no self-loops).
bnsl::ParentSets graph_of(std::uint32_t code, int n) {
  bnsl::ParentSets g(static_cast<std::size_t>(n));
  for (int u = 0; u < n; ++u)
    for (int v = 0; v < n; ++v)
      if (u != v && (code >> (u * n + v) & 1)) g[static_cast<std::size_t>(v)].push_back(u);
  return g;
}

// Whether some node reaches itself: reach = arcs, then reach |= reach * reach until stable.
bool has_cycle(std::uint32_t code, int n) {
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (int u = 0; u < n; ++u)
    for (int v = 0; v < n; ++v) reach[u][v] = u != v && (code >> (u * n + v) & 1);
  for (bool grew = true; grew;) {
    grew = false;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        for (int c = 0; c < n; ++c)
          if (reach[a][b] && reach[b][c] && !reach[a][c]) reach[a][c] = grew = true;
  }
  for (int a = 0; a < n; ++a)
    if (reach[a][a]) return true;
  return false;
}

}  // namespace

TEST_CASE("topological order and acyclicity agree with the transitive closure", "[graph]") {
  for (int n = 1; n <= 4; ++n) {
    const std::uint32_t codes = std::uint32_t{1} << (n * n);
    for (std::uint32_t code = 0; code < codes; ++code) {
      bool self_loop = false;
      for (int v = 0; v < n; ++v) self_loop = self_loop || (code >> (v * n + v) & 1);
      if (self_loop) continue;
      const bnsl::ParentSets g = graph_of(code, n);
      const std::vector<int> order = bnsl::topological_order(g);
      INFO("n " << n << ", graph " << code);
      REQUIRE(bnsl::is_acyclic(g) == !has_cycle(code, n));
      REQUIRE((order.size() == static_cast<std::size_t>(n)) == !has_cycle(code, n));
      // Every node at most once, and every parent of a placed node placed before it.
      std::vector<int> at(static_cast<std::size_t>(n), -1);
      for (std::size_t i = 0; i < order.size(); ++i) {
        REQUIRE(at[static_cast<std::size_t>(order[i])] == -1);
        at[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
      }
      for (int v = 0; v < n; ++v) {
        if (at[static_cast<std::size_t>(v)] < 0) continue;
        for (const int p : g[static_cast<std::size_t>(v)]) {
          REQUIRE(at[static_cast<std::size_t>(p)] >= 0);
          REQUIRE(at[static_cast<std::size_t>(p)] < at[static_cast<std::size_t>(v)]);
        }
      }
      for (int u = 0; u < n; ++u)
        for (int v = 0; v < n; ++v)
          REQUIRE(bnsl::adjacent(g, u, v) ==
                  (u != v && ((code >> (u * n + v) & 1) || (code >> (v * n + u) & 1))));
    }
  }
}

TEST_CASE("a topological order breaks ties by index, breadth first", "[graph]") {
  // 2 -> 0, 3 -> 1, 0 -> 1: the parentless 2 and 3 in index order, then 0 (its last parent,
  // 2, placed first), then 1.
  const bnsl::ParentSets g{{2}, {0, 3}, {}, {}};
  CHECK(bnsl::topological_order(g) == std::vector<int>{2, 3, 0, 1});
}
