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
#include <mutex>
#include <optional>

#include "bnsl/comm.hpp"
#include "bnsl/error.hpp"
#include "bnsl/explore.hpp"
#include "explore/explorer.hpp"
#include "parallel/wire.hpp"
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

// The draft cache (ExploreOptions::on_draft): each variable's best single parents by the
// all-pairs statistics, and every pair of them.
constexpr std::size_t kDraftSingles = 8;

// The draft cache (see ExploreOptions::on_draft), less what rule 1 drops.
ScoreCache draft_cache(const Dataset& data, const ScoreParams& params, const RowGroups* groups,
                       const BitColumns& bits, const PairStats& pairs, double eps,
                       const Constraints& constraints,
                       const std::vector<std::vector<int>>& required, int threads) {
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
        std::vector<int> top = pairs.top_parents(v, kDraftSingles);
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

// The draft's families of variables [begin, end) that the cache lacks into it, unless a cached
// subset scores more than eps better (rule 1); returns how many. With screening and a short
// budget the exploration cut every variable at its share before meeting them: gen5000 (5,000
// variables, 5,000 rows), `learn --time 120`, wrote its draft's greedy network at 4.7 s,
// scoring -21,940,274, and searched a cache whose best network scored -22,568,686.
std::uint64_t keep_draft(const ScoreCache& draft, ScoreCache& cache, std::size_t begin,
                         std::size_t end, double eps) {
  std::uint64_t kept = 0;
  for (std::size_t v = begin; v < end; ++v) {
    const VarCache& from = draft.var(v);
    VarCache& to = cache.var(v);
    const std::size_t before = to.size();
    for (std::size_t i = 0; i < from.size(); ++i) {
      const auto family = from.parents(i);
      if (to.find(family) >= 0) continue;
      bool beaten = false;
      for (std::size_t j = 0; j < to.size() && !beaten; ++j) {
        const auto sub = to.parents(j);
        beaten = to.score(j) > from.score(i) + eps && sub.size() < family.size() &&
                 std::includes(family.begin(), family.end(), sub.begin(), sub.end());
      }
      if (!beaten) to.add(from.score(i), family);
    }
    if (to.size() > before) to.sort_best_first();
    kept += to.size() - before;
  }
  return kept;
}

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
  return data.n_vars() > kAutoScreenVars ? kAutoScreenCandidates : 0;
}

