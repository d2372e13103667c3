// Counting the DAGs of a Markov equivalence class (mec_size.hpp) by Clique-Picking
// (Wienöbst, Bannach & Liśkiewicz, "Polynomial-Time Algorithms for Counting and Sampling Markov
// Equivalent DAGs", AAAI 2021).
//
// The AMOs (acyclic orientations without v-structures) of a connected chordal graph G are
// counted by the maximal clique they start from. Root a clique tree T of G at some clique.
// For a maximal clique K and a permutation pi of K, orienting K by pi and G's other edges away
// from K as far as that forces them leaves undirected pieces, the subproblems C_G(K) (computed
// here by a maximum cardinality search that numbers K first: each time it meets a vertex not
// yet placed, the unplaced vertices of the highest label form a region, and the region's
// connected components are subproblems); every AMO of G arises from some (K, pi) and a choice
// of AMO for each subproblem, and
//   #AMO(G) = sum over cliques K of phi(K) * prod over H in C_G(K) of #AMO(H),
// where phi(K) counts the permutations of K that start with none of the separators that would
// make the AMO one already counted at a clique nearer the root: walking from K to the root,
// the intersections of K with the cliques on the way that equal the separator below that
// clique, taken once per size. These sets are nested (running intersection property), so with
// 0 = f_1 < f_2 < ... < f_L their sizes, and phi_i the number of orders of K's remaining
// |K| - f_i vertices after a prefix equal to the i-th set that never complete a later one,
//   phi_i = (|K| - f_i)! - sum over j > i of (f_j - f_i)! phi_j
// (a bad order is split at the last set it completes), and phi(K) = phi_1. Results are
// memoized by vertex set; the number of distinct subproblems is polynomial (the paper). A graph
// with a cut vertex is first split into its blocks (blocks.hpp): on a path of n vertices every
// subpath is a subproblem, O(n^3) in all, where the blocks take O(n).
// Checked against enumeration in tests/test_mec_size.cpp.
#include "pool/mec_size.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "bnsl/error.hpp"
#include "pool/blocks.hpp"
#include "pool/rooted_split.hpp"

