// Orientation fractions of a class's reversible edges (orientations.hpp).
//
// The DAGs of a class orient each chain component C of its CPDAG (a connected chordal graph)
// independently, as an AMO: an acyclic orientation without v-structures. An AMO of a connected
// chordal graph has exactly one source, so the AMOs of C split by their source r. Orienting
// r's edges outwards and closing under Meek's rules 1-3 forces some arcs and leaves undirected
// pieces, each connected and chordal, which the AMOs with source r orient independently
// (He, Jia & Yu, "Counting and exploring sizes of Markov equivalence classes", JMLR 2015).
// Hence, with #AMO from Clique-Picking (mec_size.cpp),
//   #AMO(C) = sum over r of #AMO_r(C),  #AMO_r(C) = product over pieces H of #AMO(H),
// and for an edge u - v of C
//   P_C(u -> v) = sum over r of #AMO_r(C) / #AMO(C) * (1 if r's closure forces u -> v,
//                 0 if it forces v -> u, P_H(u -> v) if the edge lies in its piece H).
// The recursion is memoized by vertex set; the pieces shrink at every level. It runs on each
// block (biconnected component) of C alone, and the blocks combine as blocks.hpp derives
// (orient_component below): a tree of n vertices would otherwise take n rooted splits of O(n)
// each, and the pool's report of one 3,000-vertex tree took seconds. A block that needs more
// than max_subproblems vertex sets (e.g. a large clique, whose pieces are all its subsets) is
// estimated instead from AMOs drawn uniformly by the same split: draw r with probability
// #AMO_r / #AMO, then an AMO of each piece. Both are checked against brute force enumeration
// in tests/test_mec_size.cpp.
//
// Constraints. A DAG of the class satisfies them when each of its components' AMOs holds no
// disallowed arc, and an edge's constraint concerns its own component (and block) only, so
// the count is still a product, and the blocks still combine as above with a_B(x) counting
// B's allowed AMOs with source x. A component with no constrained edge goes the way above; in
// one with, each constrained block is counted by the same split restricted to the roots whose
// forced arcs are all allowed:
//   #AMO_c(S) = sum over r of [r's forced arcs allowed] * product over pieces H of #AMO_c(H),
// with the fractions weighed by #AMO_c,r / #AMO_c (a piece with no constrained edge is an
// ordinary one). Beyond max_subproblems, the whole component is estimated from AMOs drawn by
// the same restricted split, weighed by importance (estimate_allowed below). The shared cache
// keys a component by its disallowed arcs too.
#include "pool/orientations.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>
#include <random>
#include <stdexcept>
#include <utility>

#include "pool/blocks.hpp"
#include "pool/mec_size.hpp"

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

// The subgraph of g induced by the sorted vertex set s, over indices 0..|s|-1.
Graph induced(const Graph& g, const std::vector<int>& s) {
  Graph h(s.size());
  for (std::size_t i = 0; i < s.size(); ++i)
    for (int w : g[s[i]]) {
      auto it = std::lower_bound(s.begin(), s.end(), w);
      if (it != s.end() && *it == w) h[i].push_back(static_cast<int>(it - s.begin()));
    }
  return h;
}

struct OverBudget : std::exception {};

using Fractions = std::map<std::pair<int, int>, double>;  // (u, v), u < v -> P(u -> v)
using Arcs = std::vector<std::pair<int, int>>;
// Whether the arc a -> b (indices of the graph at hand) may appear.
using Allowed = std::function<bool(int, int)>;

// One chain component: the exact recursion and the sampler, memoized by vertex set (indices
// of the component's graph).
class ComponentOrientations {
 public:
  using Key = std::vector<int>;

  // allowed: the constraints, for the allowed_* members (null: every arc allowed).
  ComponentOrientations(const Graph& g, std::size_t max_subproblems,
                        const Allowed* allowed = nullptr)
      : g_(g), max_subproblems_(max_subproblems), allowed_(allowed) {}

