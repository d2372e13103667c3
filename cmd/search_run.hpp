// The part `bnsl search` and `bnsl learn` share: run the ordering search with periodic
// checkpoints, write the outputs, print the summary, and choose the exit status.
//
//   SearchRun run{"learn", prefix, &data, score_params, quiet, stats_file};
//   return run.execute(cache, search_options, stop, extra_stats_json);
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/report.hpp"
#include "bnsl/score.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"

namespace bnsl::cli {

inline constexpr double kDefaultTime = 60;  // s, when --time is not given

// Seconds kept back from the search at the end of a budget for writing the outputs.
double output_reserve(double budget);

struct SearchRun {
  std::string command;  // "search" | "learn", for messages
  std::string prefix;   // output prefix
  const Dataset* data;  // for names, row count and BIF parameters; may be null
  ScoreParams score;    // recorded in the pool report
  bool quiet = false;
  std::string stats_file;  // statistics as JSON (empty: none)
  std::string trace_file;  // "seconds best" per improvement (empty: none)
  // False when the cache may lack families a network within epsilon uses (exploration cut by
  // its budget or an in-degree limit): the report then claims neither optimal nor complete.
  bool cache_exhaustive = true;
  // The anytime curve: (seconds since the command started, best score) per rise of the best;
  // filled by write_early() and execute().
  std::vector<std::pair<double, double>> trace_points = {};

  // Runs the search, writes PREFIX.* (at checkpoints and at the end) and returns the exit
  // status: 0, or 128 + N when stopped by signal N.
  int execute(const ScoreCache& cache, const SearchOptions& options, const StopToken& stop,
              nlohmann::json stats_json = nlohmann::json::object());

  // Writes PREFIX.* for a network found before the search (learn's draft network), and
  // records it in the trace; `elapsed`: seconds since the command started.
  void write_early(PoolReport report, double elapsed, int threads);

 private:
  void label(PoolReport& r) const;
  void write(PoolReport& r, int threads);
};

}  // namespace bnsl::cli
