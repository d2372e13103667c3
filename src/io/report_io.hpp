// Text renderings of a pool report (JSON, CSV, DOT); the public entry points are write_outputs
// / read_pool_json in bnsl/report.hpp.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "bnsl/report.hpp"

namespace bnsl {

// The pool JSON format written (docs/design.md, "Outputs"); files without a `format` field
// are format 1, which is still read.
inline constexpr int kPoolJsonFormat = 2;

// PREFIX.pool.json content (docs/design.md, "Outputs"), one class per line, written as it is
// made (src/io/pool_json.cpp).
void write_pool_json(std::ostream& os, const PoolReport& report);
std::string pool_json_text(const PoolReport& report);
// Parses pool JSON text of either format (src/io/pool_json_read.cpp); `file` names it in
// InputError messages ("FILE:LINE:COL: ...").
PoolReport parse_pool_json(const std::string& text, const std::string& file);

// CSV tables (src/io/tables.cpp): PREFIX.edges.csv, PREFIX.classes.csv, and with --matrices
// PREFIX.best.adjacency.csv and PREFIX.probabilities.csv.
void write_edges_csv(std::ostream& os, const PoolReport& report);
void write_classes_csv(std::ostream& os, const PoolReport& report);
void write_adjacency_csv(std::ostream& os, const PoolReport& report);
void write_probability_csv(std::ostream& os, const PoolReport& report);
// A CSV field as RFC 4180 quotes it (in double quotes, a double quote doubled, when the text
// holds a comma, a double quote, a CR or an LF; also with leading or trailing spaces).
std::string csv_field(const std::string& text);

// Graphviz: the best DAG, and the consensus graph (src/io/dot.cpp): up to
// kWholeConsensusMaxVars variables, the edges with probability > 0.5; above, the uncertain
// edges only, laid out by sfdp.
inline constexpr std::size_t kWholeConsensusMaxVars = 100;
std::string best_dot_text(const PoolReport& report);
std::string consensus_dot_text(const PoolReport& report);

}  // namespace bnsl
