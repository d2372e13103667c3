// The search driver: independent chains on worker threads, one shared pool, and a monitor on
// the calling thread (progress, checkpoints, deadline). Chains share nothing but the pool
// (whose fast path is one atomic load), the stop flag and, with many variables, the incumbent
// order (restarts start there); each draws its random stream from (seed, chain index), so
// with one thread and a fixed number of restarts a seed fixes the pool. Before any chain
// starts, the greedy network over the cache (greedy_dag.cpp) and the OBS network of its order
// are pooled, and written at once by the checkpoint callback, so a result exists within
// seconds even for ten thousand variables, and even if the run is stopped at once. The pool
// keeps one DAG per equivalence class (pool/dag_pool.hpp); the report lists the other members
// (pool/class_members.hpp). After the chains, neighbour completion (complete_neighbours.cpp)
// walks the classes within epsilon one family away from pooled ones. Small problems are
// solved exactly instead, which finds the optimum over the cache and every DAG within epsilon of it
// (optimal and complete, unless stopped or capped by pool_max): for
// n <= exhaustive_max_n every order is enumerated (order_enum.cpp on all n! orders; every DAG
// is consistent with some order), and for n <= dp_max_n the subset DP and sink enumeration of
// exact mode run (run_dp), when the time left allows it; else the chains run.
//
// Completion before the end. The chains meet most of a mid-sized problem's DAGs within epsilon
// early and then add almost nothing, while the completion steps add the rest in well under a
// second (uci/autos, BIC BF 20, 26 variables, `search --time 20 --threads 1`: pool 34,685 after
// 4 s, 35,056 after 18 s, 50,374 after the completion). With a short budget the completion's
// share at the end is too small to walk them all (autos, `--time 10`: stopped after 38,245 of
// 50,374 on three seeds of six). So when, under a time limit, the chains have admitted fewer
// than kStallGrowth of the pool's size over the last kStallShare of their time (at least
// kStallMinSeconds), and the best has not risen over that window either, the monitor stops
// them, the completion runs at once (for at most kStallCompletionShare of the time left), and
// the chains resume on fresh random streams for the rest of the budget; the completion runs
// again at the end for what they add. When its share cut the walk short after its queue (in
// the passes over class members and pairs), the chains' next stall stops them again for
// another share; each walk goes on from where the one before stopped (WalkMemory). uci/zoo, BDeu BF
// 20, `learn --time 20`: the walk stopped after 2.7 s of a stall at 4.9 s, the chains then added 6
// classes in 8.6 s, and the walk at the end had 0.9 s: 25,743 of the 25,746 classes within epsilon.
// autos,
// `--time 10 --threads 1`, six seeds: 50,362 or all 50,374 DAGs (97.2-100% without). It also
// fires on large problems whose chains admit few DAGs (density sets, `learn --time 30`: 5 of
// 10), where the cap leaves the chains most of their time (bench/JOURNAL.md, session 11).
//
// The walk at the end. Under a time limit the walk around the final best gets kCompletionShare
// of the search's time, before the report's reserve, however late that best was found: the
// chains stop by their end (chains_until_) themselves, not only when the monitor tells them,
// and the monitor writes no checkpoint that would still be writing then. At thousands of
// variables nearly every climb of the chains lifts the best by more than epsilon, and each
// such rise leaves the classes pooled before it behind, so what the walk pools around the
// final best is most of the report; the report's account (PoolAccount) says what it holds and
// why a small pool is small.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <exception>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>

#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/search.hpp"
#include "exact/dp.hpp"
#include "exact/families.hpp"
#include "io/report_io.hpp"
#include "parallel/slowdown.hpp"
#include "parallel/threads.hpp"
#include "pool/class_members.hpp"
#include "pool/complete_neighbours.hpp"
#include "pool/entry_index.hpp"
#include "pool/order_enum.hpp"
#include "score/compare.hpp"
#include "search/base_sets.hpp"
#include "search/greedy_dag.hpp"
#include "search/peers.hpp"
#include "search/report_cost.hpp"
#include "search/search_internal.hpp"

namespace bnsl {

namespace {
std::size_t capped(std::size_t max, std::size_t cells, std::size_t n) {
  if (cells == 0 || n == 0) return max;
  return std::min(max, std::max<std::size_t>(1000, cells / n));
}
}  // namespace

std::size_t SearchOptions::pool_capacity(std::size_t n) const {
  return capped(pool_max, pool_max_cells, n);
}

std::size_t SearchOptions::dag_capacity(std::size_t n) const {
  return capped(max_dags, pool_max_cells, n);
}

std::string to_string(SearchAlgo algo) {
  return name_of(kSearchAlgoNames, algo);
}

SearchAlgo parse_search_algo(const std::string& text) {
  return value_of(kSearchAlgoNames, text, "search algorithm");
}

void SearchStats::print(std::ostream& out) const {
  char head[160];
  std::snprintf(head, sizeof head, "search: %.2f s, best %.4f (found at %.2f s)\n", seconds,
                best_score, best_time);
  const double secs = seconds > 0 ? seconds : 1;
  out << head << "  orders evaluated  " << orders << " ("
      << static_cast<std::uint64_t>(orders / secs) << "/s)\n"
      << "  swaps             " << swaps_tried << " tried ("
      << static_cast<std::uint64_t>(swaps_tried / secs) << "/s), " << swaps_accepted
      << " accepted, " << insertions << " insertions, " << pulls << " parent pulls\n"
      << "  climbs            " << local_optima << " (" << restarts << " restarts, "
      << perturbations << " perturbations)\n"
      << "  seed network      " << seed_score << " (" << seed_seconds << " s)\n"
      << "  improvements      " << improvements << "\n"
      << "  enumerations      " << enumerations << "\n"
      << "  neighbours        " << neighbours_expanded << " DAGs expanded (and " << members_expanded
      << " other members of their classes), " << neighbours_admitted << " neighbours admitted ("
      << neighbours_reversed << " by an arc reversal, " << neighbours_paired
      << " by two changes that break a cycle, " << neighbours_rises
      << " better than the best before; the best climbed by " << climb_changes
      << " family changes and reversals first)\n"
      << "  neighbour walk    " << completion_seconds << " s"
      << (completion_stopped ? " (stopped early)" : "")
      << (completion_runs > 1 ? ", also when the chains stalled" : "") << "\n"
      << "  pool              " << pool_offers << " offers, " << pool_inserted
      << " classes admitted, " << pool_equivalent << " equivalent to a kept one, " << pool_size
      << " classes kept"
      << (pool_truncated ? " (full at " + std::to_string(pool_capacity) +
                               " (--pool-max, --pool-max-cells): classes within epsilon were "
                               "dropped, the best of each score band kept)"
                         : std::string())
      << "\n";
  if (account.within > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "  within epsilon    %zu classes over %.2f nats; the walk around the final best "
                  "%.2f s (%s)\n",
                  account.within, account.spread, account.walk_seconds,
                  account.walk_finished ? "finished" : "stopped by the deadline");
    out << line;
  }
  if (!account.note.empty()) out << "  small pool        " << account.note << "\n";
  if (chains_overrun > 0.5 || checkpoints_skipped > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "  chains' end       the last chain returned %.2f s after it; %llu checkpoints "
                  "skipped (they would have ended after it)\n",
                  chains_overrun, static_cast<unsigned long long>(checkpoints_skipped));
    out << line;
  }
  if (report_measurements > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "  final report      %.2f s kept for it (%.2g s per class-cell, %.2g per listed "
                  "DAG-cell, %llu measurements)\n",
                  report_reserve, report_class_cell, report_dag_cell,
                  static_cast<unsigned long long>(report_measurements));
    out << line;
  }
  if (report_classes_cut > 0)
    out << "  report cut        the worst " << report_classes_cut << " of " << pool_size
        << " classes left out: the time left summarized the best " << pool_size - report_classes_cut
        << " only\n";
  if (start_networks > 0)
    out << "  start networks    " << start_networks
        << " pooled (learn's draft network, or the classes of the run it resumes)\n";
  if (peer_networks + peer_classes > 0)
    out << "  other processes   " << peer_networks << " best networks received, " << peer_classes
        << " classes pooled at the end\n";
}

