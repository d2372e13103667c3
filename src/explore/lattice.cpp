// The sequential explorer's lattice walk (BDeu, no in-degree limit, at most
// explore.lattice_max_vars candidates): the same sets and rules as the levels of
// sequential.cpp, in another order and with arrays where the levels have hash tables.
//
// Under BDeu the superset bounds (rules 6 and 8) cut little where rows rarely repeat, so an
// exhaustive exploration scores nearly every subset of the candidates. The levels pay for each
// set a lookup of every immediate subset in a hash table and a configuration index rebuilt
// from scratch for each base; here the sets are visited depth first in increasing order of
// their masks (bit i = candidate i; a node's children add a candidate below its lowest, so
// every subset of a set comes before it), each node's index is its parent's extended by one
// variable, and a set's record is two array cells at its mask: the best score over its
// subsets, and its nonzero cells with a bit for "supersets cut". A set one of whose immediate
// subsets had its supersets cut is cut unscored (inherited), as in the levels, and so is the
// whole subtree under it (every set there contains it). Unvisited masks read as cut: they are
// supersets of a cut set, or beyond the walk.
//
// Rules: 1, 6 (before counting with the immediate subsets' largest cell count, and after) and
// 8 (with its per-size probe), as SequentialExplorer::record applies them, so the cache holds
// the levels' sets (scores equal to the tolerance: an index built another way numbers the
// configurations in another order), except where rule 8 cuts and its probe ends: the probe's
// first sets of a size are not the same sets in the two orders (either cache is safe).
// Memory: 12 bytes per subset of the candidates, in buffers the thread keeps (ExploreScratch),
// within VarTask::max_bytes.
// A walk cut by the deadline leaves the sets of the first candidates complete and the others
// unexplored, where the levels leave the small sets complete: hence the work bound
// (explore.lattice_max_work) that keeps the walk to children it can be expected to finish.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "explore/explorer.hpp"
#include "prune/bdeu_atoms.hpp"
#include "prune/rules.hpp"

namespace bnsl {
namespace {

constexpr std::uint32_t kCut = 0x80000000u;  // cells_ bit: the set's supersets are cut

// explore_lattice runs it only with pruning on and an in-degree limit of at least the
// candidates (no set the walk visits is too large), so neither is tested here.
class LatticeExplorer {
 public:
  LatticeExplorer(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats,
                  ExploreScratch& scratch, std::vector<int> free)
      : counter_(counter),
        task_(task),
        out_(out),
        stats_(stats),
        r_child_(counter.data().arity(task.child)),
        free_(std::move(free)),
        best_(scratch.lattice_best),
        cells_(scratch.lattice_cells),
        index_(free_.size() + 1),
        tries_(free_.size() + 1, 0),
        cuts_(free_.size() + 1, 0) {
    const std::size_t size = std::size_t{1} << free_.size();
    best_.assign(size, -std::numeric_limits<double>::infinity());
    cells_.assign(size, kCut);
  }

  void run() {
    task_.build(counter_, {}, index_[0], family_);
    const FamilyScore f = counter_.score(index_[0], task_.child);
    ++stats_.sets_scored;
    ++stats_.sets_generated;
    out_.add(f.score, task_.family({}, family_));
    best_[0] = f.score;
    const bool cut = atom_cut(0, f.score, index_[0], f.q);
    if (cut) ++stats_.pruned_rule8;
    cells_[0] = static_cast<std::uint32_t>(f.cells) | (cut ? kCut : 0);
    if (!cut) visit(0, 0, free_.size(), f.q);
    if (stopped_) ++stats_.vars_out_of_time;
  }

