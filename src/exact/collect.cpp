// Collecting every DAG within a threshold (OPT - epsilon) in ONE search: a depth-first LP-based
// branch and cut over the family variables, written here so that the treatment of integral
// points is under our control (CBC accepts an integral node solution as an incumbent and
// fathoms its node, which would lose the other DAGs of that region; Liao et al. 2019 change
// SCIP's solution collection for the same reason).
//
// At a node: solve the LP (dual simplex, warm-started from the parent); if it is infeasible or
// its bound -obj is below the threshold, no DAG within the threshold lies in the node's region
// (every row is valid for every DAG not yet listed): prune. Try to list the region by direct
// enumeration of the families the LP leaves usable (enumerate_region() below) and stop there;
// if the enumeration runs out of its budget, keep what it listed and, after the node's cut
// rounds, search the rest of the region as disjoint parts (split()). Otherwise, if the LP point is
// integral, it is a parent-set choice: with a cycle, add the cycle's cluster row and re-solve;
// without, it is the best DAG D of the region: if within the threshold, list it and search the
// region minus D, split into disjoint sub-regions by fixing D's families (partition() below); else
// prune. If fractional, add violated cluster rows found by the greedy separator and re-solve; when
// none is found (or after a number of rounds) branch on the arc u -> v whose LP value (the sum of
// v's family columns containing u) is nearest 1/2: first every family of v without u is fixed
// to 0 (the arc is present), then every family with u (it is absent). Both are column bounds,
// and the two regions split the node's region. On uci/adult (BIC BF 3, trial runs of 150 s
// from the same jkl cache) the collector listed 43 of 324 DAGs branching on the family nearest
// to one; CBC's search likewise went from a gap of 126 to a proof when it branched on arcs.
// A fractional point with every arc integral cannot occur (each variable's families have
// distinct parent sets); the family nearest to one is the fallback all the same. Before a node
// branches or partitions, the families its LP's reduced costs rule out (fix_by_reduced_cost())
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

#include <CoinTypes.hpp>
#include <OsiClpSolverInterface.hpp>
#include <OsiSolverInterface.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

#include <omp.h>

#include "exact/best_list.hpp"
#include "exact/imset.hpp"
#include "exact/list_memory.hpp"
#include "parallel/slowdown.hpp"
#include "util/threads.hpp"

