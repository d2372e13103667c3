// Exact mode: the proven optimal network of a score cache, and every network within epsilon of
// it (Liao, Sharma, Cussens & van Beek 2019).
//
//   bnsl::ScoreCache cache = bnsl::read_jkl("wine.jkl");
//   bnsl::ExactOptions opt;                       // method auto, epsilon = ln 20
//   opt.method = bnsl::ExactMethod::dp;          // or ilp
//   bnsl::ExactStats stats;
//   bnsl::PoolReport r = bnsl::solve_exact(cache, opt, bnsl::StopToken(600), &stats);
//   // r.dags[0]: the best network found; r.optimal: it is proven optimal for the cache;
//   // r.complete: r.dags lists every DAG scoring >= OPT - epsilon (within score tolerance).
//
// Two methods, independent of each other so that each checks the other:
//   dp:  dynamic programming over variable subsets (Silander & Myllymaki 2006), then a
//        branch-and-bound enumeration over sink decompositions bounded by the DP's values
//        (src/exact/dp.cpp, src/exact/enumerate.cpp). Memory O(n 2^n); refused beyond
//        `dp_max_bytes` (about 26 variables with the default) with an InputError.
//   ilp: integer programming over family variables with cluster cuts, solved by COIN-OR CBC
//        (src/exact/ilp.cpp); only when built with CBC (ilp_available()).
// "Optimal" and "complete" are relative to the cache: a cache pruned by the epsilon-relaxed
// rules with an exhaustive exploration keeps every family such networks use.
// The report's `score`, `ess` and `rows` fields are left for the caller.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <string>

#include "bnsl/cache.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/names.hpp"
#include "bnsl/report.hpp"
#include "bnsl/stop.hpp"
#include "bnsl/tunables.hpp"

