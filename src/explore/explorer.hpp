// What every per-variable explorer receives: the child, its candidate parents, epsilon, the
// in-degree limit, and when to stop. Explorers fill one VarCache with exactly scored,
// pruned entries; whatever stops them (deadline, signal, memory cap), the empty set is always
// in the cache. The memory cap binds the best-first explorers only.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/stop.hpp"
#include "score/bit_columns.hpp"
#include "score/counting.hpp"

namespace bnsl {

struct VarTask {
  int child = 0;
  std::vector<int> candidates;  // possible parents: every other variable with arity >= 2, or
                                // with screening the child's best single parents
  // With screening: every variable with arity >= 2 (the child included, skipped), for the
  // conditional sweeps of the best-first explorers (best_first.cpp); null: no sweeps.
  const std::vector<int>* universe = nullptr;
  const BitColumns* bits = nullptr;  // bit-packed columns for the sweeps (may be null)
  // Forbidden arcs and tiers: `candidates` holds only allowed parents; the sweeps, which draw
  // from `universe`, skip the others (null: none).
  const Constraints* constraints = nullptr;
  double eps = 0;                     // pruning slack
  int max_parents = 3;                // in-degree limit
  bool prune = true;                  // apply the pruning rules (false: keep every scored set)
  const StopToken* global = nullptr;  // run-wide stop (deadline or signal)
  Clock::time_point deadline;         // this variable's own deadline
  bool has_deadline = false;
  std::size_t max_bytes = 0;  // memory cap of the explorer's own state (0: none)

  bool allowed(int parent) const { return !constraints || constraints->allowed(parent, child); }
  bool expired() const {
    return global->stop_requested() || (has_deadline && Clock::now() >= deadline);
  }
  // Seconds left for this variable: its own deadline or the run's, the nearer (may be < 0).
  double remaining() const {
    double left = global->remaining();
    if (has_deadline)
      left = std::min(left, std::chrono::duration<double>(deadline - Clock::now()).count());
    return left;
  }
};

// Sequential exploration: all parent sets of size 0, 1, 2, ... up to the limit or deadline.
void explore_sequential(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats);

// Best-first exploration: independence selection (BIC*-guided), greedy selection, or both
// over one closed list (hybrid: one pop in 32 from greedy's open list).
enum class BestFirstKind { independence, greedy, hybrid };
void explore_best_first(Counter& counter, const VarTask& task, BestFirstKind kind, VarCache& out,
                        ExploreStats& stats);

}  // namespace bnsl
