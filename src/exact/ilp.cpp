// Exact structure learning by integer programming over family variables (Jaakkola et al.
// 2010; Bartlett & Cussens 2013, GOBNILP), solved with COIN-OR CBC, and the collection of every
// DAG within epsilon of the optimum (Liao, Sharma, Cussens & van Beek 2019).
//
// Model. One binary x(v,i) per cache entry (family i of variable v), objective
// maximise sum s(v,i) x(v,i) (CBC minimises -s), convexity rows sum_i x(v,i) = 1, and cluster
// constraints sum_{v in C} sum_{i: P(v,i) ∩ C = {}} x(v,i) >= 1 for node sets C. A 0/1 point
// satisfying every cluster constraint is exactly a DAG (a cycle's node set violates its own).
// As in GOBNILP, binary arc columns a(u,v) = sum of v's families containing u and adjacency
// columns e{u,v} = a(u,v) + a(v,u) (so e <= 1 is the 2-cluster constraint of {u, v}); CBC
// branches on them before the families. Other cluster constraints, and the k-cluster
// constraints of cluster_cuts.hpp, are separated: a ClusterGenerator (CglCutGenerator) runs at
// every node and on every integer solution CBC finds. At an integral point it cuts the node set
// of a cycle (exact); at a fractional one it runs the separator of cluster_cuts.cpp (below the
// root: one round per node, within a budget of nonzeros; see kTreeCutsPerRound).
//
// Before CBC. A short ordering search gives the first incumbent (start.cpp); the root LP is
// solved by column generation over the families, and the families that no DAG within epsilon
// of that incumbent can use, by the LP's reduced costs, are dropped (root_lp.cpp). CBC then
// runs on the rest with the root's binding cuts; if the root bound already equals the
// incumbent's score, OPT is proven without CBC. Results are mapped back to the full table.
//
// Safety. Whatever CBC does with cuts internally, a solve's incumbent is re-checked here for
// cycles; a cyclic one has its cycle's cluster added as a permanent row and the solve is
// repeated. Every cut found is also kept as a permanent row for later solves. So OPT is proven
// exactly when CBC proves optimality of an acyclic incumbent on a relaxation (the rows are
// valid for every DAG).
//
// Collection. With OPT proven, add the row sum s x >= OPT - eps - tol, then list every DAG
// within that threshold in one LP-based branch and cut of our own (collect.cpp), on its own
// LP (the families a DAG within the threshold may use, the 2-cluster rows and the root LP's
// binding cuts): it lists a DAG at each integral LP point and goes on
// searching the rest of that node's region (split around the DAG), which CBC's tree does not
// allow (it accepts an integral node point as an incumbent and fathoms the node; adding the
// no-good of each solution and re-solving from scratch is correct too, but costs a full
// branch and cut per DAG). The search ends when the tree is exhausted, so the list is
// complete (Liao et al. 2019 collect inside SCIP's tree for the same reason).
#include "exact/ilp.hpp"

#include "bnsl/error.hpp"

#ifdef BNSL_HAVE_CBC

#include <CbcEventHandler.hpp>
#include <CbcFeasibilityBase.hpp>
#include <CbcModel.hpp>
#include <CbcNode.hpp>

#include <CbcCutGenerator.hpp>  // after CbcNode.hpp, which it needs
#include <CglCutGenerator.hpp>
#include <CglGomory.hpp>
#include <ClpEventHandler.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiAuxInfo.hpp>
#include <OsiClpSolverInterface.hpp>
#include <OsiCuts.hpp>
#include <OsiRowCut.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <unordered_set>
#include <utility>

#include "exact/cluster_cuts.hpp"
#include "exact/collect.hpp"
#include "exact/lp_rows.hpp"
#include "exact/root_lp.hpp"
#include "score/compare.hpp"

