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
// second; with a short budget the completion's share at the end is too small to walk them all.
// So when, under a time limit, the chains have admitted fewer than search.stall_growth of the
// pool's size over the last search.stall_share of their time (at least
// search.stall_min_seconds), and the best has not risen over that window either, the monitor
// stops them, the completion runs at once (for at most search.stall_completion_share of the
// time left), and the chains resume on fresh random streams for the rest of the budget; the
// completion runs again at the end for what they add. When its share cut the walk short after
// its queue (in the passes over class members and pairs), the chains' next stall stops them
// again for another share; each walk goes on from where the one before stopped (WalkMemory). It
// also fires on large problems whose chains admit few DAGs, where the cap leaves the chains
// most of their time. (The search.* tunables are in bnsl/tunables.hpp; the runs behind them in
// bench/results/pool.md and bench/JOURNAL.md.)
//
// The walk at the end. Under a time limit the walk around the final best gets
// search.completion_share of the search's time, before the report's reserve, however late that
// best was found: the chains stop by their end (chains_until_) themselves, not only when the
// monitor tells them, and the monitor writes no checkpoint that would still be writing then. At
// thousands of variables nearly every climb of the chains lifts the best by more than epsilon,
// and each such rise leaves the classes pooled before it behind, so what the walk pools around
// the final best is most of the report; the report's account (PoolAccount) says what it holds
// and why a small pool is small. After it, while the reserve measured again leaves the chains
// time (a late rise of the best emptied the pool it was kept for), they resume and the walk
// goes on (resume_chains).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>

#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/search.hpp"
#include "io/report_io.hpp"
#include "parallel/slowdown.hpp"
#include "pool/class_members.hpp"
#include "score/compare.hpp"
#include "score/entry_index.hpp"
#include "search/base_sets.hpp"
#include "search/complete_neighbours.hpp"
#include "search/driver.hpp"
#include "search/greedy_dag.hpp"
#include "search/report_cost.hpp"
#include "util/threads.hpp"

