// What a command says on stderr as each phase ends: one short block a phase by default, the
// figures a user acts on (time, size, the best score, what a cap or the deadline cut, with the
// option that sets it). The counters behind them (sets per pruning rule, swaps, pool offers,
// the report's cost) are for --verbose, which prints the library's own print(), and for
// --stats, whose JSON holds every one.
#pragma once

#include <sstream>
#include <string>

#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/search.hpp"

namespace bnsl::cli {

// "bnsl: explore: 4.97 s, 37 variables (37 stopped by the budget), 713930 sets scored; cache
// 3098 entries, 66 KiB", and a line for screening or a memory cap that cut variables.
std::string brief_summary(const ExploreStats& stats);

// "bnsl: search: 4.19 s, best -53790.1832 found at 0.04 s, 22751 orders; 41 classes within
// epsilon", and a line for a full pool or a report cut short.
std::string brief_summary(const SearchStats& stats);

// "bnsl: exact (dp): best -1234.5678 (proven optimal); 14 DAGs listed (complete)", and the
// lines on what a cut list still proves (--max-solutions, --k-best).
std::string brief_summary(const ExactStats& stats);

// The phase's block: the counters (`stats.print`) with `verbose`, else the short one above.
template <typename Stats>
std::string phase_summary(const Stats& stats, bool verbose) {
  if (!verbose) return brief_summary(stats);
  std::ostringstream out;
  stats.print(out);
  return out.str();
}

}  // namespace bnsl::cli
