// Identical rows counted once, with their multiplicity: every count n_jk a family needs is a
// sum over rows, so counting the distinct rows of a data set, each weighted by how often it
// occurs, gives the same counts in fewer passes. Data with few variables and many rows repeat
// rows a lot (uci/msnbc: 58,265 rows, 4,217 distinct; uci/letter: 20,000, 5,060).
//
//   std::optional<bnsl::RowGroups> g = bnsl::group_rows(data);
//   bnsl::Counter counter(data, params, g ? &*g : nullptr);  // counts g->rows, weighted
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/tunables.hpp"

namespace bnsl {

struct RowGroups {
  Dataset rows;                       // the distinct rows, in order of first appearance
  std::vector<std::uint32_t> weight;  // weight[i]: how many rows of the data equal rows[i]
};

// A weighted pass costs about 1.2 times a plain one per row visited (bench_scoring, grouped
// against explore: synthetic data with 54% of 100,000 rows distinct, 1.5-1.8 times faster; 79%
// of 10,000, 1.02-1.09 times; 95% of 1,000, 0.76-0.79 times), so rows are grouped when at most
// three quarters of them are distinct (explore.group_rows_share, bnsl/tunables.hpp).

// Groups the identical rows of `data`, or returns nothing when more than `max_share` of its
// rows are distinct.
std::optional<RowGroups> group_rows(const Dataset& data,
                                    double max_share = ExploreTunables{}.group_rows_share);

}  // namespace bnsl
