// The pipeline (include/bnsl/learn.hpp): exploring parent sets then searching, in one budget
// split as the budget policy says (budget.cpp), how reports are labelled, and exact mode's
// explore-then-solve. The command line, tests and benchmarks call these; none of them repeats
// the policy.
#include "bnsl/learn.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>

#include "bnsl/comm.hpp"
#include "explore/proposals.hpp"

namespace bnsl {
namespace {

// Passes on rises of the best score only: the draft network's, then the search's (whose
// first report, the network seeding its pool, may be no rise over the draft).
class Improvements {
 public:
  explicit Improvements(std::function<void(double, double)> fn) : fn_(std::move(fn)) {}
  explicit operator bool() const { return static_cast<bool>(fn_); }
  void offer(double seconds, double best) {
    if (!fn_ || (any_ && !(best > last_))) return;
    any_ = true;
    last_ = best;
    fn_(seconds, best);
  }

 private:
  std::function<void(double, double)> fn_;
  bool any_ = false;
  double last_ = -std::numeric_limits<double>::infinity();
};

// The search over `cache` until the budget less the output reserve, its report the final one;
// or, given `round` seconds, a search round (learn's rounds with proposals) whose report is a
// checkpoint.
SearchRunResult run_search(const ScoreCache& cache, const SearchOptions& options,
                           const ReportContext& context, const StopToken& stop,
                           const ReportFn& on_report, Improvements& improvements,
                           std::optional<double> round = {}) {
  SearchOptions o = options;
  const double budget = stop.budget();
  if (budget > 0) o.time = std::max(0.05, budget - stop.elapsed() - output_reserve(budget));
  if (round) o.time = *round;
  o.on_improvement = {};
  if (improvements)
    o.on_improvement = [&improvements, offset = stop.elapsed()](double seconds, double best) {
      improvements.offer(offset + seconds, best);
    };
  CheckpointFn checkpoint;
  if (on_report)
    checkpoint = [&](PoolReport& snap) {
      label_report(snap, context, o.threads);
      on_report(snap, ReportStage::checkpoint);
    };
  SearchRunResult result;
  result.report = bnsl::search(cache, o, stop, &result.stats, checkpoint);
  result.report.seconds = stop.elapsed();
  label_report(result.report, context, o.threads);
  if (on_report) on_report(result.report, round ? ReportStage::checkpoint : ReportStage::final);
  return result;
}

// Search rounds with proposals (screened runs, and unscreened ones whose exploration was cut
// when budget.propose_rounds_unscreened allows; explore/proposals.hpp): a search of the seconds
// given from a start network, whose report is a checkpoint, then grow-shrink walks over its
// best network's non-descendants score the families it could use into the cache; the next
// round starts from that network on the extended cache. Early rounds run on the draft cache
// while the exploration waits (on_draft), late ones on the explored cache.
class Rounds {
 public:
  Rounds(const Dataset& data, const SearchOptions& search, const ReportContext& context,
         const StopToken& stop, const ReportFn& on_report, Improvements& improvements,
         ProposalStats& stats)
      : data_(data),
        search_(search),
        context_(context),
        stop_(stop),
        on_report_(on_report),
        improvements_(improvements),
        stats_(stats) {}

  // The walks' options: rule 1's epsilon, the in-degree limit and the constraints.
  ProposalOptions propose;
  double plateau = 0;  // each round's SearchOptions::plateau (budget.round_plateau)

