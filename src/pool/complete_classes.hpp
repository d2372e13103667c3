// Completes the Markov equivalence classes of the pool: offers every DAG equivalent to a pooled
// one whose families are in the cache. See complete_classes.cpp.
//
//   ClassCompletion c = complete_classes(cache, pool, should_stop, 100000);
#pragma once

#include <cstdint>
#include <functional>

#include "bnsl/cache.hpp"
#include "pool/dag_pool.hpp"

namespace bnsl {

struct ClassCompletion {
  std::uint64_t classes = 0;   // classes explored (one per pooled DAG not reached before)
  std::uint64_t members = 0;   // equivalent DAGs reached, the pooled ones included
  std::uint64_t admitted = 0;  // ... that the pool admitted (new and within its threshold)
  std::uint64_t missing = 0;   // covered-arc reversals whose new families are not cached
  std::uint64_t capped = 0;    // classes left when max_per_class of their DAGs were reached
  bool stopped = false;        // should_stop ended it
};

// For every DAG of the pool (best first), every DAG reachable from it by reversals of covered
// arcs through DAGs whose families are all in the cache, each offered to the pool once.
// should_stop is polled at every DAG reached; max_per_class bounds the DAGs reached per class.
ClassCompletion complete_classes(const ScoreCache& cache, DagPool& pool,
                                 const std::function<bool()>& should_stop,
                                 std::uint64_t max_per_class);

}  // namespace bnsl