  const Fractions& exact(const Key& s) {
    if (auto it = fractions_.find(s); it != fractions_.end()) return it->second;
    check_budget();
    Fractions f;
    const Split& sp = split(s);
    for (std::size_t r = 0; r < s.size(); ++r) add_rooted(s, r, sp.weight[r], f);
    return fractions_.emplace(s, std::move(f)).first->second;
  }

  // P(u -> v) over the AMOs of s whose source is s[r] (throws OverBudget as exact does).
  Fractions rooted(const Key& s, std::size_t r) {
    Fractions f;
    add_rooted(s, r, 1.0, f);
    return f;
  }

  // The AMOs of s whose source is s[r]: the product of its pieces' counts.
  BigUint rooted_count(const Key& s, std::size_t r) {
    BigUint c(1);
    for (const Key& piece : split(s).pieces[r]) c *= count(piece);
    return c;
  }

  const BigUint& count(const Key& s) {
    if (auto it = counts_.find(s); it != counts_.end()) return it->second;
    return counts_.emplace(s, count_amos(induced(g_, s))).first->second;
  }

  // Whether no edge within s has a disallowed direction.
  bool unconstrained(const Key& s) const {
    if (!allowed_) return true;
    for (int a : s)
      for (int b : g_[static_cast<std::size_t>(a)])
        if (a < b && std::binary_search(s.begin(), s.end(), b) &&
            (!(*allowed_)(a, b) || !(*allowed_)(b, a)))
          return false;
    return true;
  }

  bool allowed(const Arcs& arcs) const {
    return !allowed_ || std::all_of(arcs.begin(), arcs.end(),
                                    [&](const auto& a) { return (*allowed_)(a.first, a.second); });
  }

  // The AMOs of s that hold no disallowed arc, per source s[r]: 0 when r's forced arcs are not
  // all allowed, else the product of its pieces' allowed counts. Throws OverBudget beyond
  // max_subproblems vertex sets (counted with exact's).
  const std::vector<BigUint>& allowed_rooted_counts(const Key& s) {
    if (auto it = allowed_counts_.find(s); it != allowed_counts_.end()) return it->second;
    check_budget();
    std::vector<BigUint> counts(s.size());
    for (std::size_t r = 0; r < s.size(); ++r) {
      const Split& sp = split(s);  // (a reference into splits_, stable as it grows)
      if (!allowed(sp.arcs[r])) continue;
      BigUint c(1);
      for (const Key& piece : sp.pieces[r]) {
        c *= allowed_count(piece);
        if (c.is_zero()) break;
      }
      counts[r] = std::move(c);
    }
    return allowed_counts_.emplace(s, std::move(counts)).first->second;
  }

  BigUint allowed_count(const Key& s) {
    if (unconstrained(s)) return count(s);
    BigUint c;
    for (const BigUint& x : allowed_rooted_counts(s)) c += x;
    return c;
  }

  // P(u -> v) over the AMOs of s that hold no disallowed arc (every edge at 0 when none does).
  const Fractions& allowed_exact(const Key& s) {
    if (unconstrained(s)) return exact(s);
    if (auto it = allowed_fractions_.find(s); it != allowed_fractions_.end()) return it->second;
    const std::vector<BigUint>& rooted = allowed_rooted_counts(s);
    const BigUint total = allowed_count(s);
    Fractions f = zero_fractions(s);
    if (!total.is_zero()) {
      const double log10_total = total.log10();
      for (std::size_t r = 0; r < s.size(); ++r)
        if (!rooted[r].is_zero())
          add_allowed_rooted(s, r, std::pow(10.0, rooted[r].log10() - log10_total), f);
    }
    return allowed_fractions_.emplace(s, std::move(f)).first->second;
  }

  // The same over those whose source is s[r].
  Fractions allowed_rooted(const Key& s, std::size_t r) {
    Fractions f = zero_fractions(s);
    if (unconstrained(s))
      add_rooted(s, r, 1.0, f);
    else if (!allowed_rooted_counts(s)[r].is_zero())
      add_allowed_rooted(s, r, 1.0, f);
    return f;
  }

  BigUint allowed_rooted_count(const Key& s, std::size_t r) {
    return unconstrained(s) ? rooted_count(s, r) : allowed_rooted_counts(s)[r];
  }

