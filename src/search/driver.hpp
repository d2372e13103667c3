// The ordering search's driver (driver.cpp): chains on worker threads, one shared pool, and a
// monitor on the calling thread, within a budget whose end is kept for the neighbour walk and
// the report (reserve.cpp). search.cpp holds search() and the routes small problems take
// instead of the chains; search_stats.cpp the statistics.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "bnsl/cache.hpp"
#include "bnsl/search.hpp"
#include "parallel/slowdown.hpp"
#include "pool/dag_pool.hpp"
#include "search/complete_neighbours.hpp"
#include "search/peers.hpp"
#include "search/report_cost.hpp"
#include "search/search_internal.hpp"

namespace bnsl {

// The routes of search.cpp. validate: the cache has what the search needs (throws InputError).
void validate(const ScoreCache& cache);
// Every order, each enumerated; true if all were done.
bool run_exhaustive(const ScoreCache& cache, DagPool& pool,
                    const std::function<bool()>& should_stop, SearchStats& stats);
// The subset DP, then every DAG within epsilon of its optimum into the pool: {optimal, complete}.
std::pair<bool, bool> run_dp(const ScoreCache& cache, DagPool& pool, const SearchOptions& o,
                             const StopToken& stop, SearchStats& stats);

// search_stats.cpp: a chain's counters added to the run's; why a pool is small.
void add_stats(SearchStats& to, const SearchStats& s);
std::string small_pool_note(const PoolAccount& a, const DagPool::Losses& losses,
                            std::size_t capacity);

// Runs the search; see search(). Fills `total` except pool_size/best/seconds.
// A value sampled at most every 0.1 s by the monitor, for the rules over a trailing window of
// the current chain round (the stall rule, a round's plateau).
template <class T>
class TrailingSamples {
 public:
  void clear() { samples_.clear(); }
  void add(double now, T value) {
    if (samples_.empty() || now - samples_.back().first >= 0.1) samples_.emplace_back(now, value);
  }
  // The last sample taken at or before `start`, or the oldest when none is that old. A
  // window's start only moves forward: older samples are never needed again, and are dropped.
  const std::pair<double, T>& at(double start) {
    while (samples_.size() > 1 && samples_[1].first <= start) samples_.pop_front();
    return samples_.front();
  }

 private:
  std::deque<std::pair<double, T>> samples_;
};

class SearchDriver {
 public:
  SearchDriver(const ScoreCache& cache, const SearchOptions& o, const StopToken& stop,
               const CheckpointFn& checkpoint)
      : cache_(cache),
        o_(o),
        stop_(stop),
        own_(o.time),
        checkpoint_(checkpoint),
        peers_(o.comm, cache, o.tune.exchange_seconds),
        pool_(cache, o.epsilon, o.pool_capacity(cache.n_vars()), o.classes,
              pool_bands(o.exhaustive_max_n, o.dp_max_n, cache.n_vars(), o.pool_tune.bands),
              o.pool_tune.classified_max) {}

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
  bool resume_chains() const;
  void monitor();
  bool stalled(double now);
  bool plateaued(double now);
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
  double report_time_left() const;
  std::size_t classes_in(double seconds) const;  // classes the report describes in that time
  void note_best(double now);
  void progress_line(const char* what);
  PoolReport best_only_report() const;
  PoolReport pool_report(SearchStats& total);

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
  TrailingSamples<std::uint64_t> admissions_;
  TrailingSamples<double> bests_;                   // the pool's best, for plateaued()
  double last_progress_ = 0, last_checkpoint_ = 0;  // the monitor's, over all chain rounds
  std::uint64_t round_ = 0;  // chain rounds run; round r uses chain indices r * threads + t
  std::atomic<std::uint64_t> tickets_{0};  // restarts claimed (max_restarts), over all rounds
  double best_seen_ = -std::numeric_limits<double>::infinity();
  double best_time_ = 0;
  std::uint64_t improvements_ = 0;
};

}  // namespace bnsl