namespace bnsl {

// The pool's first network: the greedy network and the OBS network of its order (at least as
// good), or the identity order's network without greedy_start.
void SearchDriver::seed_pool(SearchStats& total) {
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
SearchDriver::StartNetwork SearchDriver::pool_start_networks(SearchStats& total) {
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

PoolReport SearchDriver::run(SearchStats& total) {
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
    if (o_.complete_classes && std::isfinite(budget))
      completion_share_ = o_.tune.completion_share * budget;
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
    while (resume_chains()) {
      ++total.resumes;
      if (o_.progress) progress_line("search: the reserve fell; chains resume");
      stalled_ = stall_armed_ = false;
      halt_.store(false);
      run_chains(total);
      complete_pool(total, true);
    }
    total.report_reserve = reserve();
  }
  peers_.merge(pool_, o_.threads);  // every process's classes into rank 0's pool
  total.peer_networks = peers_.networks_received();
  total.peer_classes = peers_.classes_merged();
  note_best(own_.elapsed());  // a rise after the monitor's last poll, or the exact best
  PoolReport r;
  bool reduced = false;  // the pool's report did not fit in memory
  const std::string reduced_text = "out of memory for the pool's report: the best network alone";
  if (!peers_.root()) {
    r = best_only_report();
  } else {
    try {
      r = pool_report(total);
    } catch (const std::bad_alloc&) {
      // The best network alone, so that the run still writes what it found (the files put the
      // best network first); its class is summarized, not listed.
      r = best_only_report();
      summarize(r, 1);
      reduced = true;
      if (o_.progress) progress_line(("search: " + reduced_text).c_str());
    }
    if (!algorithm) {
      account(r, total);
      if (reduced) total.account.note = reduced_text;
      r.account = total.account;
    }
  }
  if (algorithm) r.algorithm = algorithm;
  r.optimal = optimal;
  r.complete = complete && !reduced && !pool_.truncated() && total.report_classes_cut == 0;
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

// After the walk at the end: whether the chains run again. The reserve they stopped for is
// measured on the pool they left, and a rise of the best in their last moments can leave one
// class of the many it was kept for (at thousands of variables each climb lifts the best by
// more than epsilon); the walk around that best then ends long before the deadline. While the
// chains would have resume_min_seconds left before the reserve and the walk's share, measured
// now, are due, they resume on fresh random streams (as after a stall), and the walk goes on
// from where it stopped for what they add. Not in a search round (it ends at its plateau) nor
// in a run fixed by max_restarts, and not after a stop request.
bool SearchDriver::resume_chains() const {
  if (completion_share_ <= 0 || o_.plateau > 0 || o_.max_restarts > 0) return false;
  if (own_.stop_requested() || stop_.stop_requested()) return false;
  return chains_left() >= o_.tune.resume_min_seconds;
}

// The final pool's account (PoolAccount): what the report holds within epsilon, what became of
// the classes admitted before (the pool's losses), and the walk around the final best
// (complete_pool set its fields).
void SearchDriver::account(const PoolReport& r, SearchStats& total) const {
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

void SearchDriver::run_chains(SearchStats& total) {
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
  bests_.clear();
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
PoolReport SearchDriver::best_only_report() const {
  DagPool best(cache_, Epsilon::epsilon(0), 1);
  const Choices choices = pool_.best_choices();
  best.offer(pool_.best(), dag_hash(choices), choices);
  return make_report(cache_, best, o_, 1);  // not every member of its class
}

// The report of the pool on rank 0: the classes first, summarized by the report's own clock
// (those it has no time to describe are cut: the search began late, or the machine slowed more
// than measured), then as many of their DAGs as the time left lists.
PoolReport SearchDriver::pool_report(SearchStats& total) {
  // The limit first, so that taking the pool's classes counts against it; after a signal, only
  // the classes it has time for are taken (45,000 classes of andes took 0.6 s to copy).
  const SummaryLimit limit = summary_limit();
  const std::size_t take =
      o_.classes && signal_received() ? classes_in(report_time_left()) : SIZE_MAX;
  PoolReport r = make_report(cache_, pool_, o_, 0, nullptr, take);
  total.report_classes_cut = o_.classes ? pool_.size() - r.classes.size() : 0;
  total.report_classes_cut += summarize(r, o_.threads, limit);
  if (o_.progress && total.report_classes_cut > 0) {
    const std::string what = "search: the final report keeps the best " +
                             std::to_string(r.classes.size()) + " of " +
                             std::to_string(pool_.size()) + " classes pooled (the time left)";
    progress_line(what.c_str());
  }
  if (o_.classes) {  // after a signal, the summary had the report's time: one DAG listed
    const bool signalled = signal_received();
    const Clock::time_point list_until =
        signalled ? Clock::now() : listing_deadline(r.classes.size());
    list_members(r, signalled ? 1 : listable_dags(r.classes.size()), &list_until, o_.pool_tune);
  }
  return r;
}

// Neighbour completion (complete_neighbours.cpp) until the report's reserve before the deadline
// (at_end), or, after a stall, for at most search.stall_completion_share of the time left and never
// into the share kept for the completion at the end (see the top of the file). The run at the
// end goes on from the first (walked_): DAGs and classes expanded then are not walked again.
// The counters add up over both runs; `completion_stopped` is the last run's.
void SearchDriver::complete_pool(SearchStats& total, bool at_end) {
  if (!o_.complete_classes) return;
  const double keep = at_end ? 0
                             : std::max(completion_share_, (1 - o_.tune.stall_completion_share) *
                                                               (remaining() - reserve()));
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
  const auto out_of_time = [this, room, walk_until] {  // for the walk at the end
    if (own_.stop_requested() || stop_.stop_requested()) return true;
    return own_.elapsed() >= walk_until && remaining() <= std::max(room, reserve(false));
  };
  const auto stop_fn = [this, keep, at_end, &out_of_time] {
    update_cost(own_.elapsed());
    return at_end ? out_of_time() : should_stop_outside(keep);
  };
  // No time left at the end: no walk, whose setup alone is O(n) (0.1 s at 100,000 variables).
  if (at_end && out_of_time()) {
    total.completion_stopped = true;
    total.account.walk_finished = false;
    return;
  }
  const std::size_t capacity = o_.pool_capacity(cache_.n_vars());
  const double t0 = own_.elapsed();
  cost_pool_ = 0;  // measured again at the walk's first stop test, the chains no longer beside it
  cost_time_ = -o_.tune.cost_interval;
  const NeighbourCompletion nb =
      complete_neighbours(cache_, pool_, stop_fn,
                          {.max_expanded = o_.tune.neighbour_expansions * capacity,
                           .max_members = o_.tune.walk_class_members,
                           .memory = &walked_});
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

// Until the chains end or the stop fires: tracks the best, prints progress, checkpoints.
// Stops the chains early by reserve() when a deadline is set.
void SearchDriver::monitor() {
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
    if (o_.plateau > 0 && !halt_.load() && plateaued(now)) halt_.store(true);
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
bool SearchDriver::checkpoint_fits(double chains_left) const {
  if (!std::isfinite(chains_left)) return true;
  const double growth = checkpoint_size_ > 0 ? static_cast<double>(pool_.size()) /
                                                   static_cast<double>(checkpoint_size_)
                                             : 1.0;
  const double cost = std::max(report_seconds(), checkpoint_seconds_ * std::max(1.0, growth));
  return chains_left > o_.tune.checkpoint_room * cost;
}

void SearchDriver::write_checkpoint(double now) {
  last_checkpoint_ = now;
  checkpoint_size_ = pool_.size();
  PoolReport snap = make_report(cache_, pool_, o_);
  snap.seconds = now;
  checkpoint_(snap);
  checkpoint_seconds_ = own_.elapsed() - now;
  if (o_.progress) progress_line("checkpoint written");
}

// The stall rule (see the top of the file), from samples of pool_.inserted() 0.1 s apart.
bool SearchDriver::stalled(double now) {
  const std::uint64_t inserted = pool_.inserted();
  admissions_.add(now, inserted);
  const double chained = now - chains_started_;
  const double window = std::max(o_.tune.stall_min_seconds, o_.tune.stall_share * chained);
  if (chained < window) return false;
  const double added = static_cast<double>(inserted - admissions_.at(now - window).second);
  // Chains that still raise the best are not stalled, whatever the pool admits: on 10,000
  // variables the capped pool admits little while every climb gains, and the completion
  // (240,872 DAGs of 10,000 variables walked) took 84 s of a 297 s search.
  return added < o_.tune.stall_growth * static_cast<double>(pool_.size()) &&
         now - best_time_ >= window;
}

// A search round's plateau (SearchOptions::plateau), from samples of the best 0.1 s apart.
bool SearchDriver::plateaued(double now) {
  const double best = pool_.best();
  if (!std::isfinite(best)) return false;
  bests_.add(now, best);
  const double chained = now - chains_started_;
  // Over plateau_climbs climbs of one chain, at least plateau_min_seconds and at most
  // plateau_seconds: a climb takes 20 s at 10,000 variables, 0.2 ms on alarm, where a round's
  // 3 s were 15,000 climbs without a rise while the walks waited (issue 65).
  double window = o_.tune.plateau_seconds;
  if (const std::uint64_t climbs = climbs_.load(std::memory_order_relaxed); climbs > 0) {
    const double per_climb =
        chained * static_cast<double>(resolve_threads(o_.threads)) / static_cast<double>(climbs);
    window =
        std::min(window, std::max(o_.tune.plateau_min_seconds, o_.tune.plateau_climbs * per_climb));
  }
  window = std::max(window, o_.tune.stall_share * chained);
  if (chained < window) return false;
  const auto& [taken, then] = bests_.at(now - window);
  return taken <= now - window && best - then < o_.plateau * std::fabs(best);
}

// Records a rise of the best score seen at time `now` and reports it to on_improvement; rises
// within the score tolerance (an equivalent DAG summed in another order) are not rises.
void SearchDriver::note_best(double now) {
  const double best = pool_.best();
  if (!(best > best_seen_) || (std::isfinite(best_seen_) && !clearly_greater(best, best_seen_)))
    return;
  best_seen_ = best;
  best_time_ = now;
  ++improvements_;
  if (o_.on_improvement) o_.on_improvement(now, best);
}

void SearchDriver::progress_line(const char* what) {
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

}  // namespace bnsl
