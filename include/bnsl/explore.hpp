// Parent-set exploration: builds the score cache of every variable, pruned only by rules
// that are safe for every network within epsilon of the optimum (see src/prune/rules.hpp).
//
//   bnsl::ExploreOptions opt;            // BIC, sequential, epsilon = ln 20
//   opt.max_parents = 3;
//   bnsl::ExploreStats stats;
//   bnsl::StopToken stop(60);
//   bnsl::ScoreCache cache = bnsl::explore(data, opt, stop, &stats);
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/names.hpp"
#include "bnsl/score.hpp"
#include "bnsl/stop.hpp"
#include "bnsl/tunables.hpp"

namespace bnsl {

class Comm;
struct ExploreStats;

// seq: all sets of size 0, 1, 2, ... (exhaustive up to the limit);
// is: independence selection, best-first by BIC* (Scanagatta et al. 2015);
// greedy: best-first by the score of the set being extended (the paper's other baseline);
// hybrid (the default): is, with one extension in 32 taken from greedy's order (finds
// parents that are weak alone and strong together, which BIC* ranks last).
enum class ExploreMethod { seq, is, greedy, hybrid };
inline constexpr std::array<Named<ExploreMethod>, 4> kExploreMethodNames{
    {{ExploreMethod::is, "is"},
     {ExploreMethod::greedy, "greedy"},
     {ExploreMethod::hybrid, "hybrid"},
     {ExploreMethod::seq, "seq"}}};

std::string to_string(ExploreMethod method);
ExploreMethod parse_explore_method(const std::string& text);  // throws InputError

struct ExploreOptions {
  ScoreParams score;     // BIC or BDeu, ESS
  ExploreTunables tune;  // bnsl/tunables.hpp (--set explore.NAME=VALUE)
  Epsilon epsilon;       // pruning keeps every set a network within epsilon may use
  ExploreMethod method = ExploreMethod::hybrid;
  int max_parents = -1;       // in-degree limit; < 0: method default (seq: 3, else none)
  double time = 0;            // wall-clock budget of the whole exploration, s (0: none)
  double time_per_var = 0;    // alternative: budget per variable, s (0: none)
  int threads = 0;            // OpenMP threads (0: all cores)
  std::size_t var_begin = 0;  // explore only variables [var_begin, var_end)
  std::size_t var_end = static_cast<std::size_t>(-1);
  bool progress = false;  // progress lines on stderr
  bool prune = true;      // false: keep every scored set (for tests and oracles)
  // K > 0: the cache need only keep the families of the K best networks (or classes), not
  // those of every network within epsilon: rule 7 (src/prune/rules.hpp, BIC only) caps the
  // parent sets' size (ExploreStats::k_best_max_parents). `bnsl exact --k-best`.
  std::size_t k_best = 0;
  // Screening: each variable's candidate parents are its `candidates` best single parents by
  // BIC, read off all-pairs statistics (src/score/pair_stats.hpp) instead of every variable.
  // 0: no screening (every variable is a candidate); kAutoCandidates: screen when the data
  // have many variables (auto_candidates). A screened cache is not provably complete: the
  // stats say so (ExploreStats::candidates) and exhaustive() is false.
  static constexpr int kAutoCandidates = -1;
  int candidates = kAutoCandidates;
  // With screening, or timed without it (explore.draft_unscreened), called (on the
  // calling thread) right after the all-pairs statistics with a draft cache: every variable's
  // empty set, its best single parents and their pairs, exactly scored (seconds for ten
  // thousand variables). `learn` writes the greedy network over it, so that a network is on
  // disk long before the exploration ends. The draft's
  // families then stay in the final cache (less those a cached subset beats by more than
  // epsilon, rule 1): a variable whose share of the time ends before its exploration meets them
  // keeps them, so the search can do at least as well as the draft's network.
  // Without screening (not with `comm`), a quick pass may follow: every variable explored
  // for at most explore.quick_share of `time` (those it explores to the end are not explored
  // again), as long as the first call leaves *quick_seconds (that cap when called) above 0
  // and that gives each variable explore.quick_min_var_seconds of a thread at least;
  // on_draft is then called a second time, with a draft that holds what it found too. learn
  // asks for it when its early rounds on the pairs' draft stop before their share of the
  // budget ends, for the rest of that share: on hailfinder (56 variables) they stopped 153
  // nats below the final network within a second, and the search then waited for the
  // exploration; over the quick pass's draft the next round reaches the final network.
  struct Draft {
    const ScoreCache& cache;
    const ExploreStats& so_far;  // the exploration's epsilon, in-degree limit, candidates
    // each variable's screened candidates (without screening: as many best single parents)
    const std::vector<std::vector<int>>& candidates;
    // The first call's: the quick pass's budget, which the callee may lower (0: none).
    // Null in the second call, and where no quick pass can follow.
    double* quick_seconds = nullptr;
  };
  std::function<void(const Draft& draft)> on_draft;
  // With `time`: a second pass explores again, from scratch and with what is left of the
  // budget, each variable the first pass cut at its share (for exact mode, which needs every
  // variable explored to the end: the first pass keeps early variables from taking the
  // budget of later ones, the second lets a costly variable finish when the others left time).
  bool retry_cut = false;
  // Memory cap of one variable's best-first explorer (its records, set table and open lists),
  // bytes (0: none; kAutoMemory: default_explore_memory(threads)). A variable that reaches it
  // stops as at a deadline, keeping what it scored.
  static constexpr std::size_t kAutoMemory = static_cast<std::size_t>(-1);
  std::size_t memory_per_var = kAutoMemory;
  // The processes sharing the exploration (bnsl/comm.hpp): they draw the variables from one
  // queue, and each returns the whole cache. Null: this process alone.
  Comm* comm = nullptr;
  // Resuming (`learn --resume`): the variables with entries here were explored to their end by
  // an earlier run on the same data with the same options; they are taken as they are, not
  // explored again (ExploreStats::vars_resumed), and the budget is shared by the others.
  const ScoreCache* explored = nullptr;
  // Called as each variable's exploration ends (to the end, or cut by its share or the
  // exploration's budget), unless the caller's stop token (a signal, its deadline) cut it; with
  // retry_cut, a variable cut at its share only after its second pass. From any
  // thread, once per variable (not for those taken from `explored`); in a run shared by
  // processes, every process is told of every variable once the caches are gathered. `learn`
  // appends them to its journal (CacheJournal).
  std::function<void(std::size_t var, const VarCache& entries)> on_variable;
  // Required and forbidden arcs and tiers (bnsl/constraints.hpp): no variable is ever a
  // candidate parent of a child it may not point into, so no cached set holds a forbidden arc;
  // every cached set of a child holds its required parents, and the pruning rules compare
  // only sets that hold them (explore/explorer.hpp), so the cache is safe for every network
  // within epsilon of the constrained optimum. The in-degree limit counts them.
  Constraints constraints;
};

// A default for ExploreOptions::memory_per_var: half the memory available when it is asked
// (MemAvailable, the cgroup's limit, `ulimit -v`; at most the physical memory), split between
// `threads` explorers (0: all cores).
std::size_t default_explore_memory(int threads);

// The budget of a stand-alone exploration (`bnsl score`) when none is given: the best-first
// explorers are anytime, and without a budget they run to exhaustion, which on hundreds of
// variables takes hours; so they get kDefaultTimePerVar seconds per variable (as Scanagatta et
// al.) unless a budget was given (`time_given`: --time, whose 0 asks for no limit, exact
// mode's exhaustive exploration) or time_per_var is set. The sequential explorer, bounded by
// its in-degree limit, keeps no budget.
inline constexpr double kDefaultTimePerVar = 1;
void apply_default_budget(ExploreOptions& options, bool time_given);

// ", budget 30 s", ", 1 s per variable" or ", no time limit".
std::string describe_budget(const ExploreOptions& options);

// Parent sets proposed by the search's networks (learn's rounds on screened runs:
// src/pipeline/learn.cpp, src/explore/proposals.hpp).
struct ProposalStats {
  std::uint64_t rounds = 0;        // proposal steps
  std::uint64_t vars = 0;          // variables walked, summed over the rounds
  std::uint64_t scored = 0;        // families scored by the walks
  std::uint64_t admitted = 0;      // sets the cache did not hold, added under rule 1
  double seconds = 0;              // in the walks
  double search_seconds = 0;       // in the rounds' searches
  std::uint64_t early_rounds = 0;  // of `rounds`, those on the draft cache, before the exploration
  std::uint64_t early_kept = 0;    // their sets the explored cache lacked, added under rule 1
  std::uint64_t pair_steps = 0;    // walks' steps that added two parents at once
  void add(const ProposalStats& o);
  std::string to_json() const;
};

// Counters of one exploration (summed over variables).
struct ExploreStats {
  std::uint64_t sets_scored = 0;          // families counted and scored
  std::uint64_t sets_generated = 0;       // candidates considered (scored or cut before scoring)
  std::uint64_t sets_swept = 0;           // families counted by conditional sweeps (screening)
  std::uint64_t candidates_promoted = 0;  // candidate parents the sweeps added
  std::uint64_t draft_kept = 0;           // draft families (on_draft) kept that it had not met
  std::uint64_t quick_sets = 0;           // sets the quick pass (explore.quick_share) scored in the
                                          // variables it cut (not in sets_scored: explored again)
  double quick_seconds = 0;               // its wall time
  std::uint64_t pruned_rule1 = 0;         // dropped from the final cache: a subset is > eps better
  std::uint64_t pruned_rule2 = 0;         // cut before scoring by the BIC bound (with supersets)
  std::uint64_t pruned_rule3 = 0;         // sets whose supersets the size bound cut
  std::uint64_t pruned_rule4 = 0;         // dropped by the entropy rule (with supersets)
  std::uint64_t pruned_inherited = 0;     // cut unscored: an immediate subset's supersets were cut
  std::uint64_t pruned_rule6 = 0;         // dropped by the BDeu bound (with supersets)
  std::uint64_t pruned_rule8 = 0;         // sets whose supersets the BDeu atom bound cut
  std::uint64_t vars_lattice = 0;         // variables seq explored by its lattice walk (BDeu)
  std::uint64_t vars_ll_ceiling = 0;      // variables whose LL ceiling (rules 2 to 4) is below 0
  double ll_ceiling_sum = 0;              // their N H(X | every other variable), summed
  std::uint64_t vars_out_of_time = 0;     // variables whose exploration the budget ended
  std::uint64_t vars_out_of_memory = 0;   // variables whose exploration the memory cap ended
  std::uint64_t memory_per_var = 0;       // that cap, bytes per variable (0: none)
  std::uint64_t vars_retried = 0;         // variables explored again (ExploreOptions::retry_cut;
                                          // the set and rule counters count both passes)
  std::uint64_t vars_explored = 0;        // variables explored by this run
  std::uint64_t vars_resumed = 0;         // variables taken from an earlier run (explored)
  std::uint64_t cache_entries = 0;        // entries in the final caches
  std::uint64_t cache_bytes = 0;
  std::uint64_t rows = 0;          // rows of the data
  std::uint64_t rows_counted = 0;  // rows a counting pass visits: the distinct ones, each
                                   // weighted by its multiplicity, when rows repeat enough
  double epsilon = 0;              // the epsilon pruning used
  int max_parents = -1;            // the in-degree limit applied (-1: none)
  int k_best_max_parents = -1;     // rule 7's cap for ExploreOptions::k_best (-1: none)
  int candidates = 0;              // screening: candidate parents per variable (0: all)
  double pair_seconds = 0;         // wall time of the all-pairs statistics (screening)
  double seconds = 0;              // wall time of the exploration