namespace bnsl::exact {
namespace {

// Below the root: one round per node of at most tree_cuts_per_round cuts, and none at
// fractional points once the tree's cuts have tree_cut_nonzeros nonzeros in all (integral points
// are always checked for cycles, so this costs bound strength, never correctness). CBC keeps a
// node's binding cuts for its subtree, each a row over up to all families of its cluster (about 80
// bytes of memory per nonzero on uci/mushroom). Trial runs, uci/mushroom (23 variables, 12,932
// families, BIC BF 3): with the root's rounds at every node 1.6 GB in 120 s (144 nodes) and
// 7.4 GB in 600 s; one round of 8, 355 MB in 120 s (446 nodes) and 1.4 GB in 600 s; with the
// budget too, 504 MB in 300 s against 702 MB, the same bound (2,040 above the start).
// uci/adult (BIC BF 20) proves OPT in 21-23 s either way, with 0.6 million nonzeros of cuts and
// half the memory of the root's rounds at every node.
// (exact.tree_cuts_per_round and exact.tree_cut_nonzeros, bnsl/tunables.hpp.)

// Clusters found by any generator clone, to become permanent rows before the next solve.
struct CutPool {
  std::mutex mutex;
  std::unordered_set<ClusterCut, ClusterCutHash> known;
  std::vector<ClusterCut> seeds;  // rows the model implies (2-clusters), for the collector
  std::vector<ClusterCut> pending;
  std::uint64_t lp_cuts = 0, cycle_cuts = 0;
  std::atomic<std::uint64_t> nonzeros{0}, tree_nonzeros{0};  // of the cuts given to CBC

  void seed(ClusterCut cluster) {
    known.insert(cluster);
    seeds.push_back(cluster);
  }
  void add(ClusterCut cluster, bool from_cycle) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!known.insert(cluster).second) return;
    pending.push_back(cluster);
    ++(from_cycle ? cycle_cuts : lp_cuts);
  }
  std::vector<ClusterCut> take() {
    std::lock_guard<std::mutex> lock(mutex);
    return std::exchange(pending, {});
  }
};

class ClusterGenerator : public CglCutGenerator {
 public:
  ClusterGenerator(const FamilyTable& fam, const ColumnLayout& cols, CutPool& pool,
                   const StopToken& stop, const ExactTunables& tune)
      : fam_(&fam), cols_(&cols), pool_(&pool), stop_(&stop), tune_(&tune) {}
  CglCutGenerator* clone() const override { return new ClusterGenerator(*this); }

  void generateCuts(const OsiSolverInterface& si, OsiCuts& cs,
                    const CglTreeInfo info = CglTreeInfo()) override {
    if (stop_->stop_requested()) return;  // let CBC's cut loop end; the handler stops it
    const double* x = si.getColSolution();
    const auto choice = integral_choice(*fam_, *cols_, x);
    if (choice.empty()) {
      // Below the root, one round of at most tree_cuts_per_round cuts (see above).
      const bool in_tree = info.inTree && info.level > 0;
      if (in_tree && (info.pass > 0 || pool_->tree_nonzeros >= tune_->tree_cut_nonzeros)) return;
      for (ClusterCut c :
           separate_clusters(*fam_, *cols_, x, tune_->min_violation,
                             in_tree ? tune_->tree_cuts_per_round : tune_->cuts_per_round,
                             Separation::strong, tune_->exhaustive_cut_vars))
        add(c, false, in_tree, cs);
    } else if (const Mask cycle = find_cycle(*fam_, choice)) {
      add(ClusterCut{cycle, 1}, true, false, cs);
    }
  }

 private:
  // in_tree: a fractional point's cut below the root (counts towards tree_cut_nonzeros)
  void add(ClusterCut cluster, bool from_cycle, bool in_tree, OsiCuts& cs) const {
    const ClusterRow row = cluster_row(*fam_, *cols_, cluster, true);
    const std::vector<double> ones(row.columns.size(), 1.0);
    OsiRowCut cut;
    cut.setRow(static_cast<int>(row.columns.size()), row.columns.data(), ones.data());
    cut.setLb(row.lb);
    cut.setUb(row.ub);
    cut.setGloballyValid(true);
    cs.insert(cut);
    pool_->nonzeros += row.columns.size();
    if (in_tree) pool_->tree_nonzeros += row.columns.size();
    pool_->add(cluster, from_cycle);
  }

  const FamilyTable* fam_;
  const ColumnLayout* cols_;
  CutPool* pool_;
  const StopToken* stop_;
  const ExactTunables* tune_;
};

