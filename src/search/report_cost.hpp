// The search's report of its pool, and what the final one costs, so that the search stops in
// time for the files to be on disk by the deadline (issue 24).
//
//   PoolReport r = make_report(cache, pool.snapshot(), options, options.dag_capacity(n));
//   ReportCost cost = measure_report_cost(cache, pool, options);   // while the chains run
//   double s = cost.seconds(classes, dags, n);                      // one thread, idle machine
//
// The cost is that of one thread per class-cell (a class's essential graph, size, edge
// orientations and JSON, per variable) and per listed-DAG-cell (a member's parent lists:
// listing it, its JSON, freeing it). Neither is a constant: andes' classes cost 2.9e-7 s per
// cell, eachmovie's 5.3e-7; listing a member of c20ng's classes (910 variables, millions of
// DAGs each) costs 2.6e-7 s per cell where a guess of 0.07 of a class had 2.1e-8, and the
// report of kosarek's 52,631 listed DAGs took 3.1 s beside a reserve of 0.2 s for them
// (bench/results/deadline.md, "The report's reserve, measured on a sample of the pool"). So the
// search measures them on a sample of its pool.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "bnsl/cache.hpp"
#include "bnsl/report.hpp"
#include "bnsl/search.hpp"
#include "pool/dag_pool.hpp"

namespace bnsl {

// The report of pooled DAGs, best first: with SearchOptions::classes one class per DAG and up
// to `max_dags` of their members listed (pool/class_members.hpp); else the DAGs themselves.
// The caller names the variables and sets epsilon. With `list_until`, the listing of members
// also ends at that moment (the first class's DAG is always listed).
PoolReport make_report(const ScoreCache& cache, std::span<const PooledDag> pooled,
                       const SearchOptions& o, std::size_t max_dags,
                       const Clock::time_point* list_until = nullptr);

// Seconds of one thread on an idle machine per class-cell and per listed-DAG-cell of a report,
// as a sample measures them.
struct ReportCost {
  // Before a measurement: andes' classes, and a sample's rate for the c20ng and kosarek members.
  double class_cell = 3e-7;
  double dag_cell = 1.5e-7;
  // The part of class_cell after the summary (the JSON, freeing): what a class the summary
  // describes commits the report to (SummaryLimit). Before a measurement: half, as 3,333
  // classes of 3,000 variables spent 1.6 s summarizing and 2 s writing and freeing.
  double write_cell = 1.5e-7;
  // The DAGs of a class the report lists on average (its size, at most dag_capacity): 0 until
  // measured, and without SearchOptions::classes.
  double members_per_class = 0;
  int measurements = 0;
  double seconds(double classes, double dags, std::size_t n) const {
    return (class_cell * classes + dag_cell * dags) * static_cast<double>(n);
  }
};

// A measurement's sample holds o.tune.report_sample_cells cells, for the classes and for the
// listed DAGs each: about 25 ms of one thread at the rates above by default. Fewer sampled
// classes than o.tune.report_min_sample (while the cells allow more) give the classes' sizes
// only, not the rates: a report's fixed costs and cold caches would count as the classes' (one
// class of 910 variables costs ten times the rate per class-cell of a hundred).

// Times the report of a sample of the pool's classes, spread evenly over their scores, on the
// calling thread's CPU clock (the chains computing beside it do not count): the classes alone
// (their report, summarize on one thread, JSON, freeing), then as many of their members as
// fill the sample's cells (listing, JSON, freeing), at most as many as the final report lists
// (dag_capacity), none without SearchOptions::classes. The final report summarizes on every
// thread, so on one thread the classes' part errs on the long side. An empty pool gives
// nothing, a small sample (report_min_sample) members_per_class only (measurements 0).
ReportCost measure_report_cost(const ScoreCache& cache, const DagPool& pool,
                               const SearchOptions& o);

// The report of the pool's best max_classes classes (all by default), up to max_dags (default
// dag_capacity) members listed.
PoolReport make_report(const ScoreCache& cache, const DagPool& pool, const SearchOptions& o,
                       std::optional<std::size_t> max_dags = std::nullopt,
                       const Clock::time_point* list_until = nullptr,
                       std::size_t max_classes = SIZE_MAX);

}  // namespace bnsl