  // Draws an AMO of the vertex set s uniformly; appends its arcs.
  void sample(const Key& s, std::mt19937_64& rng, std::vector<std::pair<int, int>>& arcs) {
    const Split& sp = split(s);
    double u = std::uniform_real_distribution<double>(0, 1)(rng);
    std::size_t r = 0;
    while (r + 1 < s.size() && u >= sp.weight[r]) u -= sp.weight[r++];
    sample_rooted(s, r, rng, arcs);
  }

  // Draws an AMO of s as sample() does, but each set's root only among those whose forced arcs
  // are all allowed, so that every AMO drawn holds no disallowed arc (sequential importance
  // sampling); appends its arcs. Returns the log of its weight, the product over the sets
  // split of the allowed roots' share of their AMOs, which is #AMO(s)^-1 over the probability
  // of the draw; -infinity when a set has no allowed root (the draw is abandoned).
  double sample_allowed(const Key& s, std::mt19937_64& rng, Arcs& arcs) {
    const Split& sp = split(s);
    double mass = 0;
    for (std::size_t r = 0; r < s.size(); ++r)
      if (sp.ok[r]) mass += sp.weight[r];
    if (!(mass > 0)) return -std::numeric_limits<double>::infinity();
    double u = std::uniform_real_distribution<double>(0, mass)(rng);
    std::size_t pick = 0;
    for (std::size_t r = 0; r < s.size(); ++r) {
      if (!sp.ok[r]) continue;
      pick = r;
      if (u < sp.weight[r]) break;
      u -= sp.weight[r];
    }
    arcs.insert(arcs.end(), sp.arcs[pick].begin(), sp.arcs[pick].end());
    double log_weight = std::log(mass);
    for (const Key& piece : sp.pieces[pick]) {
      log_weight += sample_allowed(piece, rng, arcs);
      if (std::isinf(log_weight)) break;
    }
    return log_weight;
  }

  // Draws an AMO of s with source s[r] uniformly; appends its arcs.
  void sample_rooted(const Key& s, std::size_t r, std::mt19937_64& rng,
                     std::vector<std::pair<int, int>>& arcs) {
    const Split& sp = split(s);
    arcs.insert(arcs.end(), sp.arcs[r].begin(), sp.arcs[r].end());
    for (const Key& piece : sp.pieces[r]) sample(piece, rng, arcs);
  }

 private:
  void check_budget() const {
    if (fractions_.size() + allowed_counts_.size() >= max_subproblems_) throw OverBudget();
  }

  // Every edge within s, at 0.
  Fractions zero_fractions(const Key& s) const {
    Fractions f;
    for (int a : s)
      for (int b : g_[static_cast<std::size_t>(a)])
        if (a < b && std::binary_search(s.begin(), s.end(), b)) f[{a, b}] = 0;
    return f;
  }

  // Adds w * P(u -> v | source s[r]) over the allowed AMOs to f (r's forced arcs allowed).
  void add_allowed_rooted(const Key& s, std::size_t r, double w, Fractions& f) {
    const Split& sp = split(s);
    for (const auto& [a, b] : sp.arcs[r])
      if (a < b) f[{a, b}] += w;
    for (const Key& piece : sp.pieces[r])
      for (const auto& [edge, p] : allowed_exact(piece)) f[edge] += w * p;
  }

  // Adds w * P(u -> v | source s[r]) to f for every edge of s.
  void add_rooted(const Key& s, std::size_t r, double w, Fractions& f) {
    const Split& sp = split(s);
    for (const auto& [a, b] : sp.arcs[r])
      if (a < b)
        f[{a, b}] += w;
      else
        f[{b, a}] += 0;
    for (const Key& piece : sp.pieces[r])
      for (const auto& [edge, p] : exact(piece)) f[edge] += w * p;
  }

  struct Split {                                         // per root r of the vertex set:
    std::vector<double> weight;                          // #AMO_r / #AMO
    std::vector<std::vector<std::pair<int, int>>> arcs;  // forced arcs (component indices)
    std::vector<std::vector<Key>> pieces;                // pieces (component indices)
    std::vector<char> ok;                                // its forced arcs all allowed
  };

