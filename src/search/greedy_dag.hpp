// Greedy acyclic family selection over a score cache (see greedy_dag.cpp): a good network in
// seconds at any number of variables, and a topological order of it to seed the ordering
// search.
//
//   GreedyDagResult g = greedy_dag(cache, [&] { return stop.stop_requested(); });
//   // g.choices: one entry per variable, acyclic; g.order: consistent with it; g.score
#pragma once

#include <cstdint>
#include <functional>

#include "bnsl/cache.hpp"
#include "pool/dag_pool.hpp"

namespace bnsl {

struct GreedyDagResult {
  Choices choices;            // choices[v]: entry of cache.var(v)
  std::vector<int> order;     // a topological order of that network
  double score = 0;           // its score
  std::uint64_t moves = 0;    // proposals taken from the heap
  std::uint64_t applied = 0;  // ... and applied
  bool stopped = false;       // should_stop ended it early (the network is still valid)
};

// Every variable's cache must hold the entry of its base (the parents all its entries hold:
// the empty set, or its required parents), and the base arcs must be acyclic (the search's
// validate()). should_stop is polled every 256 proposals (may be empty).
GreedyDagResult greedy_dag(const ScoreCache& cache, const std::function<bool()>& should_stop);

}  // namespace bnsl