std::string SearchStats::to_json() const {
  nlohmann::json j = {{"orders", orders},
                      {"swaps_tried", swaps_tried},
                      {"swaps_accepted", swaps_accepted},
                      {"insertions", insertions},
                      {"pulls", pulls},
                      {"restarts", restarts},
                      {"perturbations", perturbations},
                      {"local_optima", local_optima},
                      {"improvements", improvements},
                      {"enumerations", enumerations},
                      {"neighbours_expanded", neighbours_expanded},
                      {"members_expanded", members_expanded},
                      {"neighbours_admitted", neighbours_admitted},
                      {"neighbours_reversed", neighbours_reversed},
                      {"neighbours_paired", neighbours_paired},
                      {"neighbours_rises", neighbours_rises},
                      {"climb_changes", climb_changes},
                      {"completion_stopped", completion_stopped},
                      {"completion_seconds", completion_seconds},
                      {"completion_runs", completion_runs},
                      {"pool_offers", pool_offers},
                      {"pool_inserted", pool_inserted},
                      {"pool_equivalent", pool_equivalent},
                      {"pool_size", pool_size},
                      {"pool_capacity", pool_capacity},
                      {"pool_truncated", pool_truncated},
                      {"start_networks", start_networks},
                      {"peer_networks", peer_networks},
                      {"peer_classes", peer_classes},
                      {"report_class_cell", report_class_cell},
                      {"report_dag_cell", report_dag_cell},
                      {"report_measurements", report_measurements},
                      {"report_reserve", report_reserve},
                      {"report_classes_cut", report_classes_cut},
                      {"chains_overrun", chains_overrun},
                      {"checkpoints_skipped", checkpoints_skipped},
                      {"account", pool_account_json(account)},
                      {"seed_score", seed_score},
                      {"seed_seconds", seed_seconds},
                      {"best_score", best_score},
                      {"best_time", best_time},
                      {"seconds", seconds}};
  return j.dump(2);
}