  const Split& split(const Key& s) {
    if (auto it = splits_.find(s); it != splits_.end()) return it->second;
    const Graph h = induced(g_, s);
    const double total = count(s).log10();
    Split sp;
    for (std::size_t r = 0; r < s.size(); ++r) {
      const RootedSplit rs = rooted_split(h, static_cast<int>(r));
      std::vector<std::pair<int, int>> arcs;
      for (const auto& [a, b] : rs.arcs) arcs.emplace_back(s[a], s[b]);
      std::vector<Key> pieces;
      double log10_count = 0;
      for (const auto& p : rs.pieces) {
        Key piece;
        for (int i : p) piece.push_back(s[i]);
        log10_count += count(piece).log10();
        pieces.push_back(std::move(piece));
      }
      sp.weight.push_back(std::pow(10.0, log10_count - total));
      sp.ok.push_back(allowed(arcs));
      sp.arcs.push_back(std::move(arcs));
      sp.pieces.push_back(std::move(pieces));
    }
    return splits_.emplace(s, std::move(sp)).first->second;
  }

  const Graph& g_;
  std::size_t max_subproblems_;
  const Allowed* allowed_;
  std::map<Key, BigUint> counts_;
  std::map<Key, Split> splits_;
  std::map<Key, Fractions> fractions_;
  std::map<Key, std::vector<BigUint>> allowed_counts_;  // constrained sets, per root
  std::map<Key, Fractions> allowed_fractions_;
};

// Every edge of h at 0, then 1/samples for each of `samples` orientations drawn by `draw`
// that orient it u -> v (u < v).
template <class Draw>
Fractions sampled_fractions(const Graph& h, std::size_t samples, Draw&& draw) {
  Fractions f;
  for (std::size_t v = 0; v < h.size(); ++v)
    for (int w : h[v])
      if (static_cast<int>(v) < w) f[{static_cast<int>(v), w}] = 0;
  std::vector<std::pair<int, int>> arcs;
  for (std::size_t k = 0; k < samples; ++k) {
    arcs.clear();
    draw(arcs);
    for (const auto& [a, b] : arcs)
      if (a < b) f[{a, b}] += 1.0 / static_cast<double>(samples);
  }
  return f;
}

// One block of a chain component (blocks.hpp): its AMO count, its edges' fractions over all
// its AMOs, and, for each vertex x of it through which the source may lie outside it, the
// AMOs with source x (a_B(x)) and the fractions over them. Exact, or sampled beyond
// max_subproblems (`salt`: the block's first vertex id, which seeds its draws). With `allowed`
// (block-local) and a constrained edge in the block, all of these count the allowed AMOs only,
// exactly; beyond max_subproblems it throws OverBudget (the component is then estimated whole).
struct BlockOrientations {
  BigUint count;
  Fractions all;
  std::map<int, std::pair<BigUint, Fractions>> from;  // block-local vertex -> a_B(x), fractions
  bool sampled = false;
};

BlockOrientations orient_block(const Graph& h, const std::vector<int>& sources,
                               const OrientationLimits& limits, std::uint64_t salt,
                               const Allowed* allowed) {
  BlockOrientations out;
  std::vector<int> all(h.size());
  std::iota(all.begin(), all.end(), 0);
  if (allowed) {
    ComponentOrientations co(h, limits.max_subproblems, allowed);
    if (!co.unconstrained(all)) {
      out.count = co.allowed_count(all);
      out.all = co.allowed_exact(all);
      for (int x : sources) {
        const auto r = static_cast<std::size_t>(x);
        out.from[x] = {co.allowed_rooted_count(all, r), co.allowed_rooted(all, r)};
      }
      return out;
    }
  }
  ComponentOrientations co(h, limits.max_subproblems);
  out.count = co.count(all);
  try {
    out.all = co.exact(all);
    for (int x : sources) out.from[x] = {co.rooted_count(all, x), co.rooted(all, x)};
  } catch (const OverBudget&) {
    out.sampled = true;
    std::mt19937_64 rng(limits.seed ^ (0x9e3779b97f4a7c15ULL * (salt + 1)));
    out.all = sampled_fractions(h, limits.samples, [&](auto& arcs) { co.sample(all, rng, arcs); });
    for (int x : sources)
      out.from[x] = {co.rooted_count(all, x), sampled_fractions(h, limits.samples, [&](auto& arcs) {
                       co.sample_rooted(all, static_cast<std::size_t>(x), rng, arcs);
                     })};
  }
  return out;
}

