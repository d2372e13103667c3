// Runs the ordering search for `bnsl search` / `bnsl learn` and writes its outputs: at every
// checkpoint (from the search's calling thread), and once more at the end -- after the
// deadline, or after SIGINT/SIGTERM, which the stop token sees, so the search returns its
// best-so-far and the files always hold a valid result. With --trace, every rise of the best
// score that the search reports (SearchOptions::on_improvement) is kept as "seconds best",
// seconds counted from the command's start (for learn, exploration included), and the trace
// file is rewritten atomically with the outputs at every checkpoint and at the end.
#include "search_run.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "options.hpp"

namespace bnsl::cli {

double output_reserve(double budget) {
  if (budget <= 0) return 0;
  return std::clamp(0.03 * budget, 0.1, 1.0);
}

namespace {

void write_trace(const std::string& path, const std::vector<std::pair<double, double>>& trace) {
  std::string text;
  char line[96];
  for (const auto& [seconds, best] : trace) {
    std::snprintf(line, sizeof line, "%.3f %.17g\n", seconds, best);
    text += line;
  }
  write_file_atomically(path, text);
}

}  // namespace

void SearchRun::label(PoolReport& r) const {
  r.optimal = r.optimal && cache_exhaustive;
  r.complete = r.complete && cache_exhaustive;
  r.score = to_string(score.kind);
  if (score.kind == ScoreKind::bdeu) r.ess = score.ess;
  r.rows = data ? data->n_rows() : 0;
  if (data) r.variables = data->names();
}

void SearchRun::write(PoolReport& r, int threads) {
  label(r);
  summarize(r, threads);
  write_outputs(prefix, r, data);
  if (!trace_file.empty()) write_trace(trace_file, trace_points);
}

void SearchRun::write_early(PoolReport report, double elapsed, int threads) {
  if (!report.dags.empty()) trace_points.emplace_back(elapsed, report.dags.front().score);
  report.seconds = elapsed;
  write(report, threads);
  if (!quiet && !report.dags.empty()) {
    char best[64];
    std::snprintf(best, sizeof best, "%.4f", report.dags.front().score);
    std::cerr << "bnsl: " << command << ": wrote a first network (" << report.algorithm
              << ", score " << best << ") to " << prefix << ".* at " << elapsed << " s\n";
  }
}

int SearchRun::execute(const ScoreCache& cache, const SearchOptions& options, const StopToken& stop,
                       nlohmann::json stats_json) {
  SearchStats stats;
  SearchOptions o = options;
  // The trace is filled and written on this thread only (search()'s calling thread); a rise
  // that is none over an earlier network (write_early) is not kept.
  if (!trace_file.empty())
    o.on_improvement = [this, offset = stop.elapsed()](double seconds, double best) {
      if (trace_points.empty() || best > trace_points.back().second) trace_points.emplace_back(offset + seconds, best);
    };
  auto checkpoint = [this, threads = o.threads](PoolReport& snap) { write(snap, threads); };
  PoolReport report = bnsl::search(cache, o, stop, &stats, checkpoint);
  report.seconds = stop.elapsed();
  write(report, o.threads);
  if (!stats_file.empty()) {
    stats_json["search"] = nlohmann::json::parse(stats.to_json());
    write_file_atomically(stats_file, stats_json.dump(2) + "\n");
  }
  if (!quiet) {
    stats.print(std::cerr);
    char best[64];
    std::snprintf(best, sizeof best, "%.4f", report.dags.front().score);
    std::cerr << "bnsl: " << command << ": best " << best << "; " << report.dags.size()
              << " DAGs in " << report.mec_count << " equivalence classes; wrote " << prefix
              << ".pool.json" << (data ? ", .best.bif" : "") << ", .best.dot, .consensus.dot ("
              << stop.elapsed() << " s)\n";
  }
  if (signal_received()) {
    if (!quiet)
      std::cerr << "bnsl: " << command << ": interrupted by signal " << received_signal()
                << "; wrote the networks found so far\n";
    return 128 + received_signal();
  }
  return 0;
}

}  // namespace bnsl::cli
