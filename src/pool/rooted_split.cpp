// The rooted split of a connected chordal graph: orient every edge of the root outwards and
// close under Meek's rules 1-3 (Meek 1995); the arcs forced and the undirected connected pieces
// left are what an AMO with that source holds and what its pieces orient independently (He, Jia
// & Yu, JMLR 2015). The arc states are stored beside each adjacency list, so a rule's test is a
// binary search in a sorted row.
#include "pool/rooted_split.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace bnsl {
namespace {

using Graph = std::vector<std::vector<int>>;

// Arc states of a graph under orientation, stored beside each adjacency list.
class Orienting {
 public:
  explicit Orienting(const Graph& g) : g_(g), state_(g.size()) {
    for (std::size_t v = 0; v < g.size(); ++v) state_[v].assign(g[v].size(), 0);
  }
  bool adjacent(int a, int b) const { return pos(a, b) >= 0; }
  bool undirected(int a, int b) const { return state_[a][pos(a, b)] == 0; }
  bool arc(int a, int b) const {  // a -> b
    const int i = pos(a, b);
    return i >= 0 && state_[a][i] == 1;
  }
  void orient(int a, int b) {
    state_[a][pos(a, b)] = 1;
    state_[b][pos(b, a)] = 2;
    queue_.emplace_back(a, b);
  }
  // Closes under Meek's rules 1-3.
  void close() {
    const int n = static_cast<int>(g_.size());
    for (bool changed = true; changed;) {
      while (!queue_.empty()) {  // rule 1: a -> b - c, a and c not adjacent: b -> c
        const auto [a, b] = queue_.back();
        queue_.pop_back();
        for (std::size_t k = 0; k < g_[b].size(); ++k) {
          const int c = g_[b][k];
          if (state_[b][k] == 0 && c != a && !adjacent(a, c)) orient(b, c);
        }
      }
      changed = false;
      for (int x = 0; x < n; ++x)
        for (std::size_t k = 0; k < g_[x].size(); ++k) {
          const int y = g_[x][k];
          if (state_[x][k] != 0) continue;
          if (rule2(x, y) || rule3(x, y)) {
            orient(x, y);
            changed = true;
          }
        }
    }
  }
  // Connected components (of at least 2 vertices) of the undirected edges.
  std::vector<std::vector<int>> pieces() const {
    const int n = static_cast<int>(g_.size());
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    std::vector<std::vector<int>> out;
    std::vector<int> stack;
    for (int s = 0; s < n; ++s) {
      if (seen[s]) continue;
      seen[s] = 1;
      std::vector<int> piece;
      stack.assign(1, s);
      while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        piece.push_back(v);
        for (std::size_t k = 0; k < g_[v].size(); ++k)
          if (state_[v][k] == 0 && !seen[g_[v][k]]) {
            seen[g_[v][k]] = 1;
            stack.push_back(g_[v][k]);
          }
      }
      if (piece.size() >= 2) {
        std::sort(piece.begin(), piece.end());
        out.push_back(std::move(piece));
      }
    }
    return out;
  }
  std::vector<std::pair<int, int>> arcs() const {
    std::vector<std::pair<int, int>> out;
    for (std::size_t v = 0; v < g_.size(); ++v)
      for (std::size_t k = 0; k < g_[v].size(); ++k)
        if (state_[v][k] == 1) out.emplace_back(static_cast<int>(v), g_[v][k]);
    return out;
  }

 private:
  int pos(int a, int b) const {
    const auto& row = g_[a];
    auto it = std::lower_bound(row.begin(), row.end(), b);
    return it != row.end() && *it == b ? static_cast<int>(it - row.begin()) : -1;
  }
  // Rule 2: x -> z -> y for some z.
  bool rule2(int x, int y) const {
    for (std::size_t k = 0; k < g_[x].size(); ++k)
      if (state_[x][k] == 1 && arc(g_[x][k], y)) return true;
    return false;
  }
  // Rule 3: x - c -> y and x - d -> y with c and d not adjacent.
  bool rule3(int x, int y) const {
    std::vector<int> into;
    for (std::size_t k = 0; k < g_[x].size(); ++k) {
      const int c = g_[x][k];
      if (state_[x][k] == 0 && c != y && arc(c, y)) into.push_back(c);
    }
    for (std::size_t i = 0; i < into.size(); ++i)
      for (std::size_t j = i + 1; j < into.size(); ++j)
        if (!adjacent(into[i], into[j])) return true;
    return false;
  }

  const Graph& g_;
  std::vector<std::vector<char>> state_;  // per adjacency entry: 0 -, 1 out, 2 in
  std::vector<std::pair<int, int>> queue_;
};

}  // namespace

RootedSplit rooted_split(const std::vector<std::vector<int>>& adjacency, int root) {
  Orienting o(adjacency);
  for (int w : adjacency[static_cast<std::size_t>(root)]) o.orient(root, w);
  o.close();
  return {o.arcs(), o.pieces()};
}

}  // namespace bnsl