  // One round of `seconds` on `cache` from `start` (empty: the search's own starts), which
  // becomes the round's best network. False when another round would do nothing more: no
  // network, a stop request (the network is kept, but no proposals are made), or proposals
  // that added no set.
  bool run(ScoreCache& cache, ParentSets& start, double seconds, const char* phase) {
    SearchOptions round = search_;
    // A round pools 64 classes and lists as many DAGs: the reserve for listing as many as the
    // final report (6,426 at 1,556 variables: 2.7 s before any measurement) stopped ad's late
    // rounds (2 s each at --time 60) before their first climb.
    round.pool_max = std::min<std::size_t>(round.pool_max, 64);
    round.max_dags = std::min(round.max_dags, round.pool_max);
    round.complete_classes = false;
    round.plateau = plateau;
    if (!start.empty()) {
      round.start_networks.assign(1, start);
      round.greedy_start = false;  // 3 s of a round at 10,000 variables, and no better a start
    }
    const double t0 = stop_.elapsed();
    SearchRunResult r =
        run_search(cache, round, context_, stop_, on_report_, improvements_, seconds);
    const double searched = stop_.elapsed() - t0;
    stats_.search_seconds += searched;
    if (r.report.dags.empty()) return false;
    start = r.report.dags.front().parents;  // the next search starts there, even after a signal
    if (stop_.stop_requested()) return false;
    ProposalOptions walks = propose;
    walks.seed = search_.seed * 1000003 + stats_.rounds;  // other draws each round
    const ProposalStats got = propose_families(data_, start, walks, stop_, cache);
    stats_.add(got);
    if (search_.progress)
      std::cerr << "bnsl: propose: " << phase << " round " << stats_.rounds << ": a search of "
                << searched << " s, " << r.stats.local_optima << " climbs; " << got.vars
                << " variables walked, " << got.scored << " families scored, " << got.admitted
                << " added to the cache (" << got.seconds << " s)\n";
    return got.admitted > 0;  // else the next round would search the same cache
  }

 private:
  const Dataset& data_;
  const SearchOptions& search_;
  const ReportContext& context_;
  const StopToken& stop_;
  const ReportFn& on_report_;
  Improvements& improvements_;
  ProposalStats& stats_;
};

// The network (net has cache.n_vars() variables) that takes for each the best cached family within
// its parents in `net`: acyclic as `net` is, and, where the cache holds net's families or subsets
// that beat them (keep_draft leaves the draft's so), scoring at least as much.
ParentSets within_cache(const ScoreCache& cache, const ParentSets& net) {
  ParentSets out(net.size());
  for (std::size_t v = 0; v < net.size(); ++v) {
    const VarCache& entries = cache.var(v);
    long best = -1;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const auto ps = entries.parents(i);
      if ((best < 0 || entries.score(i) > entries.score(static_cast<std::size_t>(best))) &&
          std::includes(net[v].begin(), net[v].end(), ps.begin(), ps.end()))
        best = static_cast<long>(i);
    }
    if (best >= 0) {
      const auto ps = entries.parents(static_cast<std::size_t>(best));
      out[v].assign(ps.begin(), ps.end());
    }
  }
  return out;
}

// The score of `net` over `cache`, which holds each of its families.
double cached_score(const ScoreCache& cache, const ParentSets& net) {
  double s = 0;
  for (std::size_t v = 0; v < net.size(); ++v) {
    const long at = cache.var(v).find(net[v]);
    if (at < 0) return -std::numeric_limits<double>::infinity();
    s += cache.var(v).score(static_cast<std::size_t>(at));
  }
  return s;
}

// The sum of every variable's best family score: no network scores more.
double best_sum(const ScoreCache& cache) {
  double s = 0;
  for (std::size_t v = 0; v < cache.n_vars(); ++v) {
    const VarCache& entries = cache.var(v);
    double best = entries.empty() ? 0.0 : entries.score(0);
    for (std::size_t i = 1; i < entries.size(); ++i) best = std::max(best, entries.score(i));
    s += best;
  }
  return s;
}

ExactLearnResult solve_and_label(const ScoreCache& cache, const ExactLearnOptions& options,
                                 const Dataset* data, const StopToken& stop, bool exhaustive) {
  ExactOptions o = options.exact;
  o.threads = options.threads;
  o.progress = options.progress;
  if (!o.start) o.start = ilp_start(o.tune);  // the ILP's cutoff from a short search
  ExactLearnResult result;
  result.cache_exhaustive = exhaustive;
  result.report = solve_exact(cache, o, stop, &result.exact);
  result.exact.cache_cut = !exhaustive;
  result.report.seconds = stop.elapsed();
  result.report.constraints = options.constraints;
  label_report(result.report, ReportContext{options.score, data, exhaustive}, options.threads);
  return result;
}

}  // namespace

