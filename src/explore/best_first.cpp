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
// Screening, conditional sweeps and the lattice. With screening (explore.cpp), the candidates
// are the child's best single parents by all-pairs statistics, and a parent that is weak alone
// but strong beside another is invisible to them: on random networks whose CPTs are Dirichlet
// draws, a node's four parents can each gain 16-41 alone and 1,352 together (gen2000, V1164),
// and one parent in five ranks beyond the 100th single parent. Given one true parent, the
// others stand out (V1713: 226 ranks 727th alone, 2nd beside 435). So before the open lists
// start:
//  1. sweeps: the kSweeps best singletons Y are each extended by every other variable Z (one
//     bit-parallel count each, score/bit_columns.hpp); the kPromote Z with the largest
//     conditional gain BIC(Y + Z) - BIC(Y) > 0 join the candidates, and each sweep's
//     kSweepPairs best pairs are scored into the closed list;
//  2. the lattice: every pair of candidates, then, as far as the time left allows, every
//     triple, and every set of four and five among the best kLattice4 and kLattice5 singles;
//  3. deep sweeps: the best sets of two and three parents (kDeepSweepBases of each size) are
//     each extended by every variable, and their kSweepPairs best extensions scored.
// BIC* adds up single gains, so on such data it ranks a good set of three or four parents
// below every set that holds a strong child of X (V1633: {699, 1020, 1639} gains 944, each
// alone 5-48); the open lists then start from true scores up to those sizes. Screened
// exploration of gen2000 (60 s, 2 threads): the best subset of the true family is missing
// from 237 caches without screening and 101 with it (issue 19; bench/results/scale.md).
//
// Pruning (src/prune/rules.hpp), all epsilon-relaxed: rule 2 (BIC) and 6 (BDeu) cut a
// candidate before counting, with the best score over its scored immediate subsets (and
// their subsets); a candidate with an immediate subset whose supersets were cut is cut
// too; rules 3, 4 (BIC) and 6 cut a scored set's supersets; rule 1 filters the final cache.
// Whatever stops the search, every cache entry is exactly scored and the empty set present.
// With required parents R (explorer.hpp) the sets here are the free parents: the "empty set"
// is the family R, every family scored is R plus the set, and the sweeps, the lattice and
// the deep sweeps (which count pairs without R) do not run (explore.cpp gives no universe).
#include <algorithm>
#include <cmath>
#include <optional>
#include <queue>

#include "explore/explorer.hpp"
#include "explore/set_table.hpp"
#include "prune/rules.hpp"

namespace bnsl {
namespace {

struct Scored {
  double score;             // the cache score (BIC or BDeu)
  double bic;               // BIC, guides independence selection
  double ll;                // LL = -N H(X|P)
  double h;                 // H(P)
  double q;                 // product of parent arities
  double best_sub;          // best score over scored subsets found so far, this set included
  std::uint32_t cells;      // nonzero cells n_jk of the contingency table (rule 6)
  bool scored;              // false: cut before counting (no score)
  bool extendable;          // supersets may still be needed
  bool keep;                // goes to the cache (before the final rule-1 filter)
  std::uint8_t origin = 0;  // open lists its extensions belong to (bit 0: is, bit 1: greedy)
  std::uint8_t heaps = 0;   // open lists its extensions were pushed to
};

struct Cursor {
  double priority;      // BIC* (is) or score of the base (greedy) of the next extension
  std::uint64_t seq;    // insertion order: ties pop first-in first
  std::uint32_t base;   // id of the scored set being extended
  std::uint32_t group;  // arity group of the singletons
  std::uint32_t pos;    // next position in that group's list
  bool operator<(const Cursor& o) const {
    return priority != o.priority ? priority < o.priority : seq > o.seq;
  }
};

class BestFirstExplorer {
 public:
  BestFirstExplorer(Counter& counter, const VarTask& task, BestFirstKind kind, VarCache& out,
                    ExploreStats& stats)
      : counter_(counter),
        task_(task),
        allowed_(kind == BestFirstKind::independence ? 1
                 : kind == BestFirstKind::greedy     ? 2
                                                     : kAllHeaps),
        out_(out),
        stats_(stats),
        rules_(prune_rules(counter.params())),
        r_child_(counter.data().arity(task.child)),
        n_(static_cast<double>(counter.data().n_rows())),
        u_(counter.penalty(task.child, 1.0)),
        pairs_(counter, task.bits),
        seen_(counter.data().n_vars() <= 64) {}

