// The best-first explorer of one variable's parent sets (independence, greedy and hybrid
// selection): its state and its steps. best_first.cpp describes the method and holds the
// search; sweeps.cpp holds the conditional sweeps, the lattice and the deep sweeps that run
// before the open lists with screening. Internal to explore/.
#pragma once

#include <cstdint>
#include <optional>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "explore/explorer.hpp"
#include "explore/set_table.hpp"
#include "prune/rules.hpp"

namespace bnsl::best_first {

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

  void run();

 private:
  // The search (best_first.cpp): the start, the open lists, a candidate's evaluation and
  // pruning, the downward closure, the stop, and the final rule-1 pass into the cache.
  void score_empty_and_singletons();
  void score_singleton(const ConfigIndex& empty, int y);
  void build_groups();
  void add_cursors(std::uint32_t base, std::uint8_t heaps);
  void push_cursor(int heap, std::uint32_t base, std::uint32_t g, std::uint32_t pos);
  double priority(int heap, std::uint32_t base, int y) const;
  void step();
  void evaluate(std::uint32_t base, int y, std::uint8_t heaps, const FamilyScore* known = nullptr);
  void backfill_one();
  const ConfigIndex& base_index(std::uint32_t base);
  bool fold_subsets(double& best_sub, std::uint32_t& cells_lb);
  bool cut_before_counting(double best_sub, double q, std::uint32_t cells_lb);
  std::uint32_t insert(std::span<const std::int32_t> set, const FamilyScore& f, double best_sub,
                       std::uint8_t origin);
  void insert_cut();
  void apply_superset_rules(std::uint32_t base, int y);
  void poll();
  std::size_t state_bytes() const;
  void finish();
  void finish_stopped();
  void fold_all_subsets(double& best_sub);
  // With screening, before the open lists (sweeps.cpp).
  void sweep();
  void record_sweep_pairs();
  void lattice();
  void deep_sweeps();
  void lattice_level(const std::vector<int>& members, int size);

  static constexpr std::uint8_t kAllHeaps = 3;
  // The sweeps' and the lattice's sizes and the hybrid's mix are tunables (task_.tune:
  // explore.sweeps, promote, sweep_pairs, lattice_share, lattice4, lattice5, greedy_every,
  // finish_seconds_per_set).
  static constexpr std::size_t kDeepSweepMax = 3;  // deep sweeps extend sets up to this size
  static constexpr std::size_t kDeepSweepBases[kDeepSweepMax + 1] = {0, 0, 1, 4};  // by size
  // Hybrid: one pop in explore.greedy_every from greedy's open list. One in two made the
  // caches greedy-like; one in 32 kept IS's networks where IS beats greedy and most of greedy's
  // gain where greedy wins (bench/JOURNAL.md, hybrid selection).

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
  std::vector<IndexSlot> index_cache_;
};

}  // namespace bnsl::best_first
