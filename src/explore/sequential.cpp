// Sequential parent-set exploration: every parent set of size 0, 1, 2, ..., level by level,
// up to the in-degree limit or the variable's deadline (the baseline of Scanagatta et al.
// 2015, and the classic exhaustive cache of GOBNILP).
//
// Level k is generated from level k-1 apriori-style: P + Y (Y above every member of P) is a
// candidate only if every immediate subset is present and extendable, i.e. no pruning rule
// has cut it or its supersets. Each record carries the best score over all its subsets, so
// rules 1, 2 and 6 see the best proper subset without a search. Rules 2 and 6 (with a lower
// bound of the nonzero cells) cut candidates before counting; rules 3 and 6 cut supersets after.
// Rule 4 (BIC) is tried on every split of the candidate C into an immediate subset S and the
// member Y = C - S, all of whose records are at hand: before counting with H(X|S) (it cuts C
// when N H(X|S) < (r_Y - 1) pen(S) - eps, which rule 3 on S already does for binary Y), after
// with H(Y|S) = H(C) - H(S) too. A cut C is left out of the level (before counting) or kept
// there as not extendable (after), so no superset of it is generated, as the rule requires.
// Rule 8 (BDeu, children with mixed atoms) bounds every proper superset of a scored,
// still extendable set from the set's own configuration index, one more pass, after counting.
// Kept entries go to the cache as soon as they are scored; only two levels live in memory
// (their size counts towards the memory cap, VarTask::max_bytes: a level that outgrows it
// stops the variable as a deadline does), in buffers the thread keeps from variable to
// variable (ExploreScratch).
// With required parents the levels hold the free parents, and each family scored is the
// required parents plus them (explorer.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "explore/explorer.hpp"
#include "explore/set_table.hpp"
#include "prune/bdeu_atoms.hpp"
#include "prune/rules.hpp"

namespace bnsl {
// Named, not anonymous: SequentialLevels (declared in explorer.hpp) holds them.
namespace sequential {

struct Record {
  double best_sub;      // best score over all subsets, this set included
  double q;             // product of parent arities
  double ll;            // LL = -N H(X|P) (rule 4)
  double h;             // H(P), nats (rule 4)
  std::uint32_t cells;  // nonzero cells n_jk of the contingency table (rule 6)
  bool extendable;      // supersets may still be needed
};

struct Level {
  explicit Level(bool narrow) : sets(narrow, /*runs=*/true) {}
  void clear() {
    sets.clear();
    recs.clear();
  }
  SetTable sets;
  std::vector<Record> recs;
};

}  // namespace sequential

using sequential::Level;
using sequential::Record;

struct SequentialLevels {
  explicit SequentialLevels(bool narrow) : narrow(narrow), a(narrow), b(narrow) {}
  std::size_t bytes() const {
    return a.sets.bytes() + b.sets.bytes() +
           (a.recs.capacity() + b.recs.capacity()) * sizeof(Record);
  }
  bool narrow;
  Level a, b;
};

ExploreScratch::ExploreScratch() = default;
ExploreScratch::~ExploreScratch() = default;

namespace {

class SequentialExplorer {
 public:
  SequentialExplorer(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats,
                     ExploreScratch& scratch)
      : counter_(counter),
        task_(task),
        out_(out),
        stats_(stats),
        rules_(prune_rules(counter.params())),
        r_child_(counter.data().arity(task.child)),
        narrow_(counter.data().n_vars() <= 64) {
    // Memory kept from an earlier variable counts towards this one's cap (over_memory): past
    // the cap it is given back, so that it cannot stop this variable before it starts.
    if (!scratch.seq || scratch.seq->narrow != narrow_ ||
        (task.max_bytes > 0 && scratch.seq->bytes() > task.max_bytes))
      scratch.seq = std::make_unique<SequentialLevels>(narrow_);
    levels_ = scratch.seq.get();
  }

  void run() {
    Level* level = &levels_->a;
    Level* next = &levels_->b;
    level->clear();
    score_empty(*level);
    for (int k = 1; k <= task_.max_parents && !stopped_; ++k) {
      next->clear();
      expand(*level, *next);
      if (next->sets.size() == 0) break;
      std::swap(level, next);
    }
    if (out_of_memory_)
      ++stats_.vars_out_of_memory;
    else if (stopped_)
      ++stats_.vars_out_of_time;
  }

