// Numbers in data columns: telling columns of numbers from categories, and cutting them into
// intervals (--discretize; bnsl/dataset.hpp, DiscretizeSpec). Used by the CSV reader.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bnsl/dataset.hpp"

namespace bnsl {

// A whole field as a finite decimal number ("3", "-0.25", "1e-3"); false otherwise.
bool parse_data_number(std::string_view text, double& x);

// The K + 1 cut points of a column with these distinct `values` (sorted ascending) seen
// `counts` times each, by bnlearn's rules: interval: K equal widths between the minimum and
// the maximum; quantile: R's quantile() of type 7 at 0, 1/K, ..., 1. Empty when two cut
// points coincide (an interval of zero length).
std::vector<double> cut_points(const std::vector<double>& values,
                               const std::vector<std::size_t>& counts,
                               DiscretizeSpec::Method method, int intervals);
// The interval of x: 0 for x <= b1, else the k with b_k < x <= b_k+1.
int interval_of(double x, const std::vector<double>& breaks);
// R's cut() labels of the intervals: "[b0,b1]" for the first, "(bk,bk+1]" for the others,
// the cut points printed as %g, or with more digits where that would make two labels alike.
std::vector<std::string> interval_labels(const std::vector<double>& breaks);

}  // namespace bnsl