// Ends CBC's search when the stop token fires (deadline or signal).
class StopHandler : public CbcEventHandler {
 public:
  explicit StopHandler(const StopToken& stop) : stop_(&stop) {}
  CbcEventHandler* clone() const override { return new StopHandler(*this); }
  CbcAction event(CbcEvent) override { return stop_->stop_requested() ? stop : noAction; }

 private:
  const StopToken* stop_;
};

// CBC looks at its clock and at StopHandler between LP solves only, and one LP of a large model
// (strong branching on uci/letter's 114,739 families: over a minute) can run long past a
// deadline or a signal. This aborts Clp's simplex at its next iteration once a stop has been
// pending for exact.lp_grace_seconds. An aborted LP leaves CBC's bound unproven (CBC minimises
// -score; a simplex stopped before optimality may report more than the LP's minimum, which CBC
// would take for a bound), so solve_once then discards CBC's bound and the root LP's stands. An
// abort also sets CBC's time limit to zero, so that CBC's next check of its clock ends the search:
// after a signal CBC has no time limit of its own, and would go on with its root cut passes, each
// LP aborted after a setup of a second or more on a large model. What CBC still does after an abort
// (its final re-solves and copies of the model) takes 4 to 6 s on uci/sensors BIC's 1,062,511
// families.

class LpStopHandler : public ClpEventHandler {
 public:
  struct State {
    std::optional<Clock::time_point> stop_seen;
    bool aborted = false;
  };
  LpStopHandler(const StopToken& stop, State& state, CbcModel& cbc, double grace_seconds)
      : stop_(&stop), state_(&state), cbc_(&cbc), grace_seconds_(grace_seconds) {}
  ClpEventHandler* clone() const override { return new LpStopHandler(*this); }
  int event(Event which) override {
    if (which != endOfIteration || !stop_->stop_requested()) return -1;
    const auto now = Clock::now();
    if (!state_->stop_seen) state_->stop_seen = now;
    if (std::chrono::duration<double>(now - *state_->stop_seen).count() < grace_seconds_) return -1;
    state_->aborted = true;
    // CBC runs on one thread, the one calling this: its model is not being read meanwhile.
    cbc_->setMaximumSeconds(0.0);
    return 0;  // Clp returns with status 5, stopped by event
  }

 private:
  const StopToken* stop_;
  State* state_;
  CbcModel* cbc_;  // the top model: its copies in the tree read its time limit
  double grace_seconds_;
};

// Rejects integral points found by strong branching as solutions (they have not been checked
// for cycles); see solve_once.
class NoStrongSolutions : public CbcFeasibilityBase {
 public:
  CbcFeasibilityBase* clone() const override { return new NoStrongSolutions(*this); }
  int feasible(CbcModel*, int mode) override { return mode == -1 ? -1 : 0; }
};

struct Outcome {
  std::vector<std::uint32_t> choice;  // incumbent (empty if none)
  bool finished = false;              // search completed (not stopped by a limit)
  double bound = std::numeric_limits<double>::infinity();  // upper bound on the score
};

class IlpSolver {
 public:
  // start: a DAG of fam or empty; cuts: the root LP's binding cuts, rows of CBC's model and
  // of the collector's LP from the start.
  IlpSolver(const FamilyTable& fam, std::vector<std::uint32_t> start, std::vector<ClusterCut> cuts,
            const ExactOptions& options, const StopToken& stop, ExactStats& stats)
      : fam_(fam),
        cols_(fam),
        start_(std::move(start)),
        first_cuts_(std::move(cuts)),
        options_(options),
        stop_(stop),
        stats_(stats) {}

  std::vector<std::vector<std::uint32_t>> run();
  // The start is known to be optimal: no CBC run, straight to the collection.
  void set_proven() { proven_ = true; }

 private:
  void build();
  Outcome solve_once();
  void flush_cuts();
  std::vector<std::uint32_t> find_opt();
  void collect(std::vector<std::vector<std::uint32_t>>& dags, double threshold);

