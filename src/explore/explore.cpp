// The exploration driver: runs one explorer per variable, in parallel over variables
// (OpenMP, dynamic schedule, one Counter and one ExploreScratch per thread), and hands out the
// wall-clock budget. With --time T the budget is shared: each variable, when it starts, is
// allotted remaining_time * threads / variables_left, so a variable that finishes early
// gives its time back to those after it. With retry_cut (exact mode), the variables cut at
// their share are explored again from scratch in a second pass that shares what the first
// left (restarting wastes at most the share each had; keeping every cut explorer's state
// alive until the end would hold gigabytes). The empty set is scored for every variable first;
// it also bounds |best network| for the --factor form of epsilon. When the data repeat rows
// (few variables, many rows), every Counter counts the distinct rows with their multiplicities
// (score/row_groups.hpp): the same counts in fewer passes.
#include <omp.h>

#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>

#include "bnsl/comm.hpp"
#include "bnsl/error.hpp"
#include "bnsl/explore.hpp"
#include "explore/explorer.hpp"
#include "explore/proposals.hpp"
#include "parallel/wire.hpp"
#include "prune/bdeu_atoms.hpp"
#include "prune/ll_ceiling.hpp"
#include "prune/rules.hpp"
#include "score/bit_columns.hpp"
#include "score/pair_stats.hpp"
#include "util/memory.hpp"
#include "util/progress.hpp"
#include "util/threads.hpp"