// The fractions and AMO count of the connected chordal graph g (ids: its vertices' ids, for
// the sampling seeds), block by block. With B's share of the sources,
//   P(u -> v) = sum over x in B of W_B(x) P_B(u -> v | source x),
// where W_B(x), the weight of the sources r with entry_B(r) = x, is r = x's own weight
// a_B(x) O_B / #AMO (blocks.hpp) plus, for a cut vertex x, the weight of every source beyond
// it: the subtrees hanging at x below B, or, for B's parent cut vertex, all that lies outside
// B's subtree. Summed over x, the own weights give B's fractions over all its AMOs times
// O_B #AMO(B) / #AMO, so only the cut vertices need their rooted fractions. With `allowed`
// (g's indices), of the AMOs that hold no disallowed arc (count 0 and no fractions when none
// does); throws OverBudget when a constrained block needs more than max_subproblems sets.
OrientationCache::Entry orient_component(const Graph& g, const std::vector<int>& ids,
                                         const OrientationLimits& limits,
                                         const Allowed* allowed = nullptr) {
  const BlockTree t = block_tree(g);
  const std::size_t m = t.blocks.size();
  const auto local = [&](std::size_t b, int v) {
    const auto& vs = t.blocks[b];
    return static_cast<int>(std::lower_bound(vs.begin(), vs.end(), v) - vs.begin());
  };
  std::vector<BlockOrientations> blocks(m);
  std::vector<BigUint> counts(m);
  for (std::size_t b = 0; b < m; ++b) {
    std::vector<int> sources;
    if (t.parent[b] >= 0) sources.push_back(local(b, t.cut[b]));
    for (int x : t.children[b]) sources.push_back(local(b, t.cut[x]));
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    const auto& vs = t.blocks[b];
    const Allowed local = [&](int x, int y) {
      return (*allowed)(vs[static_cast<std::size_t>(x)], vs[static_cast<std::size_t>(y)]);
    };
    blocks[b] =
        orient_block(induced(g, vs), sources, limits, static_cast<std::uint64_t>(ids[vs.front()]),
                     allowed ? &local : nullptr);
    counts[b] = blocks[b].count;
  }
  const BlockCounts bc =
      combine_blocks(t, counts, [&](int b, int x) { return blocks[b].from.at(local(b, x)).first; });
  OrientationCache::Entry entry;
  entry.count = bc.total;
  if (entry.count.is_zero()) return entry;  // constraints that no AMO satisfies
  // Shares of all sources: O_B * c / #AMO.
  const double log_total = bc.total.log10();
  const auto share = [&](std::size_t b, const BigUint& c) {
    return std::pow(10.0, bc.outside[b].log10() + c.log10() - log_total);
  };
  const auto own_at = [&](std::size_t b, int v) {
    return share(b, blocks[b].from.at(local(b, v)).first);
  };
  // subtree[b]: the sources in b's subtree other than its parent cut vertex.
  std::vector<double> subtree(m);
  for (std::size_t b = m; b-- > 0;) {
    subtree[b] = share(b, counts[b]) - (t.parent[b] >= 0 ? own_at(b, t.cut[b]) : 0.0);
    for (int x : t.children[b]) subtree[b] += subtree[x];
  }
  Fractions f;
  for (std::size_t b = 0; b < m; ++b) {
    const auto& vs = t.blocks[b];
    const auto add = [&](const Fractions& part, double w) {
      for (const auto& [edge, p] : part) f[{vs[edge.first], vs[edge.second]}] += w * p;
    };
    add(blocks[b].all, share(b, counts[b]));
    std::map<int, double> beyond;  // cut vertex -> the sources beyond it, less its own
    if (t.parent[b] >= 0) beyond[t.cut[b]] = 1 - subtree[b] - own_at(b, t.cut[b]);
    for (int x : t.children[b]) beyond[t.cut[x]] += subtree[x];
    for (const auto& [v, w] : beyond) add(blocks[b].from.at(local(b, v)).second, w);
    entry.sampled = entry.sampled || blocks[b].sampled;
  }
  for (const auto& [edge, p] : f)
    entry.fractions.emplace_back(edge.first, edge.second, std::clamp(p, 0.0, 1.0));
  return entry;
}