  const FamilyTable& fam_;
  ColumnLayout cols_;
  std::vector<std::uint32_t> start_;  // the first incumbent (empty: none)
  std::vector<ClusterCut> first_cuts_;
  bool proven_ = false;
  const ExactOptions& options_;
  const StopToken& stop_;
  ExactStats& stats_;
  CutPool pool_;
  OsiClpSolverInterface base_;
  std::vector<int> arc_col_;     // arc_col_[u * n + v]: column of the arc u -> v, or -1
  std::vector<int> first_cols_;  // arc and adjacency columns (branched on first)
  struct Adjacency {
    int col, uv, vu;  // e{u, v} and its arcs (-1: none)
  };
  std::vector<Adjacency> adjacency_;
};

void add_row(OsiSolverInterface& lp, const std::vector<int>& columns,
             const std::vector<double>& coefs, double lb, double ub) {
  CoinPackedVector row(static_cast<int>(columns.size()), columns.data(), coefs.data());
  lp.addRow(row, lb, ub);
}

// Family columns (objective -score) and convexity rows.
void load_families(const FamilyTable& fam, const ColumnLayout& layout, OsiSolverInterface& lp) {
  const int cols = static_cast<int>(layout.columns());
  std::vector<double> obj(cols), lo(cols, 0.0), up(cols, 1.0);
  for (int v = 0; v < fam.n; ++v)
    for (std::size_t i = 0; i < fam.size(v); ++i) obj[layout.offset[v] + i] = -fam.scores[v][i];
  CoinPackedMatrix empty(false, 0, 0);
  empty.setDimensions(0, cols);
  lp.loadProblem(empty, lo.data(), up.data(), obj.data(), nullptr, nullptr);
  for (int c = 0; c < cols; ++c) lp.setInteger(c);
  RowBatch rows;
  for (int v = 0; v < fam.n; ++v) {
    std::vector<int> columns;
    for (std::size_t i = 0; i < fam.size(v); ++i)
      columns.push_back(static_cast<int>(layout.offset[v] + i));
    rows.add(columns, std::vector<double>(columns.size(), 1.0), 1.0, 1.0);
  }
  rows.flush(lp);
  lp.messageHandler()->setLogLevel(0);
}

void IlpSolver::build() {
  load_families(fam_, cols_, base_);
  const int n = fam_.n;
  std::vector<Mask> may_parent(static_cast<std::size_t>(n), 0);  // union of v's parents
  for (int v = 0; v < n; ++v)
    for (Mask m : fam_.masks[v]) may_parent[v] |= m;
  // The arc and adjacency columns are numbered here and added in one call before the rows:
  // one addCol per column copies the whole model each time (uci/sensors' million families:
  // 12 s for its 900 arc and adjacency columns).
  const int first_binary = base_.getNumCols();
  int next_col = first_binary;
  const auto add_binary = [&] { return next_col++; };
  arc_col_.assign(static_cast<std::size_t>(n) * n, -1);
  RowBatch rows;  // the rows are added at once, at the end
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u)
      if (may_parent[v] >> u & 1) {  // a(u, v) = sum of v's families containing u
        const int a = arc_col_[u * n + v] = add_binary();
        first_cols_.push_back(a);
        std::vector<int> columns{a};
        std::vector<double> coefs{1.0};
        for (std::size_t i = 0; i < fam_.size(v); ++i)
          if (fam_.masks[v][i] >> u & 1) {
            columns.push_back(static_cast<int>(cols_.offset[v] + i));
            coefs.push_back(-1.0);
          }
        rows.add(columns, coefs, 0.0, 0.0);
      }
  for (int u = 0; u < n; ++u)
    for (int v = u + 1; v < n; ++v) {  // e{u, v} = a(u, v) + a(v, u)
      std::vector<int> columns;
      std::vector<double> coefs;
      for (int a : {arc_col_[u * n + v], arc_col_[v * n + u]})
        if (a >= 0) columns.push_back(a), coefs.push_back(-1.0);
      if (columns.empty()) continue;
      columns.push_back(add_binary());
      coefs.push_back(1.0);
      first_cols_.push_back(columns.back());
      adjacency_.push_back({columns.back(), arc_col_[u * n + v], arc_col_[v * n + u]});
      rows.add(columns, coefs, 0.0, 0.0);
      // e <= 1 is the 2-cluster constraint of {u, v}; the collector's LP has no arc
      // columns and takes it as a row.
      if (columns.size() == 3) pool_.seed(ClusterCut{(Mask{1} << u) | (Mask{1} << v), 1});
    }
  const int binaries = next_col - first_binary;
  const std::vector<CoinBigIndex> starts(static_cast<std::size_t>(binaries) + 1, 0);
  const std::vector<double> zeros(static_cast<std::size_t>(binaries), 0.0);
  const std::vector<double> ones(static_cast<std::size_t>(binaries), 1.0);
  // bounds [0, 1], objective 0
  base_.addCols(binaries, starts.data(), nullptr, nullptr, zeros.data(), ones.data(), zeros.data());
  for (int c = first_binary; c < next_col; ++c) base_.setInteger(c);
  rows.flush(base_);
  for (ClusterCut c : first_cuts_) pool_.add(c, false);  // rows at the first solve_once
}