namespace bnsl {
namespace {

// The in-degree limit applied (-1: none; a limit of n - 1 parents or more limits nothing): the
// lower of max_parents and the constraints' limit. Sequential exploration gets one by default,
// 3 (with pruning the rules end it too, but without it would score every subset); best-first
// explorers are capped by rule 3.
int in_degree_limit(const ExploreOptions& o, std::size_t n_vars) {
  int limit = o.max_parents;
  if (const int c = o.constraints.max_parents; c >= 0) limit = limit < 0 ? c : std::min(limit, c);
  if (limit >= 0) return static_cast<std::size_t>(limit) + 1 >= n_vars ? -1 : limit;
  return o.method == ExploreMethod::seq ? 3 : -1;
}

void explore_var(Counter& counter, ExploreScratch& scratch, ExploreMethod m, const VarTask& task,
                 VarCache& out, ExploreStats& stats) {
  if (m == ExploreMethod::seq)
    explore_sequential(counter, task, out, stats, scratch);
  else
    explore_best_first(counter, task,
                       m == ExploreMethod::is       ? BestFirstKind::independence
                       : m == ExploreMethod::greedy ? BestFirstKind::greedy
                                                    : BestFirstKind::hybrid,
                       out, stats);
}

double sum_empty_scores(const Dataset& data, const ScoreParams& params, const RowGroups* groups,
                        int threads) {
  double sum = 0;
  FirstError failure;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
  {
    Counter counter(data, params, groups);
    ConfigIndex empty;
    counter.build_empty(empty);
#pragma omp for schedule(static)
    for (long v = 0; v < static_cast<long>(data.n_vars()); ++v)
      failure.run([&] { sum += counter.score(empty, static_cast<int>(v)).score; });
  }
  failure.rethrow();
  return sum;
}

std::vector<int> parent_candidates(const Dataset& data) {
  std::vector<int> c;
  for (std::size_t v = 0; v < data.n_vars(); ++v)
    if (data.arity(v) >= 2) c.push_back(static_cast<int>(v));
  return c;
}

void validate(const Dataset& data, const ExploreOptions& o, std::size_t begin, std::size_t end) {
  if (begin >= end || end > data.n_vars())
    throw InputError("--vars: empty or out-of-range slice (the data has " +
                     std::to_string(data.n_vars()) + " variables)");
  if (o.time < 0 || o.time_per_var < 0) throw InputError("time budgets must be >= 0");
  o.constraints.check_required_within(in_degree_limit(o, data.n_vars()), data.names());
}

// The draft cache (see ExploreOptions::on_draft): each variable's `singles` best single parents by
// the all-pairs statistics and every pair of them (explore.draft_singles), less what rule 1
// drops.
ScoreCache draft_cache(const Dataset& data, const ScoreParams& params, const RowGroups* groups,
                       const BitColumns& bits, const PairStats& pairs, double eps,
                       const Constraints& constraints,
                       const std::vector<std::vector<int>>& required, std::size_t singles,
                       int threads) {
  ScoreCache draft(data.n_vars(), data.names());
  FirstError failure;
#pragma omp parallel num_threads(threads)
  {
    Counter counter(data, params, groups);
    PairSweep sweep(counter, &bits);
    ConfigIndex empty;
    counter.build_empty(empty);
    std::vector<double> best_sub;
#pragma omp for schedule(dynamic, 16)
    for (long i = 0; i < static_cast<long>(data.n_vars()); ++i)
      failure.run([&] {
        const int v = static_cast<int>(i);
        VarCache& out = draft.var(v);
        if (const auto& r = required[static_cast<std::size_t>(i)]; !r.empty()) {
          ConfigIndex base;  // a child with required parents: just them in the draft
          counter.build(r, base);
          out.add(counter.score(base, v).score, r);
          return;
        }
        const double s0 = counter.score(empty, v).score;
        out.add(s0, {});
        if (data.arity(v) < 2) return;
        std::vector<int> top = pairs.top_parents(v, singles);
        std::erase_if(top, [&](int p) { return !constraints.allowed(p, v); });
        std::sort(top.begin(), top.end());
        best_sub.assign(top.size(), s0);
        for (std::size_t a = 0; a < top.size(); ++a) {
          const double s = counter.score_extension(empty, top[a], v).score;
          best_sub[a] = std::max(s0, s);
          if (!(s0 > s + eps)) out.add(s, std::span<const int>(&top[a], 1));
        }
        for (std::size_t a = 0; a < top.size(); ++a) {
          sweep.set_base(v, top[a]);
          for (std::size_t b = a + 1; b < top.size(); ++b) {
            const double s = sweep.score(top[b]).score;
            if (std::max(best_sub[a], best_sub[b]) > s + eps) continue;  // rule 1
            const int pair[2] = {top[a], top[b]};
            out.add(s, pair);
          }
        }
        out.sort_best_first();
      });
  }
  failure.rethrow();
  return draft;
}

// The draft's families are kept in the final cache (merge_families, proposals.hpp) unless a
// cached subset scores more than eps better. With screening and a short budget the exploration
// cut every variable at its share before meeting them: gen5000 (5,000 variables, 5,000 rows),
// `learn --time 120`, wrote its draft's greedy network at 4.7 s, scoring -21,940,274, and
// searched a cache whose best network scored -22,568,686.

// Every process's explored variables into every process's cache, and their counters summed
// (the counters that are no sums, such as epsilon and rows, are the same everywhere).
void gather_cache(Comm& comm, const std::vector<int>& explored, ScoreCache& cache,
                  ExploreStats& total) {
  std::vector<int> vars = explored;  // a variable explored twice (retry_cut) is listed twice
  std::sort(vars.begin(), vars.end());
  vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
  const std::vector<std::string> caches = comm.all_gather(wire::pack_vars(cache, vars));
  for (std::size_t r = 0; r < caches.size(); ++r)
    if (static_cast<int>(r) != comm.rank()) wire::unpack_vars(caches[r], cache);
  wire::Writer w;
  w.put(total);
  const std::vector<std::string> stats = comm.all_gather(w.take());
  ExploreStats sum = total;
  for (std::size_t r = 0; r < stats.size(); ++r)
    if (static_cast<int>(r) != comm.rank()) sum.add(wire::Reader(stats[r]).get<ExploreStats>());
  total = sum;
}

}  // namespace

int auto_candidates(const ExploreOptions& o, const Dataset& data) {
  if (o.candidates != ExploreOptions::kAutoCandidates) return std::max(0, o.candidates);
  if (o.method == ExploreMethod::seq || (o.time <= 0 && o.time_per_var <= 0)) return 0;
  const std::size_t n = data.n_vars();
  if (n <= o.tune.auto_screen_vars) return 0;
  return n <= o.tune.narrow_screen_vars ? o.tune.narrow_screen_candidates
                                        : o.tune.auto_screen_candidates;
}

CacheProvenance planned_provenance(const Dataset& data, const ExploreOptions& options) {
  ExploreStats planned;
  const std::optional<RowGroups> grouped = group_rows(data, options.tune.group_rows_share);
  planned.epsilon = options.epsilon.resolve(std::fabs(sum_empty_scores(
      data, options.score, grouped ? &*grouped : nullptr, resolve_threads(options.threads))));
  planned.max_parents = in_degree_limit(options, data.n_vars());
  planned.candidates = auto_candidates(options, data);
  planned.vars_out_of_time = 1;  // not exhaustive
  return cache_provenance(data, options, planned);
}

std::size_t default_explore_memory(int threads) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  double bytes = available_memory().bytes;
  if (pages > 0 && page > 0)
    bytes = std::min(bytes, static_cast<double>(pages) * static_cast<double>(page));
  if (!std::isfinite(bytes)) return 0;
  const int t = resolve_threads(threads);
  return static_cast<std::size_t>(bytes / 2 / std::max(1, t));
}

