// The families of a score cache as bitmasks, per variable sorted best first: the common input
// of the exact methods. Family (v, i) is the i-th best entry of v; `entry` maps it back to the
// cache so results can be reported as cache entries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/report.hpp"
#include "bnsl/stop.hpp"

namespace bnsl::exact {

using Mask = std::uint64_t;

inline constexpr int kMaxVars = 64;  // masks are 64-bit

struct FamilyTable {
  int n = 0;
  std::vector<std::vector<Mask>> masks;           // masks[v][i]: parents of family i of v
  std::vector<std::vector<double>> scores;        // scores[v][i], non-increasing in i
  std::vector<std::vector<std::uint32_t>> entry;  // entry[v][i]: index in cache.var(v)

  std::size_t size(int v) const { return masks[static_cast<std::size_t>(v)].size(); }
  void set_vars(int vars);  // n = vars, every family list empty
  std::size_t total() const;
  // Score of a DAG given as family indices (summed in variable order).
  double score(const std::vector<std::uint32_t>& choice) const;
  // The DAG as parent lists, for a PoolDag.
  ParentSets parents(const std::vector<std::uint32_t>& choice) const;
};

// Builds the table; throws InputError if n > max_vars, a variable has no entry, or a parent
// index is out of range or equal to the child.
FamilyTable make_family_table(const ScoreCache& cache, int max_vars = kMaxVars);

// The families (v, i) with keep(v, i), in their order; original[v][j] is the index in `fam`
// of family j of v in the result.
FamilyTable select_families(const FamilyTable& fam,
                            const std::function<bool(int, std::size_t)>& keep,
                            std::vector<std::vector<std::uint32_t>>& original);

// Best network consistent with the order 0, 1, ..., n-1: a valid answer when an exact method
// is stopped before it finds a network. Empty if some variable has no family there.
std::vector<std::uint32_t> order_network(const FamilyTable& fam);

// Vertex set of a directed cycle of the parent graph given by family choices, or 0 if it is
// acyclic.
Mask find_cycle(const FamilyTable& fam, const std::vector<std::uint32_t>& choice);

// Seconds to keep before the deadline for summarising and writing a list of `dags` DAGs of n
// variables: the listing methods stop by then, so that the pool is on disk by the deadline.
// uci/parkinsons (BIC BF 20): 249,508 DAGs of 23 variables took about 5 s to group into
// classes and write after the collection stopped (0.9 microseconds per DAG and variable).
inline double report_reserve(std::size_t dags, int n) {
  return 0.05 + 1e-6 * static_cast<double>(dags) * static_cast<double>(n);
}

// Whether a listing should stop: a stop was requested, or the deadline is within the
// report_reserve of the `dags` DAGs listed so far, times how much slower than idle the
// machine runs the listing now (parallel/slowdown.hpp, sampled by the caller).
inline bool listing_should_stop(const StopToken& stop, std::size_t dags, int n,
                                double slowdown = 1) {
  return stop.stop_requested() ||
         (stop.has_deadline() && stop.remaining() < slowdown * report_reserve(dags, n));
}

// Makes sure the optimum `best` is in `dags`: appended, in place of the worst DAG when the
// list already holds max_solutions (it was truncated), so it never holds more. With `classes`
// (a list of one DAG per class) a member of its class already listed stands for it.
void keep_optimum(const FamilyTable& fam, std::vector<std::vector<std::uint32_t>>& dags,
                  const std::vector<std::uint32_t>& best, std::size_t max_solutions, bool classes);

// Sorts DAGs best first (ties: by family indices, so the order is deterministic) and turns
// them into pool entries.
std::vector<PoolDag> to_pool(const FamilyTable& fam,
                             std::vector<std::vector<std::uint32_t>> choices);

}  // namespace bnsl::exact
