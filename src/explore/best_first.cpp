// Best-first parent-set exploration: independence selection and greedy selection
// (Scanagatta, de Campos, Corani, Zaffalon 2015, "Learning Bayesian networks with thousands
// of variables", section 3).
//
// Both score the empty set and every single parent, then repeatedly score the most promising
// unscored one-variable extension P + Y of a scored set P and make it extendable in turn.
// Independence selection ranks P + Y by
//   BIC*(X, P, Y) = BIC(P) + BIC(Y) - BIC(empty) - u (q_P - 1)(r_Y - 1),  u = (ln N / 2)(r_X - 1),
// the BIC the family would have if P and Y were independent given X (exact when their
// interaction information is zero). Greedy selection ranks it by the score of P alone.
//
// Hybrid selection runs both open lists over one closed list and takes one pop in 32 from
// greedy's. BIC* cannot see synergy: on near-deterministic data (pumsb_star) a child is a
// function of two parents that are weak alone, and independence selection spends its budget
// on redundant combinations of strong single parents that BIC* overrates, while greedy's
// full expansion of its best set finds the pair. A set scored from one list is extended in
// that list only (a pop of the other list that meets it adopts it), so neither list's order
// is taken over by the other's sets.
//
// Extensions are generated lazily: for a fixed P, BIC* orders the candidates Y by BIC(Y)
// within each arity, so each scored set keeps one cursor per arity into the singletons
// sorted by BIC, and the open list (a heap) holds cursors, not candidate sets. Each pop costs
// O(log open) plus the counting, instead of O(n) pushes per scored set.
//
// Downward closure: the immediate subsets of every kept set of three or more parents are
// scored too (before the next pop), so the cache holds each good set with any one member
// removed -- what a network needs when that member must come after the child in the order.
//
// With screening, conditional sweeps and the lattice score sets the open lists would rank
// last before they start (sweeps.cpp).
//
// Pruning (src/prune/rules.hpp), all epsilon-relaxed: rule 2 (BIC) and 6 (BDeu) cut a
// candidate before counting, with the best score over its scored immediate subsets (and
// their subsets); a candidate with an immediate subset whose supersets were cut is cut
// too; rules 3, 4 (BIC) and 6 cut a scored set's supersets; rule 1 filters the final cache.
// Whatever stops the search, every cache entry is exactly scored and the empty set present.
// With required parents R (explorer.hpp) the sets here are the free parents: the "empty set"
// is the family R, every family scored is R plus the set, and the sweeps, the lattice and
// the deep sweeps (which count pairs without R) do not run (explore.cpp gives no universe).
#include "explore/best_first.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bnsl {
namespace best_first {

void BestFirstExplorer::run() {
  candidates_ = task_.candidates;
  // The run's stop already requested (its budget spent before this variable): the empty set.
  if (task_.global->stop_requested()) stopped_ = hard_stop_ = true;
  score_empty_and_singletons();
  if (task_.universe && !stopped_ && recs_[0].extendable && task_.max_parents >= 2) sweep();
  build_groups();
  record_sweep_pairs();
  if (task_.universe) lattice();
  if (task_.universe) deep_sweeps();
  for (std::uint32_t id = 1; id < seen_.size(); ++id) add_cursors(id, kAllHeaps);
  while ((!open_[0].empty() || !open_[1].empty() || !pending_.empty()) && !stopped_) step();
  if (out_of_memory_)
    ++stats_.vars_out_of_memory;
  else if (stopped_)
    ++stats_.vars_out_of_time;
  if (hard_stop_)
    finish_stopped();
  else
    finish();
}

void BestFirstExplorer::score_empty_and_singletons() {
  ConfigIndex empty;
  task_.build(counter_, {}, empty, family_);
  FamilyScore f = counter_.score(empty, task_.child);
  ++stats_.sets_scored;
  ++stats_.sets_generated;
  insert({}, f, f.score, kAllHeaps);
  empty_bic_ = f.bic();
  if (!recs_[0].extendable || task_.max_parents < 1) return;
  for (int y : candidates_) {
    if (stopped_) break;
    score_singleton(empty, y);
  }
}

void BestFirstExplorer::score_singleton(const ConfigIndex& empty, int y) {
  cand_.assign(1, y);
  ++stats_.sets_generated;
  const double q = counter_.data().arity(y);
  if (cut_before_counting(recs_[0].score, q, recs_[0].cells)) return;
  FamilyScore f = counter_.score_extension(empty, y, task_.child);
  ++stats_.sets_scored;
  // Sized on the first singleton kept: n entries per variable add up to n^2 where few survive
  // (wide data with a handful of rows), and nothing reads it before one is.
  if (singleton_id_.empty()) singleton_id_.assign(counter_.data().n_vars(), -1);
  singleton_id_[y] = insert(cand_, f, recs_[0].score, kAllHeaps);
  apply_superset_rules(0, y);
  poll();
}

// Alive singletons sorted by BIC (best first), one list per arity.
void BestFirstExplorer::build_groups() {
  std::vector<std::int32_t> alive;
  for (int y : candidates_)
    if (!singleton_id_.empty() && singleton_id_[y] >= 0 && recs_[singleton_id_[y]].extendable)
      alive.push_back(y);
  std::stable_sort(alive.begin(), alive.end(), [&](int a, int b) {
    return recs_[singleton_id_[a]].bic > recs_[singleton_id_[b]].bic;
  });
  for (int y : alive) {
    const int r = counter_.data().arity(y);
    auto it = std::find(group_arity_.begin(), group_arity_.end(), r);
    if (it == group_arity_.end()) {
      group_arity_.push_back(r);
      groups_.emplace_back();
      it = group_arity_.end() - 1;
    }
    groups_[it - group_arity_.begin()].push_back(y);
  }
}

void BestFirstExplorer::add_cursors(std::uint32_t base, std::uint8_t heaps) {
  Scored& b = recs_[base];
  if (!b.scored || !b.extendable) return;
  if (static_cast<int>(seen_.get(base).size()) >= task_.max_parents) return;
  heaps &= static_cast<std::uint8_t>(allowed_ & ~b.heaps);
  b.heaps |= heaps;
  for (int h = 0; h < 2; ++h)
    if (heaps >> h & 1)
      for (std::uint32_t g = 0; g < groups_.size(); ++g) push_cursor(h, base, g, 0);
}

// Pushes the cursor at the first position >= pos whose singleton is not in the base.
void BestFirstExplorer::push_cursor(int heap, std::uint32_t base, std::uint32_t g,
                                    std::uint32_t pos) {
  auto members = seen_.get(base);
  const auto& list = groups_[g];
  while (pos < list.size() && std::binary_search(members.begin(), members.end(), list[pos])) ++pos;
  if (pos >= list.size()) return;
  open_[heap].push({priority(heap, base, list[pos]), seq_++, base, g, pos});
}

double BestFirstExplorer::priority(int heap, std::uint32_t base, int y) const {
  const Scored& b = recs_[base];
  if (heap == 1) return b.score;
  const Scored& s = recs_[singleton_id_[y]];
  const double r_y = counter_.data().arity(y);
  // u q_R (q_P - 1)(r_Y - 1), with q = q_R q_P the family's (q_R = 1 without required parents).
  return b.bic + s.bic - empty_bic_ - u_ * (b.q - recs_[0].q) * (r_y - 1);
}

void BestFirstExplorer::step() {
  if (!pending_.empty()) {
    backfill_one();
    poll();
    return;
  }
  int heap = open_[0].empty() ? 1 : 0;
  if (!open_[0].empty() && !open_[1].empty()) heap = ++pops_ % task_.tune.greedy_every == 0 ? 1 : 0;
  Cursor c = open_[heap].top();
  open_[heap].pop();
  const int y = groups_[c.group][c.pos];
  push_cursor(heap, c.base, c.group, c.pos + 1);
  auto base = seen_.get(c.base);
  cand_.assign(base.begin(), base.end());
  cand_.insert(std::upper_bound(cand_.begin(), cand_.end(), y), y);
  if (const std::int64_t id = seen_.find(cand_); id < 0) {
    ++stats_.sets_generated;
    evaluate(c.base, y, static_cast<std::uint8_t>(1 << heap));
  } else {
    add_cursors(static_cast<std::uint32_t>(id), static_cast<std::uint8_t>(1 << heap));
  }
  poll();
}

// Decides, scores and records cand_ = base + y; `known`: its score when already counted.
void BestFirstExplorer::evaluate(std::uint32_t base, int y, std::uint8_t heaps,
                                 const FamilyScore* known) {
  double best_sub = recs_[0].score;
  std::uint32_t cells_lb = recs_[base].cells;
  if (!fold_subsets(best_sub, cells_lb)) {
    ++stats_.pruned_inherited;
    insert_cut();
    return;
  }
  const double q = recs_[base].q * counter_.data().arity(y);
  if (cut_before_counting(best_sub, q, cells_lb)) {
    insert_cut();
    return;
  }
  const FamilyScore f = known ? *known : counter_.score_extension(base_index(base), y, task_.child);
  ++stats_.sets_scored;
  std::uint32_t id = insert(cand_, f, best_sub, heaps);
  apply_superset_rules(base, y);
  if (recs_[id].extendable) add_cursors(id, heaps);
  if (recs_[id].keep && cand_.size() >= 3) pending_.push_back(id);
}

// Downward closure: scores the unscored immediate subsets of a kept set (those of size >= 2;
// every singleton is scored at the start). Best-first search from the singletons reaches a
// good set S through one chain of extensions, and then goes on extending S and its
// supersets, whose priorities stay above those of sets of S's size; so S minus one member
// may never be popped. But a network often needs exactly that: the best parents of X
// without a variable that must come after X in the order (on andes, 34 of 74 true two-parent
// families went unscored while their three- and four-parent supersets, with the child's
// own children added, were in the cache). Each subset is scored as the extension of one of
// its scored immediate subsets, through the same pruning rules; a subset none of whose own
// immediate subsets is scored is left alone (its supersets were reached another way).
void BestFirstExplorer::backfill_one() {
  const std::uint32_t id = pending_.back();
  pending_.pop_back();
  const auto set = seen_.get(id);
  full_.assign(set.begin(), set.end());
  for (std::size_t drop = 0; drop < full_.size() && !stopped_; ++drop) {
    subset_.clear();
    for (std::size_t i = 0; i < full_.size(); ++i)
      if (i != drop) subset_.push_back(full_[i]);
    if (seen_.find(subset_) >= 0) continue;
    // A scored immediate subset of subset_ to extend: subset_ minus one member m.
    for (std::size_t m = 0; m < subset_.size(); ++m) {
      cand_.clear();
      for (std::size_t i = 0; i < subset_.size(); ++i)
        if (i != m) cand_.push_back(subset_[i]);
      const std::int64_t base = seen_.find(cand_);
      if (base < 0 || !recs_[base].scored) continue;
      cand_ = subset_;
      ++stats_.sets_generated;
      evaluate(static_cast<std::uint32_t>(base), subset_[m], recs_[id].origin);
      break;
    }
  }
}

// The configuration index of a scored set, from a small direct-mapped cache: independence
// selection alternates between a few promising bases, and rebuilding costs |base| passes.
const ConfigIndex& BestFirstExplorer::base_index(std::uint32_t base) {
  if (index_cache_.empty()) {
    const std::size_t per_index = 4 * std::max<std::size_t>(counter_.rows_counted(), 1);
    index_cache_.resize(std::clamp<std::size_t>(task_.tune.index_cache_bytes / per_index, 4, 256));
  }
  IndexSlot& slot = index_cache_[base % index_cache_.size()];
  if (slot.id != base) {
    auto members = seen_.get(base);
    task_.build(counter_, std::span<const int>(members.begin(), members.end()), slot.index,
                family_);
    slot.id = base;
  }
  return slot.index;
}

// Folds the scored immediate subsets of cand_ into best_sub and cells_lb; false when one
// of them has had its supersets cut.
bool BestFirstExplorer::fold_subsets(double& best_sub, std::uint32_t& cells_lb) {
  return for_each_immediate_subset(cand_, sub_, [&](auto sub, std::size_t) {
    const std::int64_t sid = seen_.find(sub);
    if (sid < 0) return true;
    const Scored& s = recs_[sid];
    if (!s.extendable && task_.prune) return false;
    best_sub = std::max(best_sub, s.best_sub);
    cells_lb = std::max(cells_lb, s.cells);
    return true;
  });
}

// Rules 2 (BIC) and 6 (BDeu) before counting; counts and returns true when cut.
bool BestFirstExplorer::cut_before_counting(double best_sub, double q, std::uint32_t cells_lb) {
  if (!task_.prune) return false;
  if (rules_.bic &&
      prune::bic_bound(best_sub, counter_.penalty(task_.child, q), task_.ll_ceiling, task_.eps)) {
    ++stats_.pruned_rule2;
    return true;
  }
  if (rules_.bdeu && prune::bdeu_bound(best_sub, cells_lb, r_child_, task_.eps)) {
    ++stats_.pruned_rule6;
    return true;
  }
  return false;
}

// Records a scored set; rule 1 is left to finish(), which sees every scored subset.
std::uint32_t BestFirstExplorer::insert(std::span<const std::int32_t> set, const FamilyScore& f,
                                        double best_sub, std::uint8_t origin) {
  Scored s{f.score,
           f.bic(),
           f.ll,
           f.h_parents,
           f.q,
           std::max(best_sub, f.score),
           static_cast<std::uint32_t>(f.cells),
           true,
           true,
           true,
           origin};
  if (task_.prune && !set.empty()) {
    if (rules_.bdeu && prune::bdeu_bound(best_sub, f.cells, r_child_, task_.eps)) {
      ++stats_.pruned_rule6;
      s.keep = s.extendable = false;
    }
  }
  if (task_.prune && rules_.bic &&
      prune::size_bound(std::max(best_sub, f.score), f.penalty, task_.ll_ceiling, task_.eps)) {
    ++stats_.pruned_rule3;
    s.extendable = false;
  }
  recs_.push_back(s);
  return seen_.insert(set);
}

void BestFirstExplorer::insert_cut() {
  recs_.push_back({0, 0, 0, 0, 0, -INFINITY, 0, false, false, false});
  seen_.insert(cand_);
}

// Rule 4 (BIC) for the set just inserted, cand_ = base + y.
void BestFirstExplorer::apply_superset_rules(std::uint32_t base, int y) {
  Scored& s = recs_.back();
  if (!task_.prune || !rules_.bic || !s.extendable) return;
  const Scored& b = recs_[base];
  const double n_h_y = n_ * std::max(0.0, s.h - b.h);
  const double pen_b = counter_.penalty(task_.child, b.q);
  if (prune::entropy_rule(b.ll, task_.ll_ceiling, n_h_y, counter_.data().arity(y), pen_b,
                          task_.eps)) {
    ++stats_.pruned_rule4;
    if (s.keep) s.keep = false;
    s.extendable = false;
  }
}

// Stops early enough for finish()'s rule-1 pass before the deadline (about 1.7 microseconds
// per set scored: 4 s for insurance1000's 2.29 million BDeu sets of one variable); once the
// run's own stop is requested (its deadline passed, or a signal), at once, with the one-pass
// filter of finish_stopped().
void BestFirstExplorer::poll() {
  if ((++polls_ & 15) != 0) return;
  if (task_.global->stop_requested()) {
    stopped_ = hard_stop_ = true;
    return;
  }
  if (task_.remaining() <= task_.tune.finish_seconds_per_set * static_cast<double>(recs_.size()))
    stopped_ = true;
  if (task_.max_bytes > 0 && state_bytes() > task_.max_bytes) stopped_ = out_of_memory_ = true;
}

// What the search holds: records, the set table, the open lists, the index cache.
std::size_t BestFirstExplorer::state_bytes() const {
  std::size_t b = recs_.capacity() * sizeof(Scored) + seen_.bytes() +
                  (open_[0].size() + open_[1].size()) * sizeof(Cursor) +
                  pending_.capacity() * sizeof(std::uint32_t);
  for (const IndexSlot& slot : index_cache_) b += slot.index.idx.capacity() * 4;
  return b;
}

// Rule 1 over everything scored, in order of size so that best_sub sees every scored
// subset reachable through scored immediate subsets; then the cache.
void BestFirstExplorer::finish() {
  std::vector<std::uint32_t> order(recs_.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return seen_.get(a).size() < seen_.get(b).size();
  });
  for (std::uint32_t id : order) {
    Scored& s = recs_[id];
    if (!s.scored) continue;
    auto set = seen_.get(id);
    cand_.assign(set.begin(), set.end());
    double best_sub = -INFINITY;
    if (!cand_.empty()) {
      best_sub = recs_[0].score;
      fold_all_subsets(best_sub);
    }
    s.best_sub = std::max(best_sub, s.score);
    if (!s.keep) continue;
    if (task_.prune && !cand_.empty() && prune::subset_rule(best_sub, s.score, task_.eps)) {
      ++stats_.pruned_rule1;
      continue;
    }
    out_.add(s.score, task_.family(cand_, family_));
  }
}