void IlpSolver::flush_cuts() {
  add_cluster_rows(fam_, cols_, base_, pool_.take(), true);
}

Outcome IlpSolver::solve_once() {
  // CBC checks its clock between LP solves only, and its first solve of a large model (uci/letter:
  // 114,739 families) takes tens of seconds: do not start it after the deadline.
  if (stop_.stop_requested()) return {};
  // The cuts of the previous solves become rows here, not after a solve: after the last one
  // they would only cost time (uci/mushroom, BIC BF 3: 86,644 dense rows after a 600 s solve).
  flush_cuts();
  CbcModel model(base_);
  model.setLogLevel(0);
  model.messageHandler()->setLogLevel(0);
  model.solver()->messageHandler()->setLogLevel(0);
  ClusterGenerator generator(fam_, cols_, pool_, stop_, options_.tune);
  model.addCutGenerator(&generator, 1, "cluster", true, true);
  model.cutGenerator(0)->setMustCallAgain(true);
  // Gomory cuts at the root only. Measured before the arc columns and k-cluster cuts: on
  // uci/adult (BIC BF 20) plain cluster cuts left the bound 630 above OPT; root Gomory cuts
  // halved that within 60 s; zero-half, clique, probing, or Gomory at every node added nothing.
  CglGomory gomory;
  model.addCutGenerator(&gomory, -99, "gomory");
  // CBC's recipe for cuts that define feasibility (lazy constraints): call the generator again
  // while it finds cuts, check integral points with it too (solver type 4), and never take an
  // integral strong-branching child as a solution unchecked (NoStrongSolutions: CBC then
  // ignores the point as a solution but does not fathom the branch).
  OsiBabSolver lazy;
  lazy.setSolverType(4);
  model.passInSolverCharacteristics(&lazy);
  NoStrongSolutions no_strong;
  model.setProblemFeasibility(no_strong);
  model.setSpecialOptions(4);
  // Branch on arc and adjacency columns first (GOBNILP's default): a family column at 0
  // excludes one parent set of many, an arc at 0 a large share of the networks. On uci/adult
  // (BIC, BF 20; trial runs of 60 s) this proves OPT in 23 s; branching on families, even with
  // the k-cluster cuts, left a gap of 126 (309 with plain cluster cuts, also at 600 s).
  model.findIntegers(true);
  {
    std::vector<int> priority(static_cast<std::size_t>(model.numberIntegers()), 1000);
    const std::unordered_set<int> first(first_cols_.begin(), first_cols_.end());
    for (std::size_t i = 0; i < priority.size(); ++i)
      if (first.count(model.integerVariable()[i])) priority[i] = 1;
    model.passInPriorities(priority.data(), false);
  }
  StopHandler handler(stop_);
  model.passInEventHandler(&handler);
  LpStopHandler::State lp_stop;
  {
    const LpStopHandler lp_handler(stop_, lp_stop, model, options_.tune.lp_grace_seconds);
    if (auto* clp = dynamic_cast<OsiClpSolverInterface*>(model.solver()))
      clp->getModelPtr()->passInEventHandler(&lp_handler);  // cloned, with CBC's solver copies
  }
  // CBC runs on one thread: with setNumberThreads(2) and our globally valid cluster cuts, CBC
  // 2.10 aborts in CbcRowCuts::eraseRowCut (assertion `found >= 0`), e.g. on uci/adult.csv
  // (14 variables, BIC, BF 20) within 4 s. --threads still parallelises cache building.
  model.setDblParam(CbcModel::CbcCutoffIncrement, 1e-7);
  // A valid DAG as the first incumbent gives CBC a cutoff from the start.
  if (!start_.empty()) {
    std::vector<double> x(static_cast<std::size_t>(base_.getNumCols()), 0.0);
    for (int v = 0; v < fam_.n; ++v) x[cols_.offset[v] + start_[v]] = 1.0;
    const int n = fam_.n;
    for (int v = 0; v < n; ++v)
      for (Mask b = fam_.masks[v][start_[v]]; b; b &= b - 1)
        x[arc_col_[std::countr_zero(b) * n + v]] = 1.0;
    for (const Adjacency& e : adjacency_)
      x[e.col] = (e.uv >= 0 ? x[e.uv] : 0) + (e.vu >= 0 ? x[e.vu] : 0);
    // Unchecked: the start is a DAG, so every row holds. CBC's check solves the whole LP
    // again with the integers fixed, and cannot be stopped (uci/sensors: 18 s).
    model.setBestSolution(x.data(), static_cast<int>(x.size()), -fam_.score(start_), false);
  }
  // Setting up a large model takes seconds that no stop interrupts (copies of the model):
  // do not start the search if the deadline came meanwhile.
  if (stop_.stop_requested()) return {};
  // CBC's clock starts with branchAndBound (CbcStartSeconds): its limit is what remains now,
  // not before the setup above.
  if (stop_.has_deadline()) {
    model.setUseElapsedTime(true);
    model.setMaximumSeconds(std::max(stop_.remaining(), 0.01));
  }
  model.branchAndBound();
  ++stats_.ilp_solves;
  stats_.ilp_nodes += static_cast<std::uint64_t>(model.getNodeCount());
  Outcome o;
  if (model.bestSolution()) o.choice = integral_choice(fam_, cols_, model.bestSolution(), 1e-4);
  o.finished = model.status() == 0 && !stop_.stop_requested();
  // An aborted LP implies a pending stop, so `finished` is already false.
  o.bound =
      lp_stop.aborted ? std::numeric_limits<double>::infinity() : -model.getBestPossibleObjValue();
  return o;
}

