// Neighbour completion. The ordering search meets a DAG only through an order it visits and
// the best parents consistent with that order, so a DAG within epsilon whose families are all
// in the cache can be missed although the pool holds a DAG one family away from it (uci/
// water1000, BIC BF 20, `learn --time 10`: 1,013 of the 16,057 DAGs within epsilon missed, 992
// of them one family away from a pooled DAG, 21 two families away; at BF 3 all 72 missed DAGs,
// two whole classes, were one family away). This step walks those neighbourhoods breadth first,
// from the pooled classes best first, so the final best's neighbourhood is walked first however
// late it was found:
// - one family: for each pooled DAG G and variable v, every cache entry of v scoring at least
//   s(G_v) - (s(G) - threshold) keeps G within the threshold when it replaces v's family (the
//   caches are sorted best first, so these entries are a prefix of v's list); it keeps G acyclic
//   when none of its parents is a descendant of v in G. A parent before v in a topological
//   order of G is not, so the descendants of v are walked only for entries with a later parent.
//   This covers arc additions and removals (when the cache holds the family) and any other
//   change of one family.
// - arc reversals: u -> v becomes v -> u when the cache holds both new families (pa(v) - u and
//   pa(u) + v); it keeps G acyclic when no other path leads from u to v (such a path stays
//   between u and v in the topological order). Covered arcs are skipped: their reversal gives
//   an equivalent DAG, the same class.
// Each such DAG is scored from the cache by its change (O(1)), offered once if the pool's
// lock-free check may accept it; the pool scores it exactly and admits it when it is within the
// threshold and of a new class, and admitted DAGs are expanded in turn, so combinations of
// changes are reached through DAGs within the threshold. The chains' best is not always a local
// optimum of these moves (gen10000, `learn --time 3600`: the walk's first DAG, the chains'
// best, had a neighbour 16 nats better, found when the queue's cap was reached, so the walk
// ended there with a pool of one class). So the best first climbs greedily by single-family
// changes (climb_families: cheap, nothing offered on the way), and the walk starts from where
// it ends; a neighbour better than every DAG reached is still walked next, before the rest of
// the queue and outside its cap. A heuristic step: it adds classes, never claims completeness.
#include "pool/complete_neighbours.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include <tsl/robin_set.h>

#include "pool/entry_index.hpp"
#include "score/compare.hpp"