// Rule 1 when the run was stopped, in one pass without lookups: each record's best_sub
// (the best over the subsets folded in when it was scored, itself included) is a score of
// one of its subsets or its own, so the rule stays safe; it misses only subsets scored
// after the set. finish()'s sort and subset lookups took about a minute on the tens of
// millions of sets a long BDeu exploration scores, past the deadline that stopped it.
void BestFirstExplorer::finish_stopped() {
  for (std::uint32_t id = 0; id < recs_.size(); ++id) {
    const Scored& s = recs_[id];
    if (!s.scored || !s.keep) continue;
    auto set = seen_.get(id);
    if (task_.prune && !set.empty() && prune::subset_rule(s.best_sub, s.score, task_.eps)) {
      ++stats_.pruned_rule1;
      continue;
    }
    cand_.assign(set.begin(), set.end());
    out_.add(s.score, task_.family(cand_, family_));
  }
}

void BestFirstExplorer::fold_all_subsets(double& best_sub) {
  for_each_immediate_subset(cand_, sub_, [&](auto sub, std::size_t) {
    const std::int64_t sid = seen_.find(sub);
    if (sid >= 0 && recs_[sid].scored) best_sub = std::max(best_sub, recs_[sid].best_sub);
    return true;
  });
}

}  // namespace best_first

void explore_best_first(Counter& counter, const VarTask& task, BestFirstKind kind, VarCache& out,
                        ExploreStats& stats) {
  best_first::BestFirstExplorer(counter, task, kind, out, stats).run();
}

}  // namespace bnsl