namespace {

// run_dp: the DP's list within epsilon is enumerated in full up to this many pool capacities
// (memory: that many times the pool's DAGs, briefly), so the pool can keep the best of them.
constexpr std::size_t kDpOverfill = 4;

// Share of a search's time budget kept for the completion after the chains. Trial runs (when
// it also completed classes), `learn --time 10 --threads 1`: uci/insurance1000 (BIC BF 20) 12
// classes, 117 DAGs, a few ms; uci/hepatitis with --exact-max-vars 0, 11,097 classes, 69,895
// DAGs in 0.22 s.
constexpr double kCompletionShare = 0.05;
// The stall that triggers the completion before the end (see the top of the file).
constexpr double kStallGrowth = 0.01;
constexpr double kStallShare = 0.25;
constexpr double kStallMinSeconds = 1.0;
// The completion after a stall takes at most this share of the time left (above the share kept
// for the end), so the chains get time back. Trial runs, density suite, `learn --time 30
// --threads 1`: on audio and jester the chains stalled with 2.6 and 1.2 s of their 14 s left,
// and an uncapped completion used all of it.
constexpr double kStallCompletionShare = 0.25;
// Seconds per class x variable that rank 0 of a shared run takes to pool another process's
// class (its essential graph), on one thread: `bench/mpi.sh` on gen2000 (2 processes of one
// thread, 4,995 classes of 2,000 variables received), the run ended 1.9 s past its 120 s with the
// report's rate alone.
constexpr double kMergeRate = 2.5e-7;
// The listed DAGs' measured cost (report_cost.hpp) counts this much more in the reserve: a
// sample of a few hundred members misses what millions of parent lists pay in cache misses and
// allocations (`learn --time 20`, idle: kosarek's 52,631 listed DAGs of 190 variables cost 1.7
// times their sample's rate, c20ng's 8,196 of 910 variables 1.25 times). The classes' needs
// none: their sample errs long (it shares fewer chain components, and it runs beside the chains:
// kosarek's classes measured 1.4e-6 s per cell, and their report cost 7e-7).
constexpr double kListingAtScale = 1.75;
// Seconds at least between two measurements of a small pool's report cost.
constexpr double kCostInterval = 1.0;
// A checkpoint is written while the chains have this many times its cost left: its cost is
// the last one's scaled by the pool's growth, or the measured report cost, which a checkpoint
// beside the chains exceeds (gen5000, `learn --time 300`: 981 classes of 5,000 variables, 8.7
// s where the measured rate gives about 4).
constexpr double kCheckpointRoom = 2.0;
// Neighbour completion expands at most this many pool capacities of DAGs (each held as a copy).
constexpr std::size_t kNeighbourExpansions = 2;

// Why a pool holds less than a tenth of what it admitted and of its capacity (PoolAccount::note).
std::string small_pool_note(const PoolAccount& a, const DagPool::Losses& losses,
                            std::size_t capacity) {
  char text[512];
  std::string note = std::to_string(a.within) + (a.within == 1 ? " class" : " classes") +
                     " within epsilon of " + std::to_string(a.admitted) + " admitted";
  if (a.left_epsilon > 0) {
    std::snprintf(text, sizeof text,
                  "; %llu fell more than epsilon below the best as it rose (its last such rise, "
                  "by %.4g nats, left %llu behind)",
                  static_cast<unsigned long long>(a.left_epsilon), losses.last_rise,
                  static_cast<unsigned long long>(losses.last_trimmed));
    note += text;
  }
  if (a.for_room > 0)
    note += "; " + std::to_string(a.for_room) + " were dropped or turned away for room (" +
            std::to_string(capacity) + " classes at most)";
  if (a.cut > 0)
    note += "; " + std::to_string(a.cut) + " were left out of the report for lack of time";
  std::snprintf(
      text, sizeof text, "; the neighbour walk around the final best ran %.2f s and %s",
      a.walk_seconds,
      a.walk_finished ? "finished (it walked all it could)" : "was stopped by the deadline");
  return note + text;
}

void add_stats(SearchStats& to, const SearchStats& s) {
  to.orders += s.orders;
  to.swaps_tried += s.swaps_tried;
  to.swaps_accepted += s.swaps_accepted;
  to.insertions += s.insertions;
  to.pulls += s.pulls;
  to.restarts += s.restarts;
  to.perturbations += s.perturbations;
  to.local_optima += s.local_optima;
  to.enumerations += s.enumerations;
  to.pool_offers += s.pool_offers;
  to.pool_inserted += s.pool_inserted;
}

// The search needs, for every variable, the entry of its base (base_sets.hpp: the parents
// every entry of it holds, its required parents; the empty set for a cache without them), and
// acyclic base arcs: then every linear extension of them has a network.
void validate(const ScoreCache& cache) {
  const auto name = [&](std::size_t v) {
    return v < cache.names().size() ? cache.names()[v] : std::to_string(v);
  };
  const BaseSets bases(cache);
  for (std::size_t v = 0; v < cache.n_vars(); ++v) {
    if (bases.entry(static_cast<int>(v)) != BaseSets::kNoEntry) continue;
    std::string set;
    for (int p : bases.parents(static_cast<int>(v)))
      set += (set.empty() ? "{" : ", ") + name(static_cast<std::size_t>(p));
    set = set.empty() ? "the empty set" : set + "}";
    throw InputError("score cache: variable " + name(v) +
                     " has no entry with just the parents every entry holds (its required "
                     "parents): " +
                     set);
  }
  if (const int v = bases.cycle_vertex(); v >= 0)
    throw InputError("score cache: variable " + name(static_cast<std::size_t>(v)) +
                     " lies on a cycle of parents that every entry of their child holds "
                     "(required arcs that close a cycle)");
}

// The report of the whole pool, up to max_dags (default dag_capacity) members listed.
PoolReport make_report(const ScoreCache& cache, const DagPool& pool, const SearchOptions& o,
                       std::optional<std::size_t> max_dags = std::nullopt,
                       const Clock::time_point* list_until = nullptr) {
  PoolReport r = make_report(cache, pool.snapshot(), o,
                             max_dags.value_or(o.dag_capacity(cache.n_vars())), list_until);
  r.variables = cache.names_or_defaults();
  r.epsilon = pool.epsilon();
  return r;
}

// Every order, each enumerated; true if all were done. An order that puts a base parent after
// its child (base_sets.hpp) has no consistent network: enumerate_order offers nothing for it.
bool run_exhaustive(const ScoreCache& cache, DagPool& pool,
                    const std::function<bool()>& should_stop, SearchStats& stats) {
  Order order(cache.n_vars());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  do {
    if (should_stop()) return false;
    const OrderEnumResult r = enumerate_order(cache, order, pool, should_stop, nullptr, 0);
    ++stats.orders;
    ++stats.enumerations;
    stats.pool_offers += r.offered;
    stats.pool_inserted += r.admitted;
    if (r.truncated) return false;
  } while (std::next_permutation(order.begin(), order.end()));
  return true;
}

// The subset DP over the cache, then every DAG within epsilon of its optimum into the pool. If
// that list outgrows kDpOverfill pool capacities, epsilon is halved until it does not, and the
// whole list is offered: the pool keeps the best DAGs, as many as it holds (then it is not
// complete). uci/zoo, BDeu BF 20: 145,838 DAGs within epsilon, pool capacity 100,000; halving
// until the list fit kept 1,459 of them (1.0%), the best 100,000 are 68.6%. Returns {optimal,
// complete}; {false, false} if stopped before the DP finished (the pool then holds what it
// held).
std::pair<bool, bool> run_dp(const ScoreCache& cache, DagPool& pool, const SearchOptions& o,
                             const StopToken& stop, SearchStats& stats) {
  const exact::FamilyTable fam = exact::make_family_table(cache, exact::kDpMaxVars);
  exact::SubsetDp dp(fam, exact::SubsetDp::bytes_needed(fam.n), o.threads);
  ++stats.orders;
  if (!dp.run(stop) || std::isinf(dp.opt())) return {false, false};
  const double opt = dp.opt();
  const double full = o.epsilon.resolve(std::fabs(opt));
  Choices choices(cache.n_vars());
  auto offer = [&](const std::vector<std::uint32_t>& family) {
    for (std::size_t v = 0; v < choices.size(); ++v) choices[v] = fam.entry[v][family[v]];
    ++stats.pool_offers;
    if (pool.offer(dag_score(cache, choices), dag_hash(choices), choices)) ++stats.pool_inserted;
  };
  offer(dp.best_choice());
  for (double eps = full;; eps /= 2) {
    const double threshold = opt - eps - score_tolerance(opt, opt);
    exact::Enumeration e =
        exact::enumerate_within(fam, dp, threshold, kDpOverfill * o.pool_capacity(fam.n) + 1, stop);
    ++stats.enumerations;
    if (e.truncated && eps > 1e-9) continue;
    for (const auto& d : e.dags) offer(d);
    return {true, e.complete && eps == full};
  }
}

// Runs the search; see search(). Fills `total` except pool_size/best/seconds.
class Driver {
 public:
  Driver(const ScoreCache& cache, const SearchOptions& o, const StopToken& stop,
         const CheckpointFn& checkpoint)
      : cache_(cache),
        o_(o),
        stop_(stop),
        own_(o.time),
        checkpoint_(checkpoint),
        peers_(o.comm, cache),
        pool_(cache, o.epsilon, o.pool_capacity(cache.n_vars()), o.classes,
              pool_bands(o.exhaustive_max_n, o.dp_max_n, cache.n_vars())) {}

