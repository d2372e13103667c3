// The frame of the pipeline commands (pipeline_frame.hpp).
#include "pipeline_frame.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "options.hpp"
#include "outputs.hpp"
#include "summary.hpp"
#include "util/atomic_file.hpp"

namespace bnsl::cli {
namespace {

// A run shared by several processes: only rank 0 prints and writes --stats. (Rank 0 alone
// writes the outputs: the commands give the pipeline a report writer there only.)
RunArgs& shared(const Comm& comm, RunArgs& run) {
  if (!comm.root()) {
    run.quiet = true;
    run.stats_file.clear();
  }
  return run;
}

void check_outputs(const std::string& prefix, const std::vector<std::string>& files,
                   const RunArgs& run, const OutputOptions& options) {
  std::vector<std::string> all = files;
  if (!prefix.empty())
    for (const std::string& path : output_paths(prefix, options)) all.push_back(path);
  all.push_back(run.stats_file);
  for (const std::string& path : all)
    if (!path.empty()) check_writable(path);
}

// Checks the outputs on rank 0, then starts the clock in every process together.
StopToken start(Comm& comm, const RunArgs& run, double budget, const std::string& prefix,
                const std::vector<std::string>& files, const OutputOptions& output) {
  if (comm.root()) check_outputs(prefix, files, run, output);
  return start_together(comm, budget);
}

}  // namespace

PipelineFrame::PipelineFrame(std::string command, Comm& comm, RunArgs& run, double budget,
                             const std::string& prefix, const std::vector<std::string>& files,
                             const OutputOptions& output)
    : command_(std::move(command)),
      comm_(comm),
      run_(shared(comm, run)),
      stop_(start(comm, run_, budget, prefix, files, output)) {}

bool PipelineFrame::verbose() const {
  return run_.verbose;
}

void PipelineFrame::announce(const std::string& input, const std::string& size,
                             const std::string& method, const Constraints& constraints,
                             const std::string& budget) const {
  if (run_.quiet) return;
  std::cerr << "bnsl: " << command_ << ": " << input << ": " << size << "; " << method << ", "
            << (!budget.empty()      ? budget
                : stop_.budget() > 0 ? number_text(stop_.budget()) + " s"
                                     : std::string("no time limit"))
            << (comm_.distributed() ? "; " + comm_.describe() : std::string())
            << (constraints.empty() ? std::string() : "; constraints: " + constraints.describe())
            << "\n";
}

ReportWriter PipelineFrame::report_writer(const std::string& prefix, const Dataset* data,
                                          const PoolArgs& args, NetworkFiles files,
                                          std::vector<NamedArc> prefer,
                                          const std::string& trace) const {
  ReportWriter out(command_, prefix, data, run_.quiet, trace);
  out.prefer(std::move(prefer), run_.tunables.pool);
  out.options(args.output);
  out.networks(std::move(files));
  return out;
}

int PipelineFrame::finish(nlohmann::json stats, const std::string& summary,
                          const std::string& kept) const {
  if (comm_.distributed())  // rank 0's traffic (bench/mpi.sh)
    stats["processes"] = {{"count", comm_.size()},
                          {"bytes_sent", comm_.traffic().sent},
                          {"bytes_received", comm_.traffic().received}};
  if (signal_received())  // the signal's number, and the run's seconds at its end
    stats["signal"] = {{"number", received_signal()}, {"run_seconds", stop_.elapsed()}};
  if (const auto changed = changed_tunables(run_.tunables); !changed.empty())
    stats["tunables"] = changed;  // those --set changed, as NAME=VALUE
  if (!run_.stats_file.empty()) write_file_atomically(run_.stats_file, stats.dump(2) + "\n");
  if (!run_.quiet) std::cerr << summary;
  if (!signal_received()) return 0;
  if (!run_.quiet)
    std::cerr << "bnsl: " << command_ << ": interrupted by signal " << received_signal() << "; "
              << kept << "\n";
  return 128 + received_signal();
}

int PipelineFrame::finish_pool(nlohmann::json stats, const SearchStats& search,
                               const PoolReport& report, const std::string& prefix,
                               bool with_bif) const {
  return finish(std::move(stats),
                phase_summary(search, verbose()) +
                    pool_summary(command_, report, prefix, with_bif, stop_.elapsed()),
                "wrote the networks found so far");
}

int PipelineFrame::leave(int status) const {
  if (!signal_received() || comm_.distributed()) return status;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(status);
}

std::string size_text(const Dataset& data) {
  return std::to_string(data.n_vars()) + " variables, " + std::to_string(data.n_rows()) + " rows";
}

}  // namespace bnsl::cli