void apply_default_budget(ExploreOptions& o, bool time_given) {
  if (o.method != ExploreMethod::seq && !time_given && o.time_per_var <= 0)
    o.time_per_var = kDefaultTimePerVar;
}

std::string describe_budget(const ExploreOptions& o) {
  char buf[64] = ", no time limit";
  if (o.time > 0) std::snprintf(buf, sizeof buf, ", budget %g s", o.time);
  if (o.time_per_var > 0) std::snprintf(buf, sizeof buf, ", %g s per variable", o.time_per_var);
  return buf;
}

std::string to_string(ExploreMethod m) {
  return name_of(kExploreMethodNames, m);
}

ExploreMethod parse_explore_method(const std::string& text) {
  return value_of(kExploreMethodNames, text, "exploration");
}

namespace {

// One call of explore(): the run's shared state (the budget, the screening's statistics, the
// cache being filled, the counters), its setup, and its passes over the variables.
class Exploration {
 public:
  Exploration(const Dataset& data, const ExploreOptions& options, const StopToken& stop)
      : data_(data),
        options_(options),
        stop_(stop),
        begin_(options.var_begin),
        end_(std::min(options.var_end, data.n_vars())),
        required_(options.constraints.required_by_child(data.n_vars())) {}

  ScoreCache run(ExploreStats* stats_out);

 private:
  void setup();
  void screen(std::vector<int>& vars);
  void quick_pass(std::vector<int>& vars, double seconds);
  VarTask make_task(int v, Counter& counter, ExploreStats& local, std::size_t left, int workers,
                    const StopToken& clock);
  std::vector<int> pass(const std::vector<int>& vars, Comm& queue, bool retry, bool quick = false);
  void gather(const std::vector<int>& vars, Comm& comm);

