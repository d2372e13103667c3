// The files that report a learning run: PREFIX.pool.json, the tables, the pictures and the best
// network (src/io/results.cpp), and the pool file read back.
//
//   bnsl::PoolReport r = ...;                              // bnsl/report.hpp
//   bnsl::write_outputs("out/alarm", r, &data);
//   // out/alarm.pool.json, .edges.csv, .classes.csv, .best.bif, .best.dot, .consensus.dot
//   bnsl::PoolReport back = bnsl::read_pool_json("out/alarm.pool.json");
//
// Files are written atomically (PATH.tmp, then rename), so a reader never sees half a file
// and a run killed mid-write leaves the previous checkpoint intact.
#pragma once

#include <string>
#include <vector>

#include "bnsl/bif.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/network_io.hpp"
#include "bnsl/report.hpp"

namespace bnsl {

// The best network's files besides PREFIX.best.bif: its parameters (bnsl/bif.hpp) and the
// other formats it is written in, as PREFIX.best.EXT (bnsl/network_io.hpp).
struct NetworkFiles {
  ParamOptions params;
  std::vector<NetFormat> formats;
};

// What write_outputs writes beside the pool file, the tables, the pictures and the BIF.
struct OutputOptions {
  // PREFIX.best.adjacency.csv and PREFIX.probabilities.csv, the best network's adjacency matrix
  // and the arc probabilities as n x n matrices (2 n^2 bytes and more: 200 MB at 10,000
  // variables), on request.
  bool matrices = false;
};

// summarize() (if not done) and write PREFIX.pool.json (src/io/pool_json.cpp), the tables
// PREFIX.edges.csv and PREFIX.classes.csv (src/io/tables.cpp), PREFIX.best.dot,
// PREFIX.consensus.dot, with options.matrices the matrices, and, when data is given,
// PREFIX.best.bif with parameters estimated from the data; and the best network in each of
// `files.formats` (those with parameters only when data is given). The best network's files
// come first; a file that cannot be written (disk, memory) does not keep the others from
// being written: then a RuntimeError names every file not written and why.
void write_outputs(const std::string& prefix, PoolReport& report, const Dataset* data,
                   const NetworkFiles& files = {}, const OutputOptions& options = {});

// Every file write_outputs may write for `prefix` (PREFIX.best.bif among them).
std::vector<std::string> output_paths(const std::string& prefix, const OutputOptions& options = {});

// Reads a pool JSON written by write_outputs, of the current format or format 1 (older files,
// without a `format` field). Throws InputError with the file name (also when p_edge is given
// on some edges only).
PoolReport read_pool_json(const std::string& path);

}  // namespace bnsl
