// Collecting every DAG within a threshold (OPT - epsilon) in ONE search: a depth-first LP-based
// branch and cut over the family variables, written here so that the treatment of integral
// points is under our control (CBC accepts an integral node solution as an incumbent and
// fathoms its node, which would lose the other DAGs of that region; Liao et al. 2019 change
// SCIP's solution collection for the same reason).
//
// At a node: solve the LP (dual simplex, warm-started from the parent); if it is infeasible or
// its bound -obj is below the threshold, no DAG within the threshold lies in the node's region
// (every row is valid for every DAG not yet listed): prune. Try to list the region by direct
// enumeration of the families the LP leaves usable (region_enumeration.cpp) and stop there;
// if the enumeration runs out of its budget, keep what it listed and, after the node's cut
// rounds, search the rest of the region as disjoint parts (split()). Otherwise, if the LP point is
// integral, it is a parent-set choice: with a cycle, add the cycle's cluster row and re-solve;
// without, it is the best DAG D of the region: if within the threshold, list it and search the
// region minus D, split into disjoint sub-regions by fixing D's families (partition(),
// collector.cpp); else prune. If fractional, add violated cluster rows found by the greedy
// separator and re-solve; when none is found (or after a number of rounds) branch on the arc u -> v
// whose LP value (the sum of v's family columns containing u) is nearest 1/2: first every family of
// v without u is fixed to 0 (the arc is present), then every family with u (it is absent). Both are
// column bounds, and the two regions split the node's region. On uci/adult (BIC BF 3, trial runs of
// 150 s from the same jkl cache) the collector listed 43 of 324 DAGs branching on the family
// nearest to one; CBC's search likewise went from a gap of 126 to a proof when it branched on arcs.
// A fractional point with every arc integral cannot occur (each variable's families have
// distinct parent sets); the family nearest to one is the fallback all the same. Before a node
// branches or partitions, the families its LP's reduced costs rule out (reduced_cost.cpp)
// are fixed to 0 for its children: uci/wdbc (BIC BF 3, 1 thread) lists its 398 DAGs with 40%
// fewer simplex iterations, sponge (BF 20) its 146,097 with 70% fewer.
//
// Threads: each worker searches on its own copy of the LP (its cuts stay there: every row is
// valid everywhere). The root region is the first worker's; a worker about to search a child
// of a node (a side of a branch, a part of a partition) hands it to the shared queue instead
// when another worker waits for work and the child is not the node's last, as the column
// bounds that describe it. The search ends when every worker waits and nothing is queued.
//
// Guarantee: every DAG scoring >= threshold is listed exactly once, because a region is only
// discarded when its LP bound proves it holds no DAG within the threshold (cluster rows are
// valid for every DAG) or when its enumeration listed it (every acyclic choice of its usable
// families within the threshold; the others cannot reach it, by the same bound), and
// branching, partitioning and splitting divide a region into disjoint parts whose union is the
// region minus what was listed. The search ends when the tree is exhausted (complete) or on stop.
//
// More than max_solutions within the threshold: the list keeps the best max_solutions. Once
// it holds that many, a DAG met is listed only if it beats the worst listed, which then
// leaves the list, and the worst listed score (the bar) replaces the threshold in every
// worker's bounds: a region whose LP bound is below the bar holds nothing better than the
// list. Every DAG scoring above the final bar was listed and never left, so a search that
// exhausts its tree ends with the complete list of the DAGs scoring above the bar (ties with
// it broken by the order they were met), not complete within the threshold. With classes the
// same holds for classes.
//
// Classes (Listing::classes): the same search, but a DAG is listed only when its Markov
// equivalence class (its characteristic imset's 2- and 3-set components, imset.hpp) has not
// been met; the other members met are skipped, so each class with a member within the
// threshold is listed once, by the member met with the smallest family indices (whatever the
// order the workers met them in), and memory holds one DAG per class. With
// Listing::class_nogoods, listing a class also adds its imset no-good row, valid for every DAG
// outside the class, so the LP search no longer meets its members (the enumeration of a region
// still does, and skips them). The no-good rows are dense and weak: in the LP they turn
// integral points fractional, and the search branches more and re-solves slower
// (bench/results/exact.md, "Classes by the ILP").
#include "exact/collect.hpp"

#ifdef BNSL_HAVE_CBC

#include <OsiClpSolverInterface.hpp>
#include <OsiSolverInterface.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include <omp.h>

#include "exact/best_list.hpp"
#include "exact/collect_shared.hpp"
#include "exact/collector.hpp"
#include "util/threads.hpp"

