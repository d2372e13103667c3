// The frame of the commands that run a pipeline (learn, search, score, exact), around the
// library's call. Before it: a run shared by several processes (bnsl/comm.hpp) prints and
// writes --stats on rank 0 only; the outputs are checked writable, so that no budget is spent
// on a run whose results cannot be written; the clock starts in every process at once; a
// header line says what runs. After it: --stats gets the statistics (with rank 0's traffic
// in a shared run), stderr the summary, and the exit status says whether a signal stopped it.
//
//   PipelineFrame frame("learn", comm, run, budget, prefix, {trace}, output);
//   frame.announce(path, "37 variables, 5000 rows", "bic, Bayes factor 20", constraints);
//   ReportWriter out = frame.report_writer(prefix, &data, args, files, prefer, trace);
//   LearnResult r = bnsl::learn(data, o, frame.stop(), ...);
//   return frame.finish(stats, summary, "wrote the networks found so far");
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bnsl/comm.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/report.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"
#include "outputs.hpp"

namespace bnsl::cli {

struct PoolArgs;
struct RunArgs;

class PipelineFrame {
 public:
  // Shares `run` with comm's processes (the others run quietly, without --stats), checks on
  // rank 0 that PREFIX.* (when `prefix` is given), every file of `files` that is not empty and
  // --stats can be written (RuntimeError naming the file otherwise, exit status 1), then starts
  // the stop token of `budget` seconds (0: none) together with the other processes.
  PipelineFrame(std::string command, Comm& comm, RunArgs& run, double budget,
                const std::string& prefix, const std::vector<std::string>& files,
                const OutputOptions& output = {});

  const StopToken& stop() const { return stop_; }
  bool verbose() const;

  // Unless --quiet, the header line: "bnsl: COMMAND: INPUT: SIZE; METHOD, BUDGET[; N processes]
  // [; constraints: ...]", where BUDGET is `budget` if given, else the stop token's ("60 s",
  // "no time limit").
  void announce(const std::string& input, const std::string& size, const std::string& method,
                const Constraints& constraints, const std::string& budget = "") const;

  // The writer of the pool's files (outputs.hpp): PREFIX.* with the outputs `args` asks for
  // (--matrices), the networks' `files` and the preferred arcs `prefer` (read before the
  // budget is spent), and the anytime curve in `trace` ("": none).
  ReportWriter report_writer(const std::string& prefix, const Dataset* data, const PoolArgs& args,
                             NetworkFiles files, std::vector<NamedArc> prefer,
                             const std::string& trace = "") const;

  // The end: writes `stats` to --stats (with "processes" in a shared run: their count and
  // rank 0's traffic), prints `summary` unless --quiet, and returns the exit status: 0, or
  // 128 + N when stopped by signal N (saying so unless --quiet, with `kept`: what the outputs
  // hold).
  int finish(nlohmann::json stats, const std::string& summary, const std::string& kept) const;
  // finish() for learn and search: the search's block (summary.hpp), then the pool's line
  // (pool_summary: the best score, the classes, the files written under `prefix`).
  int finish_pool(nlohmann::json stats, const SearchStats& search, const PoolReport& report,
                  const std::string& prefix, bool with_bif) const;
  // The command's last step, `return frame.leave(status)`: after a signal, with every output
  // written, the process ends here (std::_Exit, its streams flushed) rather than free what it
  // holds (0.3 s for a pool of 100,000 classes); a run of several processes ends normally.
  int leave(int status) const;

 private:
  std::string command_;
  Comm& comm_;
  const RunArgs& run_;
  StopToken stop_;
};

// "37 variables, 5000 rows": the data's size, as the header lines say it.
std::string size_text(const Dataset& data);

}  // namespace bnsl::cli
