// Enumerates every DAG consistent with one order whose score is within the pool's threshold,
// and offers each to the pool. See order_enum.cpp.
//
//   OrderEnumResult r = enumerate_order(cache, order, pool, should_stop, ref, 400000);
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "bnsl/cache.hpp"
#include "pool/dag_pool.hpp"

namespace bnsl {

struct OrderEnumResult {
  double best = 0;             // score of the best network consistent with the order (OBS),
                               // -infinity if there is none (see order_enum.cpp)
  std::uint64_t offered = 0;   // DAGs offered (each within the threshold when offered)
  std::uint64_t admitted = 0;  // ... of which the pool admitted
  bool truncated = false;      // stopped early (max_offers or should_stop)
};

// order: a permutation of 0..n-1. A DAG is consistent with it when every parent precedes its
// child. should_stop is polled every 1024 offers; max_offers bounds the work (0: no bound).
OrderEnumResult enumerate_order(const ScoreCache& cache, std::span<const int> order, DagPool& pool,
                                const std::function<bool()>& should_stop, const ChoicesRef& ref,
                                std::uint64_t max_offers);

}  // namespace bnsl
