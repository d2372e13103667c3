// Collection of every DAG within a threshold by one LP-based branch and cut; see collect.cpp.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "bnsl/stop.hpp"
#include "exact/cluster_cuts.hpp"
#include "exact/families.hpp"

class OsiSolverInterface;

namespace bnsl::exact {

struct CollectResult {
  bool complete = false;      // the search tree was exhausted and the list holds every DAG found
  bool truncated = false;     // more than max_solutions within the threshold: the best are listed
  bool memory_short = false;  // halted: the list would not fit in memory as a pool
  double memory_left = 0;     // ... bytes available then
  // truncated and exhausted: every DAG scoring above this is listed (-inf otherwise)
  double listed_above = -std::numeric_limits<double>::infinity();
  std::uint64_t nodes = 0;  // branch-and-bound nodes
  std::uint64_t lp_solves = 0;
  std::uint64_t lp_iterations = 0;  // simplex iterations of the workers' re-solves
  std::uint64_t rows_purged = 0;    // slack cluster rows the workers dropped (purge_rows)
  std::uint64_t columns_fixed = 0;  // family columns fixed to 0 by reduced cost, node by node
  std::uint64_t cluster_cuts = 0, cycle_cuts = 0;
  std::uint64_t enumerations = 0;  // regions listed by enumeration (few usable families)
  std::uint64_t splits = 0;        // enumerations stopped on their budget, the rest split in parts
  std::uint64_t nogoods = 0;       // classes: class no-good rows added (imset.hpp)
  std::uint64_t dags_reached = 0;  // classes: DAGs within the threshold met (several per class)
  std::uint64_t handed = 0;        // regions handed from one worker to another
  int workers = 0;                 // threads that searched
};

// lp: the relaxation over the family columns of `cols` (convexity rows, any valid cluster
// rows), minimising -score, best screened by usable_families first; it is modified (bounds
// restored, cluster rows added). Appends to `dags` every DAG with score >= threshold, each
// once; past max_solutions, the max_solutions best of them (collect.cpp). enumerate_steps: the
// budget of a region's direct enumeration (ExactOptions::collect_enumerate_steps; 0: none).
// Listing::classes: instead one DAG per Markov equivalence class with a member scoring >=
// threshold, each class once (members met later are recognised by their imset key,
// imset.hpp), max_solutions counting classes, the member with the smallest family indices met
// standing for its class; class_nogoods: the same, and each class listed adds its no-good row
// to lp, so its other members are not met again. threads: workers searching disjoint regions
// on copies of lp (resolve_threads; one with class_nogoods); the list is the same set, in
// another order. tune: the collector's cut rounds (exact.min_violation, cuts_per_round,
// collector_cut_rounds, collector_purge_above).
enum class Listing { dags, classes, class_nogoods };
CollectResult collect_within(const FamilyTable& fam, const ColumnLayout& cols,
                             OsiSolverInterface& lp, double threshold, std::size_t max_solutions,
                             std::uint64_t enumerate_steps, Listing listing, int threads,
                             const StopToken& stop, std::vector<std::vector<std::uint32_t>>& dags,
                             const ExactTunables& tune = {});

// Screening before a collection: lp is the relaxation (rows valid for every DAG, including
// the score row sum s x >= threshold), minimising -score. Solves it and returns, per column,
// whether a DAG scoring >= threshold may use that family: a column at 0 with reduced cost
// d >= 0 is unusable when -obj - d < threshold (LP duality: every point with that column at 1
// scores at most -obj - d). If the LP is not solved to optimality, every column is usable.
std::vector<char> usable_families(OsiSolverInterface& lp, double threshold);

// Numerical slack of LP bounds against a score threshold: a region or a family is ruled out
// only when its bound is below threshold - slack (the collector, its screening, and the root
// screening of root_lp.cpp).
double threshold_slack(double threshold);

}  // namespace bnsl::exact
