// Merging the results of independent runs (`bnsl merge`): score caches computed in parts, as
// job-array tasks do (`bnsl score DATA --vars A:B -o part-K.jkl`), and pools of runs with
// different seeds or on different machines.
//
//   bnsl::CacheMerge m = bnsl::merge_caches({"part-0.jkl", "part-1.jkl"});
//   bnsl::write_jkl("all.jkl", m.cache, {.provenance = &m.provenance});
//
//   bnsl::Dataset data = bnsl::read_csv("data.csv", {});
//   bnsl::PoolReport pool = bnsl::merge_pools(data, {"a.pool.json", "b.pool.json"}, {});
//   bnsl::write_outputs("merged", pool, &data);
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"  // write_outputs, as the example above uses

namespace bnsl {

struct CacheMerge {
  ScoreCache cache;
  CacheProvenance provenance;  // the parts', over every variable; exhaustive if all parts are
};

// Joins caches written by `bnsl score --vars A:B` (each with its provenance header). Throws
// InputError naming the file when a part has no provenance header, comes from other data, score,
// ESS, epsilon, in-degree limit or screening than the first part, has a different number of
// variables, holds entries outside its declared variables, or when the parts overlap or leave
// variables uncovered.
CacheMerge merge_caches(const std::vector<std::string>& paths);

struct PoolMergeOptions {
  // The epsilon of the merged pool (numeric, or a Bayes factor or factor of the merged best);
  // unset: the inputs' epsilon, which must then be the same in all of them.
  std::optional<Epsilon> epsilon;
  std::size_t pool_max = 100000;            // as SearchOptions: this many classes kept,
  std::size_t max_dags = 100000;            // ... this many of their DAGs listed ...
  std::size_t pool_max_cells = 10'000'000;  // ... each at most max(1000, this / n)
  int threads = 0;                          // for the summary (classes)
};

// One pool from pools of runs on `data` with the same score (and ESS): one DAG of every class
// re-scored from the data, classes met twice kept once, those within epsilon of the merged best
// kept (past the capacity, as a search's full pool keeps them: the best of each score band,
// across the whole range), their DAGs listed, then sizes and edge probabilities recomputed.
// `optimal` is kept when an
// input proved optimal a best equal to the merged best; `complete` is never claimed. Throws
// InputError naming the file on a pool of other variables or another score, a cyclic DAG, or
// pools of different epsilon without options.epsilon.
PoolReport merge_pools(const Dataset& data, const std::vector<std::string>& paths,
                       const PoolMergeOptions& options);

}  // namespace bnsl