namespace bnsl {
namespace {

using Graph = std::vector<std::vector<int>>;  // sorted neighbours, local indices

struct Piece {
  std::vector<int> ids;  // original vertex ids, sorted (the memo key)
  Graph adj;             // over local indices 0..ids.size()-1
};

// The subgraph of g induced by `local` (sorted local indices), ids mapped through `ids`.
Piece induced(const Graph& g, const std::vector<int>& ids, const std::vector<int>& local) {
  Piece p;
  std::vector<int> index(g.size(), -1);
  for (std::size_t i = 0; i < local.size(); ++i) index[local[i]] = static_cast<int>(i);
  p.ids.reserve(local.size());
  p.adj.resize(local.size());
  for (std::size_t i = 0; i < local.size(); ++i) {
    p.ids.push_back(ids[local[i]]);
    for (int w : g[local[i]])
      if (index[w] >= 0) p.adj[i].push_back(index[w]);
  }
  return p;
}

// Connected components of g restricted to `vertices`, each sorted.
std::vector<std::vector<int>> components(const Graph& g, const std::vector<int>& vertices) {
  std::vector<char> in(g.size(), 0), seen(g.size(), 0);
  for (int v : vertices) in[v] = 1;
  std::vector<std::vector<int>> out;
  std::vector<int> stack;
  for (int s : vertices) {
    if (seen[s]) continue;
    out.emplace_back();
    stack.assign(1, s);
    seen[s] = 1;
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      out.back().push_back(v);
      for (int w : g[v])
        if (in[w] && !seen[w]) {
          seen[w] = 1;
          stack.push_back(w);
        }
    }
    std::sort(out.back().begin(), out.back().end());
  }
  return out;
}

// Maximum cardinality search numbering `first` (a clique) first, then always an unnumbered
// vertex with the most numbered neighbours, preferring one not yet in a region. Returns the
// order; with `regions`, also the regions described at the top of the file.
std::vector<int> mcs(const Graph& g, const std::vector<int>& first,
                     std::vector<std::vector<int>>* regions) {
  const int n = static_cast<int>(g.size());
  std::vector<int> label(n, 0), order;
  std::vector<char> numbered(n, 0), placed(n, 0);
  // Lazy buckets by label: fresh[l] for vertices not yet in a region (or in `first`), placed[l]
  // for the others; an entry is valid while the vertex is unnumbered with that label.
  std::vector<std::vector<int>> fresh(n + 1), old(n + 1);
  for (int v : first) placed[v] = 1;
  for (int v = 0; v < n; ++v) (placed[v] ? old : fresh)[0].push_back(v);
  int max = 0;
  auto number = [&](int v) {
    numbered[v] = 1;
    order.push_back(v);
    for (int w : g[v])
      if (!numbered[w]) {
        ++label[w];
        (placed[w] ? old : fresh)[label[w]].push_back(w);
        max = std::max(max, label[w]);
      }
  };
  auto valid = [&](int v, int l, bool want_placed) {
    return !numbered[v] && label[v] == l && static_cast<bool>(placed[v]) == want_placed;
  };
  // A valid entry of bucket b (label l), dropping stale ones; -1 if none.
  auto top = [&](std::vector<int>& b, int l, bool want_placed) {
    while (!b.empty() && !valid(b.back(), l, want_placed)) b.pop_back();
    return b.empty() ? -1 : b.back();
  };
  for (int v : first) number(v);
  while (static_cast<int>(order.size()) < n) {
    int v = -1;
    while (true) {
      v = top(fresh[max], max, false);
      if (v < 0) v = top(old[max], max, true);
      if (v >= 0) break;
      --max;
    }
    if (!placed[v]) {
      std::vector<int> region;
      for (int w : fresh[max])
        if (valid(w, max, false)) {
          placed[w] = 1;
          region.push_back(w);
          old[max].push_back(w);
        }
      std::sort(region.begin(), region.end());
      region.erase(std::unique(region.begin(), region.end()), region.end());
      if (regions) regions->push_back(std::move(region));
      fresh[max].clear();
    }
    number(v);
  }
  return order;
}

struct CliqueTree {
  std::vector<std::vector<int>> cliques;  // maximal cliques, sorted local indices
  std::vector<int> parent;                // parent clique in the tree rooted at 0 (-1: root)
};

// A clique tree from an MCS order (Berry & Simonet 2017, via maximal label search); throws
// when the order is no perfect elimination order reversed, i.e. the graph is not chordal.
CliqueTree clique_tree(const Graph& g, const std::vector<int>& order) {
  const int n = static_cast<int>(g.size());
  std::vector<int> pos(n), clique_of(n, -1);
  for (int i = 0; i < n; ++i) pos[order[i]] = i;
  CliqueTree t;
  std::vector<std::pair<int, int>> edges;
  std::vector<int> earlier;
  for (int i = 0; i < n; ++i) {
    const int x = order[i];
    earlier.clear();
    for (int w : g[x])
      if (pos[w] < i) earlier.push_back(w);
    std::sort(earlier.begin(), earlier.end());
    if (!earlier.empty()) {  // chordality: x's earlier neighbours form a clique
      const int k = *std::max_element(earlier.begin(), earlier.end(),
                                      [&](int a, int b) { return pos[a] < pos[b]; });
      for (int w : earlier)
        if (w != k && !std::binary_search(g[k].begin(), g[k].end(), w))
          throw RuntimeError("mec_size: a chain component is not chordal (not a CPDAG)");
    }
    if (t.cliques.empty() || earlier != t.cliques.back()) {
      t.cliques.push_back(earlier);
      if (!earlier.empty()) {
        const int k = *std::max_element(earlier.begin(), earlier.end(),
                                        [&](int a, int b) { return pos[a] < pos[b]; });
        edges.emplace_back(clique_of[k], static_cast<int>(t.cliques.size()) - 1);
      }
    }
    auto& c = t.cliques.back();
    c.insert(std::upper_bound(c.begin(), c.end(), x), x);
    clique_of[x] = static_cast<int>(t.cliques.size()) - 1;
  }
  // Root at clique 0 (breadth first over the tree's edges).
  const int m = static_cast<int>(t.cliques.size());
  std::vector<std::vector<int>> adj(m);
  for (auto [a, b] : edges) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  }
  t.parent.assign(m, -1);
  std::vector<char> seen(m, 0);
  std::vector<int> queue = {0};
  seen[0] = 1;
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (int c : adj[queue[h]])
      if (!seen[c]) {
        seen[c] = 1;
        t.parent[c] = queue[h];
        queue.push_back(c);
      }
  return t;
}

std::size_t intersection_size(const std::vector<int>& a, const std::vector<int>& b) {
  std::size_t k = 0;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end();) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++k, ++i, ++j;
    }
  }
  return k;
}

