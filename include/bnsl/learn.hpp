// The pipeline as library calls: what `bnsl learn`, `bnsl search` and `bnsl exact` run, with
// their budget policy (how a --time budget is split between exploring parent sets and
// searching, and what is kept back for writing the outputs), so that a program, a benchmark
// or an MPI driver calls the same thing the command line does.
//
//   bnsl::Dataset data = bnsl::read_csv("alarm.csv");
//   bnsl::LearnOptions opt;                      // BIC, Bayes factor 20, hybrid, ASOBS
//   opt.threads = 2;
//   bnsl::StopToken stop(60);                    // the budget: exploration and search
//   bnsl::LearnResult r = bnsl::learn(data, opt, stop,
//       [&](bnsl::PoolReport& report, bnsl::ReportStage) {
//         bnsl::write_outputs("out/alarm", report, &data);  // draft, checkpoints, final
//       });
//   // r.report.dags[0]: the best network; r.explore, r.search: the counters
//
// The budget is the stop token's: its deadline, counted from its start (the command line
// creates it before reading the data, so reading counts too), split by the policy below; the
// token also carries SIGINT / SIGTERM. Without a deadline the run goes on until a signal (or
// until the exploration and the search end by themselves). Every report passed to the
// callback and returned is labelled (score, ESS, rows, variable names) and summarised
// (classes, edge probabilities); its `optimal` and `complete` flags hold only when the cache
// is exhaustive (ExploreStats::exhaustive). The callback runs on the calling thread.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"  // write_outputs, as the example above uses
#include "bnsl/score.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"
#include "bnsl/tunables.hpp"

