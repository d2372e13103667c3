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

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/dataset.hpp"

namespace bnsl {

using ParentSets = std::vector<std::vector<int>>;  // parents[v]: sorted parent indices of v

struct PoolDag {
  double score = 0;
  ParentSets parents;
  int mec = -1;  // equivalence class id (filled by summarize)
};

// One Markov equivalence class of the pool (summarize fills them, in order of class id: the
// class of the best DAG first). Score-equivalent scores (BIC, BDeu) give every DAG of a class
// the same score, so a class holds `size` DAGs of score `score`, of which `members` are listed
// in the pool; a pool that is complete lists all of them.
struct PoolClass {
  double score = 0;         // the score of its first (best) DAG in the pool
  std::string size;         // the number of DAGs in the class, exactly (decimal)
  double log10_size = 0;    // log10 of size
  std::size_t members = 0;  // DAGs of the class in the pool
  std::size_t first = 0;    // index in PoolReport::dags of its first DAG
  // The class's essential graph (CPDAG): compelled arcs (from, to) and reversible edges
  // (u, v) with u < v, each list sorted.
  std::vector<std::pair<int, int>> arcs, edges;
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
  bool optimal = false;            // best score proven optimal
  bool complete = false;           // every DAG within epsilon of the optimum is listed
  std::vector<PoolDag> dags;       // sorted best first
  int mec_count = 0;               // filled by summarize
  std::vector<PoolClass> classes;  // filled by summarize: mec_count of them, by class id
  std::vector<EdgeProb> edges;     // filled by summarize: arcs with p > 0, by decreasing p
  std::string algorithm;           // e.g. "asobs", "ilp"
  double seconds = 0;              // wall time of the run
};

// Computes each DAG's equivalence class (CPDAG), each class's size (src/pool/mec_size.cpp)
// and the edge probabilities, weighting DAG G by exp(score(G) - best). The classes are
// computed on `threads` threads (0: all cores).
void summarize(PoolReport& report, int threads = 0);

// summarize() (if not done) and write PREFIX.pool.json, PREFIX.best.dot,
// PREFIX.consensus.dot and, when data is given, PREFIX.best.bif with parameters estimated
// from the data.
void write_outputs(const std::string& prefix, PoolReport& report, const Dataset* data);

// The number of DAGs in the pool's classes (the sum of their sizes), exactly, in decimal: the
// number of DAGs a complete pool lists.
std::string class_dag_count(const PoolReport& report);

// Reads a pool JSON written by write_outputs. Throws InputError with the file name.
PoolReport read_pool_json(const std::string& path);

}  // namespace bnsl