CacheProvenance planned_provenance(const Dataset& data, const ExploreOptions& options) {
  ExploreStats planned;
  const std::optional<RowGroups> grouped = group_rows(data);
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

ScoreCache explore(const Dataset& data, const ExploreOptions& options, const StopToken& stop,
                   ExploreStats* stats_out) {
  const std::size_t begin = options.var_begin;
  const std::size_t end = std::min(options.var_end, data.n_vars());
  const std::vector<std::vector<int>> required =
      options.constraints.required_by_child(data.n_vars());
  validate(data, options, begin, end);
  const int threads = resolve_threads(options.threads);
  StopToken run_stop =
      options.time > 0 ? StopToken(std::min(options.time, stop.remaining())) : StopToken(stop);
  LocalScorer check(data, options.score);  // validates the score parameters

  ExploreStats total;
  // Every counting pass visits the distinct rows only, weighted, when rows repeat enough.
  const std::optional<RowGroups> grouped = group_rows(data);
  const RowGroups* groups = grouped ? &*grouped : nullptr;
  total.rows = data.n_rows();
  total.rows_counted = grouped ? grouped->rows.n_rows() : data.n_rows();
  const double eps =
      options.epsilon.resolve(std::fabs(sum_empty_scores(data, options.score, groups, threads)));
  total.epsilon = eps;
  total.max_parents = in_degree_limit(options, data.n_vars());
  const std::vector<int> candidates = parent_candidates(data);
  const int max_parents = total.max_parents >= 0 ? total.max_parents : 1 << 20;
  // Rule 7 caps the free parents: a family R + Q of the K best has 2^|Q| - 1 proper subsets
  // that hold R, each a parent of arity >= 2 short (prune/rules.hpp with P' ranging over them).
  int k_best_cap = 1 << 20;
  if (options.k_best > 0 && options.prune && prune_rules(options.score).bic) {
    total.k_best_max_parents = prune::k_best_max_parents(data.n_rows(), options.k_best);
    if (total.k_best_max_parents >= 0) k_best_cap = total.k_best_max_parents;
  }
  total.candidates = auto_candidates(options, data);
  if (total.candidates > 0 && static_cast<std::size_t>(total.candidates) + 1 >= candidates.size())
    total.candidates = 0;  // every variable is a candidate anyway
  std::optional<BitColumns> bits;
  std::optional<PairStats> pairs;
  std::optional<ScoreCache> draft;  // on_draft's, kept in the final cache (keep_draft)
  if (total.candidates > 0) {
    const std::size_t keep =
        std::max<std::size_t>(static_cast<std::size_t>(total.candidates), kDraftSingles);
    require_memory(static_cast<double>(BitColumns::bytes_needed(data) +
                                       PairStats::bytes_needed(data.n_vars(), keep)),
                   available_memory(),
                   "screening " + std::to_string(data.n_vars()) + " variables (bit columns, " +
                       std::to_string(keep) + " best single parents each)",
                   kLessDataHint);
    bits.emplace(data);
    pairs.emplace(*bits, keep, threads, run_stop);
    total.pair_seconds = pairs->seconds();
    if (options.progress)
      std::cerr << "bnsl: explore: all-pairs statistics of " << data.n_vars() << " variables in "
                << pairs->seconds() << " s; " << total.candidates
                << " candidate parents per variable\n";
    if (options.on_draft && !run_stop.stop_requested()) {
      draft = draft_cache(data, options.score, groups, *bits, *pairs, eps, options.constraints,
                          required, threads);
      options.on_draft(*draft);
    }
  }

  const std::size_t max_bytes = options.memory_per_var == ExploreOptions::kAutoMemory
                                    ? default_explore_memory(threads)
                                    : options.memory_per_var;
  total.memory_per_var = max_bytes;
  ScoreCache cache(data.n_vars(), data.names());
  FirstError failure;
  std::mutex mutex;  // guards `total`
  Progress progress("explore", options.progress, run_stop);

  // The processes of the run (bnsl/comm.hpp): the first pass draws its variables from a queue
  // they share; each explores its own, then all gather the whole cache.
  Comm alone;
  Comm& comm = options.comm ? *options.comm : alone;
  std::vector<int> explored;  // by this process

  // Each variable's LL ceiling (rules 2 to 4, prune/ll_ceiling.hpp), counted when the variable
  // is first explored (NaN until then; a pass gives each variable to one thread).
  const bool bic_rules = options.prune && prune_rules(options.score).bic;
  std::vector<double> ceilings(data.n_vars(), std::numeric_limits<double>::quiet_NaN());

  // One pass over `vars`, drawn from `queue`: each variable, when it starts, gets its share of
  // what is left (the time left times the threads of every process sharing the queue, over the
  // variables not yet drawn). Returns the variables it cut by their share (not by the run's
  // stop or the memory cap). Tells on_variable of each variable it ends, unless the caller's
  // stop (a signal, the caller's deadline) cut it or, when `retry` follows, its share did.
  auto pass = [&](const std::vector<int>& vars, Comm& queue, bool retry) {
    std::vector<char> cut(vars.size(), 0);
    queue.open_queue(vars.size(), threads);
    const int workers = queue.queue_workers();
#pragma omp parallel num_threads(threads)
    {
      Counter counter(data, options.score, groups);
      ExploreScratch scratch;
      ExploreStats local;
      std::vector<int> mine;
      for (ItemRange items = queue.next_items(); items.begin < items.end;
           items = queue.next_items())
        for (std::size_t i = items.begin; i < items.end; ++i)
          failure.run([&] {
            const int v = vars[i];
            VarTask task;
            task.child = v;
            if (data.arity(v) < 2) {
            } else if (pairs) {
              task.candidates = pairs->top_parents(v, static_cast<std::size_t>(total.candidates));
              std::sort(task.candidates.begin(), task.candidates.end());
              task.universe = &candidates;
              task.bits = &*bits;
            } else {
              std::copy_if(candidates.begin(), candidates.end(),
                           std::back_inserter(task.candidates), [v](int c) { return c != v; });
            }
            task.required = required[static_cast<std::size_t>(v)];
            if (!options.constraints.arcs_empty()) {  // (the in-degree limit: max_parents)
              task.constraints = &options.constraints;
              std::erase_if(task.candidates, [&](int p) { return !task.allowed(p); });
            }
            if (!task.required.empty()) {  // the sweeps count pairs without the required parents
              task.universe = nullptr;
              task.bits = nullptr;
            }
            task.eps = eps;
            if (bic_rules && data.arity(v) >= 2) {
              double& c = ceilings[static_cast<std::size_t>(v)];
              if (std::isnan(c)) {
                c = prune::ll_ceiling(counter, v);
                if (c < 0) {
                  ++local.vars_ll_ceiling;
                  local.ll_ceiling_sum -= c;
                }
              }
              task.ll_ceiling = c;
            }
            task.max_parents =
                std::min(max_parents - static_cast<int>(task.required.size()), k_best_cap);
            task.prune = options.prune;
            task.global = &run_stop;
            task.max_bytes = max_bytes;
            mine.push_back(v);
            const std::size_t left = vars.size() - i;
            if (options.time_per_var > 0) {
              task.has_deadline = true;
              task.deadline =
                  Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options.time_per_var));
            } else if (options.time > 0) {
              const double allot = run_stop.remaining() * workers / static_cast<double>(left);
              task.has_deadline = true;
              task.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(allot));
            }
            const std::uint64_t scored_before = local.sets_scored;
            const std::uint64_t cut_before = local.vars_out_of_time;
            cache.var(v) = VarCache();
            explore_var(counter, scratch, options.method, task, cache.var(v), local);
            cache.var(v).sort_best_first();
            ++local.vars_explored;
            cut[i] = local.vars_out_of_time > cut_before && !run_stop.stop_requested();
            // Ended as planned (its share, or the exploration's budget), not by the caller's stop.
            if (options.on_variable && !stop.stop_requested() && !(cut[i] && retry))
              options.on_variable(static_cast<std::size_t>(v), cache.var(v));
            progress.step(local.sets_scored - scored_before);
          });
      std::lock_guard<std::mutex> lock(mutex);
      total.add(local);
      explored.insert(explored.end(), mine.begin(), mine.end());
    }
    queue.close_queue();
    std::vector<int> again;
    for (std::size_t i = 0; i < vars.size(); ++i)
      if (cut[i]) again.push_back(vars[i]);
    return again;
  };

  std::vector<int> vars;
  std::uint64_t resumed = 0;
  for (std::size_t v = begin; v < end; ++v) {
    if (options.explored && v < options.explored->n_vars() && !options.explored->var(v).empty()) {
      cache.var(v) = options.explored->var(v);
      ++resumed;
    } else {
      vars.push_back(static_cast<int>(v));
    }
  }
  progress.set_total(vars.size());
  const bool retry = options.retry_cut && options.time > 0 && options.time_per_var <= 0;
  std::vector<int> again = vars.empty() ? vars : pass(vars, comm, retry);
  if (retry && !failure.failed() && !again.empty() && !run_stop.stop_requested()) {
    total.vars_out_of_time -= again.size();  // counted again if the second pass cuts them too
    total.vars_retried += again.size();
    if (options.progress)
      std::cerr << "bnsl: explore: " << again.size()
                << " variables cut at their share; exploring them again with the "
                << run_stop.remaining() << " s left\n";
    progress.set_total(vars.size() + again.size());
    Comm own;  // each process explores again the variables it cut
    pass(again, own, false);
  }
  failure.rethrow();
  if (comm.distributed() && !vars.empty()) {
    gather_cache(comm, explored, cache, total);
    if (options.on_variable && !stop.stop_requested()) {
      std::vector<char> own(data.n_vars(), 0);
      for (int v : explored) own[static_cast<std::size_t>(v)] = 1;
      for (int v : vars)
        if (!own[static_cast<std::size_t>(v)])
          options.on_variable(static_cast<std::size_t>(v), cache.var(static_cast<std::size_t>(v)));
    }
  }
  total.vars_resumed = resumed;  // the same in every process: not summed by gather_cache
  if (draft) total.draft_kept = keep_draft(*draft, cache, begin, end, eps);
  total.cache_entries = cache.total_entries();
  total.cache_bytes = cache.bytes();
  total.seconds = run_stop.elapsed();
  progress.finish();
  if (stats_out) *stats_out = total;
  return cache;
}

}  // namespace bnsl
