// Ordering search over a score cache (OBS / ASOBS with local search and restarts) that fills a
// pool with the equivalence class of every DAG it meets within epsilon of the best, plus those
// of every order-consistent DAG within epsilon of each local optimum, and at the end those one
// family away from pooled ones (neighbour completion).
//
//   bnsl::ScoreCache cache = bnsl::read_jkl("alarm.jkl");
//   bnsl::SearchOptions opt;                  // ASOBS, 1 thread, seed 1, epsilon = ln 20
//   opt.time = 60;                            // seconds (the StopToken may end it earlier)
//   opt.threads = 2;
//   opt.on_improvement = [&](double s, double best) { curve.emplace_back(s, best); };
//   bnsl::SearchStats stats;
//   bnsl::StopToken stop(60);                 // also sees SIGINT / SIGTERM
//   bnsl::PoolReport r = bnsl::search(cache, opt, stop, &stats,
//       [&](bnsl::PoolReport& snap) { bnsl::write_outputs("out/alarm", snap, &data); });
//   // r.dags: sorted best first; r.dags[0] is the best network found
//   stats.print(std::cerr);
//
// The checkpoint callback runs on the calling thread every `checkpoint` seconds with a
// snapshot of the pool (the search keeps running meanwhile), except when it would end after
// the chains' end (the neighbour walk would wait for it). search() returns once the
// deadline passes, the stop token fires, a signal arrives, or `max_restarts` is reached;
// the returned report always holds at least one network, summarized (summarize(), within the
// deadline: the classes its summary had no time for are cut). With threads = 1 and a fixed
// max_restarts, the same seed gives the same pool (with a time limit, how far the search
// gets depends on the machine). The report's `score`, `ess` and `rows` fields are left for
// the caller (a cache does not say which score produced it).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "bnsl/cache.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/names.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"  // write_outputs, as the example above uses
#include "bnsl/stop.hpp"
#include "bnsl/tunables.hpp"

