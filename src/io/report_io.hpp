// Text renderings of a pool report (JSON, DOT); the public entry points are write_outputs /
// read_pool_json in bnsl/report.hpp.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "bnsl/report.hpp"

namespace bnsl {

// PREFIX.pool.json content (docs/design.md, "Outputs"), one DAG per line.
void write_pool_json(std::ostream& os, const PoolReport& report);
std::string pool_json_text(const PoolReport& report);
// Parses pool JSON text; `file` names it in InputError messages ("FILE:LINE:COL: ...").
PoolReport parse_pool_json(const std::string& text, const std::string& file);

// The search's account of its pool (PoolAccount): {"classes_within_epsilon", "spread",
// "classes_admitted", "left_epsilon", "for_room", "cut", "walk_seconds", "walk_finished",
// "note"} (note null unless the pool is small for what it admitted); null without one. The
// pool file's "pool_account" and the --stats file's "account".
nlohmann::ordered_json pool_account_json(const std::optional<PoolAccount>& account);

// Graphviz: the best DAG, and the consensus graph of edges with probability > 0.5.
std::string best_dot_text(const PoolReport& report);
std::string consensus_dot_text(const PoolReport& report);

}  // namespace bnsl
