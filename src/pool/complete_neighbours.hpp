// Completes the pool's neighbourhoods: offers every acyclic DAG that differs from a pooled one
// in a single family, or by one arc reversal whose families are in the cache, and may score
// within the pool's threshold. See complete_neighbours.cpp.
//
//   NeighbourCompletion c = complete_neighbours(cache, pool, should_stop, 400000);
#pragma once

#include <cstdint>
#include <functional>

#include "bnsl/cache.hpp"
#include "pool/dag_pool.hpp"

namespace bnsl {

struct NeighbourCompletion {
  std::uint64_t expanded = 0;   // DAGs whose neighbourhood was walked
  std::uint64_t offered = 0;    // acyclic neighbours within the threshold offered to the pool
  std::uint64_t admitted = 0;   // ... that the pool admitted (new to it)
  std::uint64_t reversals = 0;  // admitted ones that reverse an arc (the others change a family)
  std::uint64_t rises = 0;      // admitted ones better than every DAG before (walked next)
  std::uint64_t climbed = 0;    // family changes of the best's greedy climb before the walk
  bool stopped = false;         // should_stop ended it
};

// Breadth first from the pooled DAGs (best first): for each DAG G and variable v, every cache
// entry of v that keeps G within the pool's threshold and G acyclic replaces v's family, and
// every arc of G not covered is reversed when the cache holds both new families and G stays
// acyclic; each such DAG is offered once, and the admitted ones are expanded in turn (at most
// max_expanded DAGs in all, the pooled ones included). With `climb`, the best first climbs by
// single-family changes (offered where it ends, and expanded first), and a neighbour better
// than every DAG before is expanded next (and always). should_stop is polled at every DAG
// expanded and every 4,096 offers.
NeighbourCompletion complete_neighbours(const ScoreCache& cache, DagPool& pool,
                                        const std::function<bool()>& should_stop,
                                        std::size_t max_expanded, bool climb = true);

}  // namespace bnsl
