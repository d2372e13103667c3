// What the commands share around the library's pipeline calls (include/bnsl/learn.hpp): the
// writer of each report (PREFIX.* and the --trace file) and the texts of their summaries.
// (The frame around the calls, from the budget to the exit status: pipeline_frame.hpp.)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bnsl/comm.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"

namespace bnsl::cli {

// Writes every report it is given to PREFIX.* (atomically), and with a trace file the anytime
// curve collected by improvement() ("seconds best" per rise of the best score).
class ReportWriter {
 public:
  ReportWriter(std::string command, std::string prefix, const Dataset* data, bool quiet,
               std::string trace_file);
  // For LearnOptions::on_improvement / SearchOptions::on_improvement of search_cache().
  std::function<void(double, double)> improvement();
  // For the pipeline's ReportFn: writes the files; for the draft, says so unless quiet. A
  // draft or checkpoint that cannot be written is a warning (once); the final report's
  // failure throws (write_outputs: the files not written and why).
  ReportFn writer();
  void write(PoolReport& report);
  // Seconds the final report's files took to write (0 before it); --stats has it as
  // outputs.final_write_seconds: a deadline or a signal ends the run that long after the search.
  double final_write_seconds() const { return final_write_seconds_; }
  // Arcs each class's DAG should follow where its class allows (bnsl::prefer_arcs, which
  // walks as many members as `tune` says).
  void prefer(std::vector<NamedArc> arcs, const PoolTunables& tune) {
    prefer_ = std::move(arcs);
    prefer_tune_ = tune;
  }
  void options(const OutputOptions& options) { options_ = options; }
  // The best network's parameters and extra formats (write_outputs).
  void networks(NetworkFiles files) { networks_ = std::move(files); }

 private:
  std::string command_, prefix_;
  const Dataset* data_;
  bool quiet_;
  bool warned_ = false;   // a checkpoint could not be written (said once)
  bool drafted_ = false;  // a draft network was written (the quick pass's comes second)
  std::string trace_file_;
  std::vector<std::pair<double, double>> trace_;
  std::vector<NamedArc> prefer_;
  PoolTunables prefer_tune_;
  OutputOptions options_;
  NetworkFiles networks_;
  double final_write_seconds_ = 0;
};

// The preferred arcs of --prefer-arcs FILE (none when file is empty), by the variables' names:
// a CSV of from,to[,weight], or a network file in any format (bnsl/network_io.hpp: its arcs,
// weight 1; an adjacency CSV is told from an arc list by its header); throws InputError
// naming the file, line and column (exit status 2).
std::vector<NamedArc> read_preferences(const std::string& file,
                                       const std::vector<std::string>& names);

// What main says of an allocation that failed (std::bad_alloc) in `command`, which the checks
// before the large allocations (src/util/memory.hpp) did not foresee: the memory available
// now, and the way out (fewer rows or columns; for exact, fewer networks listed).
std::string out_of_memory_text(const std::string& command);

// A score as the summaries print it: "-54209.2900".
std::string score_text(double score);

// "3 equivalence classes of 14 DAGs (12 listed)": the pool's classes, the DAGs they hold
// (exact up to 15 digits, else about 1.2e+40) and the DAGs the pool file lists.
std::string classes_text(const PoolReport& report);

// "best -54209.2900; 3 equivalence classes of 14 DAGs (12 listed); wrote
// PREFIX.pool.json, ..." for the summary of learn and search.
std::string pool_summary(const std::string& command, const PoolReport& report,
                         const std::string& prefix, bool with_bif, double seconds);

}  // namespace bnsl::cli