// 10^l rounded, at least 1: exactly below 2^53 (up to the double's rounding), else to 15
// significant digits.
BigUint from_log10(double l) {
  if (l < 15.9)
    return BigUint(
        std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(std::pow(10.0, l)))));
  const int e = static_cast<int>(std::floor(l)) - 15;
  BigUint out(static_cast<std::uint64_t>(std::llround(std::pow(10.0, l - e))));
  for (int i = 0; i < e; ++i) out *= 10u;
  return out;
}

// A constrained component beyond the budget: `samples` AMOs of the whole component drawn by
// sample_allowed, each with its weight w. Importance sampling: #AMO_c = #AMO(g) E[w], and
// P(u -> v) is the weighted share of the draws with u -> v. (Plain rejection of uniform draws
// would need about #AMO / #AMO_c draws per kept one: a clique of 9 in 9 tiers keeps one AMO in
// 362,880; on a 20-clique with 20 forbidden arcs, minutes.) No draw is abandoned when some AMO
// satisfies the constraints: every piece, an induced subgraph, then has one too (that AMO's
// restriction), and the source of that one is an allowed root (its forced arcs are in every AMO
// with that source). So the first draw tells whether any does; count 0 when none does.
OrientationCache::Entry estimate_allowed(const Graph& g, const std::vector<int>& ids,
                                         const OrientationLimits& limits, const Allowed& allowed) {
  std::vector<int> all(g.size());
  std::iota(all.begin(), all.end(), 0);
  ComponentOrientations co(g, 0, &allowed);
  std::mt19937_64 rng(limits.seed ^
                      (0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(ids.front()) + 1)));
  // The weights relative to the largest log weight `top`, summed: over all draws (`mass`) and
  // per edge u - v, u < v, over the draws with u -> v.
  double top = -std::numeric_limits<double>::infinity(), mass = 0;
  std::map<std::pair<int, int>, double> forward;
  const std::size_t draws = std::max<std::size_t>(1, limits.samples);
  OrientationCache::Entry entry;
  entry.sampled = entry.estimated = true;
  Arcs arcs;
  for (std::size_t k = 0; k < draws; ++k) {
    arcs.clear();
    const double log_weight = co.sample_allowed(all, rng, arcs);
    if (std::isinf(log_weight)) return entry;  // count 0: no AMO satisfies the constraints
    if (log_weight > top) {
      const double rescale = std::exp(top - log_weight);
      mass *= rescale;
      for (auto& [edge, w] : forward) w *= rescale;
      top = log_weight;
    }
    const double w = std::exp(log_weight - top);
    mass += w;
    for (const auto& [a, b] : arcs)
      if (a < b) forward[{a, b}] += w;
  }
  const double mean = top + std::log(mass / static_cast<double>(draws));  // log E[w]
  entry.count = from_log10(co.count(all).log10() + mean / std::numbers::ln10);
  for (std::size_t v = 0; v < g.size(); ++v)
    for (int w : g[v])
      if (static_cast<int>(v) < w) {
        auto it = forward.find({static_cast<int>(v), w});
        const double p = it == forward.end() ? 0.0 : it->second / mass;
        entry.fractions.emplace_back(static_cast<int>(v), w, std::clamp(p, 0.0, 1.0));
      }
  return entry;
}

