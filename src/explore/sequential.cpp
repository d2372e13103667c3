// Sequential parent-set exploration: every parent set of size 0, 1, 2, ..., level by level,
// up to the in-degree limit or the variable's deadline (the baseline of Scanagatta et al.
// 2015, and the classic exhaustive cache of GOBNILP).
//
// Level k is generated from level k-1 apriori-style: P + Y (Y above every member of P) is a
// candidate only if every immediate subset is present and extendable, i.e. no pruning rule
// has cut it or its supersets. Each record carries the best score over all its subsets, so
// rules 1, 2 and 6 see the best proper subset without a search. Rules 2 and 6 (with a lower
// bound of the nonzero cells) cut candidates before counting; rules 3 and 6 cut supersets after.
// Kept entries go to the cache as soon as they are scored; only two levels live in memory.
// With required parents the levels hold the free parents, and each family scored is the
// required parents plus them (explorer.hpp).
#include <algorithm>
#include <cmath>
#include <memory>

#include "explore/explorer.hpp"
#include "explore/set_table.hpp"
#include "prune/rules.hpp"

namespace bnsl {
namespace {

struct Record {
  double best_sub;      // best score over all subsets, this set included
  double q;             // product of parent arities
  std::uint32_t cells;  // nonzero cells n_jk of the contingency table (rule 6)
  bool extendable;      // supersets may still be needed
};

struct Level {
  SetTable sets;
  std::vector<Record> recs;
};

class SequentialExplorer {
 public:
  SequentialExplorer(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats)
      : counter_(counter),
        task_(task),
        out_(out),
        stats_(stats),
        rules_(prune_rules(counter.params())),
        r_child_(counter.data().arity(task.child)) {}

  void run() {
    auto level = std::make_unique<Level>();
    score_empty(*level);
    for (int k = 1; k <= task_.max_parents && !stopped_; ++k) {
      auto next = std::make_unique<Level>();
      expand(*level, *next);
      if (next->sets.size() == 0) break;
      level = std::move(next);
    }
    if (stopped_) ++stats_.vars_out_of_time;
  }

 private:
  void score_empty(Level& level) {
    ConfigIndex base;
    task_.build(counter_, {}, base, family_);
    FamilyScore f = counter_.score(base, task_.child);
    ++stats_.sets_scored;
    ++stats_.sets_generated;
    out_.add(f.score, task_.family({}, family_));
    bool extendable = !(task_.prune && rules_.bic && prune::size_bound(f.penalty, f.ll, task_.eps));
    if (!extendable) ++stats_.pruned_rule3;
    level.sets.insert({});
    level.recs.push_back({f.score, f.q, static_cast<std::uint32_t>(f.cells), extendable});
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
    if ((stats_.sets_generated & 31) == 0 && task_.expired()) {
      stopped_ = true;
      return false;
    }
    const Record& br = level.recs[id];
    double best_sub = br.best_sub;
    std::uint32_t cells_lb = br.cells;
    if (!subsets_alive(level, best_sub, cells_lb)) return true;
    const double q = br.q * counter_.data().arity(y);
    if (task_.prune && rules_.bic &&
        prune::bic_bound(best_sub, counter_.penalty(task_.child, q), task_.eps)) {
      ++stats_.pruned_rule2;
      return true;
    }
    if (task_.prune && rules_.bdeu && prune::bdeu_bound(best_sub, cells_lb, r_child_, task_.eps)) {
      ++stats_.pruned_rule6;
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

  // Every immediate subset of cand_ other than the base must be alive at this level; folds
  // their best subset scores and nonzero cells into the arguments.
  bool subsets_alive(const Level& level, double& best_sub, std::uint32_t& cells_lb) {
    // The subset without the last member is the base, already folded in by the caller.
    return for_each_immediate_subset(cand_, sub_, [&](auto sub, std::size_t drop) {
      if (drop + 1 == cand_.size()) return true;
      const std::int64_t sid = level.sets.find(sub);
      if (sid < 0 || !level.recs[sid].extendable) return false;
      best_sub = std::max(best_sub, level.recs[sid].best_sub);
      cells_lb = std::max(cells_lb, level.recs[sid].cells);
      return true;
    });
  }

  void record(const FamilyScore& f, double best_sub, double q, Level& next) {
    bool keep = true, extendable = true;
    if (task_.prune) {
      if (prune::subset_rule(best_sub, f.score, task_.eps)) {
        keep = false;
        ++stats_.pruned_rule1;
      }
      if (rules_.bic && prune::size_bound(f.penalty, f.ll, task_.eps)) {
        extendable = false;
        ++stats_.pruned_rule3;
      }
      if (rules_.bdeu && prune::bdeu_bound(best_sub, f.cells, r_child_, task_.eps)) {
        if (keep) ++stats_.pruned_rule6;
        keep = extendable = false;
      }
    }
    if (keep) out_.add(f.score, task_.family(cand_, family_));
    next.sets.insert(cand_);
    next.recs.push_back(
        {std::max(best_sub, f.score), q, static_cast<std::uint32_t>(f.cells), extendable});
  }

  Counter& counter_;
  const VarTask& task_;
  VarCache& out_;
  ExploreStats& stats_;
  const PruneRules rules_;  // the rules proven for the score (rule 1 always applies)
  const int r_child_;
  bool stopped_ = false;
  std::vector<std::int32_t> cand_, sub_;
  std::vector<int> family_;  // scratch of VarTask::family
  ConfigIndex base_index_;
};

}  // namespace

void explore_sequential(Counter& counter, const VarTask& task, VarCache& out, ExploreStats& stats) {
  SequentialExplorer(counter, task, out, stats).run();
}

}  // namespace bnsl
