// One worker's branch and cut of the collection (collect.cpp describes the method and its
// guarantee): a node's LP solved and cut until it prunes, lists its best DAG and partitions
// the rest of its region, or branches on the arc whose LP value is nearest 1/2; a child
// region searched here or handed to a waiting worker; slack cluster rows purged.
#include "exact/collector.hpp"

#ifdef BNSL_HAVE_CBC

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>
#include <vector>

namespace bnsl::exact::detail {

// One LP solve at the current node and what to do next.
Collector::Step Collector::process(bool split_pending) {
  ++out_.lp_solves;
  if (!lp_.isProvenOptimal()) {
    if (!lp_.isProvenPrimalInfeasible() && !lp_.isDualObjectiveLimitReached())
      shared_.halt();  // numerical trouble: stop, and say the list may be incomplete
    return Step::prune;
  }
  if (-lp_.getObjValue() < cut_ - slack_) return Step::prune;
  if (!split_pending) {
    switch (enumerate_region()) {
      case Enumerated::all:  // listed: nothing left here
        return Step::prune;
      case Enumerated::part:
        return Step::split;
      case Enumerated::no:
        break;
    }
  }
  const double* x = lp_.getColSolution();
  const auto choice = integral_choice(fam_, cols_, x);
  if (!choice.empty()) {
    if (const Mask cycle = find_cycle(fam_, choice)) {
      add_cluster_rows(fam_, cols_, lp_, {ClusterCut{cycle, 1}}, false);
      ++out_.cycle_cuts;
      return Step::again;
    }
    // With a split pending, the DAG belongs to a listed part or to a part to come: no cut
    // separates it, and it is not listed here.
    if (split_pending) return Step::split;
    const double score = fam_.score(choice);
    if (score < cut_) return Step::prune;  // the LP optimum: all worse
    // Listed (or, for classes, skipped when its class was met before; or left out below the
    // bar): the rest of the region is searched around it. With no-goods, a new class's row
    // also removes its other members from every region, this one included.
    const ImsetKey* fresh = take(choice, score);
    if (fresh && nogoods_) {
      add_class_nogood(fam_, cols_, *fresh, lp_);
      ++out_.nogoods;
    }
    return Step::partition;
  }
  return Step::branch;
}

// Lists a DAG within the threshold: always for DAGs, for classes when its class is new.
// Returns the new class's imset key (classes only; null otherwise).
const ImsetKey* Collector::take(std::vector<std::uint32_t> choice, double score) {
  if (shared_.classes()) {
    ++out_.dags_reached;
    return shared_.meet_class(imset_key(fam_, choice), choice, score);
  }
  if (!shared_.admit(score)) return nullptr;
  dags_.push_back(std::move(choice));
  dag_scores_.push_back(score);
  if (dags_.size() >= next_forget_) {  // DAGs that left the list: kept under twice the rest
    drop_below(dags_, dag_scores_, shared_.bar());
    next_forget_ = std::max<std::size_t>(1024, 2 * dags_.size());
  }
  return nullptr;
}

// The node's region minus the DAG D just listed (x = 1 exactly on D's families f_1..f_k not
// yet fixed to 1) splits into the disjoint regions {f_1 .. f_(j-1) fixed to 1, f_j fixed to
// 0}, j = 1..k: any other point of the region has a first f_j at 0 (one family per node).
// So no DAG is listed twice, and none is lost.
void Collector::partition(int depth) {
  const double* x = lp_.getColSolution();
  std::vector<int> free;
  for (std::size_t c = 0; c < cols_.columns(); ++c)
    if (x[c] > 0.5 && lp_.getColLower()[c] < 0.5) free.push_back(static_cast<int>(c));
  for (std::size_t k = 0; k < free.size() && !shared_.halted(); ++k) {
    lp_.setColBounds(free[k], 0.0, 0.0);
    child(depth, k + 1 == free.size());
    lp_.setColBounds(free[k], 1.0, 1.0);  // later regions keep f_k at 1
  }
  for (int c : free) lp_.setColBounds(c, 0.0, 1.0);
}

// The region the LP's column bounds now describe, a child of the current node: searched here,
// or, when another worker waits for work and this is not the node's last child, handed to it
// (then its bounds are those of the LP now, every column not at [0, 1]). Its LP starts from the
// basis the search of the previous child left. Restoring the node's basis for each child after
// the first (CoinWarmStartBasis, resized for the rows added since) was tried: uci/hepatitis,
// BIC BF 20, 1 thread, its complete list took 55,801 nodes and 1.23 M simplex iterations
// instead of 25,422 and 0.41 M.
void Collector::child(int depth, bool last) {
  if (!last && shared_.hungry()) {
    Task task;
    const double* lo = lp_.getColLower();
    const double* up = lp_.getColUpper();
    for (std::size_t c = 0; c < cols_.columns(); ++c)
      if (lo[c] > 0.5 || up[c] < 0.5) task.push_back({static_cast<int>(c), lo[c], up[c]});
    shared_.push(std::move(task));
    ++out_.handed;
    return;
  }
  resolve();
  node(depth + 1);
}

int Collector::branch_column(const double* x) const {
  int best = -1;
  double best_value = 0;
  for (std::size_t c = 0; c < cols_.columns(); ++c)
    if (x[c] > 1e-6 && x[c] < 1 - 1e-6 && x[c] > best_value)
      best = static_cast<int>(c), best_value = x[c];
  return best;
}

std::pair<int, int> Collector::branch_arc(const double* x) {
  const int n = fam_.n;
  arc_value_.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
  for (int v = 0; v < n; ++v)
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const double xi = x[cols_.offset[v] + i];
      if (xi <= 1e-9) continue;
      for (Mask b = fam_.masks[v][i]; b; b &= b - 1)
        arc_value_[static_cast<std::size_t>(std::countr_zero(b)) * n + v] += xi;
    }
  std::pair<int, int> best{-1, -1};
  double best_distance = 0.5 - 1e-6;  // values within 1e-6 of 0 or 1 count as integral
  for (int u = 0; u < n; ++u)
    for (int v = 0; v < n; ++v) {
      const double d = std::fabs(arc_value_[static_cast<std::size_t>(u) * n + v] - 0.5);
      if (d < best_distance) best = {u, v}, best_distance = d;
    }
  return best;
}

