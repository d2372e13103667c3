// Collecting every DAG within a threshold (OPT - epsilon) in ONE search: a depth-first LP-based
// branch and cut over the family variables, written here so that the treatment of integral
// points is under our control (CBC accepts an integral node solution as an incumbent and
// fathoms its node, which would lose the other DAGs of that region; Liao et al. 2019 change
// SCIP's solution collection for the same reason).
//
// At a node: solve the LP (dual simplex, warm-started from the parent); if it is infeasible or
// its bound -obj is below the threshold, no DAG within the threshold lies in the node's region
// (every row is valid for every DAG not yet listed): prune. If the families the LP leaves
// usable in the region are few enough, list the region by direct enumeration
// (enumerate_region() below) and stop there. If the LP point is integral, it is
// a parent-set choice: with a cycle, add the cycle's cluster row and re-solve; without, it is
// the best DAG D of the region: if within the threshold, list it and search the region minus D,
// split into disjoint sub-regions by fixing D's families (partition() below); else prune. If
// fractional, add violated cluster rows found by the greedy separator and re-solve; when none
// is found (or after a number of rounds) branch on the arc u -> v whose LP value (the sum of
// v's family columns containing u) is nearest 1/2: first every family of v without u is fixed
// to 0 (the arc is present), then every family with u (it is absent). Both are column bounds,
// and the two regions split the node's region. On uci/adult (BIC BF 3, trial runs of 150 s
// from the same jkl cache) the collector listed 43 of 324 DAGs branching on the family nearest
// to one; CBC's search likewise went from a gap of 126 to a proof when it branched on arcs.
// A fractional point with every arc integral cannot occur (each variable's families have
// distinct parent sets); the family nearest to one is the fallback all the same.
//
// Guarantee: every DAG scoring >= threshold is listed exactly once, because a region is only
// discarded when its LP bound proves it holds no DAG within the threshold (cluster rows are
// valid for every DAG) or when its enumeration listed it (every acyclic choice of its usable
// families within the threshold; the others cannot reach it, by the same bound), and
// branching and partitioning split a region into disjoint parts whose union is the region
// minus the listed DAG. The search ends when the tree is exhausted
// (complete), on stop, or at max_solutions.
//
// Classes (Listing::classes): the same search, but a DAG is listed only when its Markov
// equivalence class (its characteristic imset's 2- and 3-set components, imset.hpp) has not
// been met; the other members met are skipped, so each class with a member within the
// threshold is listed once, by the first member met, and memory holds one DAG per class. With
// Listing::class_nogoods, listing a class also adds its imset no-good row, valid for every DAG
// outside the class, so the LP search no longer meets its members (the enumeration of a region
// still does, and skips them). The no-good rows are dense and weak: in the LP they turn
// integral points fractional, and the search branches more and re-solves slower (bench/README,
// "Exact mode's classes by the ILP").
#include "exact/collect.hpp"

#ifdef BNSL_HAVE_CBC

#include <CoinTypes.hpp>
#include <OsiClpSolverInterface.hpp>
#include <OsiSolverInterface.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <unordered_set>
#include <utility>

#include "exact/imset.hpp"
#include "parallel/slowdown.hpp"

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
constexpr double kMinViolation = 1e-4;
constexpr std::size_t kCutsPerRound = 32;

class Collector {
 public:
  Collector(const FamilyTable& fam, const ColumnLayout& cols, OsiSolverInterface& lp,
            double threshold, std::size_t max_solutions, std::uint64_t enumerate_steps,
            Listing listing, const StopToken& stop, std::vector<std::vector<std::uint32_t>>& dags)
      : fam_(fam),
        cols_(cols),
        lp_(lp),
        threshold_(threshold),
        slack_(threshold_slack(threshold)),
        max_(max_solutions),
        enumerate_steps_(enumerate_steps),
        classes_(listing != Listing::dags),
        nogoods_(listing == Listing::class_nogoods),
        stop_(stop),
        dags_(dags) {}