void label_report(PoolReport& r, const ReportContext& context, int threads) {
  r.optimal = r.optimal && context.cache_exhaustive;
  r.complete = r.complete && context.cache_exhaustive;
  if (!context.cache_exhaustive) {  // the cache may lack better DAGs, and others within epsilon
    r.listed_above.reset();
    r.dags_within.reset();
  }
  r.score = score_name(context.score);
  r.ess.reset();
  if (score_uses_ess(context.score)) r.ess = context.score.ess;
  r.rows = context.data ? context.data->n_rows() : 0;
  if (context.data) r.variables = context.data->names();
  if (r.mec_count == 0) summarize(r, threads);  // the search summarizes its final report
}

LearnResult learn(const Dataset& data, const LearnOptions& options, const StopToken& stop,
                  const ReportFn& on_report) {
  const double budget = stop.budget();
  ExploreOptions explore = options.explore;
  explore.threads = options.threads;
  explore.progress = options.progress;
  explore.comm = options.comm;
  if (budget > 0 && explore.time_per_var <= 0) {
    explore.time = learn_explore_seconds(options, data, budget);
    if (explore.explored) {  // resumed: the share of the variables left to explore
      std::size_t left = 0;
      for (std::size_t v = 0; v < data.n_vars(); ++v)
        left += v >= explore.explored->n_vars() || explore.explored->var(v).empty();
      const double n = static_cast<double>(std::max<std::size_t>(1, data.n_vars()));
      explore.time = std::max(1e-3, explore.time * static_cast<double>(left) / n);
    }
    // its share is of T from the start: reading the data came out of it (100,000 columns of
    // 2 rows: a fifth of --time 1)
    explore.time = std::max(1e-3, explore.time - stop.elapsed());
  }
  Improvements improvements(options.on_improvement);
  ReportContext context{explore.score, &data, false};
  LearnResult result;
  SearchOptions search = options.search;
  search.threads = options.threads;
  search.progress = options.progress;
  search.comm = options.comm;
  search.constraints = explore.constraints;
  search.epsilon = explore.epsilon;
  // Search rounds (Rounds above), not shared by processes: each would extend its own cache.
  const bool alone = !options.comm || !options.comm->distributed();
  Rounds rounds(data, search, context, stop, on_report, improvements, result.proposals);
  rounds.propose.score = explore.score;
  rounds.propose.max_grow = explore.tune.propose_max_parents;
  rounds.propose.pairs = explore.tune.propose_pairs;
  rounds.propose.extra = explore.tune.propose_extra;
  rounds.propose.threads = options.threads;
  rounds.propose.constraints = &explore.constraints;
  rounds.plateau = options.budget.round_plateau;
  // A first network within seconds: the greedy network over the draft cache, long before the
  // exploration ends (with screening, and without it unless explore.draft_unscreened is 0).
  // Then budget.early_rounds rounds on the draft cache until budget.early_share of T
  // (budget.early_share_unscreened without screening), out of the exploration's share, so
  // that a network far better than the greedy one is on disk early (gen10000: 2% below the
  // true network by 60 s of 600, where the greedy one is 5.1% below); their families join
  // the explored cache, and the late rounds start from their network. Without screening,
  // rounds that stop before that share ends leave the rest of it to a quick pass over every
  // variable (explore.quick_share at most; explore.cpp), whose draft the rounds then search.
  ParentSets network;  // the best so far, where the next search starts
  double network_score = -std::numeric_limits<double>::infinity();
  std::optional<ScoreCache> early;
  std::vector<std::vector<int>> screened;  // each variable's candidates, for the walks
  explore.on_draft = [&](const ExploreOptions::Draft& draft) {
    // The second call, after the quick pass: its draft joins the early rounds' cache (rule 1),
    // which holds their network; the greedy network over that may score less.
    const ScoreCache* over = &draft.cache;
    if (early) {
      merge_families(draft.cache, *early, 0, early->n_vars(), draft.so_far.epsilon);
      over = &*early;
      network_score = cached_score(*early, network);
    }
    PoolReport r = greedy_network(*over, stop);
    if (!r.dags.empty() && r.dags.front().score > network_score) {
      network = r.dags.front().parents;
      network_score = r.dags.front().score;
      r.seconds = stop.elapsed();
      r.constraints = explore.constraints;
      improvements.offer(r.seconds, network_score);
      label_report(r, context, options.threads);
      if (on_report) on_report(r, ReportStage::draft);
    }
    const std::size_t n_early = budget > 0 && alone ? options.budget.early_rounds : 0;
    // Without screening since issue 65 too (300 variables or fewer): while link (724) was
    // unscreened they cost it 9,784 and 15,473 at --time 60 (bench/results/boss.md).
    const double until = (draft.so_far.candidates > 0 ? options.budget.early_share
                                                      : options.budget.early_share_unscreened) *
                         budget;
    constexpr double kMinRound = 0.5;  // seconds: a shorter early round is not run
    const double quick_cap = draft.quick_seconds ? *draft.quick_seconds : 0;
    if (draft.quick_seconds) *draft.quick_seconds = 0;  // unless the rounds stop early (below)
    // No round fits: the draft is in the explored cache already (explore merges it), so no
    // copy of it to merge again.
    if (n_early == 0 || network.empty() || until - stop.elapsed() < kMinRound) return;
    if (!early) {
      early = draft.cache;
      screened = draft.candidates;
      rounds.propose.candidates = &screened;
      rounds.propose.eps = draft.so_far.epsilon;
      rounds.propose.max_parents = draft.so_far.max_parents;
    }
    bool stalled = false;  // a round's walks added nothing
    for (std::size_t k = 0; k < n_early && !stop.stop_requested(); ++k) {
      const double t = until - stop.elapsed();
      if (t < kMinRound) break;
      stalled = !rounds.run(*early, network, t, "early");
      if (stalled) break;
    }
    result.proposals.early_rounds = result.proposals.rounds;
    // Stopped before their share of the budget ended (hailfinder: within a second): the quick
    // pass has half of what is left of it, and the rounds go on over its draft in the other
    // half (a pass no round searches costs the search its time: plants, 69 variables, whose
    // rounds stop 2 s before the share ends).
    const double left = (until - stop.elapsed()) / 2;
    if (draft.quick_seconds && stalled && !stop.stop_requested() && left >= kMinRound)
      *draft.quick_seconds = std::min(left, quick_cap);
  };
  ScoreCache cache = bnsl::explore(data, explore, stop, &result.explore);
  if (options.on_explored)
    options.on_explored(result.explore);
  else if (options.progress)
    result.explore.print(std::cerr);
  if (early)
    result.proposals.early_kept =
        merge_families(*early, cache, 0, cache.n_vars(), result.explore.epsilon);
  ParentSets start;
  if (!network.empty() && network.size() == cache.n_vars()) start = within_cache(cache, network);
  context.cache_exhaustive = result.explore.exhaustive();
  // Late rounds, on the explored cache: each search ends at its plateau or after
  // budget.propose_round_share of the time left. Without screening, only when the
  // exploration was cut (a finished one leaves the walks nothing the search could use) and
  // as budget.propose_rounds_unscreened says.
  std::size_t n_late = 0;
  if (budget > 0 && alone)
    n_late = result.explore.candidates > 0  ? options.budget.propose_rounds
             : !result.explore.exhaustive() ? options.budget.propose_rounds_unscreened
                                            : 0;
  rounds.propose.eps = result.explore.epsilon;
  rounds.propose.max_parents = result.explore.max_parents;
  for (std::size_t r = 0; r < n_late && !stop.stop_requested(); ++r) {
    const double t =
        (budget - stop.elapsed() - output_reserve(budget)) * options.budget.propose_round_share;
    if (t < 1 || !rounds.run(cache, start, t, "late")) break;
  }
  if (!start.empty()) search.start_networks.push_back(start);
  if (options.on_search_cache) options.on_search_cache(cache);
  SearchRunResult run = run_search(cache, search, context, stop, on_report, improvements);
  result.report = std::move(run.report);
  result.search = run.stats;
  return result;
}