 private:
  void score_empty(Level& level) {
    ConfigIndex base;
    task_.build(counter_, {}, base, family_);
    FamilyScore f = counter_.score(base, task_.child);
    ++stats_.sets_scored;
    ++stats_.sets_generated;
    out_.add(f.score, task_.family({}, family_));
    bool extendable = !(task_.prune && rules_.bic &&
                        prune::size_bound(f.score, f.penalty, task_.ll_ceiling, task_.eps));
    if (!extendable) ++stats_.pruned_rule3;
    if (extendable && atom_cut(f.score, base, f.q)) {
      extendable = false;
      ++stats_.pruned_rule8;
    }
    level.sets.insert({});
    level.recs.push_back(
        {f.score, f.q, f.ll, f.h_parents, static_cast<std::uint32_t>(f.cells), extendable});
  }

  // Scores the extensions of every extendable set of `level` into `next`.
  void expand(const Level& level, Level& next) {
    for (std::uint32_t id = 0; id < level.sets.size() && !stopped_; ++id) {
      if (!level.recs[id].extendable) continue;
      auto base = level.sets.get(id);
      bool built = false;
      for (int y : task_.candidates) {
        if (!base.empty() && y <= base.back()) continue;
        if (y == task_.child) continue;
        if (!extend_one(level, id, y, built, next)) return;
      }
    }
  }

  // Considers base + y; returns false when the deadline has passed.
  bool extend_one(const Level& level, std::uint32_t id, int y, bool& built, Level& next) {
    auto base = level.sets.get(id);
    cand_.assign(base.begin(), base.end());
    cand_.push_back(y);
    ++stats_.sets_generated;
    if ((stats_.sets_generated & 31) == 0 && (task_.expired() || over_memory())) {
      stopped_ = true;
      return false;
    }
    const Record& br = level.recs[id];
    double best_sub = br.best_sub;
    std::uint32_t cells_lb = br.cells;
    if (!subsets_alive(level, id, best_sub, cells_lb)) return true;
    const double q = br.q * counter_.data().arity(y);
    if (task_.prune && rules_.bic &&
        prune::bic_bound(best_sub, counter_.penalty(task_.child, q), task_.ll_ceiling, task_.eps)) {
      ++stats_.pruned_rule2;
      return true;
    }
    if (task_.prune && rules_.bdeu && prune::bdeu_bound(best_sub, cells_lb, r_child_, task_.eps)) {
      ++stats_.pruned_rule6;
      return true;
    }
    if (task_.prune && rules_.bic && entropy_cut(nullptr)) {  // left out, as rule 2's cuts
      ++stats_.pruned_rule4;
      return true;
    }
    if (!built) {
      task_.build(counter_, std::span<const int>(base.begin(), base.end()), base_index_, family_);
      built = true;
    }
    FamilyScore f = counter_.score_extension(base_index_, y, task_.child);
    ++stats_.sets_scored;
    record(f, best_sub, q, next);
    return true;
  }

  // Every immediate subset of cand_ must be alive at this level (the one without the last
  // member is the base, found by the caller); folds their best subset scores and nonzero
  // cells into the arguments, and keeps their records in split_ (by dropped member).
  bool subsets_alive(const Level& level, std::uint32_t base, double& best_sub,
                     std::uint32_t& cells_lb) {
    split_.assign(cand_.size(), nullptr);
    split_.back() = &level.recs[base];
    return for_each_immediate_subset(cand_, sub_, [&](auto sub, std::size_t drop) {
      if (drop + 1 == cand_.size()) return true;
      const std::int64_t sid = level.sets.find(sub);
      if (sid < 0 || !level.recs[sid].extendable) return false;
      const Record& r = level.recs[sid];
      best_sub = std::max(best_sub, r.best_sub);
      cells_lb = std::max(cells_lb, r.cells);
      split_[drop] = &r;
      return true;
    });
  }

  // Rule 4 on each split of cand_ into S = cand_ minus one member Y and Y: with H(X|S) - H(X|U)
  // alone (f null: before counting), or with min(H(X|S) - H(X|U), H(Y|S)), where
  // H(Y|S) = H(cand_) - H(S) and N H(X|U) = -task_.ll_ceiling.
  bool entropy_cut(const FamilyScore* f) const {
    const double n = static_cast<double>(counter_.data().n_rows());
    for (std::size_t drop = 0; drop < cand_.size(); ++drop) {
      const Record& s = *split_[drop];
      const int r_y = counter_.data().arity(cand_[drop]);
      const double pen = counter_.penalty(task_.child, s.q);
      const double n_h_y =
          f ? n * std::max(0.0, f->h_parents - s.h) : std::numeric_limits<double>::infinity();
      if (prune::entropy_rule(s.ll, task_.ll_ceiling, n_h_y, r_y, pen, task_.eps)) return true;
    }
    return false;
  }