namespace bnsl {
namespace {

// A greedy climb over single-family changes: each variable in turn takes its best cache entry
// above its current one (a prefix of its list) whose parents are not its descendants, until no
// variable can. Returns the changes made. Cheap next to a walk's expansion, which offers (and
// the pool encodes) every neighbour within the threshold.
std::uint64_t climb_families(const ScoreCache& cache, Choices& g) {
  const std::size_t n = g.size();
  std::vector<std::vector<std::uint32_t>> children(n);
  for (std::size_t v = 0; v < n; ++v)
    for (const std::int32_t u : cache.var(v).parents(g[v]))
      children[static_cast<std::size_t>(u)].push_back(static_cast<std::uint32_t>(v));
  std::vector<std::uint32_t> mark(n, 0), stack;
  std::uint32_t stamp = 0;
  std::uint64_t changes = 0;
  for (bool improved = true; improved;) {
    improved = false;
    for (std::size_t v = 0; v < n; ++v) {
      const VarCache& vc = cache.var(v);
      const double own = vc.score(g[v]);
      bool walked = false;
      for (std::size_t i = 0; i < g[v] && clearly_greater(vc.score(i), own); ++i) {
        if (!walked) {  // the descendants of v, marked with `stamp`
          walked = true;
          ++stamp;
          stack.assign(1, static_cast<std::uint32_t>(v));
          mark[v] = stamp;
          while (!stack.empty()) {
            const std::uint32_t x = stack.back();
            stack.pop_back();
            for (const std::uint32_t c : children[x])
              if (mark[c] != stamp) {
                mark[c] = stamp;
                stack.push_back(c);
              }
          }
        }
        bool acyclic = true;
        for (const std::int32_t u : vc.parents(i)) acyclic = acyclic && mark[u] != stamp;
        if (!acyclic) continue;
        for (const std::int32_t u : vc.parents(g[v])) {
          auto& c = children[static_cast<std::size_t>(u)];
          c.erase(std::find(c.begin(), c.end(), static_cast<std::uint32_t>(v)));
        }
        for (const std::int32_t u : vc.parents(i))
          children[static_cast<std::size_t>(u)].push_back(static_cast<std::uint32_t>(v));
        g[v] = static_cast<std::uint32_t>(i);
        ++changes;
        improved = true;
        break;
      }
    }
  }
  return changes;
}

}  // namespace

NeighbourCompletion complete_neighbours(const ScoreCache& cache, DagPool& pool,
                                        const std::function<bool()>& should_stop,
                                        std::size_t max_expanded, bool climb) {
  NeighbourCompletion out;
  const std::size_t n = cache.n_vars();
  std::vector<PooledDag> queue = pool.snapshot();
  tsl::robin_set<std::uint64_t> reached;  // DAG hashes offered or pooled at the start
  for (const PooledDag& d : queue) reached.insert(d.hash);
  if (climb && !queue.empty()) {  // the best first climbs; the walk starts from where it ends
    Choices g = queue.front().choices;
    out.climbed = climb_families(cache, g);
    const std::uint64_t h = dag_hash(g);
    if (out.climbed > 0 && reached.insert(h).second) {
      const double score = dag_score(cache, g);
      ++out.offered;
      if (pool.offer(score, h, g)) {
        ++out.admitted;
        queue.insert(queue.begin(), PooledDag{score, h, std::move(g)});
      }
    }
  }
  EntryIndex index(cache);
  std::vector<std::uint32_t> child_start(n + 1), children, mark(n, 0), stack, pos(n), indegree(n);
  std::vector<std::int32_t> family;
  std::uint32_t stamp = 0;
  const auto new_stamp = [&] {
    if (++stamp == 0) {  // wrapped: clear the marks
      std::fill(mark.begin(), mark.end(), 0);
      stamp = 1;
    }
  };
  // The best DAG reached: a neighbour above it is a new best, walked next (`rise`).
  double top = queue.empty() ? -std::numeric_limits<double>::infinity() : queue.front().score;
  std::optional<PooledDag> rise;
  const auto enqueue = [&](PooledDag&& d) {
    if (queue.size() < max_expanded) queue.push_back(std::move(d));
  };
  // Offers G with the given families changed (score by the change); false once stopped.
  const auto offer = [&](const Choices& g, std::uint64_t h, double score,
                         std::initializer_list<std::pair<std::size_t, std::uint32_t>> changes,
                         bool reversal) {
    if (!reached.insert(h).second) return true;
    Choices next = g;
    for (const auto& [v, entry] : changes) next[v] = entry;
    ++out.offered;
    if (pool.offer(score, h, next)) {
      ++out.admitted;
      out.reversals += reversal;
      // A new best: walked next, whatever the queue holds.
      if (climb && clearly_greater(score, top)) {
        top = score;
        ++out.rises;
        if (rise) enqueue(std::move(*rise));
        rise = PooledDag{score, h, std::move(next)};
      } else {
        enqueue({score, h, std::move(next)});
      }
    }
    if ((out.offered & 4095) == 0 && should_stop()) out.stopped = true;
    return !out.stopped;
  };
  for (std::size_t q = 0; q < queue.size() || rise; ++q) {
    if (rise) {  // found while walking the DAG before: walked now
      queue.insert(queue.begin() + static_cast<std::ptrdiff_t>(q), std::move(*rise));
      rise.reset();
    }
    if (out.stopped) break;
    if (should_stop()) {
      out.stopped = true;
      break;
    }
    const double threshold = pool.threshold();
    if (!(queue[q].score >= threshold)) continue;  // the threshold rose past it
    ++out.expanded;
    const Choices g = queue[q].choices;  // a copy: queue grows below
    const std::uint64_t g_hash = queue[q].hash;
    const double g_score = queue[q].score;
    const double slack = g_score - threshold;
    // Children lists of G (compressed rows) and a topological order (Kahn).
    std::fill(child_start.begin(), child_start.end(), 0);
    for (std::size_t v = 0; v < n; ++v) {
      indegree[v] = static_cast<std::uint32_t>(cache.var(v).parents(g[v]).size());
      for (const std::int32_t u : cache.var(v).parents(g[v])) ++child_start[u + 1];
    }
    for (std::size_t v = 0; v < n; ++v) child_start[v + 1] += child_start[v];
    children.resize(child_start[n]);
    {
      std::vector<std::uint32_t> fill(child_start.begin(), child_start.end() - 1);
      for (std::size_t v = 0; v < n; ++v)
        for (const std::int32_t u : cache.var(v).parents(g[v]))
          children[fill[u]++] = static_cast<std::uint32_t>(v);
    }
    stack.clear();
    for (std::size_t v = 0; v < n; ++v)
      if (indegree[v] == 0) stack.push_back(static_cast<std::uint32_t>(v));
    for (std::uint32_t next_pos = 0; !stack.empty(); ++next_pos) {
      const std::uint32_t x = stack.back();
      stack.pop_back();
      pos[x] = next_pos;
      for (std::uint32_t k = child_start[x]; k < child_start[x + 1]; ++k)
        if (--indegree[children[k]] == 0) stack.push_back(children[k]);
    }
    // One family.
    for (std::size_t v = 0; v < n && !out.stopped; ++v) {
      const VarCache& vc = cache.var(v);
      const double own = vc.score(g[v]);
      const double limit = own - slack - 1e-9 * std::max(1.0, std::fabs(own));
      bool walked = false;  // the descendants of v are marked with `stamp`
      for (std::size_t i = 0; i < vc.size() && vc.score(i) >= limit; ++i) {
        if (i == g[v]) continue;
        const double score = g_score - own + vc.score(i);
        if (!pool.may_accept(score)) continue;
        bool acyclic = true;
        for (const std::int32_t u : vc.parents(i)) {
          if (pos[u] < pos[v]) continue;  // not a descendant of v
          if (!walked) {
            walked = true;
            new_stamp();
            stack.assign(1, static_cast<std::uint32_t>(v));
            mark[v] = stamp;
            while (!stack.empty()) {
              const std::uint32_t x = stack.back();
              stack.pop_back();
              for (std::uint32_t k = child_start[x]; k < child_start[x + 1]; ++k)
                if (mark[children[k]] != stamp) {
                  mark[children[k]] = stamp;
                  stack.push_back(children[k]);
                }
            }
          }
          if (mark[u] == stamp) {
            acyclic = false;
            break;
          }
        }
        if (!acyclic) continue;
        const auto vv = static_cast<std::uint32_t>(v);
        const auto ii = static_cast<std::uint32_t>(i);
        const std::uint64_t h = g_hash ^ entry_hash(vv, g[v]) ^ entry_hash(vv, ii);
        if (!offer(g, h, score, {{v, ii}}, false)) break;
      }
    }
    // Arc reversals.
    for (std::size_t v = 0; v < n && !out.stopped; ++v) {
      const auto pv = cache.var(v).parents(g[v]);
      for (const std::int32_t uu : pv) {
        const auto u = static_cast<std::size_t>(uu);
        const auto pu = cache.var(u).parents(g[u]);
        if (pu.size() + 1 == pv.size()) {  // covered: pa(v) = pa(u) + u
          bool covered = true;
          for (std::size_t a = 0, b = 0; b < pv.size() && covered; ++b) {
            if (pv[b] == uu) continue;
            covered = a < pu.size() && pu[a++] == pv[b];
          }
          if (covered) continue;
        }
        family.clear();
        for (const std::int32_t p : pv)
          if (p != uu) family.push_back(p);
        const long jv = index.find(v, family);
        if (jv < 0) continue;
        family.assign(pu.begin(), pu.end());
        family.insert(std::upper_bound(family.begin(), family.end(), static_cast<std::int32_t>(v)),
                      static_cast<std::int32_t>(v));
        const long ju = index.find(u, family);
        if (ju < 0) continue;
        const double score = g_score - cache.var(v).score(g[v]) + cache.var(v).score(jv) -
                             cache.var(u).score(g[u]) + cache.var(u).score(ju);
        if (!pool.may_accept(score)) continue;
        // Another path u ~> v runs through vertices between them in the topological order.
        new_stamp();
        stack.clear();
        bool acyclic = true;
        for (std::uint32_t k = child_start[u]; k < child_start[u + 1]; ++k) {
          const std::uint32_t c = children[k];
          if (c != v && pos[c] < pos[v]) {
            mark[c] = stamp;
            stack.push_back(c);
          }
        }
        while (!stack.empty() && acyclic) {
          const std::uint32_t x = stack.back();
          stack.pop_back();
          for (std::uint32_t k = child_start[x]; k < child_start[x + 1]; ++k) {
            const std::uint32_t c = children[k];
            if (c == v) {
              acyclic = false;
              break;
            }
            if (pos[c] < pos[v] && mark[c] != stamp) {
              mark[c] = stamp;
              stack.push_back(c);
            }
          }
        }
        if (!acyclic) continue;
        const auto vv = static_cast<std::uint32_t>(v), u32 = static_cast<std::uint32_t>(u);
        const auto jv32 = static_cast<std::uint32_t>(jv), ju32 = static_cast<std::uint32_t>(ju);
        const std::uint64_t h = g_hash ^ entry_hash(vv, g[v]) ^ entry_hash(vv, jv32) ^
                                entry_hash(u32, g[u]) ^ entry_hash(u32, ju32);
        if (!offer(g, h, score, {{v, jv32}, {u, ju32}}, true)) break;
      }
    }
  }
  return out;
}

}  // namespace bnsl