  const Dataset& data_;
  const ExploreOptions& options_;
  const StopToken& stop_;
  const std::size_t begin_, end_;
  const std::vector<std::vector<int>> required_;
  int threads_ = 1;
  std::optional<StopToken> run_stop_;
  std::optional<StopToken> quick_stop_;  // the quick pass's budget, while it runs
  StopToken clock_;                      // since the exploration started (its seconds)
  ExploreStats total_;
  std::optional<RowGroups> grouped_;  // every counting pass visits the distinct rows only
  const RowGroups* groups_ = nullptr;
  double eps_ = 0;
  std::vector<int> candidates_;
  int max_parents_ = 1 << 20;
  int k_best_cap_ = 1 << 20;
  std::optional<BitColumns> bits_;
  std::optional<PairStats> pairs_;
  std::optional<ScoreCache> draft_;  // on_draft's, kept in the final cache (merge_families)
  std::size_t max_bytes_ = 0;
  ScoreCache cache_;
  FirstError failure_;
  std::mutex mutex_;  // guards `total_` and `explored_`
  std::optional<Progress> progress_;
  std::vector<int> explored_;  // by this process
  // Each variable's LL ceiling (rules 2 to 4, prune/ll_ceiling.hpp), counted when the variable
  // is first explored (NaN until then; a pass gives each variable to one thread).
  bool bic_rules_ = false;
  std::vector<double> ceilings_;
  // Each variable's mixed atoms (rule 8, prune/bdeu_atoms.hpp), for the sequential explorer
  // under BDeu, counted like the ceilings when the variable is first explored.
  bool bdeu_atoms_ = false;
  std::vector<std::unique_ptr<prune::BdeuAtoms>> atoms_;
};

// The budget, the distinct rows, epsilon, the in-degree limits and the candidate parents.
void Exploration::setup() {
  validate(data_, options_, begin_, end_);
  threads_ = resolve_threads(options_.threads);
  run_stop_.emplace(options_.time > 0 ? stop_.within(options_.time) : StopToken(stop_));
  LocalScorer check(data_, options_.score);  // validates the score parameters
  grouped_ = group_rows(data_, options_.tune.group_rows_share);
  groups_ = grouped_ ? &*grouped_ : nullptr;
  total_.rows = data_.n_rows();
  total_.rows_counted = grouped_ ? grouped_->rows.n_rows() : data_.n_rows();
  eps_ = options_.epsilon.resolve(
      std::fabs(sum_empty_scores(data_, options_.score, groups_, threads_)));
  total_.epsilon = eps_;
  total_.max_parents = in_degree_limit(options_, data_.n_vars());
  candidates_ = parent_candidates(data_);
  max_parents_ = total_.max_parents >= 0 ? total_.max_parents : 1 << 20;
  // Rule 7 caps the free parents: a family R + Q of the K best has 2^|Q| - 1 proper subsets
  // that hold R, each a parent of arity >= 2 short (prune/rules.hpp with P' ranging over them).
  if (options_.k_best > 0 && options_.prune && prune_rules(options_.score).bic) {
    total_.k_best_max_parents = prune::k_best_max_parents(data_.n_rows(), options_.k_best);
    if (total_.k_best_max_parents >= 0) k_best_cap_ = total_.k_best_max_parents;
  }
  total_.candidates = auto_candidates(options_, data_);
  if (total_.candidates > 0 &&
      static_cast<std::size_t>(total_.candidates) + 1 >= candidates_.size())
    total_.candidates = 0;  // every variable is a candidate anyway
}

// With candidate screening: the all-pairs statistics, and the draft cache for on_draft. Without
// it, a timed run (learn --time) builds them for the draft alone (explore.draft_unscreened), so
// that its first network is not at the end of the exploration's share: they cost little below
// auto_screen_vars variables (andes, 223: 0.002 s), and are freed before the exploration, which
// tries every variable; and the quick pass (quick_pass) extends that draft, which on_draft
// then gets a second time.
void Exploration::screen(std::vector<int>& vars) {
  const bool unscreened_draft = total_.candidates <= 0 && options_.on_draft &&
                                options_.tune.draft_unscreened && options_.time > 0 &&
                                candidates_.size() >= 2;
  if (total_.candidates <= 0 && !unscreened_draft) return;
  const std::size_t walk_candidates = static_cast<std::size_t>(
      total_.candidates > 0 ? total_.candidates : options_.tune.auto_screen_candidates);
  const std::size_t keep = std::max(walk_candidates, options_.tune.draft_singles);
  require_memory(static_cast<double>(BitColumns::bytes_needed(data_) +
                                     PairStats::bytes_needed(data_.n_vars(), keep)),
                 available_memory(),
                 "screening " + std::to_string(data_.n_vars()) + " variables (bit columns, " +
                     std::to_string(keep) + " best single parents each)",
                 kLessDataHint);
  bits_.emplace(data_);
  pairs_.emplace(*bits_, keep, threads_, *run_stop_);
  total_.pair_seconds = pairs_->seconds();
  if (options_.progress) {
    std::cerr << "bnsl: explore: all-pairs statistics of " << data_.n_vars() << " variables in "
              << pairs_->seconds() << " s; ";
    if (unscreened_draft)
      std::cerr << "for the first network only (every variable is a candidate parent)\n";
    else
      std::cerr << total_.candidates << " candidate parents per variable\n";
  }
  if (options_.on_draft && !run_stop_->stop_requested()) {
    draft_ = draft_cache(data_, options_.score, groups_, *bits_, *pairs_, eps_,
                         options_.constraints, required_, options_.tune.draft_singles, threads_);
    std::vector<std::vector<int>> candidates(data_.n_vars());
    for (std::size_t v = 0; v < data_.n_vars(); ++v)
      if (data_.arity(v) >= 2)
        candidates[v] = pairs_->top_parents(static_cast<int>(v), walk_candidates);
    const bool quick = unscreened_draft && options_.tune.quick_share > 0 && !vars.empty() &&
                       !(options_.comm && options_.comm->distributed());
    const double quick_cap = options_.tune.quick_share * options_.time;
    double quick_seconds = quick_cap;
    options_.on_draft({*draft_, total_, candidates, quick ? &quick_seconds : nullptr});
    quick_seconds = std::min(quick_seconds, quick_cap);
    // Too short a pass scores little beyond the pairs' draft (plants, 69 variables: 33 ms of a
    // thread and 2,643 sets a variable, 17 nats for the network) and costs the search its time.
    const bool asked = quick && quick_seconds > 0;
    const double per_var = asked ? quick_seconds * threads_ / static_cast<double>(vars.size()) : 0;
    const bool long_enough = per_var >= options_.tune.quick_min_var_seconds;
    if (asked && !long_enough && options_.progress)
      std::cerr << "bnsl: explore: no quick pass: " << quick_seconds << " s on " << threads_
                << " threads is " << per_var * 1000 << " ms for each of " << vars.size()
                << " variables, under explore.quick_min_var_seconds = "
                << options_.tune.quick_min_var_seconds << "\n";
    if (asked && long_enough && !run_stop_->stop_requested()) {
      const double t0 = clock_.elapsed();
      quick_pass(vars, quick_seconds);
      options_.on_draft({*draft_, total_, candidates, nullptr});
      // The exploration keeps the time it had when the early rounds stopped: the quick pass
      // and the rounds after it come out of the search's share (plants, 69 variables, seed 1:
      // 791 nats below no quick pass when they came out of the exploration's, 192 now).
      if (run_stop_->has_deadline() && !run_stop_->stop_requested())
        run_stop_.emplace(stop_.within(run_stop_->remaining() + clock_.elapsed() - t0));
    }
  }
  if (unscreened_draft) {
    pairs_.reset();
    bits_.reset();
  }
}

// The quick pass: every variable in `vars` explored within `seconds`, its families merged into
// the draft (the pairs' families under rule 1). A variable it explores to the end (small data)
// is done, and leaves `vars`; the main pass explores the others again from scratch, as
// retry_cut's second pass does: the explorers are best-first, so it repeats the quick pass's
// work (its seconds at most) rather than keeping every explorer's state alive between the
// passes. The sets of those it cut are counted apart (quick_sets).
void Exploration::quick_pass(std::vector<int>& vars, double seconds) {
  quick_stop_.emplace(run_stop_->within(seconds));
  ScoreCache done = std::move(cache_);  // the variables an earlier run explored, and these
  cache_ = ScoreCache(data_.n_vars(), data_.names());
  Comm own;
  const std::vector<int> left = pass(vars, own, false, true);
  failure_.rethrow();
  std::vector<char> cut(data_.n_vars(), 0);
  for (int v : left) cut[static_cast<std::size_t>(v)] = 1;
  for (int v : vars)
    if (!cut[static_cast<std::size_t>(v)]) done.var(v) = cache_.var(v);
  const std::size_t tried = vars.size();
  vars = left;
  merge_families(*draft_, cache_, 0, data_.n_vars(), eps_);
  draft_ = std::move(cache_);
  cache_ = std::move(done);
  total_.quick_seconds = quick_stop_->elapsed();
  quick_stop_.reset();
  if (options_.progress)
    std::cerr << "bnsl: explore: quick pass over " << tried << " variables in "
              << total_.quick_seconds << " s, for the early network: " << tried - vars.size()
              << " explored to the end (" << total_.sets_scored << " sets), " << total_.quick_sets
              << " sets scored in the others, explored again now\n";
}

// Variable v's task: its candidate parents, required parents, constraints, LL ceiling,
// in-degree limit, memory cap and deadline (its share of what is left: the time left times the
// `workers` sharing the queue, over the `left` variables not yet drawn).
VarTask Exploration::make_task(int v, Counter& counter, ExploreStats& local, std::size_t left,
                               int workers, const StopToken& clock) {
  VarTask task;
  task.child = v;
  if (data_.arity(v) < 2) {
  } else if (total_.candidates > 0) {  // screened (pairs_ serves the draft alone otherwise)
    task.candidates = pairs_->top_parents(v, static_cast<std::size_t>(total_.candidates));
    std::sort(task.candidates.begin(), task.candidates.end());
    task.universe = &candidates_;
    task.bits = &*bits_;
  } else {
    std::copy_if(candidates_.begin(), candidates_.end(), std::back_inserter(task.candidates),
                 [v](int c) { return c != v; });
  }
  task.required = required_[static_cast<std::size_t>(v)];
  if (!options_.constraints.arcs_empty()) {  // (the in-degree limit: max_parents)
    task.constraints = &options_.constraints;
    std::erase_if(task.candidates, [&](int p) { return !task.allowed(p); });
  }
  if (!task.required.empty()) {  // the sweeps count pairs without the required parents
    task.universe = nullptr;
    task.bits = nullptr;
  }
  task.eps = eps_;
  task.tune = options_.tune;
  if (bic_rules_ && data_.arity(v) >= 2) {
    double& c = ceilings_[static_cast<std::size_t>(v)];
    if (std::isnan(c)) {
      c = prune::ll_ceiling(counter, v, options_.tune.ll_ceiling_max_vars);
      if (c < 0) {
        ++local.vars_ll_ceiling;
        local.ll_ceiling_sum -= c;
      }
    }
    task.ll_ceiling = c;
  }
  if (bdeu_atoms_ && data_.arity(v) >= 2) {
    auto& a = atoms_[static_cast<std::size_t>(v)];
    if (!a)
      a = std::make_unique<prune::BdeuAtoms>(
          prune::bdeu_atoms(counter, v, options_.tune.ll_ceiling_max_vars));
    if (!a->empty()) task.atoms = a.get();
  }
  task.max_parents = std::min(max_parents_ - static_cast<int>(task.required.size()), k_best_cap_);
  task.prune = options_.prune;
  task.global = &clock;
  task.max_bytes = max_bytes_;
  if (options_.time_per_var > 0) {
    task.has_deadline = true;
    task.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(options_.time_per_var));
  } else if (options_.time > 0) {
    const double allot = clock.remaining() * workers / static_cast<double>(left);
    task.has_deadline = true;
    task.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(allot));
  }
  return task;
}

