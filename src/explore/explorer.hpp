// What every per-variable explorer receives: the child, its candidate parents, its required
// parents, epsilon, the in-degree limit, and when to stop. Explorers fill one VarCache with
// exactly scored, pruned entries; whatever stops them (deadline, signal, memory cap), the set
// of the required parents (the empty set without them) is always in the cache. The memory cap
// binds the best-first explorers and the levels of the sequential one.
//
// Required parents R. An explorer walks the free sets Q (subsets of the candidates, which hold
// no member of R) and scores the family R + Q: its lattice is that of the sets containing R,
// whose least element R takes the empty set's place. Every pruning rule (prune/rules.hpp)
// compares a family with a proper subset of it, here R + Q' for a proper subset Q' of Q, which
// a network holding the required arcs may use too: the rules stay safe within this lattice.
// Rule 3 at the base (pen(R) > N H(X|R) + eps) compares the families R + Y with R; the penalty
// and q of a family are those of R + Q throughout.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/stop.hpp"
#include "score/bit_columns.hpp"
#include "score/counting.hpp"

namespace bnsl::prune {
struct BdeuAtoms;
}

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
  // The child's required parents, ascending: in every family scored, never candidates.
  std::vector<int> required;
  double eps = 0;         // pruning slack
  ExploreTunables tune;   // the exploration's tunables (bnsl/tunables.hpp)
  double ll_ceiling = 0;  // LL of the child given every other variable (rules 2 to 4; 0: none)
  int max_parents = 3;    // in-degree limit of the free parents (beside `required`)
  bool prune = true;      // apply the pruning rules (false: keep every scored set)
  const StopToken* global = nullptr;  // run-wide stop (deadline or signal)
  Clock::time_point deadline;         // this variable's own deadline
  bool has_deadline = false;
  std::size_t max_bytes = 0;  // memory cap of the explorer's own state (0: none)
  // The child's mixed atoms (rule 8, prune/bdeu_atoms.hpp; null: none, or not BDeu).
  const prune::BdeuAtoms* atoms = nullptr;

  bool allowed(int parent) const {
    return (!constraints || constraints->allowed(parent, child)) &&
           !std::binary_search(required.begin(), required.end(), parent);
  }
  // The family of the free parents `free` (ascending): required + free, ascending, in scratch
  // (or `free` itself without required parents).
  std::span<const int> family(std::span<const int> free, std::vector<int>& scratch) const {
    if (required.empty()) return free;
    scratch.resize(required.size() + free.size());
    std::merge(required.begin(), required.end(), free.begin(), free.end(), scratch.begin());
    return scratch;
  }
  // The configuration index of the family of `free`.
  void build(Counter& counter, std::span<const int> free, ConfigIndex& out,
             std::vector<int>& scratch) const {
    counter.build(family(free, scratch), out);
  }
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

// A thread's buffers for the sequential explorer's two levels, kept from level to level and
// from variable to variable: fresh levels would grow their tables by rehashing, and fault
// their pages in, all over again (a fifth of the time of uci/bands' exploration).
struct SequentialLevels;
struct ExploreScratch {
  ExploreScratch();
  ~ExploreScratch();
  std::unique_ptr<SequentialLevels> seq;
  std::vector<double> lattice_best;  // the lattice walk's arrays (lattice.cpp)
  std::vector<std::uint32_t> lattice_cells;
};

// Sequential exploration: all parent sets of size 0, 1, 2, ... up to the limit or deadline.
void explore_sequential(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats,
                        ExploreScratch& scratch);

// The sequential explorer's lattice walk (lattice.cpp): under BDeu, without an in-degree limit,
// for a child of at most explore.lattice_max_vars candidates whose 2^candidates x rows counted is
// at most explore.lattice_max_work and whose arrays (lattice_bytes) fit VarTask::max_bytes.
// Returns false, having done nothing, when the task is not such a one.
bool explore_lattice(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats,
                     ExploreScratch& scratch);
std::size_t lattice_bytes(std::size_t candidates);

// Best-first exploration: independence selection (BIC*-guided), greedy selection, or both
// over one closed list (hybrid: one pop in 32 from greedy's open list).
enum class BestFirstKind { independence, greedy, hybrid };
void explore_best_first(Counter& counter, const VarTask& task, BestFirstKind kind, VarCache& out,
                        ExploreStats& stats);

}  // namespace bnsl