namespace bnsl {

// automatic: dp up to kAutoDpMaxVars variables, where it proves OPT and lists the networks
// within epsilon in seconds to minutes (uci/adult, 14 variables: the ILP had no proof after
// 600 s; at 23 variables uci/parkinsons and uci/mushroom, BIC BF 20: complete lists in seconds
// where the ILP had a partial list, or no proof, after 600 s; bench/JOURNAL.md, session 9; at
// 28 and 29, without its best-family tables, uci/horse, steel and flag, BIC BF 20: complete
// lists in 34 to 196 s after the exploration, where the ILP had a partial list or no proof
// after 600 s; bench/results/exact.md, "The subset DP without its tables"), ilp above (dp when
// built without CBC). Auto takes the ILP instead when the DP's tables do not fit in the memory
// available or the time left does not cover twice its estimate (a stopped DP leaves only the
// identity order's network). Above exact.ilp_first_above variables (24) it tries the ILP first,
// for exact.ilp_first_share of the DP's estimate (a tenth), and keeps its answer when it proved
// OPT and finished its list (bnsl/tunables.hpp).
enum class ExactMethod { automatic, ilp, dp };
inline constexpr std::array<Named<ExactMethod>, 3> kExactMethodNames{
    {{ExactMethod::automatic, "auto"}, {ExactMethod::ilp, "ilp"}, {ExactMethod::dp, "dp"}}};
inline constexpr int kAutoDpMaxVars = 29;  // dp of 29 variables, without tables: 4.5 GiB

// Rough seconds of one thread for the subset DP (exact mode's dp, search's dp_max_n) to find
// OPT for n variables: 1.5e-8 n 2^n (trial runs, uci/parkinsons, 23 variables: 2.8 s;
// uci/autos, 26: 37 s). Budgets use it to decide whether the DP can finish: a stopped DP has
// no answer.
inline double dp_seconds_estimate(int n) {
  return 1.5e-8 * n * std::ldexp(1.0, n);
}
// Whether `seconds` left (infinite: no deadline) cover twice that estimate. When not, exact's
// auto runs the ILP and the search its chains instead of the DP.
inline bool dp_fits(int n, double seconds) {
  return seconds >= 2 * dp_seconds_estimate(n);
}
// Whether the DP's tables for n variables fit in the memory available now (MemAvailable, the
// cgroup's limit, `ulimit -v`). When not, exact's auto and the search do as above.
bool dp_fits_memory(int n);

std::string to_string(ExactMethod method);                // "auto" | "ilp" | "dp"
ExactMethod parse_exact_method(const std::string& text);  // the same names; throws InputError
bool ilp_available();                                     // built with COIN-OR CBC
ExactMethod default_exact_method();                       // automatic
// The method `method` means for n variables: automatic resolved, the others unchanged.
ExactMethod resolve_exact_method(ExactMethod method, std::size_t n_vars);

// The K best networks instead of every network within epsilon (Chen, Darwiche & Choi 2018's
// task): the K best DAGs, or every DAG of the K best Markov equivalence classes; DAGs (classes)
// tied with the K-th within the score tolerance are listed too, and counted as ties. Found by
// listing every DAG within epsilon for a widening epsilon (src/exact/k_best.cpp).
struct KBest {
  std::size_t k = 0;     // 0: off (list every DAG within epsilon)
  bool classes = false;  // count equivalence classes instead of DAGs
  // The widest epsilon listed: the cache keeps every family of the networks within it (a jkl
  // cache taken as given: infinite). Fewer than K within it: the report says so (ExactStats).
  double max_epsilon = std::numeric_limits<double>::infinity();
};

struct ExactOptions {
  ExactMethod method = default_exact_method();
  ExactTunables tune;  // bnsl/tunables.hpp (--set exact.NAME=VALUE)
  Epsilon epsilon;     // list every DAG with score >= OPT - epsilon(|OPT|)
  KBest k_best;        // k > 0: the K best instead (epsilon then unused)
  // List each equivalence class within epsilon once, by one of its DAGs, instead of every DAG:
  // the report's `classes` (score and DAG; summarize() adds sizes), and no `dags` beside them;
  // max_solutions then counts classes (dp: the
  // covered-arc rule skips most members, src/exact/enumerate.cpp; ilp: the collection skips
  // the members of classes it has met, by their characteristic imset, src/exact/imset.cpp).
  // Not with k_best.
  bool classes = false;
  // ilp, classes: the collection lists by its LP search alone (no enumeration of regions), and
  // each class listed adds its imset no-good row to the LP, whose search then does not meet its
  // other members (one row removes a whole class). A cross-check of the default listing,
  // slower where the search meets many classes (bench/results/exact.md, "Classes by the
  // ILP").
  bool class_nogoods = false;
  // More DAGs (classes) within epsilon than this: the list keeps the best max_solutions (then
  // incomplete; see ExactStats::listed_above).
  std::size_t max_solutions = 1000000;
  // dp, a DAG list cut at max_solutions whose search finished: then enumerate every DAG within
  // epsilon again, counting them without keeping any, until the deadline (ExactStats::
  // dags_within). Off by default: without a deadline a count of billions would not end.
  bool count_within = false;
  int threads = 0;                                  // worker threads (0: all cores)
  bool progress = false;                            // progress lines on stderr
  std::size_t dp_max_bytes = std::size_t{6} << 30;  // dp refuses to allocate more than this
  // ilp: families the collection's enumeration of a region may try before it branches on the
  // region instead (src/exact/region_enumeration.cpp); 0: always branch (tests use it to
  // exercise both).
  std::uint64_t collect_enumerate_steps = std::uint64_t{1} << 18;
  // ilp: a first network for the ILP's cutoff, kept when it beats the identity order's
  // network. It only speeds the proof up: OPT and the list do not depend on it. The pipeline
  // passes a short ordering search (bnsl/search.hpp, ilp_start_network); none: the identity
  // order's network.
  std::function<ParentSets(const ScoreCache&, const StopToken&)> start;
};

// Counters and outcome of one exact run.
struct ExactStats {
  std::string method;  // "dp" | "ilp" (the method that ran)
  std::size_t n_vars = 0;
  std::size_t families = 0;                                // cache entries (ILP columns)
  double opt = -std::numeric_limits<double>::infinity();   // best network score found
  double bound = std::numeric_limits<double>::infinity();  // proven upper bound on OPT
  double epsilon = 0;                                      // the epsilon used (resolved with |OPT|)
  bool optimal = false;                                    // opt == bound, proven
  // The exploration that built the cache was cut (exact mode from a CSV): optimal, complete
  // and listed_above then hold among the cached families only, and the pool says neither.
  bool cache_cut = false;
  bool complete = false;      // every DAG within epsilon of OPT listed
  bool truncated = false;     // more than max_solutions within epsilon: the best are listed
  bool memory_short = false;  // the listing stopped: the list would not fit in memory as a pool
  double memory_left = 0;     // ... bytes available then
  // truncated, and the search finished: every DAG (class) scoring above this is listed, so the
  // list is complete within OPT - listed_above, ties with it aside (-inf otherwise)
  double listed_above = -std::numeric_limits<double>::infinity();
  std::uint64_t solutions = 0;  // DAGs listed
  // DAGs within epsilon, when known (0: unknown): a complete DAG list's size, or the count of
  // count_within past max_solutions; with dags_within_exact false that count stopped at the
  // deadline, and it is a lower bound.
  std::uint64_t dags_within = 0;
  bool dags_within_exact = false;
  std::uint64_t count_nodes = 0;     // dp, count_within: partial networks the count visited
  bool classes = false;              // ... one per class (classes)
  std::size_t k_best = 0;            // k-best: K asked (0: off) ...
  bool k_best_classes = false;       // ... of classes, not DAGs
  std::size_t k_best_rounds = 0;     // k-best: listings, epsilon widening
  std::size_t k_best_units = 0;      // k-best: DAGs or classes listed (K plus ties, or fewer)
  bool k_best_short = false;         // k-best: fewer than K within max_epsilon
  std::uint64_t dp_bytes = 0;        // dp: memory of the tables
  bool dp_scans = false;             // dp: best families scanned, without tables (dp.cpp) ...
  int dp_tables = 0;                 // ... but for this many variables
  std::uint64_t enum_nodes = 0;      // dp: partial networks visited by the enumeration
  std::uint64_t enum_leaves = 0;     // dp, classes: DAGs reached (one or more per class)
  std::uint64_t covered_cuts = 0;    // dp, classes: families cut by the covered-arc rule
  std::uint64_t ilp_solves = 0;      // ilp: CBC runs to prove OPT (repeated when CBC
                                     // accepted a cyclic point)
  std::uint64_t ilp_nodes = 0;       // ilp: branch-and-bound nodes (CBC's and collection's)
  std::uint64_t cluster_cuts = 0;    // ilp: cluster cuts separated from LP solutions
  std::uint64_t cycle_cuts = 0;      // ilp: cluster cuts from integer solutions with a cycle
  std::uint64_t cut_nonzeros = 0;    // ilp: nonzeros of the cluster cuts given to CBC
  bool cut_budget_hit = false;       // ilp: CBC's tree stopped separating at fractional points
  std::size_t collect_families = 0;  // ilp: families left to the collection (reduced costs)
  std::uint64_t collect_enumerations = 0;  // ilp: collection regions listed by enumeration
  std::uint64_t collect_splits = 0;        // ilp: enumerations stopped on their budget, rest split
  std::uint64_t collect_nogoods = 0;       // ilp, classes: class no-good rows (one per class
                                           // the LP search listed; imset.hpp)
  std::uint64_t collect_dags = 0;          // ilp, classes: DAGs the collection reached
  int collect_workers = 0;                 // ilp: threads of the collection (collect.cpp)
  std::uint64_t collect_handed = 0;        // ilp: regions handed from one worker to another
  std::uint64_t collect_iterations = 0;    // ilp: simplex iterations of the collection's LPs
  std::uint64_t collect_rows_purged = 0;   // ilp: slack cluster rows the collection dropped
  std::uint64_t collect_fixed = 0;  // ilp: family columns the collection fixed by reduced cost
  double start_score = -std::numeric_limits<double>::infinity();  // ilp: first incumbent
  double seconds_start = 0;                                       // ilp: the search for it
  double root_bound = std::numeric_limits<double>::infinity();    // ilp: root LP's bound
  std::size_t root_families = 0;    // ilp: families left to CBC (reduced costs at the root)
  std::size_t root_lp_columns = 0;  // ilp: families the root LP priced in
  std::uint64_t root_rounds = 0;    // ilp: root LP solves (cuts and pricing)
  double seconds_root = 0;          // ilp: the root LP and screening
  double seconds_opt = 0;           // until OPT was proven (or given up), start and root included
  double seconds_ilp_first = 0;     // auto: the ILP's try before the DP (included in seconds)
  double seconds = 0;               // whole run

  void print(std::ostream& out) const;  // human-readable summary
  std::string to_json() const;
};

// Proves OPT and lists the DAGs within epsilon (see above). Throws InputError if the cache
// admits no DAG (a variable without entries), if dp is asked for more memory than allowed, or
// if ilp is asked for without CBC. On stop (deadline or signal) returns the best found so far
// with optimal / complete false as appropriate; the report always holds at least one DAG.
PoolReport solve_exact(const ScoreCache& cache, const ExactOptions& options, const StopToken& stop,
                       ExactStats* stats = nullptr);

// Throws the InputError solve_exact() would throw for a problem of n_vars variables because of
// the method's limits (dp memory, ilp without CBC), so callers can fail before long work.
void check_exact_limits(std::size_t n_vars, const ExactOptions& options);

}  // namespace bnsl