  PoolReport run(SearchStats& total);

 private:
  bool should_stop() const {
    return halt_.load(std::memory_order_relaxed) || own_.stop_requested() || stop_.stop_requested();
  }
  // The deadline (less the report's reserve and `keep` seconds) or a signal, not the
  // monitor's halt.
  bool should_stop_outside(double keep = 0) const {
    return own_.stop_requested() || stop_.stop_requested() || remaining() <= reserve() + keep;
  }
  // The chains' stop test: the monitor's halt, or their end (chains_until_) passed.
  bool chains_should_stop() const {
    return should_stop() || own_.elapsed() >= chains_until_.load(std::memory_order_relaxed);
  }
  // Seconds the chains have left before the walk's share and the report's reserve are due.
  double chains_left() const { return remaining() - reserve() - completion_share_; }
  bool checkpoint_fits(double chains_left) const;
  void write_checkpoint(double now);
  void account(const PoolReport& r, SearchStats& total) const;
  void seed_pool(SearchStats& total);
  struct StartNetwork {
    double score = 0;
    Order order;  // empty: none of SearchOptions::start_networks was pooled
  };
  StartNetwork pool_start_networks(SearchStats& total);
  void run_chains(SearchStats& total);
  void complete_pool(SearchStats& total, bool at_end);
  void monitor();
  bool stalled(double now);
  // with_room false: without the room for the classes the walk may still add.
  double reserve(bool with_room = true) const;
  double listed_dags(double classes) const;
  double report_seconds() const;
  SummaryLimit summary_limit() const;
  double classes_writing(std::size_t classes) const;
  std::size_t listable_dags(std::size_t classes) const;
  Clock::time_point listing_deadline(std::size_t classes) const;
  void update_cost(double now);
  double remaining() const { return std::min(own_.remaining(), stop_.remaining()); }
  void note_best(double now);
  void progress_line(const char* what);
  PoolReport best_only_report() const;

