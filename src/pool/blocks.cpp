// Blocks of a chain component and the combination of their AMO counts (blocks.hpp).
#include "pool/blocks.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace bnsl {

BlockTree block_tree(const std::vector<std::vector<int>>& g) {
  const int n = static_cast<int>(g.size());
  std::vector<std::vector<int>> found;
  std::vector<int> disc(n, -1), low(n, 0), stack;
  struct Frame {
    int v;
    std::size_t next;
  };
  std::vector<Frame> dfs;
  int time = 0;
  disc[0] = low[0] = time++;
  stack.push_back(0);
  dfs.push_back({0, 0});
  while (!dfs.empty()) {
    Frame& f = dfs.back();
    const int v = f.v;
    if (f.next < g[v].size()) {
      const int w = g[v][f.next++];
      if (disc[w] < 0) {
        disc[w] = low[w] = time++;
        stack.push_back(w);
        dfs.push_back({w, 0});
      } else {
        low[v] = std::min(low[v], disc[w]);
      }
      continue;
    }
    dfs.pop_back();
    if (dfs.empty()) break;
    const int u = dfs.back().v;  // v's parent in the search
    low[u] = std::min(low[u], low[v]);
    if (low[v] >= disc[u]) {  // u separates v's subtree: a block of it and u
      std::vector<int> block{u};
      for (int w = -1; w != v;) {
        w = stack.back();
        stack.pop_back();
        block.push_back(w);
      }
      std::sort(block.begin(), block.end());
      found.push_back(std::move(block));
    }
  }
  // The tree, breadth first from the block found last (the one holding vertex 0).
  std::vector<std::vector<int>> of_vertex(n);
  for (std::size_t b = 0; b < found.size(); ++b)
    for (int v : found[b]) of_vertex[v].push_back(static_cast<int>(b));
  BlockTree t;
  std::vector<int> index(found.size(), -1);
  std::vector<int> queue{static_cast<int>(found.size()) - 1};
  index[queue[0]] = 0;
  t.parent.push_back(-1);
  t.cut.push_back(-1);
  for (std::size_t h = 0; h < queue.size(); ++h) {
    const int b = queue[h];
    for (int v : found[b])
      for (int x : of_vertex[v])
        if (index[x] < 0) {
          index[x] = static_cast<int>(queue.size());
          queue.push_back(x);
          t.parent.push_back(index[b]);
          t.cut.push_back(v);
        }
  }
  t.children.resize(queue.size());
  for (std::size_t i = 0; i < queue.size(); ++i) {
    t.blocks.push_back(std::move(found[queue[i]]));
    if (t.parent[i] >= 0) t.children[t.parent[i]].push_back(static_cast<int>(i));
  }
  return t;
}

BlockCounts combine_blocks(const BlockTree& t, const std::vector<BigUint>& count,
                           const std::function<BigUint(int block, int vertex)>& rooted) {
  const std::size_t m = t.blocks.size();
  // a_B(x) for the cut vertices each block needs, asked once per (block, vertex).
  std::vector<std::map<int, BigUint>> at(m);
  const auto a = [&](std::size_t b, int x) -> const BigUint& {
    auto it = at[b].find(x);
    if (it == at[b].end()) it = at[b].emplace(x, rooted(static_cast<int>(b), x)).first;
    return it->second;
  };
  // below[X]: block X and everything under it, entered from X's parent cut vertex.
  std::vector<BigUint> sub(m, BigUint(1)), below(m);
  for (std::size_t b = m; b-- > 0;) {
    for (int x : t.children[b]) sub[b] *= below[x];
    if (t.parent[b] >= 0) below[b] = a(b, t.cut[b]) * sub[b];
  }
  // up[X]: every block outside X's subtree, entered from X's parent cut vertex.
  BlockCounts out;
  std::vector<BigUint> up(m, BigUint(1));
  out.outside.resize(m);
  for (std::size_t b = 0; b < m; ++b) {
    const auto& kids = t.children[b];
    std::vector<BigUint> suffix(kids.size() + 1, BigUint(1));
    for (std::size_t i = kids.size(); i-- > 0;) suffix[i] = suffix[i + 1] * below[kids[i]];
    BigUint prefix = up[b];
    for (std::size_t i = 0; i < kids.size(); ++i) {
      up[kids[i]] = prefix * a(b, t.cut[kids[i]]) * suffix[i + 1];
      prefix *= below[kids[i]];
    }
    out.outside[b] = up[b] * sub[b];
    BigUint owned = count[b];
    if (t.parent[b] >= 0) owned -= a(b, t.cut[b]);
    out.total += out.outside[b] * owned;
  }
  return out;
}

}  // namespace bnsl
