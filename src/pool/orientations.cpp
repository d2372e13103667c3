// Orientation fractions of a class's reversible edges (orientations.hpp).
//
// The class's DAGs orient each chain component C of its CPDAG independently, as an AMO, so each
// component is solved alone and the class's size is the product of their counts. Within C the
// AMO counts and fractions come from the rooted splits of component_orientations.cpp (He, Jia &
// Yu 2015), which run on each block (biconnected component) of C alone; the blocks combine as
// blocks.hpp derives (orient_component below): a tree of n vertices would otherwise take n
// rooted splits of O(n) each, and the pool's report of one 3,000-vertex tree took seconds. A
// block that needs more than max_subproblems vertex sets (e.g. a large clique, whose pieces are
// all its subsets) is estimated instead from AMOs drawn uniformly by the same split. Both are
// checked against brute force enumeration in tests/test_mec_size.cpp.
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
#include <limits>
#include <map>
#include <numbers>
#include <numeric>
#include <random>
#include <utility>

#include "pool/blocks.hpp"
#include "pool/component_orientations.hpp"

namespace bnsl {
namespace orient {
namespace {

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
}  // namespace orient

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
  orient::Graph und(n);  // the reversible edges, symmetric
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
    const orient::Graph g = orient::induced(und, comp);  // sorted comp: local order = id order
    // The key: the component's vertices, its adjacency rows, and its disallowed arcs.
    std::vector<int> key(comp);
    for (const auto& row : g) {
      key.push_back(-1);
      key.insert(key.end(), row.begin(), row.end());
    }
    const orient::Arcs disallowed =
        constraints ? orient::disallowed_arcs(g, comp, *constraints) : orient::Arcs();
    key.push_back(-2);
    for (const auto& [a, b] : disallowed) key.insert(key.end(), {a, b});
    OrientationCache::Entry entry;
    if (!cache || !cache->find(key, entry)) {
      entry = disallowed.empty() ? orient::orient_component(g, comp, limits)
                                 : orient::orient_constrained(g, comp, limits, *constraints);
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