std::vector<std::uint32_t> IlpSolver::find_opt() {
  if (proven_ && !start_.empty()) {
    stats_.opt = stats_.bound = fam_.score(start_);
    stats_.optimal = true;
    return start_;
  }
  for (;;) {
    Outcome o = solve_once();
    if (!o.choice.empty()) {
      if (const Mask cycle = find_cycle(fam_, o.choice)) {  // CBC accepted a cyclic point
        pool_.add(ClusterCut{cycle, 1}, true);
        if (!stop_.stop_requested()) continue;
        o.choice.clear();
      }
    }
    if (o.choice.empty()) {
      // Stopped before any network or with a cyclic incumbent, or (never seen, but not ruled
      // out) CBC claims there is none: return a valid network without claiming optimality.
      // CBC's bound stays valid: every row of its model holds for every DAG.
      auto fallback = start_;
      if (fallback.empty() && o.finished) throw InputError("the score cache admits no DAG");
      if (!fallback.empty()) {
        stats_.opt = fam_.score(fallback);
        stats_.bound = std::max(o.bound, stats_.opt);
      }
      return fallback;
    }
    stats_.opt = fam_.score(o.choice);
    stats_.optimal = o.finished;
    stats_.bound = o.finished ? stats_.opt : std::max(o.bound, stats_.opt);
    return o.choice;
  }
}

// The row sum s x >= threshold.
void add_score_row(const FamilyTable& fam, const ColumnLayout& layout, OsiSolverInterface& lp,
                   double threshold) {
  std::vector<int> columns(layout.columns());
  std::vector<double> coefs(layout.columns());
  for (int v = 0; v < fam.n; ++v)
    for (std::size_t i = 0; i < fam.size(v); ++i) {
      columns[layout.offset[v] + i] = static_cast<int>(layout.offset[v] + i);
      coefs[layout.offset[v] + i] = fam.scores[v][i];
    }
  add_row(lp, columns, coefs, threshold, COIN_DBL_MAX);
}