  // Rule 8: true when every proper superset of the set indexed by `index` (arity product q)
  // scores more than eps below `best`, the best score of the set and its subsets.
  bool atom_cut(double best, const ConfigIndex& index, double q) {
    return task_.prune && task_.atoms &&
           prune::bdeu_atom_cut(*task_.atoms, index, q, counter_.params().ess, best, task_.eps,
                                bound_scratch_);
  }

  // Rule 8 costs another pass over the rows per set, and where the rows rarely repeat (atoms
  // of one row each, most of them) it cuts nothing: it is tried on the first
  // explore.rule8_probe sets of each size, and on the rest of that size only if it cut one.
  // Leaving a pruning rule out never drops a set, so this cannot cost a network within eps.
  bool atom_worth_trying() {
    const auto size = cand_.size();
    if (size != atom_size_) {
      atom_size_ = size;
      atom_tries_ = atom_cuts_ = 0;
    }
    return atom_cuts_ > 0 || atom_tries_ < task_.tune.rule8_probe;
  }

  bool over_memory() {
    if (task_.max_bytes == 0) return false;
    out_of_memory_ = levels_->bytes() > task_.max_bytes;
    return out_of_memory_;
  }

  void record(const FamilyScore& f, double best_sub, double q, Level& next) {
    bool keep = true, extendable = true;
    if (task_.prune) {
      if (prune::subset_rule(best_sub, f.score, task_.eps)) {
        keep = false;
        ++stats_.pruned_rule1;
      }
      if (rules_.bic &&
          prune::size_bound(std::max(best_sub, f.score), f.penalty, task_.ll_ceiling, task_.eps)) {
        extendable = false;
        ++stats_.pruned_rule3;
      }
      // Rules 6 and 4 drop the set and its supersets. The set itself rule 1 has dropped
      // already (each exhibits a subset more than eps better): they count for the supersets.
      if (rules_.bdeu && prune::bdeu_bound(best_sub, f.cells, r_child_, task_.eps)) {
        if (extendable) ++stats_.pruned_rule6;
        keep = extendable = false;
      }
      if (rules_.bic && extendable && entropy_cut(&f)) {
        ++stats_.pruned_rule4;
        keep = extendable = false;
      }
      if (extendable && task_.atoms && static_cast<int>(cand_.size()) < task_.max_parents &&
          atom_worth_trying()) {
        counter_.extend(base_index_, cand_.back(), cand_index_);
        ++atom_tries_;
        if (atom_cut(std::max(best_sub, f.score), cand_index_, q)) {
          extendable = false;
          ++stats_.pruned_rule8;
          ++atom_cuts_;
        }
      }
    }
    if (keep) out_.add(f.score, task_.family(cand_, family_));
    next.sets.insert(cand_);
    next.recs.push_back({std::max(best_sub, f.score), q, f.ll, f.h_parents,
                         static_cast<std::uint32_t>(f.cells), extendable});
  }

  Counter& counter_;
  const VarTask& task_;
  VarCache& out_;
  ExploreStats& stats_;
  const PruneRules rules_;  // the rules proven for the score (rule 1 always applies)
  const int r_child_;
  const bool narrow_;         // sets as bitmasks (set_table.hpp)
  SequentialLevels* levels_;  // the thread's two levels (ExploreScratch)
  bool stopped_ = false;
  bool out_of_memory_ = false;  // stopped by task_.max_bytes
  std::vector<std::int32_t> cand_, sub_;
  std::vector<const Record*> split_;  // records of cand_'s immediate subsets, by dropped member
  std::vector<int> family_;           // scratch of VarTask::family
  ConfigIndex base_index_;
  ConfigIndex cand_index_;                 // rule 8's index of a scored set
  prune::BdeuBoundScratch bound_scratch_;  // rule 8's tables
  std::size_t atom_size_ = 0;              // rule 8's probe: the set size it counts for,
  std::uint64_t atom_tries_ = 0;           // the sets of that size it was tried on
  std::uint64_t atom_cuts_ = 0;            // and those whose supersets it cut
};

}  // namespace

void explore_sequential(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats,
                        ExploreScratch& scratch) {
  if (explore_lattice(counter, task, out, stats, scratch)) return;
  SequentialExplorer(counter, task, out, stats, scratch).run();
}

}  // namespace bnsl