// The two children of the arc u -> v (present, then absent).
void Collector::branch_on_arc(int u, int v, int depth) {
  Task saved;
  for (const bool present : {true, false}) {
    saved.clear();
    bool empty = false;
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const bool has = (fam_.masks[v][i] >> u & 1) != 0;
      if (has == present) continue;
      const int c = static_cast<int>(cols_.offset[v] + i);
      const double lo = lp_.getColLower()[c], up = lp_.getColUpper()[c];
      if (up < 0.5) continue;
      if (lo > 0.5) empty = true;  // a family fixed to 1 contradicts this side
      saved.push_back({c, lo, up});
    }
    if (!empty) {
      for (const Bound& sv : saved) lp_.setColBounds(sv.col, 0.0, 0.0);
      child(depth, !present);
      for (const Bound& sv : saved) lp_.setColBounds(sv.col, sv.lo, sv.up);
    }
    if (shared_.halted()) return;
  }
}

// Drops the cluster rows this worker added that bind nowhere at the node (zero dual, slack
// on both sides), once there are more than collector_purge_above of them: the LP grows by up to
// cuts_per_round dense rows a cut round, and on uci/soybean (BIC BF 3) its re-solves had slowed
// to seconds at 4,200 rows (bench/JOURNAL.md). Every cluster row holds for every DAG, so a
// dropped row only weakens later LPs until the separator finds it again, and the node's LP
// keeps its optimum (its basis loses only basic slacks). Not with class no-goods, which the
// separator cannot find again. Returns whether rows were dropped (the LP was re-solved).
bool Collector::purge_rows() {
  const int rows = lp_.getNumRows();
  if (nogoods_ || rows - base_rows_ <= std::max(tune_.collector_purge_above, 2 * fam_.n))
    return false;
  const double* y = lp_.getRowPrice();
  const double* act = lp_.getRowActivity();
  const double* lo = lp_.getRowLower();
  const double* up = lp_.getRowUpper();
  std::vector<int> drop;
  for (int r = base_rows_; r < rows; ++r)
    if (std::fabs(y[r]) < 1e-9 && act[r] > lo[r] + 1e-6 && act[r] < up[r] - 1e-6) drop.push_back(r);
  if (drop.empty()) return false;
  lp_.deleteRows(static_cast<int>(drop.size()), drop.data());
  out_.rows_purged += drop.size();
  resolve();  // the same optimum; the solution arrays anew
  return true;
}

void Collector::node(int depth) {
  ++out_.nodes;
  int rounds = 0;
  // A split waits for the node's cut rounds, so that its parts start from the rows they add:
  // uci/hepatitis (BIC BF 20) and wdbc (BF 3), 1 thread, from jkl caches, 53,114 and 560,454
  // simplex iterations when the split came first, 33,171 and 361,630 after the cut rounds.
  bool split_pending = false;
  struct Unfix {  // frees the columns this node fixed when it returns
    OsiSolverInterface& lp;
    std::vector<int> cols;
    ~Unfix() {
      for (int c : cols) lp.setColUpper(c, 1.0);
    }
  } unfix{lp_, {}};
  for (;;) {
    if (halt()) {
      parts_.clear();
      return;
    }
    const Step step = process(split_pending);
    if (step == Step::prune) {  // the region, its parts to come included, holds nothing more
      parts_.clear();
      return;
    }
    if (step == Step::again) {
      resolve();
      continue;
    }
    if (step == Step::partition) {
      unfix.cols = fix_by_reduced_cost();
      return partition(depth);
    }
    if (step == Step::split && split_pending) {
      unfix.cols = fix_by_reduced_cost();
      return split(depth);
    }
    split_pending = split_pending || step == Step::split;
    const double* x = lp_.getColSolution();
    if (rounds++ < tune_.collector_cut_rounds) {
      const auto cuts = separate_clusters(fam_, cols_, x, tune_.min_violation, tune_.cuts_per_round,
                                          Separation::plain);
      add_cluster_rows(fam_, cols_, lp_, cuts, false);
      out_.cluster_cuts += cuts.size();
      if (!cuts.empty()) {
        resolve();
        continue;
      }
    }
    if (purge_rows()) x = lp_.getColSolution();
    unfix.cols = fix_by_reduced_cost();
    if (split_pending) return split(depth);
    if (const auto [u, v] = branch_arc(x); u >= 0) {
      branch_on_arc(u, v, depth);
      return;
    }
    const int j = branch_column(x);
    if (j < 0) return;  // integral within tolerance yet not recognised: cannot happen
    for (const double fix : {1.0, 0.0}) {
      const double lo = lp_.getColLower()[j], up = lp_.getColUpper()[j];
      lp_.setColBounds(j, fix, fix);
      child(depth, fix == 0.0);
      lp_.setColBounds(j, lo, up);
      if (shared_.halted()) return;
    }
    return;
  }
}

}  // namespace bnsl::exact::detail

#endif  // BNSL_HAVE_CBC