  CollectResult run() {
    lp_.setDblParam(OsiDualObjectiveLimit, -threshold_ + slack_);  // dual simplex stops early
    lp_.messageHandler()->setLogLevel(0);
    lp_.setHintParam(OsiDoScale, false, OsiHintDo);  // rows are added all the time
    lp_.initialSolve();
    node(0);
    out_.complete = !halted_;
    return out_;
  }

 private:
  enum class Step { prune, again, branch, partition };
  Step process();
  const ImsetKey* take(std::vector<std::uint32_t> choice);
  bool enumerate_region();
  void enumerate_from(std::size_t k);
  void node(int depth);
  void partition(int depth);
  int branch_column(const double* x) const;
  std::pair<int, int> branch_arc(const double* x);
  void branch_on_arc(int u, int v, int depth);
  bool halt() {
    load_.sample_thread();
    if (!halted_ &&
        (dags_.size() >= max_ || listing_should_stop(stop_, dags_.size(), fam_.n, load_.factor())))
      halted_ = true;
    return halted_;
  }

  const FamilyTable& fam_;
  const ColumnLayout& cols_;
  OsiSolverInterface& lp_;
  double threshold_, slack_;
  std::size_t max_;
  std::uint64_t enumerate_steps_;  // budget of enumerate_region (0: never enumerate)
  bool classes_;                   // one DAG per class, recognised by its imset key
  bool nogoods_;                   // classes: a no-good row per class listed
  std::unordered_set<ImsetKey, ImsetKeyHash> seen_;  // classes: those listed
  const StopToken& stop_;
  Slowdown load_;  // of this thread's LP work: scales the report's reserve
  std::vector<std::vector<std::uint32_t>>& dags_;
  CollectResult out_;
  bool halted_ = false;
  std::vector<double> arc_value_;  // scratch of branch_arc, n * n
  // enumerate_region: per variable (in enumeration order) its usable families in this region,
  // the best score of the variables after position k, and the choice being built.
  std::vector<int> enum_order_;
  std::vector<std::vector<std::uint32_t>> enum_lists_;
  std::vector<double> enum_suffix_;
  std::vector<std::uint32_t> enum_choice_;
  std::vector<Mask> enum_children_;  // children of each variable through the picked families
  std::vector<std::vector<std::uint32_t>> enum_found_;
  double enum_partial_ = 0;
  std::uint64_t enum_steps_ = 0;
  bool enum_aborted_ = false;
};

// One LP solve at the current node and what to do next.
Collector::Step Collector::process() {
  ++out_.lp_solves;
  if (!lp_.isProvenOptimal()) {
    if (!lp_.isProvenPrimalInfeasible() && !lp_.isDualObjectiveLimitReached())
      halted_ = true;  // numerical trouble: stop, and say the list may be incomplete
    return Step::prune;
  }
  if (-lp_.getObjValue() < threshold_ - slack_) return Step::prune;
  if (enumerate_region()) return Step::prune;  // listed: nothing left here
  const double* x = lp_.getColSolution();
  const auto choice = integral_choice(fam_, cols_, x);
  if (!choice.empty()) {
    if (const Mask cycle = find_cycle(fam_, choice)) {
      add_cluster_rows(fam_, cols_, lp_, {ClusterCut{cycle, 1}}, false);
      ++out_.cycle_cuts;
      return Step::again;
    }
    if (fam_.score(choice) < threshold_) return Step::prune;  // the LP optimum: all worse
    // Listed (or, for classes, skipped when its class was met before): the rest of the region
    // is searched around it. With no-goods, a new class's row also removes its other members
    // from every region, this one included.
    const ImsetKey* fresh = take(choice);
    if (fresh && nogoods_) {
      add_class_nogood(fam_, cols_, *fresh, lp_);
      ++out_.nogoods;
    }
    return Step::partition;
  }
  return Step::branch;
}