class AmoCounter {
 public:
  BigUint count(const Piece& p) {
    if (auto it = memo_.find(p.ids); it != memo_.end()) return it->second;
    const std::size_t n = p.ids.size();
    std::size_t edges = 0;
    for (const auto& a : p.adj) edges += a.size();
    BigUint total;
    BlockTree blocks;
    if (edges == n * (n - 1)) {
      total = factorial(n);  // a clique: every order is an AMO
    } else if (blocks = block_tree(p.adj); blocks.blocks.size() > 1) {
      total = count_blocks(p, blocks);
    } else {
      const CliqueTree t = clique_tree(p.adj, mcs(p.adj, {}, nullptr));
      for (std::size_t c = 0; c < t.cliques.size(); ++c) {
        std::vector<std::vector<int>> regions;
        mcs(p.adj, t.cliques[c], &regions);
        BigUint term = phi(t, c);
        for (const auto& region : regions)
          for (const auto& comp : components(p.adj, region))
            term *= count(induced(p.adj, p.ids, comp));
        total += term;
      }
    }
    memo_.emplace(p.ids, total);
    return total;
  }

 private:
  // Over the blocks of p (blocks.hpp): each block counted alone, and its AMOs with a cut
  // vertex as their source by the pieces that vertex's rooted split leaves.
  BigUint count_blocks(const Piece& p, const BlockTree& t) {
    std::vector<Piece> blocks;
    std::vector<BigUint> counts;
    for (const auto& b : t.blocks) {
      blocks.push_back(induced(p.adj, p.ids, b));
      counts.push_back(count(blocks.back()));
    }
    return combine_blocks(t, counts,
                          [&](int b, int x) {
                            const auto& vs = t.blocks[b];
                            const Piece& block = blocks[b];
                            const int root = static_cast<int>(
                                std::lower_bound(vs.begin(), vs.end(), x) - vs.begin());
                            BigUint product(1);
                            for (const auto& piece : rooted_split(block.adj, root).pieces)
                              product *= count(induced(block.adj, block.ids, piece));
                            return product;
                          })
        .total;
  }

  BigUint factorial(std::size_t n) {
    while (factorials_.size() <= n)
      factorials_.push_back(factorials_.empty()
                                ? BigUint(1)
                                : factorials_.back() *
                                      BigUint(static_cast<std::uint64_t>(factorials_.size())));
    return factorials_[n];
  }

  // phi(K) for clique c (see the top of the file).
  BigUint phi(const CliqueTree& t, std::size_t c) {
    const auto& k = t.cliques[c];
    std::vector<std::size_t> sizes;  // decreasing, as met walking up
    std::size_t below = static_cast<std::size_t>(-1);
    std::size_t child = c;
    for (int up = t.parent[c]; up >= 0; child = up, up = t.parent[up]) {
      const std::size_t with_k = intersection_size(k, t.cliques[up]);
      if (child != c) below = intersection_size(t.cliques[up], t.cliques[child]);
      if (with_k == 0) break;
      if ((child == c || with_k >= below) && (sizes.empty() || with_k < sizes.back()))
        sizes.push_back(with_k);
    }
    sizes.push_back(0);
    std::reverse(sizes.begin(), sizes.end());  // f_1 = 0 < f_2 < ... < f_L
    const std::size_t l = sizes.size();
    std::vector<BigUint> value(l);
    for (std::size_t i = l; i-- > 0;) {
      BigUint v = factorial(k.size() - sizes[i]);
      for (std::size_t j = i + 1; j < l; ++j) v -= factorial(sizes[j] - sizes[i]) * value[j];
      value[i] = std::move(v);
    }
    return value[0];
  }

  std::map<std::vector<int>, BigUint> memo_;
  std::vector<BigUint> factorials_;
};

}  // namespace

BigUint count_amos(const std::vector<std::vector<int>>& adjacency) {
  const int n = static_cast<int>(adjacency.size());
  std::vector<int> all(n), ids(n);
  for (int v = 0; v < n; ++v) all[v] = ids[v] = v;
  AmoCounter counter;
  BigUint total(1);
  for (const auto& comp : components(adjacency, all))
    total *= counter.count(induced(adjacency, ids, comp));
  return total;
}

BigUint mec_size(const Cpdag& cpdag) {
  return count_amos(cpdag.undirected);
}

}  // namespace bnsl