// A component with a constrained edge (ids: its vertices' variable ids): exactly by blocks, or
// estimated beyond the budget. When no AMO satisfies the constraints (no reported class is
// such), its count is 0 and its fractions are over all its AMOs.
OrientationCache::Entry orient_constrained(const Graph& g, const std::vector<int>& ids,
                                           const OrientationLimits& limits,
                                           const Constraints& constraints) {
  const Allowed allowed = [&](int a, int b) {
    return constraints.allowed(ids[static_cast<std::size_t>(a)], ids[static_cast<std::size_t>(b)]);
  };
  OrientationCache::Entry entry;
  try {
    entry = orient_component(g, ids, limits, &allowed);
  } catch (const OverBudget&) {
    entry = estimate_allowed(g, ids, limits, allowed);
  }
  if (!entry.count.is_zero()) return entry;
  entry = orient_component(g, ids, limits);
  entry.count = BigUint();
  return entry;
}

// The arcs along g's edges that are not allowed (g's indices; ids: its vertices' variable ids).
Arcs disallowed_arcs(const Graph& g, const std::vector<int>& ids, const Constraints& constraints) {
  Arcs out;
  for (std::size_t v = 0; v < g.size(); ++v)
    for (int w : g[v])
      if (!constraints.allowed(ids[v], ids[static_cast<std::size_t>(w)]))
        out.emplace_back(static_cast<int>(v), w);
  return out;
}
}  // namespace

RootedSplit rooted_split(const std::vector<std::vector<int>>& adjacency, int root) {
  Orienting o(adjacency);
  for (int w : adjacency[static_cast<std::size_t>(root)]) o.orient(root, w);
  o.close();
  return {o.arcs(), o.pieces()};
}

bool OrientationCache::find(const std::vector<int>& key, Entry& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  out = it->second;
  return true;
}

void OrientationCache::put(std::vector<int> key, Entry entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.emplace(std::move(key), std::move(entry));
}

EdgeOrientations edge_orientations(const Cpdag& cpdag, const OrientationLimits& limits,
                                   OrientationCache* cache, const Constraints* constraints) {
  if (constraints && constraints->empty()) constraints = nullptr;
  EdgeOrientations out;
  const std::size_t n = cpdag.n_vars();
  Graph und(n);  // the reversible edges, symmetric
  for (std::size_t v = 0; v < n; ++v)
    for (int u : cpdag.undirected[v]) {
      und[v].push_back(u);
      und[static_cast<std::size_t>(u)].push_back(static_cast<int>(v));
    }
  for (auto& row : und) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  std::vector<char> seen(n, 0);
  for (std::size_t s = 0; s < n; ++s) {
    if (seen[s] || und[s].empty()) continue;
    std::vector<int> comp, stack{static_cast<int>(s)};
    seen[s] = 1;
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      comp.push_back(v);
      for (int w : und[v])
        if (!seen[w]) {
          seen[w] = 1;
          stack.push_back(w);
        }
    }
    std::sort(comp.begin(), comp.end());
    const Graph g = induced(und, comp);  // sorted comp: local order = id order
    // The key: the component's vertices, its adjacency rows, and its disallowed arcs.
    std::vector<int> key(comp);
    for (const auto& row : g) {
      key.push_back(-1);
      key.insert(key.end(), row.begin(), row.end());
    }
    const Arcs disallowed = constraints ? disallowed_arcs(g, comp, *constraints) : Arcs();
    key.push_back(-2);
    for (const auto& [a, b] : disallowed) key.insert(key.end(), {a, b});
    OrientationCache::Entry entry;
    if (!cache || !cache->find(key, entry)) {
      entry = disallowed.empty() ? orient_component(g, comp, limits)
                                 : orient_constrained(g, comp, limits, *constraints);
      if (cache) cache->put(std::move(key), entry);
    }
    out.size *= entry.count;
    if (entry.sampled) {
      ++out.sampled;
      out.samples = limits.samples;
    }
    out.size_estimated = out.size_estimated || entry.estimated;
    for (const auto& [a, b, p] : entry.fractions) out.fractions.emplace_back(comp[a], comp[b], p);
  }
  std::sort(out.fractions.begin(), out.fractions.end());
  return out;
}

}  // namespace bnsl
