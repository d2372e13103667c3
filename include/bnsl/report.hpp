// The result of a learning run and the files that report it: a pool of DAGs within epsilon
// of the best, grouped into Markov equivalence classes, with edge probabilities.
//
//   bnsl::PoolReport r;
//   r.score = "bic"; r.variables = data.names(); r.rows = data.n_rows(); r.epsilon = 2.9957;
//   r.dags = {{-54209.3, parents0}, {-54210.1, parents1}};    // sorted best first
//   bnsl::write_outputs("out/alarm", r, &data);
//   // out/alarm.pool.json, out/alarm.best.bif, out/alarm.best.dot, out/alarm.consensus.dot
//
// Files are written atomically (PATH.tmp, then rename), so a reader never sees half a file
// and a run killed mid-write leaves the previous checkpoint intact.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bnsl/dataset.hpp"

namespace bnsl {

using ParentSets = std::vector<std::vector<int>>;  // parents[v]: sorted parent indices of v

struct PoolDag {
  double score = 0;
  ParentSets parents;
  int mec = -1;  // equivalence class id (filled by summarize)
};

struct EdgeProb {
  int from = 0, to = 0;  // arc from -> to
  double p = 0;          // posterior weight of DAGs with this arc (p_arc) ...
  double p_edge = 0;     // ... and with the edge in either direction
};

struct PoolReport {
  std::string score = "bic";  // "bic" | "bdeu"
  std::optional<double> ess;  // BDeu only
  std::vector<std::string> variables;
  std::size_t rows = 0;
  double epsilon = 0;
  bool optimal = false;         // best score proven optimal
  bool complete = false;        // every DAG within epsilon of the optimum is listed
  std::vector<PoolDag> dags;    // sorted best first
  int mec_count = 0;            // filled by summarize
  std::vector<EdgeProb> edges;  // filled by summarize: arcs with p > 0, by decreasing p
  std::string algorithm;        // e.g. "asobs", "ilp"
  double seconds = 0;           // wall time of the run
};

// Computes each DAG's equivalence class (CPDAG) and the edge probabilities, weighting DAG G
// by exp(score(G) - best). The classes are computed on `threads` threads (0: all cores).
void summarize(PoolReport& report, int threads = 0);

// summarize() (if not done) and write PREFIX.pool.json, PREFIX.best.dot,
// PREFIX.consensus.dot and, when data is given, PREFIX.best.bif with parameters estimated
// from the data.
void write_outputs(const std::string& prefix, PoolReport& report, const Dataset* data);

// Reads a pool JSON written by write_outputs. Throws InputError with the file name.
PoolReport read_pool_json(const std::string& path);

}  // namespace bnsl
