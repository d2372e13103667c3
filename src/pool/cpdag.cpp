// Essential graph (CPDAG) of a DAG by Chickering's edge-labelling algorithm.
//
// Method: D. M. Chickering, "A transformational characterization of equivalent Bayesian
// network structures", UAI 1995, Section 4 (procedures Order-Edges and Find-Compelled). The
// arcs are totally ordered: by the topological position of their heads, ascending, and among
// arcs into one node by the position of their tails, descending. Visiting arcs x -> y in that
// order, an arc is compelled when a compelled arc w -> x has w not adjacent to y, or when y
// has another parent z not adjacent to x (a v-structure x -> y <- z); compelled arcs w -> x with
// w a parent of y force w -> y; otherwise x -> y and every unlabelled arc into y are
// reversible. Guarantee (Chickering 1995, Theorem 4): the arcs labelled compelled are exactly
// the arcs with the same orientation in every DAG of the Markov equivalence class, i.e. the
// directed edges of the essential graph; the same graph that Meek's rules R1-R3 reach from the
// skeleton and v-structures. Cost O(|E| * max in-degree * log) after a topological sort.
// Equivalence classes are then found by hashing a canonical encoding of the essential graph
// and comparing encodings exactly on equal hashes.
#include "pool/cpdag.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "bnsl/error.hpp"

namespace bnsl {
namespace {

enum class Label : std::uint8_t { unknown, compelled, reversible };

// Kahn's algorithm; returns pos[v] = position of v in a topological order.
std::vector<int> topological_positions(const ParentSets& parents) {
  const int n = static_cast<int>(parents.size());
  std::vector<std::vector<int>> children(n);
  std::vector<int> missing(n, 0);
  for (int v = 0; v < n; ++v) {
    for (int p : parents[v]) {
      if (p < 0 || p >= n || p == v)
        throw RuntimeError("DAG: invalid parent " + std::to_string(p) + " of node " +
                           std::to_string(v));
      children[p].push_back(v);
    }
    missing[v] = static_cast<int>(parents[v].size());
  }
  std::vector<int> ready, pos(n, -1);
  for (int v = 0; v < n; ++v)
    if (missing[v] == 0) ready.push_back(v);
  int next = 0;
  while (!ready.empty()) {
    int v = ready.back();
    ready.pop_back();
    pos[v] = next++;
    for (int c : children[v])
      if (--missing[c] == 0) ready.push_back(c);
  }
  if (next != n) throw RuntimeError("DAG: the graph has a directed cycle");
  return pos;
}

// The DAG with sorted parent lists, the topological positions and the arc labels.
struct LabelledDag {
  std::vector<std::vector<int>> parents;  // parents[v], sorted by index, no duplicates
  std::vector<std::vector<Label>> label;  // label[v][i]: arc parents[v][i] -> v
  std::vector<int> pos;                   // topological position of each node

  // Index of w in parents[v], or -1.
  int find(int v, int w) const {
    const auto& p = parents[v];
    auto it = std::lower_bound(p.begin(), p.end(), w);
    return it != p.end() && *it == w ? static_cast<int>(it - p.begin()) : -1;
  }
  void label_unknown(int y, Label value) {
    for (auto& l : label[y])
      if (l == Label::unknown) l = value;
  }
};

// Find-Compelled step for the arc parents[y][i] -> y.
void label_arc(LabelledDag& g, int y, int i) {
  const int x = g.parents[y][i];
  for (std::size_t k = 0; k < g.parents[x].size(); ++k) {
    if (g.label[x][k] != Label::compelled) continue;
    const int w = g.parents[x][k];
    const int j = g.find(y, w);
    if (j < 0) {  // w -> x -> y with w, y not adjacent: every arc into y is compelled
      std::fill(g.label[y].begin(), g.label[y].end(), Label::compelled);
      return;
    }
    g.label[y][j] = Label::compelled;
  }
  bool v_structure = false;
  for (int z : g.parents[y])
    if (z != x && g.find(x, z) < 0) v_structure = true;
  g.label[y][i] = v_structure ? Label::compelled : Label::reversible;
  g.label_unknown(y, v_structure ? Label::compelled : Label::reversible);
}

Cpdag collect(const LabelledDag& g) {
  const std::size_t n = g.parents.size();
  Cpdag c;
  c.directed.resize(n);
  c.undirected.resize(n);
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t i = 0; i < g.parents[y].size(); ++i) {
      const int x = g.parents[y][i];
      if (g.label[y][i] == Label::compelled) {
        c.directed[y].push_back(x);
      } else {
        c.undirected[y].push_back(x);
        c.undirected[x].push_back(static_cast<int>(y));
      }
    }
  for (auto& u : c.undirected) std::sort(u.begin(), u.end());
  return c;
}

}  // namespace

Cpdag essential_graph(const ParentSets& parents) {
  LabelledDag g;
  g.pos = topological_positions(parents);
  const std::size_t n = parents.size();
  g.parents = parents;
  g.label.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    auto& p = g.parents[v];
    std::sort(p.begin(), p.end());
    if (std::adjacent_find(p.begin(), p.end()) != p.end())
      throw RuntimeError("DAG: node " + std::to_string(v) + " lists a parent twice");
    g.label[v].assign(p.size(), Label::unknown);
  }
  std::vector<int> order(n);  // nodes by topological position
  for (std::size_t v = 0; v < n; ++v) order[g.pos[v]] = static_cast<int>(v);
  std::vector<int> arcs;
  for (int y : order) {
    arcs.resize(g.parents[y].size());
    std::iota(arcs.begin(), arcs.end(), 0);
    std::sort(arcs.begin(), arcs.end(),
              [&](int a, int b) { return g.pos[g.parents[y][a]] > g.pos[g.parents[y][b]]; });
    for (int i : arcs)
      if (g.label[y][i] == Label::unknown) label_arc(g, y, i);
  }
  return collect(g);
}

std::vector<std::uint32_t> Cpdag::encode() const {
  std::vector<std::uint32_t> code;
  code.push_back(static_cast<std::uint32_t>(n_vars()));
  for (std::size_t v = 0; v < n_vars(); ++v) {
    code.push_back(static_cast<std::uint32_t>(directed[v].size()));
    code.insert(code.end(), directed[v].begin(), directed[v].end());
    auto below = std::lower_bound(undirected[v].begin(), undirected[v].end(), static_cast<int>(v));
    code.push_back(static_cast<std::uint32_t>(below - undirected[v].begin()));
    code.insert(code.end(), undirected[v].begin(), below);
  }
  return code;
}

std::uint64_t hash_encoding(const std::vector<std::uint32_t>& code) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ code.size();
  for (std::uint32_t w : code) {  // splitmix64 finaliser over a running combination
    std::uint64_t z = h + 0x9e3779b97f4a7c15ULL + w;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h = z ^ (z >> 31);
  }
  return h;
}

int MecIndex::class_of(std::size_t i) {
  std::vector<std::uint32_t> code = essential_graph(dags_[i].parents).encode();
  const std::uint64_t h = hash_encoding(code);
  auto [first, last] = by_hash_.equal_range(h);
  for (auto it = first; it != last; ++it) {
    const int id = it->second;
    if (!codes_[id].empty() ? codes_[id] == code
                            : essential_graph(dags_[representative_[id]].parents).encode() == code)
      return id;
  }
  const int id = size();
  by_hash_.emplace(h, id);
  representative_.push_back(i);
  if (words_ + code.size() <= max_words_) {
    words_ += code.size();
    codes_.push_back(std::move(code));
  } else {
    codes_.emplace_back();
  }
  return id;
}

}  // namespace bnsl