  // Every variable explored to the end, without an in-degree limit: the caches hold every
  // family that a network within epsilon of the optimum uses. (Not claimed for a resumed run:
  // how the earlier run ended its variables is not known.)
  bool exhaustive() const { return exhaustive(-1); }
  // The same for the networks with at most `in_degree_limit` parents per variable (-1: no
  // limit; Constraints::max_parents): the exploration's own limit, if any, is no lower.
  bool exhaustive(int in_degree_limit) const {
    return vars_out_of_time == 0 && vars_out_of_memory == 0 && candidates == 0 &&
           vars_resumed == 0 &&
           (max_parents < 0 || (in_degree_limit >= 0 && max_parents >= in_degree_limit));
  }

  void add(const ExploreStats& other);
  void print(std::ostream& out) const;  // human-readable summary
  std::string to_json() const;
};

// The screening a run with these options and data applies: ExploreOptions::candidates, or for
// kAutoCandidates a rule on the number of variables (0: none).
int auto_candidates(const ExploreOptions& options, const Dataset& data);

ScoreCache explore(const Dataset& data, const ExploreOptions& options, const StopToken& stop,
                   ExploreStats* stats = nullptr);

// The provenance of the cache an explore(data, options, ..., &stats) call returned, for its
// jkl header: the variables it explored, and whether it is exhaustive (stats.exhaustive()).
CacheProvenance cache_provenance(const Dataset& data, const ExploreOptions& options,
                                 const ExploreStats& stats);

// The same before the exploration (not exhaustive): what a journal of it records, so that a
// resumed run can check it explores the same data with the same options.
CacheProvenance planned_provenance(const Dataset& data, const ExploreOptions& options);

}  // namespace bnsl