// One pass over `vars`, drawn from `queue`: each variable, when it starts, gets its share of
// what is left. Returns the variables it cut by their share (not by the run's stop or the
// memory cap). Tells on_variable of each variable it ends, unless the caller's stop (a signal,
// the caller's deadline) cut it or, when `retry` follows, its share did. The `quick` pass
// (quick_pass) shares quick_stop_'s budget instead and returns the variables it did not
// explore to the end; it counts those as explored, the others' sets as quick_sets only.
std::vector<int> Exploration::pass(const std::vector<int>& vars, Comm& queue, bool retry,
                                   bool quick) {
  const StopToken& clock = quick ? *quick_stop_ : *run_stop_;
  std::vector<char> cut(vars.size(), 0);  // quick: not explored to the end
  queue.open_queue(vars.size(), threads_);
  const int workers = queue.queue_workers();
#pragma omp parallel num_threads(threads_)
  {
    Counter counter(data_, options_.score, groups_);
    ExploreScratch scratch;
    ExploreStats local;
    std::uint64_t quick_sets = 0;
    std::vector<int> mine;
    for (ItemRange items = queue.next_items(); items.begin < items.end; items = queue.next_items())
      for (std::size_t i = items.begin; i < items.end; ++i)
        failure_.run([&] {
          const int v = vars[i];
          const VarTask t = make_task(v, counter, local, vars.size() - i, workers, clock);
          ExploreStats one;
          cache_.var(v) = VarCache();
          explore_var(counter, scratch, options_.method, t, cache_.var(v), one);
          cache_.var(v).sort_best_first();
          ++one.vars_explored;
          if (quick) {
            cut[i] =
                one.vars_out_of_time > 0 || one.vars_out_of_memory > 0 || clock.stop_requested();
            if (cut[i]) {
              quick_sets += one.sets_scored;
              return;
            }
          } else {
            cut[i] = one.vars_out_of_time > 0 && !clock.stop_requested();
          }
          local.add(one);
          mine.push_back(v);
          // Ended as planned (its share, or the exploration's budget), not by the caller's stop.
          if (options_.on_variable && !stop_.stop_requested() && !(cut[i] && retry))
            options_.on_variable(static_cast<std::size_t>(v), cache_.var(v));
          if (!quick) progress_->step(one.sets_scored);
        });
    std::lock_guard<std::mutex> lock(mutex_);
    total_.add(local);
    total_.quick_sets += quick_sets;
    explored_.insert(explored_.end(), mine.begin(), mine.end());
  }
  queue.close_queue();
  std::vector<int> again;
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (cut[i]) again.push_back(vars[i]);
  return again;
}

