// Neighbour completion. The ordering search meets a DAG only through an order it visits and
// the best parents consistent with that order, so a DAG within epsilon whose families are all
// in the cache can be missed although the pool holds a DAG one family away from it (uci/
// water1000, BIC BF 20, `learn --time 10`: 1,013 of the 16,057 DAGs within epsilon missed, 992
// of them one family away from a pooled DAG, 21 two families away; at BF 3 all 72 missed DAGs,
// two whole classes, were one family away). This step walks those neighbourhoods breadth first:
// for each pooled DAG G and variable v, every cache entry of v scoring at least
// s(G_v) - (s(G) - threshold) keeps G within the threshold when it replaces v's family (the
// caches are sorted best first, so these entries are a prefix of v's list); it keeps G acyclic
// when none of its parents is a descendant of v in G. Each such DAG is offered once; the pool
// scores it from the cache and admits it when it is within the threshold and new, and admitted
// DAGs are expanded in turn, so two or more changes are reached through DAGs within the
// threshold. A heuristic step: it adds DAGs, never claims completeness.
#include "pool/complete_neighbours.hpp"

#include <cmath>
#include <vector>

#include <tsl/robin_set.h>

namespace bnsl {

NeighbourCompletion complete_neighbours(const ScoreCache& cache, DagPool& pool,
                                        const std::function<bool()>& should_stop,
                                        std::size_t max_expanded) {
  NeighbourCompletion out;
  const std::size_t n = cache.n_vars();
  std::vector<PooledDag> queue = pool.snapshot();
  tsl::robin_set<std::uint64_t> reached;  // DAG hashes offered or pooled at the start
  for (const PooledDag& d : queue) reached.insert(d.hash);
  std::vector<std::uint32_t> child_start(n + 1), children, mark(n, 0), stack;
  std::uint32_t stamp = 0;
  for (std::size_t q = 0; q < queue.size(); ++q) {
    if (should_stop()) {
      out.stopped = true;
      break;
    }
    const double threshold = pool.threshold();
    if (!(queue[q].score >= threshold)) continue;  // the threshold rose past it
    ++out.expanded;
    const Choices g = queue[q].choices;  // a copy: queue grows below
    const std::uint64_t g_hash = queue[q].hash;
    const double slack = queue[q].score - threshold;
    // Children lists of G (compressed rows), for the descendant walks.
    std::fill(child_start.begin(), child_start.end(), 0);
    for (std::size_t v = 0; v < n; ++v)
      for (const std::int32_t u : cache.var(v).parents(g[v])) ++child_start[u + 1];
    for (std::size_t v = 0; v < n; ++v) child_start[v + 1] += child_start[v];
    children.resize(child_start[n]);
    {
      std::vector<std::uint32_t> fill(child_start.begin(), child_start.end() - 1);
      for (std::size_t v = 0; v < n; ++v)
        for (const std::int32_t u : cache.var(v).parents(g[v]))
          children[fill[u]++] = static_cast<std::uint32_t>(v);
    }
    for (std::size_t v = 0; v < n && !out.stopped; ++v) {
      const VarCache& vc = cache.var(v);
      const double own = vc.score(g[v]);
      const double limit = own - slack - 1e-9 * std::max(1.0, std::fabs(own));
      bool walked = false;  // the descendants of v are marked with `stamp`
      for (std::size_t i = 0; i < vc.size() && vc.score(i) >= limit; ++i) {
        if (i == g[v]) continue;
        if (!walked) {
          walked = true;
          if (++stamp == 0) {  // wrapped: clear the marks
            std::fill(mark.begin(), mark.end(), 0);
            stamp = 1;
          }
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
        bool acyclic = true;
        for (const std::int32_t u : vc.parents(i))
          if (mark[u] == stamp) {
            acyclic = false;
            break;
          }
        if (!acyclic) continue;
        const auto vv = static_cast<std::uint32_t>(v);
        const std::uint64_t h =
            g_hash ^ entry_hash(vv, g[v]) ^ entry_hash(vv, static_cast<std::uint32_t>(i));
        if (!reached.insert(h).second) continue;
        Choices next = g;
        next[v] = static_cast<std::uint32_t>(i);
        const double score = dag_score(cache, next);
        ++out.offered;
        if (pool.offer(score, h, next)) {
          ++out.admitted;
          if (queue.size() < max_expanded) queue.push_back({score, h, std::move(next)});
        }
        if ((out.offered & 4095) == 0 && should_stop()) {
          out.stopped = true;
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace bnsl