namespace bnsl::exact {

double threshold_slack(double threshold) {
  return 1e-7 * std::max(1.0, std::fabs(threshold));
}

void RowBatch::add(const std::vector<int>& columns, const std::vector<double>& coefs, double lb,
                   double ub) {
  columns_.insert(columns_.end(), columns.begin(), columns.end());
  coefs_.insert(coefs_.end(), coefs.begin(), coefs.end());
  starts_.push_back(static_cast<int>(columns_.size()));
  lower_.push_back(lb);
  upper_.push_back(ub);
}

void RowBatch::flush(OsiSolverInterface& lp) {
  static_assert(sizeof(CoinBigIndex) == sizeof(int));
  if (lower_.empty()) return;
  lp.addRows(static_cast<int>(lower_.size()), starts_.data(), columns_.data(), coefs_.data(),
             lower_.data(), upper_.data());
  starts_.assign(1, 0);
  columns_.clear();
  coefs_.clear();
  lower_.clear();
  upper_.clear();
}

void add_cluster_rows(const FamilyTable& fam, const ColumnLayout& cols, OsiSolverInterface& lp,
                      const std::vector<ClusterCut>& clusters, bool sparse) {
  RowBatch rows;
  for (ClusterCut c : clusters) {
    const ClusterRow row = cluster_row(fam, cols, c, sparse);
    rows.add(row.columns, std::vector<double>(row.columns.size(), 1.0), row.lb, row.ub);
  }
  rows.flush(lp);
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

namespace {

constexpr int kCutRoundsPerNode = 25;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kPurgeAbove = 64;  // purge_rows: cluster rows added before slack ones are dropped

// Column bounds that differ from [0, 1]: a region of the search, handed between workers.
struct Bound {
  int col;
  double lo, up;
};
using Task = std::vector<Bound>;

// What the workers share: the regions handed out and not yet taken, the scores listed and the
// bar, the halt, and (classes) the class representatives.
class Shared {
 public:
  Shared(int threads, std::size_t max_solutions, bool classes, int n)
      : threads_(threads),
        max_(max_solutions),
        classes_(classes),
        best_(max_solutions),
        memory_(n) {
    queue_.emplace_back();  // the root region
  }

  // The next region to search; false when there is none left (the tree is exhausted: every
  // worker waits and nothing is queued) or the collection halted.
  bool pop(Task& task) {
    std::unique_lock lock(mutex_);
    ++idle_;
    update_hungry();
    for (;;) {
      if (halted_.load() || over_) break;
      if (!queue_.empty()) {
        task = std::move(queue_.front());
        queue_.pop_front();
        --idle_;
        update_hungry();
        return true;
      }
      if (idle_ == threads_) {
        over_ = true;
        ready_.notify_all();
        break;
      }
      ready_.wait(lock);
    }
    return false;
  }
  void push(Task task) {
    {
      std::lock_guard lock(mutex_);
      queue_.push_back(std::move(task));
      update_hungry();
    }
    ready_.notify_one();
  }
  // Some worker waits for a region that nobody has handed out yet.
  bool hungry() const { return hungry_.load(std::memory_order_relaxed) > 0; }
  void set_workers(int threads) { threads_ = threads; }  // before the first pop
  int workers() const { return threads_; }

  void halt() {
    {
      std::lock_guard lock(mutex_);
      halted_.store(true);
    }
    ready_.notify_all();
  }
  bool halted() const { return halted_.load(std::memory_order_relaxed); }
  bool exhausted() const { return over_ && !halted_.load(); }

  std::size_t listed() const { return listed_.load(std::memory_order_relaxed); }

  // A DAG (class) scoring `score` within the threshold was met: whether the list takes it
  // (BestScores::admit), the bar read by the workers without the lock.
  bool admit(double score) {
    std::lock_guard lock(best_mutex_);
    const bool taken = best_.admit(score);
    listed_.store(best_.listed(), std::memory_order_relaxed);
    bar_.store(best_.bar(), std::memory_order_relaxed);
    dropped_.store(best_.dropped(), std::memory_order_relaxed);
    if (taken && memory_.short_of(best_.listed()))  // the workers halt at their next check
      memory_short_.store(true, std::memory_order_relaxed);
    return taken;
  }
  // The list would not fit in memory as a pool (list_memory.hpp): the collection halts.
  bool memory_short() const { return memory_short_.load(std::memory_order_relaxed); }
  double memory_left() {
    std::lock_guard lock(best_mutex_);
    return memory_.left();
  }
  // The worst listed score once more than max_solutions were met (-inf before): DAGs scoring
  // below it are not listed.
  double bar() const { return bar_.load(std::memory_order_relaxed); }
  // Some DAG (class) within the threshold was left out of the list or dropped from it.
  bool dropped() const { return dropped_.load(std::memory_order_relaxed); }

  // Classes: a member of a class within the threshold was met. The class's representative is
  // the member met with the smallest family indices, so a complete list is the same whatever
  // the threads and the order they met the members in. Returns the key when the class is new
  // and the list takes it (admit).
  const ImsetKey* meet_class(ImsetKey key, std::vector<std::uint32_t>& choice, double score) {
    std::lock_guard lock(seen_mutex_);
    const auto [it, inserted] = seen_.try_emplace(std::move(key));
    if (inserted) {
      if (!admit(score)) {
        seen_.erase(it);
        return nullptr;
      }
      it->second = {std::move(choice), score};
      // Classes that left the list stay known until they are twice as many as it holds.
      if (seen_.size() >= 2 * max_ && bar() > -kInfinity) forget_below_bar();
      return &it->first;  // map nodes stay put
    }
    if (choice < it->second.choice) it->second.choice = std::move(choice);
    return nullptr;
  }
  void take_classes(std::vector<Choice>& out, std::vector<double>& scores) {
    for (auto& entry : seen_) {
      out.push_back(std::move(entry.second.choice));
      scores.push_back(entry.second.score);
    }
  }
  bool classes() const { return classes_; }

 private:
  void update_hungry() {
    hungry_.store(idle_ - static_cast<int>(queue_.size()), std::memory_order_relaxed);
  }
  // A class below the bar met again is refused by admit(), as any DAG below it.
  void forget_below_bar() {
    const double bar = this->bar();
    for (auto it = seen_.begin(); it != seen_.end();)
      it = it->second.score < bar ? seen_.erase(it) : std::next(it);
  }
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  struct Representative {
    std::vector<std::uint32_t> choice;
    double score = 0;
  };

  int threads_;
  const std::size_t max_;
  const bool classes_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Task> queue_;
  int idle_ = 0;
  bool over_ = false;
  std::atomic<int> hungry_{0};
  std::atomic<bool> halted_{false};
  std::atomic<std::size_t> listed_{0};
  std::mutex best_mutex_;
  BestScores best_;
  ListMemory memory_;  // under best_mutex_
  std::atomic<bool> memory_short_{false};
  std::atomic<double> bar_{-kInfinity};
  std::atomic<bool> dropped_{false};
  std::mutex seen_mutex_;
  std::unordered_map<ImsetKey, Representative, ImsetKeyHash> seen_;
};

// One thread's search, on its own copy of the LP.
class Collector {
 public:
  Collector(const FamilyTable& fam, const ColumnLayout& cols, OsiSolverInterface& lp,
            double threshold, std::uint64_t enumerate_steps, bool nogoods, const StopToken& stop,
            Shared& shared)
      : fam_(fam),
        cols_(cols),
        lp_(lp),
        cut_(threshold),
        slack_(threshold_slack(threshold)),
        enumerate_steps_(enumerate_steps),
        nogoods_(nogoods),
        stop_(stop),
        shared_(shared) {}

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
  Slowdown load_;  // of this thread's LP work: scales the report's reserve
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

// Lists the region's DAGs within the threshold directly when that is cheap, by a depth-first
// search that picks one usable family per variable (fewest choices first), skips a family that
// closes a cycle with the families already picked, and lists each complete choice scoring
// >= threshold: exactly the region's part of the list. It stops after enumerate_steps_
// families tried: 2^18 by default, about the cost of tens of the collector's LP solves. What
// it listed by then is kept and the rest of the region is split into disjoint parts searched
// as the node's children (split_rest()) once the node's cut rounds are done, so no enumeration
// is wasted. Before (the region was branched on and what the enumeration found dropped), 70% of
// the families tried were in enumerations that stopped (uci/hepatitis and sponge, BIC BF 20, 1
// thread).
//
// The search's bound is the LP's, by Lagrangian duality, family by family. With the LP's row
// duals y (any y: optimality is not assumed) and reduced costs d = c - A^T y of the
// minimisation (c = -score), every DAG x of the region (its column bounds, and every row r in
// its range [lo_r, hi_r]: the region's rows hold for every DAG within the threshold) has
//   -score(x) = d.x + y.Ax >= sum_v d(v, x_v) + Y,   Y = sum_r min(y_r lo_r, y_r hi_r).
// With m_v = min d(v, i) over the families the region allows v, U = -Y - sum_v m_v and the
// penalty p(v, i) = d(v, i) - m_v >= 0: score(x) <= U - sum_v p(v, x_v). So a family with U -
// p(v, i) below the threshold is unusable, and a partial choice whose penalties exceed U - cut
// has no completion within it; each variable's families are tried by increasing penalty, so
// the first to exceed it ends the variable's loop. U is the LP bound when y is optimal. The
// penalties carry the cluster rows' duals, which the plain bound (the best usable family of
// each variable left) has not: that bound stays, as a second test. Rows with an infinite side
// and a dual of that side's sign (roundoff) leave no finite Y: then the penalties are 0 and the
// usable families those the LP point or its bound allow, as before.
//
// Both bounds look ahead (forward checking): a variable not yet picked counts with the best
// score and the least penalty of its families that close no cycle with those picked (pick()),
// and a pick that leaves some variable no such family, or either bound out of reach, is not
// followed. The descendants and ancestors of every variable through the picked families are
// kept as bit masks (a pick touches only the variables that reach the picked one and those it
// reaches), with running sums of the bounds, restored from a trail (undo()). uci/hepatitis and
// sponge (BIC BF 20, 1 thread, their complete lists of 87,169 and 146,097 DAGs; user seconds,
// niced beside another job): 13.0 and 30.1 s before; 11.0 and 10.7 with the look-ahead; 4.6
// and 4.2 with the split as well; hailfinder100 (BIC BF 3, 56 variables, 432,624 DAGs, the
// report included) 7.3 s before, 6.6 after.
Collector::Enumerated Collector::enumerate_region() {
  if (enumerate_steps_ == 0) return Enumerated::no;
  const int n = fam_.n;
  const double* x = lp_.getColSolution();
  const double* d = lp_.getReducedCost();
  const double* lo = lp_.getColLower();
  const double* up = lp_.getColUpper();
  enum_lists_.resize(static_cast<std::size_t>(n));
  const Screen screened = screen();
  for (int v = 0; v < n; ++v) {
    auto& list = enum_lists_[v];
    list.clear();
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const std::size_t c = cols_.offset[v] + i;
      const auto index = static_cast<std::uint32_t>(i);
      if (up[c] < 0.5) continue;
      if (lo[c] > 0.5) {  // fixed to 1: the only family of v here
        list.assign(1, {0.0, index});
        break;
      }
      // without U, only a family at 0 in the LP point is ruled out (by its reduced cost)
      const double pen = penalty(screened, v, c, d);
      if (pen > screened.allowed && (screened.dual || x[c] < 1e-9)) continue;
      list.push_back({screened.dual ? pen : 0.0, index});
    }
    if (list.empty()) {  // no DAG within the threshold here
      ++out_.enumerations;
      return Enumerated::all;
    }
    if (screened.dual) std::sort(list.begin(), list.end());  // by increasing penalty
  }
  enum_budget_ = screened.dual ? screened.allowed : kInf;
  enum_order_.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) enum_order_[v] = v;
  std::stable_sort(enum_order_.begin(), enum_order_.end(),
                   [&](int a, int b) { return enum_lists_[a].size() < enum_lists_[b].size(); });
  enum_position_.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) enum_position_[enum_order_[k]] = k;
  enum_open_score_.assign(static_cast<std::size_t>(n), -kInf);
  enum_open_penalty_.assign(static_cast<std::size_t>(n), kInf);
  enum_open_score_sum_ = 0;
  enum_open_penalty_sum_ = 0;
  for (int v = 0; v < n; ++v) {
    for (const Usable& u : enum_lists_[v]) {
      enum_open_score_[v] = std::max(enum_open_score_[v], fam_.scores[v][u.i]);
      enum_open_penalty_[v] = std::min(enum_open_penalty_[v], u.penalty);
    }
    enum_open_score_sum_ += enum_open_score_[v];
    enum_open_penalty_sum_ += enum_open_penalty_[v];
  }
  enum_choice_.assign(static_cast<std::size_t>(n), 0);
  enum_desc_.assign(static_cast<std::size_t>(n), 0);
  enum_anc_.assign(static_cast<std::size_t>(n), 0);
  enum_trail_.clear();
  enum_stop_.assign(static_cast<std::size_t>(n), 0);
  enum_found_.clear();
  enum_found_scores_.clear();
  enum_partial_ = 0;
  enum_penalty_ = 0;
  enum_steps_ = 0;
  enum_aborted_ = false;
  enumerate_from(0);
  // Stopped by a halt (the node returns), or without a DAG listed (the depth-first search may
  // be lost in a region whose LP needs cuts: the node goes on to its cut rounds and branches,
  // and the branches meet again what the enumeration tried), or with nothing to split.
  // Splitting regardless cut no rows below the root on uci/hailfinder500 (BIC BF 3), whose
  // enumerations of 56 variables then listed nothing: 1 DAG in 600 s, against 348,685 in 30 s
  // before the split.
  if (enum_aborted_ && (shared_.halted() || enum_found_.empty() || !split_rest()))
    return Enumerated::no;
  if (enum_aborted_)
    ++out_.splits;
  else
    ++out_.enumerations;
  for (std::size_t i = 0; i < enum_found_.size(); ++i)
    take(std::move(enum_found_[i]), enum_found_scores_[i]);
  return enum_aborted_ ? Enumerated::part : Enumerated::all;
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

void Collector::enumerate_from(std::size_t k) {
  const std::size_t n = enum_order_.size();
  if (k == n) {
    if (const double score = fam_.score(enum_choice_); score >= cut_) {
      enum_found_.push_back(enum_choice_);
      enum_found_scores_.push_back(score);
    }
    return;
  }
  const int v = enum_order_[k];
  // Of the variables after position k (the sums run over v and them).
  const double open_score = enum_open_score_sum_ - enum_open_score_[v];
  const double open_penalty = enum_open_penalty_sum_ - enum_open_penalty_[v];
  const double score_sum = enum_open_score_sum_, penalty_sum = enum_open_penalty_sum_;
  const Mask desc = enum_desc_[v];  // a family with a parent among them would close a cycle
  const auto& list = enum_lists_[v];
  for (std::size_t pos = 0; pos < list.size(); ++pos) {
    const auto [pen, i] = list[pos];
    if (++enum_steps_ > enumerate_steps_ || ((enum_steps_ & 1023) == 0 && halt())) {
      enum_aborted_ = true;
      enum_stop_depth_ = k;
      enum_stop_[k] = pos;
      return;
    }
    if (enum_penalty_ + pen + open_penalty > enum_budget_) break;  // and every later family
    const double s = fam_.scores[v][i];
    if (enum_partial_ + s + open_score < cut_ - slack_) continue;
    const Mask parents = fam_.masks[v][i];
    if (parents & desc) continue;
    const std::size_t mark = enum_trail_.size();
    enum_choice_[v] = i;
    enum_partial_ += s;
    enum_penalty_ += pen;
    if (pick(v, parents)) enumerate_from(k + 1);
    undo(mark);
    enum_open_score_sum_ = score_sum;
    enum_open_penalty_sum_ = penalty_sum;
    enum_partial_ -= s;
    enum_penalty_ -= pen;
    if (enum_aborted_) {
      enum_stop_[k] = pos;
      return;
    }
  }
}

// Adds the arcs parents -> v (v's family just picked, its score and penalty already counted):
// every variable that reaches v (v's parents and their ancestors) now reaches v and v's
// descendants, which have those ancestors; each variable not yet picked whose descendants grew
// has its best score and least penalty (families closing no cycle, with a penalty that still
// fits) taken again, and v leaves the sums. Returns false when some variable is left
// without a family, or when the picked families plus the best the others can add fall below
// the cut (or their penalties above the budget): no completion of the choice is within it.
bool Collector::pick(int v, Mask parents) {
  enum_open_score_sum_ -= enum_open_score_[v];
  enum_open_penalty_sum_ -= enum_open_penalty_[v];
  Mask reach = parents;  // the variables that now reach v: its parents and their ancestors
  for (Mask b = parents; b; b &= b - 1) reach |= enum_anc_[std::countr_zero(b)];
  const Mask below = (Mask{1} << v) | enum_desc_[v];  // v and the variables it reaches
  bool ok = true;
  for (Mask b = reach; b; b &= b - 1) {
    const int x = std::countr_zero(b);
    Mask& dx = enum_desc_[x];
    if ((dx | below) == dx) continue;
    enum_trail_.push_back({x, dx, enum_anc_[x], enum_open_score_[x], enum_open_penalty_[x]});
    dx |= below;
    if (!ok || enum_position_[x] <= enum_position_[v]) continue;  // picked already
    double best = -kInf, least = kInf;
    for (const auto& [pen, i] : enum_lists_[x]) {
      if (enum_penalty_ + pen > enum_budget_) break;  // by increasing penalty
      if (fam_.masks[x][i] & dx) continue;
      best = std::max(best, fam_.scores[x][i]);
      least = std::min(least, pen);
    }
    enum_open_score_sum_ += best - enum_open_score_[x];
    enum_open_penalty_sum_ += least - enum_open_penalty_[x];
    enum_open_score_[x] = best;
    enum_open_penalty_[x] = least;
    ok = best > -kInf;
  }
  for (Mask b = below; b; b &= b - 1) {  // reach and below are disjoint: v closes no cycle
    const int y = std::countr_zero(b);
    Mask& ay = enum_anc_[y];
    if ((ay | reach) == ay) continue;
    enum_trail_.push_back({y, enum_desc_[y], ay, enum_open_score_[y], enum_open_penalty_[y]});
    ay |= reach;
  }
  return ok && enum_partial_ + enum_open_score_sum_ >= cut_ - slack_ &&
         enum_penalty_ + enum_open_penalty_sum_ <= enum_budget_;
}

void Collector::undo(std::size_t mark) {
  while (enum_trail_.size() > mark) {
    const Undo& u = enum_trail_.back();
    enum_desc_[u.v] = u.desc;
    enum_anc_[u.v] = u.anc;
    enum_open_score_[u.v] = u.open_score;
    enum_open_penalty_[u.v] = u.open_penalty;
    enum_trail_.pop_back();
  }
}

// After enumerate_from() stopped at depth K (enum_stop_), the part of the region it listed is
// every choice that leaves the path of families in progress before its end: at some depth k,
// v_k = enum_order_[k] takes a family at a position in enum_lists_[v_k] before p_k =
// enum_stop_[k], the path's families c_j fixed above it. The rest of the region is the
// disjoint union of R_k, k = 0..K: c_0 .. c_(k-1) fixed to 1, and v_k's families at positions
// up to p_k (k < K: p_k's own subtree is R_(k+1) .. R_K) or before p_K (k = K) fixed to 0. A
// family outside v_k's list stays free in R_k: no DAG within the cut uses it. R_k is empty when
// one of the families it excludes is fixed to 1 in the region (v_k's list is then that
// family). The parts, as column bounds, go to parts_, the deepest first. Returns false when
// they would make no progress (no part is narrower than the region: nothing was listed).
bool Collector::split_rest() {
  const double* lo = lp_.getColLower();
  const std::size_t depth = enum_stop_depth_;
  parts_.clear();
  bool narrower = false;
  for (std::size_t k = depth + 1; k-- > 0;) {
    const int v = enum_order_[k];
    const auto& list = enum_lists_[v];
    const std::size_t excluded = k < depth ? enum_stop_[k] + 1 : enum_stop_[k];
    Task part;
    bool empty = false;
    for (std::size_t q = 0; q < excluded && !empty; ++q) {
      const auto c = static_cast<int>(cols_.offset[v] + list[q].i);
      empty = lo[c] > 0.5;
      part.push_back({c, 0.0, 0.0});
    }
    if (empty) continue;
    for (std::size_t j = 0; j < k; ++j) {
      const int u = enum_order_[j];
      const auto c = static_cast<int>(cols_.offset[u] + enum_lists_[u][enum_stop_[j]].i);
      if (lo[c] < 0.5) part.push_back({c, 1.0, 1.0});
    }
    narrower = narrower || !part.empty();
    parts_.push_back(std::move(part));
  }
  if (!narrower) parts_.clear();
  return narrower;
}

// Searches the parts split_rest() left, each as a child of the node.
void Collector::split(int depth) {
  const std::vector<Task> parts = std::move(parts_);
  parts_.clear();
  Task saved;
  for (std::size_t p = 0; p < parts.size() && !shared_.halted(); ++p) {
    saved.clear();
    for (const Bound& b : parts[p]) {
      saved.push_back({b.col, lp_.getColLower()[b.col], lp_.getColUpper()[b.col]});
      lp_.setColBounds(b.col, b.lo, b.up);
    }
    child(depth, p + 1 == parts.size());
    for (auto it = saved.rbegin(); it != saved.rend(); ++it)
      lp_.setColBounds(it->col, it->lo, it->up);
  }
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
// on both sides), once there are more than kPurgeAbove of them: the LP grows by up to
// kCutsPerRound dense rows a cut round, and on uci/soybean (BIC BF 3) its re-solves had slowed
// to seconds at 4,200 rows (bench/JOURNAL.md). Every cluster row holds for every DAG, so a
// dropped row only weakens later LPs until the separator finds it again, and the node's LP
// keeps its optimum (its basis loses only basic slacks). Not with class no-goods, which the
// separator cannot find again. Returns whether rows were dropped (the LP was re-solved).
bool Collector::purge_rows() {
  const int rows = lp_.getNumRows();
  if (nogoods_ || rows - base_rows_ <= std::max(kPurgeAbove, 2 * fam_.n)) return false;
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

// enumerate_region()'s Lagrangian bound at the LP's current duals: U, and the m_v in least_
// (+inf for a variable no family of which is allowed: then U = -inf). Without a finite Y (a row
// with a nonzero dual has an infinite side), or with U not finite or below the LP bound z (at
// the LP optimum U is z; below it, roundoff), the penalties are not used: the screen is then the
// LP optimum's reduced costs against z. z >= cut - slack at every node searched (process()
// prunes the others), so `allowed` is then >= 0.
Collector::Screen Collector::screen() {
  const int n = fam_.n;
  const double* d = lp_.getReducedCost();
  const double* lo = lp_.getColLower();
  const double* up = lp_.getColUpper();
  const double* y = lp_.getRowPrice();
  const double* row_lo = lp_.getRowLower();
  const double* row_up = lp_.getRowUpper();
  const double bound = -lp_.getObjValue();
  const Screen plain{false, bound - (cut_ - slack_)};
  double lagrange = 0;  // Y
  for (int r = 0, rows = lp_.getNumRows(); r < rows; ++r) {
    if (y[r] == 0) continue;
    const double side = y[r] > 0 ? row_lo[r] : row_up[r];
    if (std::fabs(side) >= 1e30) return plain;
    lagrange += y[r] * side;
  }
  double upper = -lagrange;  // U once the m_v are subtracted
  least_.assign(static_cast<std::size_t>(n), kInf);
  for (int v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const std::size_t c = cols_.offset[v] + i;
      if (up[c] < 0.5) continue;
      if (lo[c] > 0.5) {  // fixed to 1: the only family of v here
        least_[v] = d[c];
        break;
      }
      least_[v] = std::min(least_[v], d[c]);
    }
    upper -= least_[v];
  }
  if (!std::isfinite(upper) || upper < bound - 1e-6 * std::max(1.0, std::fabs(bound))) return plain;
  return {true, upper - (cut_ - slack_)};
}

// Reduced-cost fixing: by enumerate_region()'s Lagrangian bound (valid for any duals), every
// DAG of the node's region that uses family (v, i) scores at most U - p(v, i), p(v, i) =
// d(v, i) - m_v; where that is below the cut, (v, i) is fixed to 0 for the node's children
// (their LPs, with other duals, might otherwise use it). Without a finite U (see screen()),
// the LP optimum's classic form: a column at 0 with reduced cost d_j > 0 gives every point of
// the region with x_j = 1 a score at most z - d_j, z the LP bound. Only columns at 0 in the LP
// point are fixed, so the node's point stays optimal. Returns the columns fixed, which node()
// frees again when it returns.
std::vector<int> Collector::fix_by_reduced_cost() {
  std::vector<int> fixed;
  const Screen screened = screen();
  const double allowed = screened.allowed;
  if (!(allowed >= 0)) return fixed;
  const double* d = lp_.getReducedCost();
  const double* lo = lp_.getColLower();
  const double* up = lp_.getColUpper();
  const double* x = lp_.getColSolution();
  for (int v = 0; v < fam_.n; ++v)
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const std::size_t c = cols_.offset[v] + i;
      if (up[c] < 0.5 || lo[c] > 0.5 || x[c] >= 1e-9) continue;
      if (penalty(screened, v, c, d) > allowed + 1e-6 * (1 + allowed)) {
        lp_.setColUpper(static_cast<int>(c), 0.0);
        fixed.push_back(static_cast<int>(c));
      }
    }
  out_.columns_fixed += fixed.size();
  return fixed;
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
    if (rounds++ < kCutRoundsPerNode) {
      const auto cuts =
          separate_clusters(fam_, cols_, x, kMinViolation, kCutsPerRound, Separation::plain);
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

}  // namespace

CollectResult collect_within(const FamilyTable& fam, const ColumnLayout& cols,
                             OsiSolverInterface& lp, double threshold, std::size_t max_solutions,
                             std::uint64_t enumerate_steps, Listing listing, int threads,
                             const StopToken& stop, std::vector<std::vector<std::uint32_t>>& dags) {
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
                                               enumerate_steps, nogoods, stop, shared));
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