// The relaxation the collector searches, over the families of `fam`: convexity rows, the
// given cluster cuts (dense rows) and the score row.
void load_collector_lp(const FamilyTable& fam, const std::vector<ClusterCut>& cuts,
                       double threshold, OsiSolverInterface& lp) {
  const ColumnLayout layout(fam);
  load_families(fam, layout, lp);
  add_cluster_rows(fam, layout, lp, cuts, false);
  add_score_row(fam, layout, lp, threshold);
}

Listing listing(const ExactOptions& o) {
  if (!o.classes) return Listing::dags;
  return o.class_nogoods ? Listing::class_nogoods : Listing::classes;
}

void IlpSolver::collect(std::vector<std::vector<std::uint32_t>>& dags, double threshold) {
  // The collector's own LP: families, convexity rows, the 2-cluster rows, the root LP's
  // binding cuts (k-cluster cuts among them) and the score row; it separates plain cluster
  // cuts itself. No arc or adjacency columns, none of CBC's cuts and no strong separation:
  // they help CBC prove OPT (see solve_once) but slow the collector's many small re-solves.
  // Trial runs, DAGs listed in 60 s, BIC BF 20: uci/zoo (1,111 within epsilon) 252 with the arc
  // columns, 53 with CBC's cuts, 786 with the 2-cluster rows alone, 1,111 (complete, 55.7 s)
  // with the root's cuts added, 1,097 with strong separation; uci/adult (1,140) 1 with the
  // 2-cluster rows alone, 93 with the root's cuts, 1 with strong separation; uci/wine complete
  // in 6.8, 3.9 and 5.2 s.
  std::vector<ClusterCut> rows = pool_.seeds;
  rows.insert(rows.end(), first_cuts_.begin(), first_cuts_.end());
  // Families no DAG within the threshold can use (LP reduced costs, see collect.hpp) leave the
  // LP for good: the collector prices every column at every re-solve.
  OsiClpSolverInterface full;
  load_collector_lp(fam_, rows, threshold, full);
  const std::vector<char> usable = usable_families(full, threshold);
  std::vector<std::vector<std::uint32_t>> original;  // sub's family -> fam_'s
  const FamilyTable sub = select_families(
      fam_, [&](int v, std::size_t i) { return usable[cols_.offset[v] + i] != 0; }, original);
  stats_.collect_families = sub.total();
  const ColumnLayout sub_cols(sub);
  OsiClpSolverInterface lp;
  load_collector_lp(sub, rows, threshold, lp);
  std::vector<std::vector<std::uint32_t>> found;  // the optimum is found again, in its turn
  const CollectResult r = collect_within(sub, sub_cols, lp, threshold, options_.max_solutions,
                                         options_.collect_enumerate_steps, listing(options_),
                                         options_.threads, stop_, found, options_.tune);
  for (auto& choice : found)
    for (int v = 0; v < fam_.n; ++v) choice[v] = original[v][choice[v]];
  stats_.ilp_nodes += r.nodes;
  stats_.collect_enumerations = r.enumerations;
  stats_.collect_splits = r.splits;
  stats_.collect_nogoods = r.nogoods;
  stats_.collect_workers = r.workers;
  stats_.collect_handed = r.handed;
  stats_.collect_iterations = r.lp_iterations;
  stats_.collect_rows_purged = r.rows_purged;
  stats_.collect_fixed = r.columns_fixed;
  stats_.collect_dags = r.dags_reached;
  pool_.lp_cuts += r.cluster_cuts;
  pool_.cycle_cuts += r.cycle_cuts;
  stats_.complete = r.complete;
  stats_.truncated = r.truncated;
  stats_.listed_above = r.listed_above;
  stats_.memory_short = r.memory_short;
  stats_.memory_left = r.memory_left;
  keep_optimum(fam_, found, dags.front(), options_.max_solutions, options_.classes);
  dags = std::move(found);
}