namespace bnsl {

class Comm;

enum class SearchAlgo { asobs, obs };
inline constexpr std::array<Named<SearchAlgo>, 2> kSearchAlgoNames{
    {{SearchAlgo::asobs, "asobs"}, {SearchAlgo::obs, "obs"}}};

std::string to_string(SearchAlgo algo);
SearchAlgo parse_search_algo(const std::string& text);  // "asobs" | "obs"; throws InputError

struct SearchOptions {
  SearchAlgo algo = SearchAlgo::asobs;
  SearchTunables tune;            // bnsl/tunables.hpp (--set search.NAME=VALUE)
  double time = 0;                // wall-clock budget, s (0: until the stop token fires)
  int threads = 1;                // independent chains (0: all cores)
  std::uint64_t seed = 1;         // chain c uses a stream derived from (seed, c)
  Epsilon epsilon;                // the pool keeps DAGs with score >= best - epsilon
  std::size_t pool_max = 100000;  // pool capacity in equivalence classes (dag_pool.hpp)
  PoolTunables pool_tune;         // the pool's and its report's tunables (bnsl/tunables.hpp)
  std::size_t max_dags = 100000;  // DAGs of those classes listed in the report, best first
  // The pool keeps one DAG per Markov equivalence class and the report lists the others, which
  // assumes a score-equivalent score (BIC, BDeu: equivalent DAGs score the same). False: the
  // pool keeps distinct DAGs, for caches of other scores (the report's classes are then those
  // of the DAGs kept).
  bool classes = true;
  // ... and at most this many class (or DAG) x variable cells (0: no such cap), so that a pool
  // of a thousand-variable problem stays a few hundred MB in memory and quick to report.
  std::size_t pool_max_cells = 10'000'000;
  // The capacity for n variables: min(pool_max, max(1000, pool_max_cells / n)) classes ...
  std::size_t pool_capacity(std::size_t n) const;
  // ... and min(max_dags, max(1000, pool_max_cells / n)) DAGs listed.
  std::size_t dag_capacity(std::size_t n) const;
  double checkpoint = 30;          // seconds between checkpoint callbacks (<= 0: none)
  bool progress = false;           // progress lines on stderr
  std::uint64_t max_restarts = 0;  // stop after this many restarts in total (0: no limit)
  int exhaustive_max_n = 7;        // n <= this: enumerate every order (exact, complete)
  // n <= this (and above exhaustive_max_n): the subset DP of exact mode proves the optimum over
  // the cache and its sink enumeration lists every DAG within epsilon (22 variables: 214 MB
  // of tables, seconds). 0: never; the ordering search runs instead.
  int dp_max_n = 22;
  bool enumerate = true;  // enumerate order-consistent DAGs at local optima
  // After the ordering search, offer the pool every acyclic DAG one family away from a pooled
  // one and within epsilon, breadth first (src/search/complete_neighbours.cpp), best first, so
  // the final best's neighbourhood is walked however late it was found; then from the other
  // members of pooled classes, then by pairs of changes that break a cycle. With a deadline,
  // the chains leave 5% of the budget for it, and when they stall it runs before the end too.
  bool complete_classes = true;
  int perturb_tries = 20;  // non-improving perturbations before a fresh restart
  // Seed the pool with the greedy network over the cache (src/search/greedy_dag.cpp: seconds
  // at any size), whose topological order is chain 0's first start. False: the identity
  // order's network seeds the pool and every climb starts from a random order (tests).
  bool greedy_start = true;
  // From this many variables on, a chain's fresh restart starts from the incumbent (the best
  // order any chain has climbed to, perturbed) instead of a uniformly random order: a climb
  // from a random order of thousands of variables takes long and ends far below (0: never).
  std::size_t incumbent_min_n = 1000;
  // Called on the calling thread of search() each time the best score rises, with the
  // seconds since search() started and the new best: first for the network that seeds the
  // pool (the greedy network, or the identity order's without greedy_start), then as the monitor
  // sees rises (it polls every 20 ms, so rises closer together are reported as one, at the time
  // seen), and at the end for a rise after the last poll (exhaustive runs, n <= exhaustive_max_n:
  // only the seed and the end). Each reported best exceeds the previous beyond the score tolerance
  // (src/score/compare.hpp). Empty: not called.
  std::function<void(double seconds, double best)> on_improvement;
  // Networks to pool first (`learn --resume`: the classes of the run it continues; `learn`
  // with screening: the greedy network of its draft cache, within the final cache): each
  // whose families are all in the cache and which is acyclic is offered to the pool, and when
  // the best of them beats the greedy network, chain 0 starts from its order.
  std::vector<ParentSets> start_networks;
  // A search round (learn's rounds with proposals): the chains end, before `time`, once the
  // best has risen by less than `plateau` times |best| over the last tune.plateau_climbs
  // climbs of one chain (between tune.plateau_min_seconds and tune.plateau_seconds) or
  // tune.stall_share of their time, whichever is longer; the network, not the pool, is
  // what a round is for, and proposals from it gain more than further climbs. 0: never.
  double plateau = 0;
  // The processes sharing the search (bnsl/comm.hpp), each with its chains over the same
  // cache: they send each other their best network about every tune.exchange_seconds (pooled
  // there, and with incumbent_min_n variables or more, the restarts start around it), and at
  // the end rank 0 pools every process's classes and returns the report (the others return
  // their own). Null: this process alone.
  Comm* comm = nullptr;
  // Required and forbidden arcs and tiers (bnsl/constraints.hpp) that the cache was explored
  // or filtered by (Constraints::apply; search_cache() filters it), so every network found
  // satisfies them; the report's classes then count only their DAGs that do. (The search
  // itself needs no constraints: a variable whose every entry holds some parents, its required
  // ones, gets them in every network, and the orders keep them first: search/base_sets.hpp.)
  Constraints constraints;
};

// Counters of one search, summed over chains.
struct SearchStats {
  std::uint64_t orders = 0;               // full order evaluations (OBS or ASOBS)
  std::uint64_t swaps_tried = 0;          // adjacent swaps evaluated (OBS and ASOBS)
  std::uint64_t swaps_accepted = 0;       // improving swaps applied
  std::uint64_t insertions = 0;           // improving insertion moves applied
  std::uint64_t pulls = 0;                // improving parent pulls applied (local_search.cpp)
  std::uint64_t restarts = 0;             // climbs from a fresh random order
  std::uint64_t perturbations = 0;        // climbs from a perturbed local optimum
  std::uint64_t local_optima = 0;         // climbs finished
  std::uint64_t improvements = 0;         // times the best-so-far rose
  std::uint64_t enumerations = 0;         // orders whose consistent DAGs were enumerated
  std::uint64_t neighbours_expanded = 0;  // DAGs whose one-family neighbourhood was walked
  std::uint64_t members_expanded = 0;     // ... more: other members of walked classes
  std::uint64_t neighbours_admitted = 0;  // neighbours the pool admitted
  std::uint64_t neighbours_reversed = 0;  // ... of them by an arc reversal
  std::uint64_t neighbours_paired = 0;    // ... by two family changes that break a cycle
  std::uint64_t neighbours_rises = 0;     // ... of them better than the best before
  std::uint64_t climb_changes = 0;        // family changes of the best's climb before the walk
  bool completion_stopped = false;        // the neighbour walk ended before walking all it could
  double completion_seconds = 0;          // its wall time
  std::uint64_t completion_runs = 0;      // 2 when the chains stalled and the completion ran
                                          // before the end too (src/search/driver.cpp)
  std::uint64_t resumes = 0;              // the chains ran again after the walk at the end
  std::uint64_t pool_offers = 0;          // DAGs offered to the pool (incl. fast rejects)
  std::uint64_t pool_inserted = 0;        // distinct classes admitted (some later trimmed)
  std::uint64_t pool_equivalent = 0;      // offers equivalent to a kept class (not admitted)
  std::uint64_t pool_size = 0;            // classes in the final pool
  std::uint64_t pool_capacity = 0;        // classes it may hold (pool_max, pool_max_cells)
  bool pool_truncated = false;            // it was full: classes within epsilon were dropped
  std::uint64_t start_networks = 0;       // SearchOptions::start_networks pooled
  std::uint64_t peer_networks = 0;  // best networks other processes sent (SearchOptions::comm)
  std::uint64_t peer_classes = 0;   // their classes pooled at the end (rank 0)
  double seed_score = 0;            // the network that seeds the pool (greedy or identity order)
  double seed_seconds = 0;          // time to build it
  double best_score = 0;            // best network found
  double best_time = 0;             // seconds until it was found
  double seconds = 0;               // wall time of the search
  // The final report's cost (src/search/report_cost.hpp): seconds of one idle thread per
  // class-cell and per listed-DAG-cell, as last measured (0: never), the measurements, and
  // the seconds kept for the report before the deadline when the search ended.
  double report_class_cell = 0;
  double report_dag_cell = 0;
  std::uint64_t report_measurements = 0;
  double report_reserve = 0;
  // Classes pooled but left out of the final report, the worst first, because its summary ran
  // out of time before describing them (SummaryLimit; the report is then not complete).
  std::uint64_t report_classes_cut = 0;
  // The chains' end: how long after it the last chain returned (the longest over their rounds),
  // and the checkpoints not written because they would have ended after it (the walk waits for
  // a checkpoint in progress).
  double chains_overrun = 0;
  std::uint64_t checkpoints_skipped = 0;
  PoolAccount account;  // the final pool, as its report states it (after the chains)