// Lists the region's DAGs within the threshold directly when that is cheap. A family is usable
// in the region when its column bounds allow 1 and, if it is at 0 with reduced cost d > 0, the
// LP bound minus d still reaches the threshold (every point of the region with that column at
// 1 scores at most bound - d: LP duality; the region's rows hold for every DAG within the
// threshold). A depth-first search then picks one usable family per variable (fewest choices
// first), skipping a family that closes a cycle with the families already picked or that
// leaves the best still reachable below the threshold, and lists each complete choice scoring
// >= threshold: exactly the region's part of the list. It gives up after enumerate_steps_
// families tried (the region is then branched on as before, and what it found is dropped):
// 2^18 by default, about the cost of tens of the collector's LP solves. uci/hepatitis (BIC BF
// 20, trial runs of 60 s): 7,173 DAGs listed without it, 14,667 with 2^16, 19,547 with 2^18,
// 19,913 with 2^20; zoo BF 20 all 1,111 in 19.4, 9.3, 10.2 and 8.8 s.
bool Collector::enumerate_region() {
  if (enumerate_steps_ == 0) return false;
  const int n = fam_.n;
  const double bound = -lp_.getObjValue();
  const double* x = lp_.getColSolution();
  const double* d = lp_.getReducedCost();
  const double* lo = lp_.getColLower();
  const double* up = lp_.getColUpper();
  enum_lists_.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    auto& list = enum_lists_[v];
    list.clear();
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const std::size_t c = cols_.offset[v] + i;
      if (up[c] < 0.5) continue;
      if (lo[c] > 0.5) {  // fixed to 1: the only family of v here
        list.assign(1, static_cast<std::uint32_t>(i));
        break;
      }
      if (x[c] < 1e-9 && d[c] > 0 && bound - d[c] < threshold_ - slack_) continue;
      list.push_back(static_cast<std::uint32_t>(i));
    }
    if (list.empty()) {  // no DAG here at all
      ++out_.enumerations;
      return true;
    }
  }
  enum_order_.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) enum_order_[v] = v;
  std::stable_sort(enum_order_.begin(), enum_order_.end(),
                   [&](int a, int b) { return enum_lists_[a].size() < enum_lists_[b].size(); });
  enum_suffix_.assign(static_cast<std::size_t>(n) + 1, 0.0);
  for (int k = n - 1; k >= 0; --k) {
    const int v = enum_order_[k];
    double best = -INFINITY;
    for (const std::uint32_t i : enum_lists_[v]) best = std::max(best, fam_.scores[v][i]);
    enum_suffix_[k] = enum_suffix_[k + 1] + best;
  }
  enum_choice_.assign(static_cast<std::size_t>(n), 0);
  enum_children_.assign(static_cast<std::size_t>(n), 0);
  enum_found_.clear();
  enum_partial_ = 0;
  enum_steps_ = 0;
  enum_aborted_ = false;
  enumerate_from(0);
  if (enum_aborted_) return false;
  ++out_.enumerations;
  for (auto& choice : enum_found_) {
    if (dags_.size() >= max_) {
      halted_ = true;
      break;
    }
    take(std::move(choice));
  }
  return true;
}

// Lists a DAG within the threshold: always for DAGs, for classes when its class is new.
// Returns the new class's imset key (classes only; null otherwise).
const ImsetKey* Collector::take(std::vector<std::uint32_t> choice) {
  const ImsetKey* fresh = nullptr;
  if (classes_) {
    ++out_.dags_reached;
    const auto [it, inserted] = seen_.insert(imset_key(fam_, choice));
    if (!inserted) return nullptr;
    fresh = &*it;  // elements of an unordered_set stay put
  }
  dags_.push_back(std::move(choice));
  return fresh;
}

