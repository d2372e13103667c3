// The writer of reports and the texts of the summaries (outputs.hpp). Reports come labelled and
// summarised from the library; this only writes them, keeps the trace and talks to the user.
#include "outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bnsl/arcs.hpp"
#include "bnsl/error.hpp"
#include "bnsl/results.hpp"
#include "bnsl/stop.hpp"
#include "options.hpp"
#include "util/atomic_file.hpp"
#include "util/memory.hpp"

namespace bnsl::cli {
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

// Whether --prefer-arcs names a network file: any network extension but .csv, or a .csv whose
// first line is not an arc list's header (from,to...).
bool preference_is_network(const std::string& file) {
  const auto format = format_by_extension(file);
  if (!format) return false;
  if (*format != NetFormat::adjacency) return true;
  std::ifstream in(file);
  std::string line, first;
  while (first.empty() && std::getline(in, line)) {
    for (char c : line)
      if (c != ' ' && c != '\t' && c != '"' && c != '\r') first += c;
    if (!first.empty() && first[0] == '#') first.clear();
  }
  return first.rfind("from,to", 0) != 0;
}

}  // namespace

std::string score_text(double score) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4f", score);
  return text;
}

ReportWriter::ReportWriter(std::string command, std::string prefix, const Dataset* data, bool quiet,
                           std::string trace_file)
    : command_(std::move(command)),
      prefix_(std::move(prefix)),
      data_(data),
      quiet_(quiet),
      trace_file_(std::move(trace_file)) {}

std::function<void(double, double)> ReportWriter::improvement() {
  if (trace_file_.empty()) return {};
  return [this](double seconds, double best) { trace_.emplace_back(seconds, best); };
}

std::vector<NamedArc> read_preferences(const std::string& file,
                                       const std::vector<std::string>& names) {
  if (file.empty()) return {};
  if (!preference_is_network(file)) return read_arcs(file, names, true);
  std::vector<NamedArc> arcs;
  const auto parents = read_network_arcs(file, names);
  for (std::size_t v = 0; v < parents.size(); ++v)
    for (int p : parents[v]) arcs.push_back({p, static_cast<int>(v), 1.0, 0});
  return arcs;
}

void ReportWriter::write(PoolReport& report) {
  if (!prefer_.empty()) {
    if (report.mec_count == 0 && !report.dags.empty()) summarize(report);
    prefer_arcs(report, prefer_, prefer_tune_);
  }
  write_outputs(prefix_, report, data_, networks_, options_);
  if (!trace_file_.empty()) write_trace(trace_file_, trace_);
}

ReportFn ReportWriter::writer() {
  return [this](PoolReport& report, ReportStage stage) {
    if (stage == ReportStage::final) {
      const StopToken clock;
      write(report);
      final_write_seconds_ = clock.elapsed();
      return;
    }
    try {  // a checkpoint that cannot be written: the run goes on to its final report
      write(report);
    } catch (const RuntimeError& e) {
      if (!quiet_ && !warned_)
        std::cerr << "bnsl: " << command_ << ": warning: " << e.what()
                  << "; the run goes on (its final report is written again)\n";
      warned_ = true;
      return;
    }
    if (stage == ReportStage::draft && !quiet_ && !report.dags.empty())
      std::cerr << "bnsl: " << command_ << ": wrote " << (drafted_ ? "a better" : "a first")
                << " network (" << report.algorithm << ", score "
                << score_text(report.dags.front().score) << ") to " << prefix_ << ".* at "
                << report.seconds << " s\n";
    if (stage == ReportStage::draft) drafted_ = true;
  };
}

std::string classes_text(const PoolReport& report) {
  std::string total = class_dag_count(report);
  if (total.size() > 15) {  // "about 1.23e+40", not 41 digits
    const std::size_t digits = std::min<std::size_t>(total.size(), 17);
    double mantissa = std::stod(total.substr(0, digits)) / std::pow(10.0, digits - 1.0);
    std::size_t exponent = total.size() - 1;
    if (mantissa >= 9.995) {  // would print as 10.00
      mantissa /= 10;
      ++exponent;
    }
    char text[64];
    std::snprintf(text, sizeof text, "about %.2fe+%zu", mantissa, exponent);
    total = text;
  }
  std::ostringstream out;
  out << report.classes.size() << " equivalence classes of " << total << " DAGs ("
      << report.dags.size() << " listed)";
  return out.str();
}

std::string pool_summary(const std::string& command, const PoolReport& report,
                         const std::string& prefix, bool with_bif, double seconds) {
  std::ostringstream out;
  out << "bnsl: " << command << ": best " << score_text(report.dags.front().score) << "; "
      << classes_text(report) << "; wrote " << prefix << ".pool.json, .edges.csv, .classes.csv"
      << (with_bif ? ", .best.bif" : "") << ", .best.dot, .consensus.dot (" << seconds << " s)\n";
  return out.str();
}

std::string out_of_memory_text(const std::string& command) {
  const MemoryLimit left = available_memory();
  // Exact mode's lists grow with epsilon, not with the data: list fewer networks.
  const std::string hint = command == "exact" ? "free memory, or list fewer networks (a smaller "
                                                "--bayes-factor, --max-solutions or --k-best)"
                                              : kLessDataHint;
  return "out of memory: an allocation failed" +
         (std::isfinite(left.bytes)
              ? " (" + bytes_text(left.bytes) + " available now, " + left.source + ")"
              : std::string()) +
         "; " + hint;
}

}  // namespace bnsl::cli
