// The end of the ordering search's budget (SearchDriver, driver.hpp): the seconds kept before
// the deadline for the final report of the pool (the reserve), measured on a sample of the
// pool as it grows (report_cost.hpp) and scaled by the machine's load, and the report's own
// clock, which cuts what it has no time for. The chains stop when the reserve and the walk's
// share are due (driver.cpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "search/driver.hpp"
#include "util/threads.hpp"

namespace bnsl {

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
double SearchDriver::reserve(bool with_room) const {
  const std::size_t n = cache_.n_vars();
  const std::size_t classes = o_.pool_capacity(n);  // never fewer than pool_.size()
  const double kept = static_cast<double>(std::min(pool_.size(), classes));
  const double added = static_cast<double>(classes) - kept;  // classes the walk may add
  const double added_dags = listed_dags(static_cast<double>(classes)) - listed_dags(kept);
  const double later =
      with_room ? std::min(completion_share_,
                           cost_.seconds(added, o_.tune.listing_at_scale * added_dags, n))
                : 0;
  // Rank 0 of a shared run first pools every other process's classes (SearchPeers::merge).
  const double merged = static_cast<double>(peers_.processes() - 1) * static_cast<double>(classes) *
                        static_cast<double>(n);
  // The report writes on one thread (its summary uses them all): the slowdown of one thread.
  return 0.05 + report_seconds() +
         load_.factor(1) * o_.tune.merge_rate * merged / resolve_threads(o_.threads) + later;
}

// The DAGs a report of `classes` classes lists: as many as the classes hold, by the sample's
// sizes (all it may until a measurement says), at most dag_capacity.
double SearchDriver::listed_dags(double classes) const {
  const double listed = o_.classes ? static_cast<double>(o_.dag_capacity(cache_.n_vars())) : 0;
  return cost_.members_per_class > 0 ? std::min(listed, classes * cost_.members_per_class) : listed;
}

// The report of the pool as it is now on one thread at the machine's load: its classes and the
// DAGs it lists.
double SearchDriver::report_seconds() const {
  const std::size_t n = cache_.n_vars();
  const double kept = static_cast<double>(std::min(pool_.size(), o_.pool_capacity(n)));
  return load_.factor(1) * cost_.seconds(kept, o_.tune.listing_at_scale * listed_dags(kept), n);
}

// What the final report may take: the time left, and after SIGINT or SIGTERM at most
// search.signal_report_seconds (a signal asks for the run's end, not for the deadline's).
double SearchDriver::report_time_left() const {
  const double left = remaining();
  return signal_received() ? std::min(left, o_.tune.signal_report_seconds) : left;
}

std::size_t SearchDriver::classes_in(double seconds) const {
  const double per_class = load_.factor(1) * cost_.seconds(1, 0, cache_.n_vars());
  if (!(per_class > 0)) return SIZE_MAX;
  return std::max<std::size_t>(1, static_cast<std::size_t>(std::min(1e15, seconds / per_class)));
}

// The final report's summary describes a class while the writing of the classes described
// (their JSON, freeing them) still fits before the deadline at the measured rate (SummaryLimit).
SummaryLimit SearchDriver::summary_limit() const {
  const double left = report_time_left();
  SummaryLimit limit;
  limit.after_signal = o_.tune.signal_report_seconds;
  if (!std::isfinite(left)) return limit;
  limit.end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(std::max(0.0, left - 0.05)));
  limit.seconds_per_class = classes_writing(1);
  return limit;
}

// The seconds that writing the summarized classes of the final report takes.
double SearchDriver::classes_writing(std::size_t classes) const {
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
Clock::time_point SearchDriver::listing_deadline(std::size_t classes) const {
  const double left = report_time_left();
  if (!std::isfinite(left)) return Clock::time_point::max();
  const double rest = std::max(0.0, left - 0.05 - classes_writing(classes));
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(rest));
}

std::size_t SearchDriver::listable_dags(std::size_t classes) const {
  const std::size_t n = cache_.n_vars(), capacity = o_.dag_capacity(n);
  const double left = report_time_left();
  if (!std::isfinite(left)) return capacity;
  const double per_dag = load_.factor(1) * cost_.seconds(0, o_.tune.listing_at_scale, n);
  const double fits = (left - 0.05 - classes_writing(classes)) / per_dag;
  return fits >= static_cast<double>(capacity)
             ? capacity
             : std::max<std::size_t>(1, static_cast<std::size_t>(std::max(0.0, fits)));
}

// Measures the final report's cost (report_cost.hpp) when the pool has doubled since the last
// measurement, or every cost_interval seconds while it holds fewer than report_min_sample classes:
// from the monitor while the chains run, and from the neighbour walk's stop test after them (the
// walk fills most of a large pool: c20ng, `learn --time 20`, held 1 class when the chains stopped).
void SearchDriver::update_cost(double now) {
  const std::size_t size = pool_.size();
  if (size == 0) return;
  // A small pool's sizes are measured again every interval (one class of few members may give
  // way to one of thousands); a larger one's each time it doubles, however soon: the chains
  // can pool a thousand classes in a second, and each of c20ng's costs the report 5e-6 s per
  // variable (beside 2 busy processes, a measurement a second lagged the pool's growth from
  // 129 to 1,152 classes, and the run ended 8 s late).
  if (size >= o_.tune.report_min_sample ? size < 2 * cost_pool_
                                        : now - cost_time_ < o_.tune.cost_interval)
    return;
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

}  // namespace bnsl