  const ScoreCache& cache_;
  const SearchOptions& o_;
  const StopToken& stop_;
  StopToken own_;
  const CheckpointFn& checkpoint_;
  SearchPeers peers_;  // the other processes of the run (SearchOptions::comm)
  DagPool pool_;
  std::shared_ptr<const Order> start_order_;  // the greedy network's order: chain 0 starts there
  std::optional<Incumbent> incumbent_;        // shared best order (incumbent_min_n)
  std::atomic<bool> halt_{false};
  std::atomic<int> running_{0};
  // The chains' end in seconds of own_, set from chains_left() before they start and at each
  // monitor poll: the chains stop by it themselves, so a monitor busy with a checkpoint cannot
  // hold them in the time the walk and the report need (gen5000, `learn --time 300`: a
  // checkpoint of 2,000 classes took 12 s, the chains ran to 0.2 s before the deadline, and
  // the walk around the final best had 0.08 s).
  std::atomic<double> chains_until_{std::numeric_limits<double>::infinity()};
  double halted_at_ = 0;  // when the current round's chains were told to stop (or chains_until_)
  // The last checkpoint's wall seconds and the pool's size then: the next one's cost.
  double checkpoint_seconds_ = 0;
  std::size_t checkpoint_size_ = 0;
  std::uint64_t checkpoints_skipped_ = 0;
  std::atomic<std::uint64_t> climbs_{0};
  // What the final report costs one thread on an idle machine (report_cost.hpp), measured on
  // a sample of the pool each time the pool has doubled (a small pool every second; see
  // update_cost); until then a guess.
  ReportCost cost_;
  std::size_t cost_pool_ = 0;  // the pool's size at the last measurement
  double cost_time_ = -1;      // and its time
  // How much slower than idle the chains run (other work on the machine): the reserve scales
  // by it, and cost_ is kept as on an idle machine. Sampled by the monitor.
  Slowdown load_;
  // Seconds the chains leave for the completion before the report's reserve: a share of the
  // budget (o.time or the stop token's deadline, whichever is sooner), set in run().
  double completion_share_ = 0;
  // The stall rule: armed while no completion has run before the end; pool_.inserted() at
  // monitor polls of the current chain round, oldest first, trimmed to the rule's window.
  bool stall_armed_ = false;
  bool stalled_ = false;
  // What the completions have walked: the one at the end goes on from the one after a stall.
  WalkMemory walked_;
  bool walk_past_queue_ = false;  // the last completion expanded its whole queue
  double chains_started_ = 0;
  std::deque<std::pair<double, std::uint64_t>> admissions_;
  double last_progress_ = 0, last_checkpoint_ = 0;  // the monitor's, over all chain rounds
  std::uint64_t round_ = 0;  // chain rounds run; round r uses chain indices r * threads + t
  std::atomic<std::uint64_t> tickets_{0};  // restarts claimed (max_restarts), over all rounds
  double best_seen_ = -std::numeric_limits<double>::infinity();
  double best_time_ = 0;
  std::uint64_t improvements_ = 0;
};

// The pool's first network: the greedy network and the OBS network of its order (at least as
// good), or the identity order's network without greedy_start.
void Driver::seed_pool(SearchStats& total) {
  const double t0 = own_.elapsed();
  Order order(cache_.n_vars());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  double seeded = -std::numeric_limits<double>::infinity();
  if (o_.greedy_start) {
    const GreedyDagResult g = greedy_dag(cache_, [this] { return should_stop(); });
    ++total.pool_offers;
    if (pool_.offer(g.score, dag_hash(g.choices), g.choices)) ++total.pool_inserted;
    order = g.order;
    seeded = g.score;
  }
  if (StartNetwork start = pool_start_networks(total); !start.order.empty() && start.score > seeded)
    order = std::move(start.order);
  ObsState obs(cache_);
  obs.set_order(order);  // the identity made a linear extension of the base arcs (the others are)
  ++total.orders;
  ++total.pool_offers;
  if (pool_.offer(obs.score(), obs.hash(), obs.choices())) ++total.pool_inserted;
  total.seed_score = pool_.best();
  total.seed_seconds = own_.elapsed() - t0;
  if (o_.greedy_start || total.start_networks > 0)
    start_order_ = std::make_shared<const Order>(obs.order());
  if (cache_.n_vars() >= o_.incumbent_min_n && o_.incumbent_min_n > 0) {
    incumbent_.emplace();
    incumbent_->offer(obs.order(), obs.score());
  }
  if (o_.progress)
    progress_line(o_.greedy_start ? "search: greedy network" : "search: seed network");
}

// SearchOptions::start_networks into the pool; the best one's score and topological order.
Driver::StartNetwork Driver::pool_start_networks(SearchStats& total) {
  StartNetwork best;
  const std::size_t n = cache_.n_vars();
  if (o_.start_networks.empty()) return best;
  Order identity(n);
  for (std::size_t i = 0; i < n; ++i) identity[i] = static_cast<int>(i);
  EntryIndex entries(cache_);  // a list scan per family would be 44,843 x 223 on andes
  Choices choices(n);
  std::vector<std::int32_t> sorted;
  for (const ParentSets& net : o_.start_networks) {
    if (net.size() != n) continue;
    bool found = true;
    for (std::size_t v = 0; v < n && found; ++v) {
      sorted.assign(net[v].begin(), net[v].end());
      std::sort(sorted.begin(), sorted.end());
      const long e = entries.find(v, sorted);
      found = e >= 0;
      if (found) choices[v] = static_cast<std::uint32_t>(e);
    }
    if (!found) continue;
    Order topo = topological_order(cache_, choices, identity);
    if (topo.size() != n) continue;  // cyclic
    const double score = dag_score(cache_, choices);
    ++total.pool_offers;
    ++total.start_networks;
    if (pool_.offer(score, dag_hash(choices), choices)) ++total.pool_inserted;
    if (best.order.empty() || score > best.score) best = {score, std::move(topo)};
  }
  return best;
}

PoolReport Driver::run(SearchStats& total) {
  validate(cache_);
  seed_pool(total);
  note_best(own_.elapsed());  // the anytime curve starts at the seed network
  // The first network on disk, in seconds: its DAG alone, not every member of its class (the
  // greedy network of kosarek beside 2 busy processes had a class of 52,608 DAGs, and listing
  // them took 5 of the search's 9 s before any chain started).
  if (checkpoint_ && o_.checkpoint > 0 && !should_stop()) {
    PoolReport snap = make_report(cache_, pool_, o_, 1);
    snap.seconds = own_.elapsed();
    checkpoint_(snap);
  }
  bool optimal = false, complete = false;
  const char* algorithm = nullptr;  // the report's, when not the ordering search's
  const int n = static_cast<int>(cache_.n_vars());
  if (n <= o_.exhaustive_max_n) {
    algorithm = "all orders";
    auto stop_fn = [this] { return should_stop(); };
    optimal = complete = run_exhaustive(cache_, pool_, stop_fn, total);
  } else if (const double left = std::min(own_.remaining(), stop_.remaining());
             n <= o_.dp_max_n && !should_stop() && dp_fits(n, left) && dp_fits_memory(n)) {
    algorithm = "dp";
    const StopToken dp_stop(std::isfinite(left) ? std::max(left, 1e-3) : 0);
    std::tie(optimal, complete) = run_dp(cache_, pool_, o_, dp_stop, total);
  } else {
    const double budget = own_.elapsed() + remaining();
    if (o_.complete_classes && std::isfinite(budget)) completion_share_ = kCompletionShare * budget;
    // Timing decides a stall, so a run fixed by max_restarts never stalls.
    stall_armed_ = completion_share_ > 0 && o_.max_restarts == 0;
    run_chains(total);
    while (stalled_ && !should_stop_outside()) {
      stalled_ = stall_armed_ = false;
      complete_pool(total, false);
      if (o_.progress) progress_line("search: pool completed, chains resume");
      if (should_stop_outside()) break;
      // A walk cut short by its share after its queue (in the member or pair pass) is near its
      // end: when the chains stall again, it goes on (from where it stopped, walked_) for its
      // share of the time left then. One still in its queue (a large problem's, whose pool is
      // at its capacity) would take that time from chains that may still rise.
      stall_armed_ = total.completion_stopped && walk_past_queue_;
      halt_.store(false);
      run_chains(total);
    }
    complete_pool(total, true);
    total.report_reserve = reserve();
  }
  peers_.merge(pool_, o_.threads);  // every process's classes into rank 0's pool
  total.peer_networks = peers_.networks_received();
  total.peer_classes = peers_.classes_merged();
  note_best(own_.elapsed());  // a rise after the monitor's last poll, or the exact best
  // The classes first, summarized by the report's own clock: those it has no time to describe
  // are cut (the search began late, or the machine slowed more than measured: c20ng, `learn
  // --time 20` beside 4 busy processes, had 7.4 s of search and a report of 1,156 classes,
  // written 17.5 s late). Then as many of their DAGs as the time left lists.
  PoolReport r = peers_.root() ? make_report(cache_, pool_, o_, 0) : best_only_report();
  if (peers_.root()) {
    total.report_classes_cut = summarize(r, o_.threads, summary_limit());
    if (o_.progress && total.report_classes_cut > 0) {
      const std::string what = "search: the final report keeps the best " +
                               std::to_string(r.classes.size()) + " of " +
                               std::to_string(pool_.size()) + " classes pooled (the time left)";
      progress_line(what.c_str());
    }
    if (o_.classes) {
      const Clock::time_point list_until = listing_deadline(r.classes.size());
      list_members(r, listable_dags(r.classes.size()), &list_until);
    }
    if (!algorithm) {
      account(r, total);
      r.account = total.account;
    }
  }
  if (algorithm) r.algorithm = algorithm;
  r.optimal = optimal;
  r.complete = complete && !pool_.truncated() && total.report_classes_cut == 0;
  r.seconds = own_.elapsed();
  total.best_score = r.dags.empty() ? 0 : r.dags.front().score;
  total.best_time = optimal ? r.seconds : best_time_;
  total.improvements = std::max<std::uint64_t>(improvements_, 1);
  total.pool_size = pool_.size();
  total.pool_capacity = o_.pool_capacity(cache_.n_vars());
  total.pool_truncated = pool_.truncated();
  total.pool_equivalent = pool_.equivalent();
  total.checkpoints_skipped = checkpoints_skipped_;
  total.report_measurements = static_cast<std::uint64_t>(cost_.measurements);
  if (cost_.measurements > 0) {
    total.report_class_cell = cost_.class_cell;
    total.report_dag_cell = cost_.dag_cell;
  }
  total.seconds = r.seconds;
  return r;
}

// The final pool's account (PoolAccount): what the report holds within epsilon, what became of
// the classes admitted before (the pool's losses), and the walk around the final best
// (complete_pool set its fields).
void Driver::account(const PoolReport& r, SearchStats& total) const {
  PoolAccount& a = total.account;
  a.within = r.classes.size();
  a.spread = r.classes.empty() ? 0 : r.classes.front().score - r.classes.back().score;
  a.admitted = pool_.inserted();
  const DagPool::Losses losses = pool_.losses();
  a.left_epsilon = losses.left_epsilon;
  a.for_room = losses.for_room;
  a.cut = total.report_classes_cut;
  a.note.clear();
  const std::size_t capacity = o_.pool_capacity(cache_.n_vars());
  if (10 * a.within < std::min<std::uint64_t>(capacity, a.admitted))
    a.note = small_pool_note(a, losses, capacity);
}

void Driver::run_chains(SearchStats& total) {
  int threads = resolve_threads(o_.threads);
  std::vector<SearchStats> stats(static_cast<std::size_t>(threads));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  ChainContext ctx{cache_,
                   o_,
                   pool_,
                   [this] { return chains_should_stop(); },
                   [this] {
                     return o_.max_restarts == 0 ||
                            tickets_.fetch_add(1, std::memory_order_relaxed) < o_.max_restarts;
                   },
                   climbs_,
                   start_order_,
                   incumbent_ ? &*incumbent_ : nullptr};
  const std::uint64_t first_chain =
      peers_.chain_offset() + round_++ * static_cast<std::uint64_t>(threads);
  chains_started_ = own_.elapsed();
  chains_until_.store(chains_started_ + chains_left(), std::memory_order_relaxed);
  halted_at_ = std::numeric_limits<double>::infinity();
  admissions_.clear();
  running_.store(threads);
  std::vector<std::thread> workers;
  try {
    for (int t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        try {
          run_chain(ctx, first_chain + static_cast<std::uint64_t>(t),
                    stats[static_cast<std::size_t>(t)]);
        } catch (...) {
          errors[static_cast<std::size_t>(t)] = std::current_exception();
          halt_.store(true);
        }
        running_.fetch_sub(1);
      });
  } catch (const std::system_error& e) {  // no thread (memory, process limits): stop those begun
    halt_.store(true);
    for (auto& w : workers) w.join();
    throw RuntimeError(std::string("could not start the search's threads: ") + e.what());
  }
  std::exception_ptr monitor_error;
  try {
    monitor();
  } catch (...) {
    monitor_error = std::current_exception();
  }
  halt_.store(true);
  for (auto& w : workers) w.join();
  const double end = std::min(halted_at_, chains_until_.load(std::memory_order_relaxed));
  if (std::isfinite(end))
    total.chains_overrun = std::max(total.chains_overrun, own_.elapsed() - end);
  for (const auto& s : stats) add_stats(total, s);
  if (monitor_error) std::rethrow_exception(monitor_error);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// A process other than rank 0 of a shared run returns its best network only: rank 0 reports
// the run, with every process's classes.
PoolReport Driver::best_only_report() const {
  DagPool best(cache_, Epsilon::epsilon(0), 1);
  const Choices choices = pool_.best_choices();
  best.offer(pool_.best(), dag_hash(choices), choices);
  return make_report(cache_, best, o_, 1);  // not every member of its class
}

// Neighbour completion (complete_neighbours.cpp) until the report's reserve before the deadline
// (at_end), or, after a stall, for at most kStallCompletionShare of the time left and never
// into the share kept for the completion at the end (see the top of the file). The run at the
// end goes on from the first (walked_): DAGs and classes expanded then are not walked again.
// The counters add up over both runs; `completion_stopped` is the last run's.
void Driver::complete_pool(SearchStats& total, bool at_end) {
  if (!o_.complete_classes) return;
  const double keep =
      at_end ? 0
             : std::max(completion_share_, (1 - kStallCompletionShare) * (remaining() - reserve()));
  // The walk at the end keeps the room the reserve held for its classes when it began: the
  // report of what it adds is paid from that room first, not from its own time (with the room
  // counted again as the pool grows, gen10000's walk stopped after 1.8 of its 7.3 s, at 436
  // classes of the 1,000 its room was kept for).
  const double room = at_end ? reserve() : 0;
  // The walk at the end has at least the share the chains stopped for (or what the deadline
  // leaves of it): the cost measured again when it starts may put the reserve above what the
  // chains kept, and that must not take the walk's time (it had stopped a walk at once). A
  // reserve that falls short is made up by the report's own clock, which cuts classes.
  const double walk_until =
      own_.elapsed() + (at_end ? std::clamp(remaining() - room, 0.0, completion_share_) : 0.0);
  const auto stop_fn = [this, keep, at_end, room, walk_until] {
    update_cost(own_.elapsed());
    if (!at_end) return should_stop_outside(keep);
    if (own_.stop_requested() || stop_.stop_requested()) return true;
    return own_.elapsed() >= walk_until && remaining() <= std::max(room, reserve(false));
  };
  const std::size_t capacity = o_.pool_capacity(cache_.n_vars());
  const double t0 = own_.elapsed();
  cost_pool_ = 0;  // measured again at the walk's first stop test, the chains no longer beside it
  cost_time_ = -kCostInterval;
  const NeighbourCompletion nb =
      complete_neighbours(cache_, pool_, stop_fn,
                          {.max_expanded = kNeighbourExpansions * capacity, .memory = &walked_});
  ++total.completion_runs;
  total.neighbours_expanded += nb.expanded;
  total.members_expanded += nb.members;
  total.neighbours_admitted += nb.admitted;
  total.neighbours_reversed += nb.reversals;
  total.neighbours_paired += nb.pairs;
  total.neighbours_rises += nb.rises;
  total.climb_changes += nb.climbed;
  total.completion_seconds += own_.elapsed() - t0;
  total.completion_stopped = nb.stopped;
  if (at_end) total.account.walk_seconds = own_.elapsed() - t0;
  total.account.walk_finished = at_end && !nb.stopped;
  walk_past_queue_ = nb.queue_done;
}

// Seconds to keep before the deadline for the final report of the pool, so that the files are
// on disk by the deadline (plus the monitor's 20 ms poll), not long after it: the report of
// the classes pooled now and of the DAGs it lists (as many as they hold, up to dag_capacity), at
// the cost measured on a sample of the pool (cost_, report_cost.hpp), and room for the classes the
// neighbour walk may still add, up to the pool's capacity but never more than the walk's own
// share of the time (completion_share_). Without that room a reserve growing with the pool
// stopped the walk as soon as it started (gen2000, `learn --time 120`: 1 DAG expanded of the
// 1.45 s kept for it); room for a full pool at the measured cost would stop the chains at half
// their time (kosarek, 52,631 classes of 190 variables: 7 s of classes and 3 s of listed DAGs
// on an idle machine, `learn --time 20`).
//
// Under load (load_, other work on the machine) the report of what the pool holds now takes
// load_.factor(1) times longer, so that part scales; the room kept for the classes the walk may
// still add does not (andes, `learn --time 20` beside 4 busy processes: scaling it too stopped
// the chains after 2.7 of 9 s with 1,063 classes pooled, and the run 5 s early).
double Driver::reserve(bool with_room) const {
  const std::size_t n = cache_.n_vars();
  const std::size_t classes = o_.pool_capacity(n);  // never fewer than pool_.size()
  const double kept = static_cast<double>(std::min(pool_.size(), classes));
  const double added = static_cast<double>(classes) - kept;  // classes the walk may add
  const double added_dags = listed_dags(static_cast<double>(classes)) - listed_dags(kept);
  const double later =
      with_room ? std::min(completion_share_, cost_.seconds(added, kListingAtScale * added_dags, n))
                : 0;
  // Rank 0 of a shared run first pools every other process's classes (SearchPeers::merge).
  const double merged = static_cast<double>(peers_.processes() - 1) * static_cast<double>(classes) *
                        static_cast<double>(n);
  // The report writes on one thread (its summary uses them all): the slowdown of one thread.
  return 0.05 + report_seconds() +
         load_.factor(1) * kMergeRate * merged / resolve_threads(o_.threads) + later;
}

// The DAGs a report of `classes` classes lists: as many as the classes hold, by the sample's
// sizes (all it may until a measurement says), at most dag_capacity.
double Driver::listed_dags(double classes) const {
  const double listed = o_.classes ? static_cast<double>(o_.dag_capacity(cache_.n_vars())) : 0;
  return cost_.members_per_class > 0 ? std::min(listed, classes * cost_.members_per_class) : listed;
}

// The report of the pool as it is now on one thread at the machine's load: its classes and the
// DAGs it lists.
double Driver::report_seconds() const {
  const std::size_t n = cache_.n_vars();
  const double kept = static_cast<double>(std::min(pool_.size(), o_.pool_capacity(n)));
  return load_.factor(1) * cost_.seconds(kept, kListingAtScale * listed_dags(kept), n);
}

// The final report's summary describes a class while the writing of the classes described
// (their JSON, freeing them) still fits before the deadline at the measured rate (SummaryLimit).
SummaryLimit Driver::summary_limit() const {
  const double left = remaining();
  if (!std::isfinite(left)) return {};
  SummaryLimit limit;
  limit.end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(std::max(0.0, left - 0.05)));
  limit.seconds_per_class = classes_writing(1);
  return limit;
}