// A run shared by processes: every process gathers the whole cache, and tells on_variable of
// the variables the others explored.
void Exploration::gather(const std::vector<int>& vars, Comm& comm) {
  if (!comm.distributed() || vars.empty()) return;
  gather_cache(comm, explored_, cache_, total_);
  if (options_.on_variable && !stop_.stop_requested()) {
    std::vector<char> own(data_.n_vars(), 0);
    for (int v : explored_) own[static_cast<std::size_t>(v)] = 1;
    for (int v : vars)
      if (!own[static_cast<std::size_t>(v)])
        options_.on_variable(static_cast<std::size_t>(v), cache_.var(static_cast<std::size_t>(v)));
  }
}

ScoreCache Exploration::run(ExploreStats* stats_out) {
  setup();
  max_bytes_ = options_.memory_per_var == ExploreOptions::kAutoMemory
                   ? default_explore_memory(threads_)
                   : options_.memory_per_var;
  total_.memory_per_var = max_bytes_;
  cache_ = ScoreCache(data_.n_vars(), data_.names());
  progress_.emplace("explore", options_.progress, *run_stop_);
  // The processes of the run (bnsl/comm.hpp): the first pass draws its variables from a queue
  // they share; each explores its own, then all gather the whole cache.
  Comm alone;
  Comm& comm = options_.comm ? *options_.comm : alone;
  bic_rules_ = options_.prune && prune_rules(options_.score).bic;
  ceilings_.assign(data_.n_vars(), std::numeric_limits<double>::quiet_NaN());
  bdeu_atoms_ =
      options_.prune && prune_rules(options_.score).bdeu && options_.method == ExploreMethod::seq;
  atoms_.clear();
  atoms_.resize(data_.n_vars());
  std::vector<int> vars;
  std::uint64_t resumed = 0;
  for (std::size_t v = begin_; v < end_; ++v) {
    if (options_.explored && v < options_.explored->n_vars() &&
        !options_.explored->var(v).empty()) {
      cache_.var(v) = options_.explored->var(v);
      ++resumed;
    } else {
      vars.push_back(static_cast<int>(v));
    }
  }
  screen(vars);
  progress_->set_total(vars.size());
  const bool retry = options_.retry_cut && options_.time > 0 && options_.time_per_var <= 0;
  std::vector<int> again = vars.empty() ? vars : pass(vars, comm, retry);
  if (retry && !failure_.failed() && !again.empty() && !run_stop_->stop_requested()) {
    total_.vars_out_of_time -= again.size();  // counted again if the second pass cuts them too
    total_.vars_retried += again.size();
    if (options_.progress)
      std::cerr << "bnsl: explore: " << again.size()
                << " variables cut at their share; exploring them again with the "
                << run_stop_->remaining() << " s left\n";
    progress_->set_total(vars.size() + again.size());
    Comm own;  // each process explores again the variables it cut
    pass(again, own, false);
  }
  failure_.rethrow();
  gather(vars, comm);
  total_.vars_resumed = resumed;  // the same in every process: not summed by gather_cache
  if (draft_) total_.draft_kept = merge_families(*draft_, cache_, begin_, end_, eps_);
  total_.cache_entries = cache_.total_entries();
  total_.cache_bytes = cache_.bytes();
  total_.seconds = clock_.elapsed();
  progress_->finish();
  if (stats_out) *stats_out = total_;
  return std::move(cache_);
}

}  // namespace

ScoreCache explore(const Dataset& data, const ExploreOptions& options, const StopToken& stop,
                   ExploreStats* stats_out) {
  return Exploration(data, options, stop).run(stats_out);
}

}  // namespace bnsl