namespace bnsl::exact {

double threshold_slack(double threshold) {
  return 1e-7 * std::max(1.0, std::fabs(threshold));
}

std::vector<char> usable_families(OsiSolverInterface& lp, double threshold) {
  const int n = lp.getNumCols();
  std::vector<char> usable(static_cast<std::size_t>(n), 1);
  lp.messageHandler()->setLogLevel(0);
  lp.initialSolve();
  if (!lp.isProvenOptimal()) return usable;
  const double bound = -lp.getObjValue();
  const double slack = threshold_slack(threshold);
  const double* d = lp.getReducedCost();
  const double* x = lp.getColSolution();
  for (int c = 0; c < n; ++c)
    if (x[c] < 1e-9 && d[c] > 0 && bound - d[c] < threshold - slack) usable[c] = 0;
  return usable;
}

using detail::Collector;
using detail::Shared;

CollectResult collect_within(const FamilyTable& fam, const ColumnLayout& cols,
                             OsiSolverInterface& lp, double threshold, std::size_t max_solutions,
                             std::uint64_t enumerate_steps, Listing listing, int threads,
                             const StopToken& stop, std::vector<std::vector<std::uint32_t>>& dags,
                             const ExactTunables& tune) {
  if (max_solutions == 0) {  // nothing may be listed
    CollectResult none;
    none.truncated = true;
    return none;
  }
  lp.setDblParam(OsiDualObjectiveLimit, -threshold + threshold_slack(threshold));
  lp.messageHandler()->setLogLevel(0);
  lp.setHintParam(OsiDoScale, false, OsiHintDo);  // rows are added all the time
  // By default (0x80000000) OsiClp's resolve() builds Clp's work areas and the matrix's row
  // copy anew at every call: 55% of the collection's time on uci/lung-cancer (perf, BIC BF
  // 20), where the LP is small and re-solves take a few pivots. 1: keep the work areas
  // between solves; 2048: go straight to the dual simplex (no "crunch" of the model into a
  // smaller copy). Not 8 (reuse the factorization when no rows were added): with it, the
  // brute-force class test lost DAGs. bench/results/exact.md, "Clp's re-solves and
  // threads".
  if (auto* clp = dynamic_cast<OsiClpSolverInterface*>(&lp)) clp->setSpecialOptions(1 | 2048);
  lp.initialSolve();
  // With no-goods a class's row is in one worker's LP only: the others would list its
  // members again, so that cross-check runs on one thread. It is also the LP search's alone:
  // the enumeration of regions lists classes without rows, and on small data (uci/wine, BIC
  // BF 3) lists them all, so that no row would be tested.
  const bool nogoods = listing == Listing::class_nogoods;
  if (nogoods) enumerate_steps = 0;
  const int workers = nogoods ? 1 : std::max(1, resolve_threads(threads));
  Shared shared(workers, max_solutions, listing != Listing::dags, fam.n);
  std::vector<std::unique_ptr<OsiSolverInterface>> copies;  // the other workers' LPs
  std::vector<std::unique_ptr<Collector>> team;
  for (int w = 0; w < workers; ++w) {
    if (w > 0) copies.emplace_back(lp.clone());
    team.push_back(std::make_unique<Collector>(fam, cols, w == 0 ? lp : *copies.back(), threshold,
                                               enumerate_steps, nogoods, stop, shared, tune));
  }
  FirstError error;
#pragma omp parallel num_threads(workers)
  {
    // Fewer threads than asked when nested in another parallel region: the team's size is
    // what the queue waits for.
#pragma omp single
    shared.set_workers(omp_get_num_threads());
    error.run([&] {
      try {
        team[static_cast<std::size_t>(omp_get_thread_num())]->run();
      } catch (...) {
        shared.halt();  // the others would wait for this worker's regions
        throw;
      }
    });
  }
  error.rethrow();

  CollectResult out;
  std::vector<Choice> found;
  std::vector<double> scores;
  for (auto& worker : team) {
    const CollectResult& r = worker->result();
    out.nodes += r.nodes;
    out.lp_solves += r.lp_solves;
    out.lp_iterations += r.lp_iterations;
    out.rows_purged += r.rows_purged;
    out.columns_fixed += r.columns_fixed;
    out.cluster_cuts += r.cluster_cuts;
    out.cycle_cuts += r.cycle_cuts;
    out.enumerations += r.enumerations;
    out.splits += r.splits;
    out.nogoods += r.nogoods;
    out.dags_reached += r.dags_reached;
    out.handed += r.handed;
    worker->take_dags(found, scores);
  }
  if (shared.classes()) shared.take_classes(found, scores);
  out.memory_short = shared.memory_short();
  if (out.memory_short) out.memory_left = shared.memory_left();
  out.complete = shared.exhausted() && !shared.dropped() && !out.memory_short;
  out.truncated = shared.dropped();
  if (out.truncated && shared.exhausted()) out.listed_above = shared.bar();
  out.workers = shared.workers();
  // Ties with the bar (and classes that left the list and are still known) may pass
  // max_solutions: the worst leave.
  keep_best(found, scores, max_solutions);
  for (auto& choice : found) dags.push_back(std::move(choice));
  return out;
}

}  // namespace bnsl::exact

#endif  // BNSL_HAVE_CBC