// The seconds that writing the summarized classes of the final report takes.
double Driver::classes_writing(std::size_t classes) const {
  return load_.factor(1) * cost_.write_cell * static_cast<double>(classes) *
         static_cast<double>(cache_.n_vars());
}

// The DAGs the final report lists after its summary of `classes` classes: dag_capacity, or as
// many as the time left allows at the measured cost once the classes' writing is paid, at least
// one. The reserve cannot always cover the listing: 60 rows of 3,000 variables, `learn --time
// 8`, left the search 2 s, and the pool's one class of 3,600 DAGs took 4 s to list (3,333 of
// them), report and free.
// When the listing must end so that the files still fit before the deadline: listable_dags()
// counts by the measured rate, but with constraints a listed DAG's cost varies from class to
// class (the walk passes members that break them), so the clock bounds the listing too (far
// away without a deadline).
Clock::time_point Driver::listing_deadline(std::size_t classes) const {
  const double left = remaining();
  if (!std::isfinite(left)) return Clock::time_point::max();
  const double rest = std::max(0.0, left - 0.05 - classes_writing(classes));
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(rest));
}

std::size_t Driver::listable_dags(std::size_t classes) const {
  const std::size_t n = cache_.n_vars(), capacity = o_.dag_capacity(n);
  const double left = remaining();
  if (!std::isfinite(left)) return capacity;
  const double per_dag = load_.factor(1) * cost_.seconds(0, kListingAtScale, n);
  const double fits = (left - 0.05 - classes_writing(classes)) / per_dag;
  return fits >= static_cast<double>(capacity)
             ? capacity
             : std::max<std::size_t>(1, static_cast<std::size_t>(std::max(0.0, fits)));
}

