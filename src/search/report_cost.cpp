// The search's report of its pool and its measured cost (report_cost.hpp).
#include "search/report_cost.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "io/report_io.hpp"
#include "parallel/slowdown.hpp"
#include "pool/class_members.hpp"

namespace bnsl {

PoolReport make_report(const ScoreCache& cache, std::span<const PooledDag> pooled,
                       const SearchOptions& o, std::size_t max_dags,
                       const Clock::time_point* list_until) {
  PoolReport r;
  const std::size_t n = cache.n_vars();
  r.algorithm = to_string(o.algo);
  r.constraints = o.constraints;
  const auto parents_of = [&](const Choices& choices) {
    ParentSets parents(n);
    for (std::size_t v = 0; v < n; ++v) {
      auto ps = cache.var(v).parents(choices[v]);
      parents[v].assign(ps.begin(), ps.end());
    }
    return parents;
  };
  for (const PooledDag& d : pooled) {
    if (o.classes) {
      PoolClass& c = r.classes.emplace_back();
      c.score = d.score;
      c.dag = parents_of(d.choices);
    } else  // every DAG kept; summarize() finds their classes
      r.dags.push_back({d.score, parents_of(d.choices)});
  }
  if (o.classes) list_members(r, max_dags, list_until, o.pool_tune);
  return r;
}

ReportCost measure_report_cost(const ScoreCache& cache, const DagPool& pool,
                               const SearchOptions& o) {
  ReportCost cost;
  const std::size_t n = std::max<std::size_t>(cache.n_vars(), 1);
  const std::size_t per_sample = std::max<std::size_t>(o.tune.report_sample_cells / n, 1);
  const std::vector<PooledDag> sample = pool.sample(per_sample);
  if (sample.empty()) return cost;
  const auto cells = [n](std::size_t count) {
    return static_cast<double>(count) * static_cast<double>(n);
  };
  // The classes (or, without SearchOptions::classes, the DAGs whose classes summarize finds):
  // their report, summary and JSON, then (below, after the members) freeing them.
  double members = 0;  // the sampled classes' sizes, each at most dag_capacity
  const std::size_t capacity = o.dag_capacity(cache.n_vars());
  const double t0 = thread_cpu_seconds();
  PoolReport r = make_report(cache, sample, o, 0);
  summarize(r, 1);
  const double summarized = thread_cpu_seconds();
  { const std::string text = pool_json_text(r); }
  for (const PoolClass& c : r.classes)
    members += std::min(std::pow(10.0, c.log10_size), static_cast<double>(capacity));
  const double t1 = thread_cpu_seconds();
  if (o.classes) cost.members_per_class = members / static_cast<double>(sample.size());
  // A smaller sample (of a pool of fewer classes, while the cells allow more) gives the
  // classes' sizes only: a report's fixed costs and cold caches would count as the classes'.
  if (sample.size() < std::min(per_sample, o.tune.report_min_sample)) return cost;
  // Their members: listed, written as the pool file lists them after the classes, freed.
  const std::size_t dags = o.classes ? std::min(per_sample, capacity) : 0;
  std::size_t listed = 0;
  if (dags > 0) {
    list_members(r, dags, nullptr, o.pool_tune);
    listed = r.dags.size();
    PoolReport alone;
    alone.dags = std::move(r.dags);
    { const std::string text = pool_json_text(alone); }
  }
  const double t2 = thread_cpu_seconds();
  r = {};
  const double t3 = thread_cpu_seconds();
  cost.class_cell = std::max((t1 - t0) + (t3 - t2), 1e-9) / cells(sample.size());
  cost.write_cell = std::max((t1 - summarized) + (t3 - t2), 1e-9) / cells(sample.size());
  if (dags > 0) cost.dag_cell = std::max(t2 - t1, 1e-9) / cells(std::max<std::size_t>(listed, 1));
  cost.measurements = 1;
  return cost;
}

// The report of the pool's best max_classes classes, up to max_dags members listed.
PoolReport make_report(const ScoreCache& cache, const DagPool& pool, const SearchOptions& o,
                       std::optional<std::size_t> max_dags, const Clock::time_point* list_until,
                       std::size_t max_classes) {
  PoolReport r = make_report(cache, pool.snapshot(max_classes), o,
                             max_dags.value_or(o.dag_capacity(cache.n_vars())), list_until);
  r.variables = cache.names_or_defaults();
  r.epsilon = pool.epsilon();
  return r;
}

}  // namespace bnsl
