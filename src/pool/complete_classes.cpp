// Class completion. BIC and BDeu are score equivalent: Markov equivalent DAGs score the same.
// So when the pool holds one DAG of a class within epsilon, it should hold every DAG of that
// class, yet the ordering search meets a class's members only through the orders it happens to
// visit (uci/insurance1000, BIC BF 20: the search found all 12 classes within epsilon but 98
// of their 117 DAGs). Every DAG of a class is reached from any other by a sequence of covered
// arc reversals whose intermediate DAGs are all in the class (Chickering 1995, theorem 2; an arc
// u -> v is covered when parents(v) = parents(u) + {u}, and reversing it keeps the graph
// acyclic and in the class). This step walks those reversals breadth first from each pooled
// DAG and offers each DAG reached to the pool, which scores it from the cache and keeps it if
// it is within the threshold, so nothing here relies on score equivalence for correctness: with
// another score the offers are just rejected.
//
// A reversal changes the families of u and v; when either new family is not in the cache the
// DAG reached is skipped (and the members only reachable through it are missed). With a cache
// pruned by rules that are safe within epsilon this does not happen for classes within epsilon
// (every family of a DAG within epsilon is kept, and the members score the same); with a cache
// cut short by a time limit or an in-degree bound it can.
#include "pool/complete_classes.hpp"

#include <xxhash.h>

#include <algorithm>
#include <span>
#include <vector>

#include <tsl/robin_map.h>
#include <tsl/robin_set.h>

namespace bnsl {
namespace {

// Cache entry of a parent set, per variable, by a hash of the sorted parents; built on first use.
class EntryIndex {
 public:
  explicit EntryIndex(const ScoreCache& cache) : cache_(cache), index_(cache.n_vars()) {}

  long find(std::size_t v, std::span<const std::int32_t> parents) {
    auto& index = index_[v];
    const VarCache& vc = cache_.var(v);
    if (index.empty())
      for (std::size_t i = 0; i < vc.size(); ++i) index.emplace(key(vc.parents(i)), i);
    const auto it = index.find(key(parents));
    if (it == index.end()) return -1;
    const auto found = vc.parents(it->second);
    if (std::equal(found.begin(), found.end(), parents.begin(), parents.end()))
      return static_cast<long>(it->second);
    return vc.find(parents);  // two parent sets with one 64-bit hash: look the long way
  }

 private:
  static std::uint64_t key(std::span<const std::int32_t> parents) {
    return XXH3_64bits(parents.data(), parents.size() * sizeof(std::int32_t));
  }

  const ScoreCache& cache_;
  std::vector<tsl::robin_map<std::uint64_t, std::uint32_t>> index_;
};

// Whether the arc u -> v is covered: parents(v) = parents(u) + {u} (both sorted).
bool covered(std::span<const std::int32_t> pv, std::span<const std::int32_t> pu, int u) {
  if (pv.size() != pu.size() + 1) return false;
  std::size_t j = 0;
  for (const std::int32_t p : pv) {
    if (p == u) continue;
    if (j == pu.size() || pu[j] != p) return false;
    ++j;
  }
  return true;
}

}  // namespace

ClassCompletion complete_classes(const ScoreCache& cache, DagPool& pool,
                                 const std::function<bool()>& should_stop,
                                 std::uint64_t max_per_class) {
  ClassCompletion out;
  EntryIndex index(cache);
  tsl::robin_set<std::uint64_t> reached;  // DAG hashes (dag_hash) met in any class
  std::vector<Choices> frontier;          // the current class's DAGs, in the order reached
  std::vector<std::uint64_t> hashes;
  std::vector<std::int32_t> new_u;
  const std::size_t n = cache.n_vars();
  for (const PooledDag& start : pool.snapshot()) {
    if (should_stop()) {
      out.stopped = true;
      break;
    }
    if (!reached.insert(start.hash).second) continue;  // a member of a class already walked
    ++out.classes;
    ++out.members;
    frontier.assign(1, start.choices);
    hashes.assign(1, start.hash);
    bool full = false;  // max_per_class reached: on to the next class
    for (std::size_t q = 0; q < frontier.size() && !full && !out.stopped; ++q) {
      for (std::size_t v = 0; v < n && !full && !out.stopped; ++v) {
        const auto pv = cache.var(v).parents(frontier[q][v]);
        for (const std::int32_t u : pv) {
          const auto pu = cache.var(u).parents(frontier[q][u]);
          if (!covered(pv, pu, u)) continue;
          // Reversed: v -> u, parents(u) + {v}, and v keeps parents(u).
          new_u.assign(pu.begin(), pu.end());
          new_u.insert(std::upper_bound(new_u.begin(), new_u.end(), static_cast<std::int32_t>(v)),
                       static_cast<std::int32_t>(v));
          const long eu = index.find(u, new_u);
          const long ev = index.find(v, pu);
          if (eu < 0 || ev < 0) {
            ++out.missing;
            continue;
          }
          const auto uu = static_cast<std::uint32_t>(u), vv = static_cast<std::uint32_t>(v);
          const std::uint64_t h = hashes[q] ^ entry_hash(uu, frontier[q][u]) ^
                                  entry_hash(vv, frontier[q][v]) ^
                                  entry_hash(uu, static_cast<std::uint32_t>(eu)) ^
                                  entry_hash(vv, static_cast<std::uint32_t>(ev));
          if (!reached.insert(h).second) continue;
          if (frontier.size() >= max_per_class) {
            full = true;
            ++out.capped;
            break;
          }
          Choices next = frontier[q];
          next[u] = static_cast<std::uint32_t>(eu);
          next[v] = static_cast<std::uint32_t>(ev);
          ++out.members;
          if (pool.offer(dag_score(cache, next), h, next)) ++out.admitted;
          if (should_stop()) {
            out.stopped = true;
            break;
          }
          frontier.push_back(std::move(next));
          hashes.push_back(h);
        }
      }
    }
  }
  return out;
}

}  // namespace bnsl
