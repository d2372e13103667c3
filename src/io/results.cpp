// Output files of a learning run: PREFIX.pool.json, the tables PREFIX.edges.csv and
// PREFIX.classes.csv (and on request the matrices), PREFIX.best.dot, PREFIX.consensus.dot and
// PREFIX.best.bif (bnsl/results.hpp). Every file is written to PATH.tmp and renamed over PATH,
// so readers (and a run killed mid-checkpoint) only ever see complete files.
#include "bnsl/results.hpp"

#include <filesystem>
#include <fstream>
#include <functional>
#include <new>
#include <sstream>
#include <system_error>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "bnsl/network_io.hpp"
#include "io/report_io.hpp"
#include "util/atomic_file.hpp"

namespace bnsl {

namespace {

// The best network's structure over the report's variables, without parameters (no arcs for
// an empty pool).
BayesNet best_structure(const PoolReport& report) {
  BayesNet net;
  net.names = report.variables;
  if (report.dags.empty() && report.classes.empty())
    net.parents.assign(net.names.size(), {});
  else
    net.parents = best_network(report);
  net.states.assign(net.names.size(), {});
  return net;
}

// PREFIX.best.bif and PREFIX.best.EXT of each requested format; parameterised formats only
// with data (and then the network's names are the data's).
void write_best_networks(const std::string& prefix, const PoolReport& report, const Dataset* data,
                         const NetworkFiles& files) {
  if (report.dags.empty() && report.classes.empty()) return;
  BayesNet net;
  if (data) {
    net = estimate_parameters(*data, best_network(report), files.params);
    write_network(prefix + ".best.bif", net, NetFormat::bif);
  } else {
    net = best_structure(report);
  }
  for (NetFormat f : files.formats)
    if (f != NetFormat::bif && f != NetFormat::dot && (data || !has_parameters(f)))
      write_network(prefix + ".best" + extension_of(f), net, f);
}

}  // namespace

void write_outputs(const std::string& prefix, PoolReport& report, const Dataset* data,
                   const NetworkFiles& files, const OutputOptions& options) {
  // Each file on its own: one that cannot be written (a full disk, memory) leaves the others
  // to be written, the best network first, as it is the smallest and the most wanted.
  std::vector<std::string> failed;
  const auto attempt = [&failed](const std::string& path, const std::function<void()>& write) {
    try {
      write();
      return true;
    } catch (const std::bad_alloc&) {
      failed.push_back(path + ": out of memory");
    } catch (const RuntimeError& e) {
      failed.push_back(e.what());
    }
    return false;
  };
  const auto write = [&](const char* suffix, void (*writer)(std::ostream&, const PoolReport&)) {
    attempt(prefix + suffix, [&] {
      write_file_atomically(prefix + suffix, [&](std::ostream& out) { writer(out, report); });
    });
  };
  attempt(prefix + ".best.bif", [&] { write_best_networks(prefix, report, data, files); });
  attempt(prefix + ".best.dot",
          [&] { write_file_atomically(prefix + ".best.dot", best_dot_text(report)); });
  const bool summarized = attempt(prefix + ".pool.json", [&] {
    if (report.mec_count == 0 && !report.dags.empty()) summarize(report);
    if (data) report.discretized = data->discretized();
  });
  if (summarized) {
    write(".pool.json", write_pool_json);
    write(".edges.csv", write_edges_csv);
    write(".classes.csv", write_classes_csv);
    if (options.matrices) {
      attempt(prefix + ".best.adjacency.csv", [&] {
        write_network(prefix + ".best.adjacency.csv", best_structure(report), NetFormat::adjacency);
      });
      write(".probabilities.csv", write_probability_csv);
    }
    attempt(prefix + ".consensus.dot",
            [&] { write_file_atomically(prefix + ".consensus.dot", consensus_dot_text(report)); });
  }
  if (failed.empty()) return;
  std::string what = failed.size() == 1 ? "an output not written: " : "outputs not written: ";
  for (std::size_t i = 0; i < failed.size(); ++i) what += (i ? "; " : "") + failed[i];
  if (!summarized) what += " (nor the tables and the consensus, which need the summary)";
  throw RuntimeError(what);
}

std::vector<std::string> output_paths(const std::string& prefix, const OutputOptions& options) {
  std::vector<std::string> out;
  for (const char* suffix :
       {".pool.json", ".edges.csv", ".classes.csv", ".best.dot", ".consensus.dot", ".best.bif"})
    out.push_back(prefix + suffix);
  if (options.matrices)
    for (const char* suffix : {".best.adjacency.csv", ".probabilities.csv"})
      out.push_back(prefix + suffix);
  return out;
}

PoolReport read_pool_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open the pool JSON file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_pool_json(buf.str(), path);
}

}  // namespace bnsl