// Measures the final report's cost (report_cost.hpp) when the pool has doubled since the last
// measurement, or every kCostInterval seconds while it holds fewer than kMinReportSample classes:
// from the monitor while the chains run, and from the neighbour walk's stop test after them (the
// walk fills most of a large pool: c20ng, `learn --time 20`, held 1 class when the chains stopped).
void Driver::update_cost(double now) {
  const std::size_t size = pool_.size();
  if (size == 0) return;
  // A small pool's sizes are measured again every interval (one class of few members may give
  // way to one of thousands); a larger one's each time it doubles, however soon: the chains
  // can pool a thousand classes in a second, and each of c20ng's costs the report 5e-6 s per
  // variable (beside 2 busy processes, a measurement a second lagged the pool's growth from
  // 129 to 1,152 classes, and the run ended 8 s late).
  if (size >= kMinReportSample ? size < 2 * cost_pool_ : now - cost_time_ < kCostInterval) return;
  cost_pool_ = size;
  cost_time_ = now;
  const ReportCost cost = measure_report_cost(cache_, pool_, o_);
  cost_.members_per_class = cost.members_per_class;
  if (cost.measurements > 0) {
    const int measured = cost_.measurements;
    cost_ = cost;
    cost_.measurements += measured;
  }
}

// Until the chains end or the stop fires: tracks the best, prints progress, checkpoints.
// Stops the chains early by reserve() when a deadline is set.
void Driver::monitor() {
  while (running_.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    load_.sample(std::min(running_.load(), load_.cores()));
    const double left = chains_left();
    const double now = own_.elapsed();
    chains_until_.store(now + left, std::memory_order_relaxed);
    if (should_stop() || left <= 0) halt_.store(true);
    if (stall_armed_ && !halt_.load() && stalled(now)) {
      stalled_ = true;
      halt_.store(true);
    }
    if (halt_.load() && !std::isfinite(halted_at_)) halted_at_ = now;
    peers_.exchange(now, pool_, incumbent_ ? &*incumbent_ : nullptr);
    note_best(now);
    update_cost(now);
    if (o_.progress && now - last_progress_ >= 2.0) {
      last_progress_ = now;
      progress_line("search");
    }
    if (checkpoint_ && o_.checkpoint > 0 && now - last_checkpoint_ >= o_.checkpoint &&
        !halt_.load()) {
      if (checkpoint_fits(left)) {
        write_checkpoint(now);
      } else {  // tried again after an interval
        last_checkpoint_ = now;
        ++checkpoints_skipped_;
      }
    }
  }
}