void Collector::enumerate_from(std::size_t k) {
  if (k == enum_order_.size()) {
    if (fam_.score(enum_choice_) >= threshold_) enum_found_.push_back(enum_choice_);
    return;
  }
  const int v = enum_order_[k];
  // Descendants of v through the families picked so far: a family with a parent among them
  // would close a cycle.
  Mask desc = 0;
  for (Mask frontier = enum_children_[v]; frontier;) {
    const int w = std::countr_zero(frontier);
    frontier &= frontier - 1;
    if (desc >> w & 1) continue;
    desc |= Mask{1} << w;
    frontier |= enum_children_[w] & ~desc;
  }
  for (const std::uint32_t i : enum_lists_[v]) {
    if (++enum_steps_ > enumerate_steps_ || ((enum_steps_ & 1023) == 0 && halt())) {
      enum_aborted_ = true;
      return;
    }
    const double s = fam_.scores[v][i];
    if (enum_partial_ + s + enum_suffix_[k + 1] < threshold_ - slack_) continue;
    const Mask parents = fam_.masks[v][i];
    if (parents & desc) continue;
    enum_choice_[v] = i;
    enum_partial_ += s;
    for (Mask b = parents; b; b &= b - 1) enum_children_[std::countr_zero(b)] |= Mask{1} << v;
    enumerate_from(k + 1);
    for (Mask b = parents; b; b &= b - 1) enum_children_[std::countr_zero(b)] &= ~(Mask{1} << v);
    enum_partial_ -= s;
    if (enum_aborted_) return;
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
  for (std::size_t k = 0; k < free.size() && !halted_; ++k) {
    lp_.setColBounds(free[k], 0.0, 0.0);
    lp_.resolve();
    node(depth + 1);
    lp_.setColBounds(free[k], 1.0, 1.0);  // later regions keep f_k at 1
  }
  for (int c : free) lp_.setColBounds(c, 0.0, 1.0);
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
  struct Saved {
    int col;
    double lo, up;
  };
  std::vector<Saved> saved;
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
      for (const Saved& sv : saved) lp_.setColBounds(sv.col, 0.0, 0.0);
      lp_.resolve();
      node(depth + 1);
      for (const Saved& sv : saved) lp_.setColBounds(sv.col, sv.lo, sv.up);
    }
    if (halted_) return;
  }
}

void Collector::node(int depth) {
  ++out_.nodes;
  int rounds = 0;
  for (;;) {
    if (halt()) return;
    const Step step = process();
    if (step == Step::prune) return;
    if (step == Step::again) {
      lp_.resolve();
      continue;
    }
    if (step == Step::partition) return partition(depth);
    const double* x = lp_.getColSolution();
    if (rounds++ < kCutRoundsPerNode) {
      const auto cuts =
          separate_clusters(fam_, cols_, x, kMinViolation, kCutsPerRound, Separation::plain);
      add_cluster_rows(fam_, cols_, lp_, cuts, false);
      out_.cluster_cuts += cuts.size();
      if (!cuts.empty()) {
        lp_.resolve();
        continue;
      }
    }
    if (const auto [u, v] = branch_arc(x); u >= 0) {
      branch_on_arc(u, v, depth);
      return;
    }
    const int j = branch_column(x);
    if (j < 0) return;  // integral within tolerance yet not recognised: cannot happen
    for (const double fix : {1.0, 0.0}) {
      const double lo = lp_.getColLower()[j], up = lp_.getColUpper()[j];
      lp_.setColBounds(j, fix, fix);
      lp_.resolve();
      node(depth + 1);
      lp_.setColBounds(j, lo, up);
      if (halted_) return;
    }
    return;
  }
}

}  // namespace

CollectResult collect_within(const FamilyTable& fam, const ColumnLayout& cols,
                             OsiSolverInterface& lp, double threshold, std::size_t max_solutions,
                             std::uint64_t enumerate_steps, Listing listing, const StopToken& stop,
                             std::vector<std::vector<std::uint32_t>>& dags) {
  return Collector(fam, cols, lp, threshold, max_solutions, enumerate_steps, listing, stop, dags)
      .run();
}

}  // namespace bnsl::exact

#endif  // BNSL_HAVE_CBC