  void run() {
    candidates_ = task_.candidates;
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

 private:
  void score_empty_and_singletons() {
    ConfigIndex empty;
    task_.build(counter_, {}, empty, family_);
    FamilyScore f = counter_.score(empty, task_.child);
    ++stats_.sets_scored;
    ++stats_.sets_generated;
    insert({}, f, f.score, kAllHeaps);
    empty_bic_ = f.bic();
    if (!recs_[0].extendable || task_.max_parents < 1) return;
    singleton_id_.assign(counter_.data().n_vars(), -1);
    for (int y : candidates_) {
      if (stopped_) break;
      score_singleton(empty, y);
    }
  }

  void score_singleton(const ConfigIndex& empty, int y) {
    cand_.assign(1, y);
    ++stats_.sets_generated;
    const double q = counter_.data().arity(y);
    if (cut_before_counting(recs_[0].score, q, recs_[0].cells)) return;
    FamilyScore f = counter_.score_extension(empty, y, task_.child);
    ++stats_.sets_scored;
    singleton_id_[y] = insert(cand_, f, recs_[0].score, kAllHeaps);
    apply_superset_rules(0, y);
    poll();
  }

  // The conditional sweeps (see the top of the file): promotes candidates and collects in
  // sweep_pairs_ the best pairs {Y, Z} of each sweep, recorded by record_sweep_pairs().
  void sweep() {
    std::vector<int> top;
    for (int y : candidates_)
      if (singleton_id_[y] >= 0 && recs_[singleton_id_[y]].extendable) top.push_back(y);
    std::stable_sort(top.begin(), top.end(), [&](int a, int b) {
      return recs_[singleton_id_[a]].bic > recs_[singleton_id_[b]].bic;
    });
    if (top.size() > kSweeps) top.resize(kSweeps);
    const std::size_t n = counter_.data().n_vars();
    std::vector<char> is_candidate(n, 0);
    for (int y : candidates_) is_candidate[y] = 1;
    std::vector<double> promote_gain(n, -INFINITY);  // best conditional gain, non-candidates
    std::vector<std::pair<double, int>> gains;
    const auto better = [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    for (int y : top) {
      pairs_.set_base(task_.child, y);
      const double bic_y = recs_[singleton_id_[y]].bic;
      gains.clear();
      for (int z : *task_.universe) {
        if (z == y || z == task_.child || !task_.allowed(z)) continue;
        if (stopped_) return;
        const double g = pairs_.score(z).bic() - bic_y;
        ++stats_.sets_swept;
        gains.push_back({g, z});
        if (!is_candidate[z]) promote_gain[z] = std::max(promote_gain[z], g);
        poll();
      }
      const std::size_t k = std::min(kSweepPairs, gains.size());
      std::partial_sort(gains.begin(), gains.begin() + static_cast<long>(k), gains.end(), better);
      for (std::size_t i = 0; i < k && gains[i].first > 0; ++i)
        sweep_pairs_.push_back({y, gains[i].second});
    }
    gains.clear();
    for (std::size_t z = 0; z < n; ++z)
      if (promote_gain[z] > 0) gains.push_back({promote_gain[z], static_cast<int>(z)});
    const std::size_t k = std::min(kPromote, gains.size());
    std::partial_sort(gains.begin(), gains.begin() + static_cast<long>(k), gains.end(), better);
    ConfigIndex empty;
    task_.build(counter_, {}, empty, family_);
    for (std::size_t i = 0; i < k && !stopped_; ++i) {
      candidates_.push_back(gains[i].second);
      ++stats_.candidates_promoted;
      score_singleton(empty, gains[i].second);
    }
  }

  // Scores the sweeps' best pairs into the closed list (after build_groups, so that they get
  // their cursors): the open lists then extend them by their true score, where BIC* (which
  // adds up single gains) would rank them among the last.
  void record_sweep_pairs() {
    for (auto [y, z] : sweep_pairs_) {
      if (stopped_) break;
      if (singleton_id_[z] < 0 || !recs_[singleton_id_[y]].extendable) continue;
      cand_ = {std::min(y, z), std::max(y, z)};
      if (seen_.find(cand_) >= 0) continue;
      ++stats_.sets_generated;
      evaluate(static_cast<std::uint32_t>(singleton_id_[y]), z, kAllHeaps);
      poll();
    }
  }

  // With screening, before the open lists run: every pair of alive candidates (counted
  // bit-parallel), then while the time left allows, every triple, and every set of four and
  // of five among the best kLattice4 and kLattice5 single parents. So the open lists extend
  // sets whose true scores are known up to that size: on data where parents matter mostly
  // together, BIC* (which adds up single gains) ranks them among the last (see the top).
  void lattice() {
    std::vector<int> by_bic;  // alive candidates, best single parents first
    for (const auto& g : groups_) by_bic.insert(by_bic.end(), g.begin(), g.end());
    std::stable_sort(by_bic.begin(), by_bic.end(), [&](int a, int b) {
      return recs_[singleton_id_[a]].bic > recs_[singleton_id_[b]].bic;
    });
    std::vector<int> alive = by_bic;
    std::sort(alive.begin(), alive.end());
    const auto start = Clock::now();
    const std::uint64_t scored_before = stats_.sets_scored;
    for (std::size_t i = 0; i < alive.size() && !stopped_; ++i) {
      const int a = alive[i];
      pairs_.set_base(task_.child, a);
      for (std::size_t j = i + 1; j < alive.size() && !stopped_; ++j) {
        const int b = alive[j];
        cand_ = {a, b};
        if (seen_.find(cand_) >= 0) continue;
        ++stats_.sets_generated;
        // Counted here only when bit-parallel; else evaluate() may cut it before counting.
        const std::optional<FamilyScore> known = pairs_.packed_score(b);
        evaluate(static_cast<std::uint32_t>(singleton_id_[a]), b, kAllHeaps,
                 known ? &*known : nullptr);
        poll();
      }
    }
    const double per_set =  // a pair's cost, a lower bound for larger sets
        std::chrono::duration<double>(Clock::now() - start).count() /
        std::max<double>(1, static_cast<double>(stats_.sets_scored - scored_before));
    const std::pair<int, std::size_t> levels[] = {
        {3, by_bic.size()}, {4, kLattice4}, {5, kLattice5}};
    for (auto [size, top] : levels) {
      if (stopped_ || size > task_.max_parents) return;
      std::vector<int> members(by_bic.begin(), by_bic.begin() + std::min(top, by_bic.size()));
      std::sort(members.begin(), members.end());
      double sets = 1;  // C(members, size)
      for (int k = 0; k < size; ++k)
        sets = sets * static_cast<double>(members.size() - k) / static_cast<double>(k + 1);
      if (members.size() < static_cast<std::size_t>(size) ||
          per_set * sets > kLatticeShare * task_.remaining())
        return;
      lattice_level(members, size);
    }
  }

  // With screening, after the lattice: the kDeepSweepBases[s] best sets of each size s = 2 ..
  // kDeepSweepMax that beat all their scored subsets are each extended by every variable
  // (counted row by row), and each one's kSweepPairs best extensions are scored into the
  // closed list, one size after the other, so a set found from a pair can be a base of
  // three. A parent that matters only beside three others is invisible alone and to the
  // lattice, whose sets are made of candidates: on gen2000 after 90 s (2 threads) the best
  // subset of the true family was missing from 85 caches (18,043 of BIC lost), most of them
  // sets of four whose best three were cached, the fourth parent ranking up to 1,961st alone
  // and gaining 300-500 beside the three; the deep sweeps leave 47 (9,600 lost). The best
  // set alone is not enough (the child's own children make the best sets: 74 left, 16,900
  // lost), and more bases leave too little time for the rest (two and eight: 10,500 lost).
  void deep_sweeps() {
    std::vector<std::pair<double, int>> gains;
    std::vector<std::pair<double, std::uint32_t>> bases;
    const auto better = [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    for (std::size_t size = 2; size <= kDeepSweepMax && !stopped_; ++size) {
      if (static_cast<int>(size) >= task_.max_parents) return;
      // Bases: the best sets of this size that beat all their scored subsets.
      bases.clear();
      for (std::uint32_t id = 1; id < recs_.size(); ++id) {
        const Scored& r = recs_[id];
        if (r.scored && r.extendable && r.score >= r.best_sub && seen_.get(id).size() == size)
          bases.push_back({r.score, id});
      }
      const std::size_t n_bases = std::min(kDeepSweepBases[size], bases.size());
      std::partial_sort(bases.begin(), bases.begin() + static_cast<long>(n_bases), bases.end(),
                        better);
      for (std::size_t b = 0; b < n_bases && !stopped_; ++b) {
        const std::uint32_t base = bases[b].second;
        const auto set = seen_.get(base);
        const std::vector<std::int32_t> members(set.begin(), set.end());
        gains.clear();
        for (int z : *task_.universe) {
          if (z == task_.child || !task_.allowed(z) ||
              std::binary_search(members.begin(), members.end(), z))
            continue;
          if (stopped_) return;
          const double g =
              counter_.score_extension(base_index(base), z, task_.child).score - bases[b].first;
          ++stats_.sets_swept;
          if (g > 0) gains.push_back({g, z});
          poll();
        }
        const std::size_t k = std::min(kSweepPairs, gains.size());
        std::partial_sort(gains.begin(), gains.begin() + static_cast<long>(k), gains.end(), better);
        for (std::size_t i = 0; i < k && !stopped_; ++i) {
          const int z = gains[i].second;
          cand_ = members;
          cand_.insert(std::upper_bound(cand_.begin(), cand_.end(), z), z);
          if (seen_.find(cand_) >= 0) continue;
          ++stats_.sets_generated;
          evaluate(base, z, kAllHeaps);
          poll();
        }
      }
    }
  }

  // Scores every set of `size` members (sorted) whose subset without its last member is
  // scored and extendable, as that subset's extension.
  void lattice_level(const std::vector<int>& members, int size) {
    std::vector<std::size_t> pick(static_cast<std::size_t>(size));
    for (int k = 0; k < size; ++k) pick[k] = static_cast<std::size_t>(k);
    const std::size_t m = members.size();
    while (!stopped_) {
      sub_.clear();
      for (int k = 0; k + 1 < size; ++k) sub_.push_back(members[pick[k]]);
      const std::int64_t base = seen_.find(sub_);
      const int last = members[pick[size - 1]];
      cand_ = sub_;
      cand_.push_back(last);
      if (base >= 0 && recs_[base].scored && recs_[base].extendable && seen_.find(cand_) < 0) {
        ++stats_.sets_generated;
        evaluate(static_cast<std::uint32_t>(base), last, kAllHeaps);
        poll();
      }
      int k = size - 1;  // next combination in lexicographic order
      while (k >= 0 && pick[k] == m - static_cast<std::size_t>(size - k)) --k;
      if (k < 0) return;
      ++pick[k];
      for (int j = k + 1; j < size; ++j) pick[j] = pick[j - 1] + 1;
    }
  }

  // Alive singletons sorted by BIC (best first), one list per arity.
  void build_groups() {
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

  void add_cursors(std::uint32_t base, std::uint8_t heaps) {
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
  void push_cursor(int heap, std::uint32_t base, std::uint32_t g, std::uint32_t pos) {
    auto members = seen_.get(base);
    const auto& list = groups_[g];
    while (pos < list.size() && std::binary_search(members.begin(), members.end(), list[pos]))
      ++pos;
    if (pos >= list.size()) return;
    open_[heap].push({priority(heap, base, list[pos]), seq_++, base, g, pos});
  }

  double priority(int heap, std::uint32_t base, int y) const {
    const Scored& b = recs_[base];
    if (heap == 1) return b.score;
    const Scored& s = recs_[singleton_id_[y]];
    const double r_y = counter_.data().arity(y);
    // u q_R (q_P - 1)(r_Y - 1), with q = q_R q_P the family's (q_R = 1 without required parents).
    return b.bic + s.bic - empty_bic_ - u_ * (b.q - recs_[0].q) * (r_y - 1);
  }

  void step() {
    if (!pending_.empty()) {
      backfill_one();
      poll();
      return;
    }
    int heap = open_[0].empty() ? 1 : 0;
    if (!open_[0].empty() && !open_[1].empty()) heap = ++pops_ % kGreedyEvery == 0 ? 1 : 0;
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
  void evaluate(std::uint32_t base, int y, std::uint8_t heaps, const FamilyScore* known = nullptr) {
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
    const FamilyScore f =
        known ? *known : counter_.score_extension(base_index(base), y, task_.child);
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
  void backfill_one() {
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
  const ConfigIndex& base_index(std::uint32_t base) {
    if (index_cache_.empty()) {
      const std::size_t per_index = 4 * std::max<std::size_t>(counter_.rows_counted(), 1);
      index_cache_.resize(std::clamp<std::size_t>(kIndexCacheBytes / per_index, 4, 256));
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
  bool fold_subsets(double& best_sub, std::uint32_t& cells_lb) {
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
  bool cut_before_counting(double best_sub, double q, std::uint32_t cells_lb) {
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
  std::uint32_t insert(std::span<const std::int32_t> set, const FamilyScore& f, double best_sub,
                       std::uint8_t origin) {
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

  void insert_cut() {
    recs_.push_back({0, 0, 0, 0, 0, -INFINITY, 0, false, false, false});
    seen_.insert(cand_);
  }

  // Rule 4 (BIC) for the set just inserted, cand_ = base + y.
  void apply_superset_rules(std::uint32_t base, int y) {
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

  static constexpr std::uint8_t kAllHeaps = 3;
  // Conditional sweeps with screening: the best kSweeps singletons are each extended by every
  // variable, and the kPromote best partners join the candidates.
  static constexpr std::size_t kSweeps = 8;
  static constexpr std::size_t kPromote = 8;
  static constexpr std::size_t kSweepPairs = 8;    // best pairs of each sweep scored into the list
  static constexpr double kLatticeShare = 0.5;     // a lattice level only if it fits in this share
  static constexpr std::size_t kLattice4 = 14;     // sets of four among this many best singles
  static constexpr std::size_t kLattice5 = 8;      // sets of five among this many
  static constexpr std::size_t kDeepSweepMax = 3;  // deep sweeps extend sets up to this size
  static constexpr std::size_t kDeepSweepBases[kDeepSweepMax + 1] = {0, 0, 1, 4};  // by size
  // Hybrid: one pop in kGreedyEvery from greedy's open list. 1 in 2 made the caches
  // greedy-like (audio's network 350 below is's); 1 in 32 kept is's networks where is beats
  // greedy and most of greedy's gain on pumsb_star (bench/JOURNAL.md, hybrid selection).
  static constexpr std::uint64_t kGreedyEvery = 32;

  // Stops early enough for finish()'s rule-1 pass before the deadline (about 1.7 microseconds
  // per set scored: 4 s for insurance1000's 2.29 million BDeu sets of one variable); once the
  // run's own stop is requested (its deadline passed, or a signal), at once, with the one-pass
  // filter of finish_stopped().
  void poll() {
    if ((++polls_ & 15) != 0) return;
    if (task_.global->stop_requested()) {
      stopped_ = hard_stop_ = true;
      return;
    }
    if (task_.remaining() <= kFinishSecondsPerSet * static_cast<double>(recs_.size()))
      stopped_ = true;
    if (task_.max_bytes > 0 && state_bytes() > task_.max_bytes) stopped_ = out_of_memory_ = true;
  }
  static constexpr double kFinishSecondsPerSet = 2e-6;

  // What the search holds: records, the set table, the open lists, the index cache.
  std::size_t state_bytes() const {
    std::size_t b = recs_.capacity() * sizeof(Scored) + seen_.bytes() +
                    (open_[0].size() + open_[1].size()) * sizeof(Cursor) +
                    pending_.capacity() * sizeof(std::uint32_t);
    for (const IndexSlot& slot : index_cache_) b += slot.index.idx.capacity() * 4;
    return b;
  }

  // Rule 1 over everything scored, in order of size so that best_sub sees every scored
  // subset reachable through scored immediate subsets; then the cache.
  void finish() {
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
  void finish_stopped() {
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

  void fold_all_subsets(double& best_sub) {
    for_each_immediate_subset(cand_, sub_, [&](auto sub, std::size_t) {
      const std::int64_t sid = seen_.find(sub);
      if (sid >= 0 && recs_[sid].scored) best_sub = std::max(best_sub, recs_[sid].best_sub);
      return true;
    });
  }

  Counter& counter_;
  const VarTask& task_;
  const std::uint8_t allowed_;  // open lists this kind uses (bit 0: is, bit 1: greedy)
  std::uint64_t pops_ = 0;
  VarCache& out_;
  ExploreStats& stats_;
  const PruneRules rules_;  // the rules proven for the score (rule 1 always applies)
  const int r_child_;
  const double n_, u_;
  double empty_bic_ = 0;
  bool stopped_ = false;
  bool out_of_memory_ = false;  // stopped by task_.max_bytes
  bool hard_stop_ = false;      // stopped by the run's stop: no time left for finish()
  std::uint64_t seq_ = 0, polls_ = 0;
  std::vector<int> candidates_;  // the task's candidates, then those the sweeps promote
  PairSweep pairs_;              // families {Y, Z} for the sweeps and the lattice (screening)
  std::vector<std::pair<int, int>> sweep_pairs_;  // (Y, Z): the sweeps' best pairs
  SetTable seen_;                                 // every set scored or cut
  std::vector<Scored> recs_;                      // by id in seen_
  std::vector<std::int64_t> singleton_id_;
  std::vector<int> group_arity_;
  std::vector<std::vector<std::int32_t>> groups_;
  std::priority_queue<Cursor> open_[2];  // by BIC* (is), by the base's score (greedy)
  std::vector<std::int32_t> cand_, sub_, full_, subset_;
  std::vector<int> family_;             // scratch of VarTask::family
  std::vector<std::uint32_t> pending_;  // kept sets whose immediate subsets are to be scored
  struct IndexSlot {
    std::uint32_t id = UINT32_MAX;
    ConfigIndex index;
  };
  static constexpr std::size_t kIndexCacheBytes = 16 << 20;  // per thread
  std::vector<IndexSlot> index_cache_;
};

}  // namespace

void explore_best_first(Counter& counter, const VarTask& task, BestFirstKind kind, VarCache& out,
                        ExploreStats& stats) {
  BestFirstExplorer(counter, task, kind, out, stats).run();
}

}  // namespace bnsl
