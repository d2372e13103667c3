// One worker of the collection of every DAG within a threshold (collect.cpp describes the
// method): a depth-first LP-based branch and cut on the worker's own copy of the LP. Its code:
// collector.cpp (the node loop, branching and partitioning, the LP's upkeep),
// region_enumeration.cpp (a region listed by direct enumeration, and split when that stops
// on its budget), reduced_cost.cpp (the Lagrangian bound and reduced-cost fixing).
#pragma once

// Built only with CBC's LP solver (BNSL_HAVE_CBC); without it the files that include this header
// compile to nothing.
#ifdef BNSL_HAVE_CBC

#include <OsiSolverInterface.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "bnsl/stop.hpp"
#include "exact/best_list.hpp"
#include "exact/cluster_cuts.hpp"
#include "exact/collect.hpp"
#include "exact/collect_shared.hpp"
#include "exact/families.hpp"
#include "exact/imset.hpp"
#include "exact/lp_rows.hpp"
#include "parallel/slowdown.hpp"

namespace bnsl::exact::detail {

constexpr double kInf = std::numeric_limits<double>::infinity();

// One thread's search, on its own copy of the LP.
class Collector {
 public:
  Collector(const FamilyTable& fam, const ColumnLayout& cols, OsiSolverInterface& lp,
            double threshold, std::uint64_t enumerate_steps, bool nogoods, const StopToken& stop,
            Shared& shared, const ExactTunables& tune)
      : fam_(fam),
        cols_(cols),
        lp_(lp),
        cut_(threshold),
        slack_(threshold_slack(threshold)),
        enumerate_steps_(enumerate_steps),
        nogoods_(nogoods),
        stop_(stop),
        shared_(shared),
        tune_(tune) {}

  // Searches the regions the shared queue hands out until none is left.
  void run() {
    Task task;
    base_rows_ = lp_.getNumRows();
    while (shared_.pop(task)) {
      for (const Bound& b : task) lp_.setColBounds(b.col, b.lo, b.up);
      resolve();
      node(0);
      for (const Bound& b : task) lp_.setColBounds(b.col, 0.0, 1.0);
    }
  }
  const CollectResult& result() const { return out_; }
  // Moves out the DAGs this worker listed that are still in the list (scoring at least the
  // bar), and their scores.
  void take_dags(std::vector<Choice>& out, std::vector<double>& scores) {
    drop_below(dags_, dag_scores_, shared_.bar());
    for (std::size_t i = 0; i < dags_.size(); ++i) {
      out.push_back(std::move(dags_[i]));
      scores.push_back(dag_scores_[i]);
    }
  }

 private:
  enum class Step { prune, again, branch, partition, split };
  // split_pending: an enumeration of the node's region split it; until the split, the LP is
  // only solved and cut (no enumeration, no DAG listed at an integral point).
  Step process(bool split_pending);
  const ImsetKey* take(std::vector<std::uint32_t> choice, double score);
  // What enumerate_region() did with the node's region: nothing (not tried, or stopped by a
  // halt or on its budget before listing a DAG), listed all of it, or listed part of it and left
  // the rest in parts_.
  enum class Enumerated { no, all, part };
  Enumerated enumerate_region();
  void enumerate_from(std::size_t k);
  bool pick(int v, Mask parents);
  void undo(std::size_t mark);
  bool split_rest();
  void node(int depth);
  void partition(int depth);
  void split(int depth);
  void child(int depth, bool last);
  bool purge_rows();
  std::vector<int> fix_by_reduced_cost();
  // What the node's LP rules out (screen()): a family column whose penalty exceeds `allowed`
  // is used by no DAG of the region that reaches the cut.
  struct Screen {
    bool dual;       // the Lagrangian bound U (penalties d - m_v); else the LP optimum's d
    double allowed;  // U - cut (or z - cut, z the LP bound)
  };
  Screen screen();
  double penalty(const Screen& s, int v, std::size_t c, const double* d) const {
    return s.dual ? d[c] - least_[v] : d[c];
  }
  void resolve() {
    lp_.resolve();
    out_.lp_iterations += static_cast<std::uint64_t>(lp_.getIterationCount());
  }
  int branch_column(const double* x) const;
  std::pair<int, int> branch_arc(const double* x);
  void branch_on_arc(int u, int v, int depth);
  // Also raises this worker's cut to the shared bar.
  bool halt() {
    load_.sample_thread();
    if (!shared_.halted() && (shared_.memory_short() ||
                              listing_should_stop(stop_, shared_.listed(), fam_.n, load_.factor())))
      shared_.halt();
    if (const double bar = shared_.bar(); bar > cut_) {
      cut_ = bar;
      lp_.setDblParam(OsiDualObjectiveLimit, -cut_ + slack_);
    }
    return shared_.halted();
  }