  void print(std::ostream& out) const;  // human-readable summary
  std::string to_json() const;
};

// Called with a snapshot of the pool from the calling thread of search().
using CheckpointFn = std::function<void(PoolReport&)>;

// The greedy network over a cache (src/search/greedy_dag.cpp), the search's first network: a
// report holding that one DAG, in seconds at any size (variable names and epsilon set, the
// score fields left for the caller as in search()).
PoolReport greedy_network(const ScoreCache& cache, const StopToken& stop);

// Runs the search; see the example above. Throws InputError if a variable's cache has no
// entry with the empty parent set (every order must have a consistent network).
PoolReport search(const ScoreCache& cache, const SearchOptions& options, const StopToken& stop,
                  SearchStats* stats = nullptr, const CheckpointFn& checkpoint = {});

// The first network of exact mode's ILP (ExactOptions::start): the best a short ordering
// search finds, deterministic (one thread, a fixed number of climbs from random orders, never
// the DP), in at most a tenth of the time `stop` leaves and 60 s (exact.start_climbs,
// start_share and start_max_seconds of `tune`); no parents at all when it cannot run (no time,
// or a cache the search refuses).
ParentSets ilp_start_network(const ScoreCache& cache, const StopToken& stop,
                             const ExactTunables& tune = {});
// ... as ExactOptions::start: `o.start = bnsl::ilp_start(o.tune);`
std::function<ParentSets(const ScoreCache&, const StopToken&)> ilp_start(
    const ExactTunables& tune = {});

}  // namespace bnsl