SearchRunResult search_cache(const ScoreCache& cache, const SearchOptions& options,
                             const ReportContext& context, const StopToken& stop,
                             const ReportFn& on_report) {
  Improvements improvements(options.on_improvement);
  if (options.constraints.empty())
    return run_search(cache, options, context, stop, on_report, improvements);
  ScoreCache allowed = cache;
  allowed.apply(options.constraints);
  return run_search(allowed, options, context, stop, on_report, improvements);
}

ExactLearnResult learn_exact(const Dataset& data, const ExactLearnOptions& options,
                             const StopToken& stop) {
  ExactOptions limits = options.exact;
  limits.threads = options.threads;
  check_exact_limits(data.n_vars(), limits);  // fail before a long exploration
  ExploreOptions o;
  o.score = options.score;
  o.epsilon = options.exact.epsilon;
  // Level by level (sequential), with no in-degree limit but the constraints' (explore() takes
  // the lower): the rules end it. Exhaustion scores every set the rules leave whatever the
  // order, and the levels cost less per set than best-first's open lists (2 to 5 against 12 to
  // 18 microseconds per set scored on sensors, steel, wdbc, alarm and bands:
  // bench/results/exact.md, "Exploration level by level").
  o.method = ExploreMethod::seq;
  o.tune = options.explore_tune;
  o.max_parents = static_cast<int>(std::min<std::size_t>(data.n_vars(), 64));
  o.candidates = 0;  // never screened: the proof needs every family within epsilon
  o.prune = true;
  o.threads = options.threads;
  o.progress = options.progress;
  o.time = stop.budget() * options.budget.exact_explore_share;  // 0: no limit
  o.retry_cut = true;
  o.memory_per_var = options.memory_per_var;
  o.k_best = options.exact.k_best.k;  // rule 7
  o.constraints = options.constraints;
  for (;;) {
    ExploreStats explore_stats;
    ScoreCache cache = bnsl::explore(data, o, stop, &explore_stats);
    const bool exhaustive =
        explore_stats.exhaustive(options.constraints.max_parents) && !stop.stop_requested();
    if (options.on_explored)
      options.on_explored(explore_stats);
    else if (options.progress)
      explore_stats.print(std::cerr);
    ExactLearnOptions solve = options;
    // k-best: the cache keeps every family of the networks within the exploration's epsilon
    // (resolved with a lower bound of |OPT| for --factor: the sum of the best families).
    if (exhaustive) solve.exact.k_best.max_epsilon = o.epsilon.resolve(std::fabs(best_sum(cache)));
    ExactLearnResult result = solve_and_label(cache, solve, &data, stop, exhaustive);
    result.explore = explore_stats;
    // Fewer than K within that epsilon: explore again, four times as wide, while there is time.
    if (!result.exact.k_best_short || stop.stop_requested() ||
        (stop.budget() > 0 && stop.remaining() < 0.5 * stop.budget()))
      return result;
    o.epsilon = Epsilon::epsilon(4 * solve.exact.k_best.max_epsilon);
    if (stop.budget() > 0) o.time = stop.remaining() * options.budget.exact_explore_share;
    if (options.progress)
      std::cerr << "bnsl: exact: fewer than " << options.exact.k_best.k
                << " within the exploration's epsilon; exploring again with epsilon "
                << o.epsilon.describe() << "\n";
  }
}

ExactLearnResult solve_exact_cache(const ScoreCache& cache, const ExactLearnOptions& options,
                                   const Dataset* data, const StopToken& stop) {
  if (options.constraints.empty()) return solve_and_label(cache, options, data, stop, true);
  options.constraints.check_required_within(options.constraints.max_parents,
                                            cache.names_or_defaults());
  ScoreCache allowed = cache;
  allowed.apply(options.constraints);
  return solve_and_label(allowed, options, data, stop, true);
}

}  // namespace bnsl