  const FamilyTable& fam_;
  const ColumnLayout& cols_;
  OsiSolverInterface& lp_;
  double cut_;         // list DAGs scoring at least this: the threshold, or the bar when last read
  int base_rows_ = 0;  // the LP's rows when the search began (purge_rows keeps them)
  double slack_;
  std::uint64_t enumerate_steps_;  // budget of enumerate_region (0: never enumerate)
  bool nogoods_;                   // classes: a no-good row per class listed
  const StopToken& stop_;
  Shared& shared_;
  const ExactTunables& tune_;  // the cut rounds' (bnsl/tunables.hpp)
  Slowdown load_;              // of this thread's LP work: scales the report's reserve
  std::vector<std::vector<std::uint32_t>> dags_;  // listed by this worker (DAG listings) ...
  std::vector<double> dag_scores_;                // ... and their scores
  std::size_t next_forget_ = 1024;  // dags_'s size at which to drop those below the bar
  CollectResult out_;
  std::vector<double> arc_value_;  // scratch of branch_arc, n * n
  // enumerate_region: per variable (in enumeration order) its usable families in this region,
  // the best score of the variables after position k, and the choice being built.
  std::vector<int> enum_order_;
  struct Usable {
    double penalty;  // p(v, i)
    std::uint32_t i;
    bool operator<(const Usable& o) const {
      return penalty != o.penalty ? penalty < o.penalty : i < o.i;
    }
  };
  std::vector<std::vector<Usable>> enum_lists_;  // by increasing penalty
  std::vector<double> least_;                    // m_v per variable, of the last screen()
  double enum_budget_ = 0;          // U - cut: the most a choice's penalties may add up to
  double enum_penalty_ = 0;         // of the families picked
  std::vector<int> enum_position_;  // of each variable in enum_order_
  std::vector<std::uint32_t> enum_choice_;
  // Descendants and ancestors of each variable through the picked families.
  std::vector<Mask> enum_desc_, enum_anc_;
  // Of each variable not yet picked: the best score and the least penalty of its usable
  // families that close no cycle with the picked ones (as of the last change of its
  // descendants, so upper and lower bounds); and their sums over the variables not yet picked.
  std::vector<double> enum_open_score_, enum_open_penalty_;
  double enum_open_score_sum_ = 0, enum_open_penalty_sum_ = 0;
  struct Undo {  // a variable's entries before a pick changed them
    int v;
    Mask desc, anc;
    double open_score, open_penalty;
  };
  std::vector<Undo> enum_trail_;
  std::vector<std::vector<std::uint32_t>> enum_found_;
  std::vector<double> enum_found_scores_;
  double enum_partial_ = 0;
  std::uint64_t enum_steps_ = 0;
  bool enum_aborted_ = false;
  // Where the enumeration stopped: the depth K it was at, and the position in enum_lists_ of
  // the family in progress at each depth k < K (at K, the family not yet tried).
  std::size_t enum_stop_depth_ = 0;
  std::vector<std::size_t> enum_stop_;
  std::vector<Task> parts_;  // the regions split_rest() left for split()
};

}  // namespace bnsl::exact::detail

#endif  // BNSL_HAVE_CBC