 private:
  // Visits the children of `mask` (size `depth`, configuration index index_[depth], arity
  // product q): mask + candidate i for every i below `low`, each followed by its own subtree.
  void visit(std::uint64_t mask, std::size_t depth, std::size_t low, double q) {
    for (std::size_t i = 0; i < low && !stopped_; ++i) {
      const std::uint64_t set = mask | (std::uint64_t{1} << i);
      ++stats_.sets_generated;
      if ((stats_.sets_generated & 31) == 0 && task_.expired()) {
        stopped_ = true;
        return;
      }
      // The immediate subsets: all must have supersets alive; their best and largest count.
      double best_sub = -std::numeric_limits<double>::infinity();
      std::uint32_t cells_lb = 0;
      bool alive = true;
      for (std::uint64_t rest = set; rest; rest &= rest - 1) {
        const std::uint64_t sub = set ^ (rest & (~rest + 1));
        if (cells_[sub] & kCut) {
          alive = false;
          break;
        }
        best_sub = std::max(best_sub, best_[sub]);
        cells_lb = std::max(cells_lb, cells_[sub]);
      }
      if (!alive) {
        ++stats_.pruned_inherited;
        continue;
      }
      if (prune::bdeu_bound(best_sub, cells_lb, r_child_, task_.eps)) {
        ++stats_.pruned_rule6;
        continue;
      }
      const int y = free_[i];
      const double q_set = q * counter_.data().arity(y);
      counter_.extend(index_[depth], y, index_[depth + 1]);
      const FamilyScore f = counter_.score(index_[depth + 1], task_.child);
      ++stats_.sets_scored;
      bool keep = true, extendable = true;
      if (prune::subset_rule(best_sub, f.score, task_.eps)) {
        keep = false;
        ++stats_.pruned_rule1;
      }
      if (prune::bdeu_bound(best_sub, f.cells, r_child_, task_.eps)) {
        ++stats_.pruned_rule6;
        keep = extendable = false;
      }
      if (extendable && static_cast<int>(depth + 1) < task_.max_parents &&
          atom_cut(depth + 1, std::max(best_sub, f.score), index_[depth + 1], q_set)) {
        extendable = false;
        ++stats_.pruned_rule8;
      }
      if (keep) {
        parents_.clear();
        for (std::uint64_t rest = set; rest; rest &= rest - 1)
          parents_.push_back(free_[static_cast<std::size_t>(__builtin_ctzll(rest))]);
        out_.add(f.score, task_.family(parents_, family_));
      }
      best_[set] = std::max(best_sub, f.score);
      cells_[set] = static_cast<std::uint32_t>(std::min<std::size_t>(f.cells, kCut - 1)) |
                    (extendable ? 0 : kCut);
      if (extendable && i > 0) visit(set, depth + 1, i, q_set);
    }
  }

  // Rule 8 on a set of `size` parents, with the levels' probe: tried on the first
  // explore.rule8_probe sets of each size, and on the rest of that size only if it cut one.
  bool atom_cut(std::size_t size, double best, const ConfigIndex& index, double q) {
    if (!task_.atoms) return false;
    if (cuts_[size] == 0 && tries_[size] >= task_.tune.rule8_probe) return false;
    ++tries_[size];
    const bool cut = prune::bdeu_atom_cut(*task_.atoms, index, q, counter_.params().ess, best,
                                          task_.eps, bound_scratch_);
    if (cut) ++cuts_[size];
    return cut;
  }

  Counter& counter_;
  const VarTask& task_;
  VarCache& out_;
  ExploreStats& stats_;
  const int r_child_;
  const std::vector<int> free_;              // the candidates, ascending (bit i = free_[i])
  std::vector<double>& best_;                // per mask: best score over its subsets (scratch)
  std::vector<std::uint32_t>& cells_;        // per mask: nonzero cells | kCut (scratch)
  std::vector<ConfigIndex> index_;           // per depth: the index of the set visited there
  std::vector<std::uint64_t> tries_, cuts_;  // rule 8's probe, per set size
  std::vector<int> parents_, family_;
  prune::BdeuBoundScratch bound_scratch_;
  bool stopped_ = false;
};

}  // namespace

std::size_t lattice_bytes(std::size_t candidates) {
  return (sizeof(double) + sizeof(std::uint32_t)) << candidates;
}

bool explore_lattice(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats,
                     ExploreScratch& scratch) {
  std::vector<int> free;
  for (int y : task.candidates)
    if (y != task.child) free.push_back(y);
  const int m = static_cast<int>(free.size());
  if (!task.prune || !prune_rules(counter.params()).bdeu || task.tune.lattice_max_vars == 0 ||
      m > task.tune.lattice_max_vars || task.max_parents < m ||
      (task.max_bytes > 0 && lattice_bytes(free.size()) > task.max_bytes) ||
      std::ldexp(static_cast<double>(counter.rows_counted()), m) > task.tune.lattice_max_work)
    return false;
  LatticeExplorer(counter, task, out, stats, scratch, std::move(free)).run();
  ++stats.vars_lattice;
  return true;
}

}  // namespace bnsl