std::vector<std::vector<std::uint32_t>> IlpSolver::run() {
  // Past the deadline (a long root LP over a large cache) neither CBC's model nor the
  // collector's LP is worth building: uci/sensors' 841,414 families take seconds each.
  if (!stop_.stop_requested()) build();
  const auto t0 = Clock::now();
  std::vector<std::vector<std::uint32_t>> dags;
  auto best = find_opt();
  stats_.seconds_opt = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!best.empty()) {
    dags.push_back(best);
    stats_.opt = std::max(stats_.opt, fam_.score(best));
    stats_.epsilon = options_.epsilon.resolve(std::fabs(stats_.opt));
  }
  if (stats_.optimal && !stop_.stop_requested())
    collect(dags, stats_.opt - stats_.epsilon - score_tolerance(stats_.opt, stats_.opt));
  stats_.cluster_cuts = pool_.lp_cuts;
  stats_.cut_nonzeros = pool_.nonzeros;
  stats_.cut_budget_hit = pool_.tree_nonzeros >= options_.tune.tree_cut_nonzeros;
  stats_.cycle_cuts = pool_.cycle_cuts;
  return dags;
}

}  // namespace

std::vector<std::vector<std::uint32_t>> solve_ilp(const FamilyTable& fam,
                                                  const std::vector<std::uint32_t>& start,
                                                  const ExactOptions& options,
                                                  const StopToken& stop, ExactStats& stats) {
  if (start.empty()) return IlpSolver(fam, {}, {}, options, stop, stats).run();
  // The root LP by column generation, and the families no DAG within epsilon of the start can
  // use (root_lp.cpp); CBC gets the rest. The start's epsilon is at least OPT's (it grows
  // with |score| for --factor), so the threshold is at most OPT - epsilon.
  const auto t0 = Clock::now();
  const double start_score = fam.score(start);
  const double threshold = start_score - options.epsilon.resolve(std::fabs(start_score)) -
                           score_tolerance(start_score, start_score);
  RootResult root = solve_root(fam, start, threshold, stop, options.tune);
  const ColumnLayout cols(fam);
  std::vector<std::vector<std::uint32_t>> original;  // sub's family -> fam's
  const FamilyTable sub = select_families(
      fam, [&](int v, std::size_t i) { return root.usable[cols.offset[v] + i] != 0; }, original);
  std::vector<std::uint32_t> sub_start(start.size());
  for (int v = 0; v < fam.n; ++v)
    sub_start[v] = static_cast<std::uint32_t>(
        std::find(original[v].begin(), original[v].end(), start[v]) - original[v].begin());
  stats.start_score = start_score;
  stats.root_bound = root.bound;
  stats.root_families = sub.total();
  stats.root_lp_columns = root.lp_columns;
  stats.root_rounds = root.rounds;
  stats.seconds_root = std::chrono::duration<double>(Clock::now() - t0).count();
  // CBC starts from the cuts binding at the root's end. All the root's cuts made CBC's LPs
  // slower (uci/adult BIC BF 20, trial runs of 60 s: OPT proven in 27.9 s with all, 13.4 s
  // with the binding ones, 12.9 s with none; uci/zoo: 1.9 s binding, 0.9 s none).
  IlpSolver ilp(sub, std::move(sub_start), std::move(root.cuts), options, stop, stats);
  // The root bound may already match the start (uci/nltcs BIC BF 20): OPT is proven.
  if (root.bound <= start_score + score_tolerance(start_score, start_score)) ilp.set_proven();
  auto dags = ilp.run();
  stats.seconds_opt += stats.seconds_root;
  for (auto& choice : dags)
    for (int v = 0; v < fam.n; ++v) choice[v] = original[v][choice[v]];
  if (!stats.optimal) stats.bound = std::min(stats.bound, std::max(root.bound, stats.opt));
  return dags;
}

}  // namespace bnsl::exact

#else  // !BNSL_HAVE_CBC

namespace bnsl::exact {

std::vector<std::vector<std::uint32_t>> solve_ilp(const FamilyTable&,
                                                  const std::vector<std::uint32_t>&,
                                                  const ExactOptions&, const StopToken&,
                                                  ExactStats&) {
  throw InputError(
      "--method ilp is unavailable: bnsl was built without COIN-OR CBC (use --method dp)");
}

}  // namespace bnsl::exact

#endif