// A checkpoint's report runs on the monitor's thread while the chains run: the walk after the
// chains waits for it. It is written when it ends well before the chains do, by the cost of
// the last one (scaled by the pool's growth) or the report's measured cost, whichever is more.
bool Driver::checkpoint_fits(double chains_left) const {
  if (!std::isfinite(chains_left)) return true;
  const double growth = checkpoint_size_ > 0 ? static_cast<double>(pool_.size()) /
                                                   static_cast<double>(checkpoint_size_)
                                             : 1.0;
  const double cost = std::max(report_seconds(), checkpoint_seconds_ * std::max(1.0, growth));
  return chains_left > kCheckpointRoom * cost;
}

void Driver::write_checkpoint(double now) {
  last_checkpoint_ = now;
  checkpoint_size_ = pool_.size();
  PoolReport snap = make_report(cache_, pool_, o_);
  snap.seconds = now;
  checkpoint_(snap);
  checkpoint_seconds_ = own_.elapsed() - now;
  if (o_.progress) progress_line("checkpoint written");
}

// The stall rule (see the top of the file), from samples of pool_.inserted() 0.1 s apart.
bool Driver::stalled(double now) {
  const std::uint64_t inserted = pool_.inserted();
  if (admissions_.empty() || now - admissions_.back().first >= 0.1)
    admissions_.emplace_back(now, inserted);
  const double chained = now - chains_started_;
  const double window = std::max(kStallMinSeconds, kStallShare * chained);
  if (chained < window) return false;
  // The window's start only moves forward: older samples are never needed again.
  while (admissions_.size() > 1 && admissions_[1].first <= now - window) admissions_.pop_front();
  const double added = static_cast<double>(inserted - admissions_.front().second);
  // Chains that still raise the best are not stalled, whatever the pool admits: on 10,000
  // variables the capped pool admits little while every climb gains, and the completion
  // (240,872 DAGs of 10,000 variables walked) took 84 s of a 297 s search.
  return added < kStallGrowth * static_cast<double>(pool_.size()) && now - best_time_ >= window;
}

// Records a rise of the best score seen at time `now` and reports it to on_improvement; rises
// within the score tolerance (an equivalent DAG summed in another order) are not rises.
void Driver::note_best(double now) {
  const double best = pool_.best();
  if (!(best > best_seen_) || (std::isfinite(best_seen_) && !clearly_greater(best, best_seen_)))
    return;
  best_seen_ = best;
  best_time_ = now;
  ++improvements_;
  if (o_.on_improvement) o_.on_improvement(now, best);
}

void Driver::progress_line(const char* what) {
  const double now = own_.elapsed();
  const double left = std::min(own_.remaining(), stop_.remaining());
  char when[64];
  if (std::isfinite(left))
    std::snprintf(when, sizeof when, "%.1f s / %.0f s", now, now + left);
  else
    std::snprintf(when, sizeof when, "%.1f s", now);
  // The machine's load, when it slows the chains (and so the report's reserve) noticeably.
  char load[48] = "";
  if (load_.factor() >= 1.2)
    std::snprintf(load, sizeof load, "; machine busy: %.1fx slower", load_.factor());
  std::fprintf(stderr, "bnsl: %s: %s, best %.2f, pool %zu, %llu climbs%s\n", what, when,
               pool_.best(), pool_.size(),
               static_cast<unsigned long long>(climbs_.load(std::memory_order_relaxed)), load);
}

}  // namespace

PoolReport greedy_network(const ScoreCache& cache, const StopToken& stop) {
  validate(cache);
  const GreedyDagResult g = greedy_dag(cache, [&stop] { return stop.stop_requested(); });
  DagPool pool(cache, Epsilon::epsilon(0), 1);
  pool.offer(g.score, dag_hash(g.choices), g.choices);
  SearchOptions o;
  o.epsilon = Epsilon::epsilon(0);
  PoolReport r = make_report(cache, pool, o);
  r.algorithm = "greedy";
  r.seconds = stop.elapsed();
  return r;
}

PoolReport search(const ScoreCache& cache, const SearchOptions& options, const StopToken& stop,
                  SearchStats* stats, const CheckpointFn& checkpoint) {
  SearchStats total;
  Driver driver(cache, options, stop, checkpoint);
  PoolReport r = driver.run(total);
  if (stats) *stats = total;
  return r;
}

}  // namespace bnsl
