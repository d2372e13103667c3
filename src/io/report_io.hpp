// Text renderings of a pool report (JSON, CSV, DOT); the public entry points are write_outputs
// / read_pool_json in bnsl/results.hpp.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

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

// The search's account of its pool (PoolAccount): {"classes_within_epsilon", "spread",
// "classes_admitted", "left_epsilon", "for_room", "cut", "walk_seconds", "walk_finished",
// "note"} (note null unless the pool is small for what it admitted); null without one. The
// pool file's "pool_account" and the --stats file's "account".
nlohmann::ordered_json pool_account_json(const std::optional<PoolAccount>& account);

// How `dag` differs from `base`, both with sorted parent lists (src/io/pool_json.cpp): the arcs
// it adds (joining variables the base does not), the base's arcs it removes, and its arcs the
// base holds reversed; each list by child, then parent.
struct DagChanges {
  std::vector<std::pair<int, int>> added, removed, reversed;  // (from, to)
};
DagChanges dag_changes(const ParentSets& base, const ParentSets& dag);
// `dag` with every parent list sorted: itself when it is, else a sorted copy in `scratch`.
const ParentSets& sorted_parents(const ParentSets& dag, ParentSets& scratch);

// CSV tables (src/io/tables.cpp): PREFIX.edges.csv, PREFIX.classes.csv, and with --matrices
// PREFIX.probabilities.csv (PREFIX.best.adjacency.csv is the adjacency network format).
void write_edges_csv(std::ostream& os, const PoolReport& report);
void write_classes_csv(std::ostream& os, const PoolReport& report);
void write_probability_csv(std::ostream& os, const PoolReport& report);

// Graphviz: the best DAG, and the consensus graph (src/io/dot.cpp): up to
// kWholeConsensusMaxVars variables, the edges with probability > 0.5; above, the uncertain
// edges only, laid out by sfdp.
inline constexpr std::size_t kWholeConsensusMaxVars = 100;
std::string best_dot_text(const PoolReport& report);
std::string consensus_dot_text(const PoolReport& report);

}  // namespace bnsl