namespace bnsl {

// Which report the callback receives: learn's first network (the greedy network over the
// draft cache of a screened exploration), a checkpoint of the search's pool, or the result.
enum class ReportStage { draft, checkpoint, final };
using ReportFn = std::function<void(PoolReport& report, ReportStage stage)>;

// What labels a report besides the search: the score that made the cache, the data (names,
// rows, BIF parameters; null for a bare cache) and whether the cache is exhaustive.
struct ReportContext {
  ScoreParams score;
  const Dataset* data = nullptr;
  bool cache_exhaustive = true;
};

// Fills the report's score, ESS, rows and names from the context, withdraws `optimal` and
// `complete` when the cache is not exhaustive, and summarises it on `threads` threads unless
// it is summarised already (the search's final report, summarised within its deadline).
void label_report(PoolReport& report, const ReportContext& context, int threads);

// Seconds kept back at the end of a budget for writing the outputs: 3% of it, between 0.1 and
// 1 s (0 without a budget).
double output_reserve(double budget);

inline constexpr double kDefaultLearnTime = 60;  // s: learn's and search's budget by default

struct LearnOptions {
  BudgetTunables budget;  // the policy's shares (bnsl/tunables.hpp, --set budget.NAME=VALUE)
  // The exploration's options (score, epsilon, method, screening, memory cap); its `time`,
  // `threads` and `progress` are set by learn() from the fields below.
  ExploreOptions explore;
  // The search's options (algorithm, seed, pool caps, checkpoint interval, dp_max_n); its
  // `time`, `epsilon`, `threads` and `progress` are set by learn().
  SearchOptions search;
  std::optional<double> explore_share;  // the exploration's share of the budget (unset: policy)
  int threads = 0;                      // 0: all cores
  bool progress = false;                // progress lines on stderr
  // Called as the exploration ends, before the search (the command line prints its summary
  // there); unset, `progress` prints the exploration's counters.
  std::function<void(const ExploreStats&)> on_explored;
  // Called before the last search with the cache it searches: the exploration's, with the
  // families of the draft and of the search rounds that it lacked (rule 1).
  std::function<void(const ScoreCache&)> on_search_cache;
  // Each rise of the best score: seconds since the stop token's start, and the new best
  // (the draft network's first, then the search's). On the calling thread.
  std::function<void(double seconds, double best)> on_improvement;
  // The processes sharing the run (bnsl/comm.hpp): set as the exploration's and the search's.
  // The stop token should then end at the same moment everywhere (start_together), and only
  // rank 0's final report holds every process's classes.
  Comm* comm = nullptr;
};

// The exploration's part of a budget of `budget` seconds (> 0): explore_share of it when given,
// else the policy's (options.budget): budget.explore_share of it; budget.screened_explore_share
// when the exploration is screened (thousands of variables: the search starts from the greedy
// network and converges in a small share); up to budget.dp_explore_share when the search will
// be the subset DP (n <= dp_max_n), which takes little time while the exploration decides.
double learn_explore_seconds(const LearnOptions& options, const Dataset& data, double budget);

struct LearnResult {
  PoolReport report;  // labelled and summarised, as written at the end
  ExploreStats explore;
  ProposalStats proposals;  // learn's search rounds with proposals (screened runs)
  SearchStats search;       // the last search's
};

// Explores the data's parent sets, then searches orders over the cache, within the stop
// token's budget; see the example above. On a signal or a stop request returns the best found so
// far.
LearnResult learn(const Dataset& data, const LearnOptions& options, const StopToken& stop,
                  const ReportFn& on_report = {});

// The search phase alone (`bnsl search`): searches `cache` until the stop token's deadline less
// the output reserve (options.time is set from it) and reports as learn() does. With
// options.constraints, over a copy of the cache less the sets they forbid. With required arcs,
// the cache must have been explored with them (a cache pruned without them may lack the sets
// they need; the command line refuses one whose provenance says so).
struct SearchRunResult {
  PoolReport report;
  SearchStats stats;
};
SearchRunResult search_cache(const ScoreCache& cache, const SearchOptions& options,
                             const ReportContext& context, const StopToken& stop,
                             const ReportFn& on_report = {});

// Exact mode from data (`bnsl exact DATA.csv`): an exhaustive exploration with the epsilon-
// relaxed rules and no in-degree limit (never screened: the proof needs every family within
// epsilon), within budget.exact_explore_share of the stop token's budget (each variable a fair
// share first, then the ones cut explored again with what the others left), then solve_exact() over
// the cache. The report is optimal / complete only if the exploration finished.
struct ExactLearnOptions {
  ScoreParams score;
  BudgetTunables budget;         // budget.exact_explore_share (bnsl/tunables.hpp)
  ExploreTunables explore_tune;  // the exploration's (explore.*: rows grouped, LL ceiling)
  ExactOptions exact;            // method, epsilon, max_solutions; threads, progress set below
  int threads = 0;               // 0: all cores
  bool progress = false;
  std::function<void(const ExploreStats&)> on_explored;      // as LearnOptions::on_explored
  std::size_t memory_per_var = ExploreOptions::kAutoMemory;  // ExploreOptions::memory_per_var
  // Required and forbidden arcs and tiers (bnsl/constraints.hpp): the exploration never
  // scores a forbidden parent and keeps the required ones in every set (solve_exact_cache
  // filters the cache it is given, which must have been explored with the same required
  // arcs), so OPT and the list are those of the networks that satisfy them, and the report's
  // classes count only such DAGs.
  Constraints constraints;
};

struct ExactLearnResult {
  PoolReport report;  // labelled and summarised
  ExploreStats explore;
  ExactStats exact;
  bool cache_exhaustive = false;
};

ExactLearnResult learn_exact(const Dataset& data, const ExactLearnOptions& options,
                             const StopToken& stop);

// Exact mode over a given cache (`bnsl exact CACHE.jkl`): optimal and complete relative to it
// (with options.constraints, to a copy of it less the sets they forbid).
ExactLearnResult solve_exact_cache(const ScoreCache& cache, const ExactLearnOptions& options,
                                   const Dataset* data, const StopToken& stop);

}  // namespace bnsl
