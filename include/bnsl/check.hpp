// An independent checker of a pool file against the data it was learned from: what
// `bnsl check` runs, callable from tests, benchmarks and other front ends.
//
//   bnsl::Dataset data = bnsl::read_csv("alarm.csv");
//   bnsl::PoolCheck c = bnsl::check_pool_file(data, "out/alarm.pool.json");
//   if (!c.ok()) for (const auto& item : c.items) ...   // item.name, item.problems
//
// Re-scores every pooled DAG from the data with LocalScorer (score kind and ESS from the JSON;
// the cache the search used plays no part) and checks: the row count; parent lists name no
// node twice and never the node itself; every DAG is acyclic (Kahn's algorithm, written
// here, not the library's); every reported score equals the recomputation; the DAGs are
// sorted best first and pairwise distinct; each is within epsilon of the best; best_score is
// the first DAG's score; and, when the file carries them and the DAGs are valid, the class
// ids and edge probabilities agree with a fresh summarize(); the skeleton-edge probabilities
// recomputed from the classes alone; and the class sizes and arc probabilities recomputed from
// the classes' members, enumerated by covered-arc reversals (item "members": every class up
// to 5,000 DAGs and 500,000 in all; an arc's probability must then lie within the weight of
// the classes left out, exactly when none is); with constraints (the file's, bnsl/
// constraints.hpp) the members that break them are left out of the counts, and item
// "constraints" checks that no DAG breaks them or those given. From the file's JSON apart from
// the pool reader (check/pool_fields.hpp): the header's counts against its lists (class_count,
// dag_count, dags_listed, n, k_best), every class size, every p and p_edge in [0, 1] with
// p(u -> v) + p(v -> u) = p_edge; `skipped` names what the file says and no check reads
// (the solver's proof of optimality and completeness, the search's accounts) and the checks
// left out (invalid DAGs, classes too large to enumerate). Scores match when they differ by at
// most the project's score tolerance (src/score/compare.hpp: 1e-9 relative) or, if given,
// `tolerance` (relative; loosen it for pools built from caches printed with few digits).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"

namespace bnsl {

struct PoolCheckItem {
  std::string name;                   // "rows", "acyclic", "scores", "sorted", ...
  std::string detail;                 // e.g. "37 DAGs", "largest difference 1e-12"
  std::vector<std::string> problems;  // empty: the check holds
};

struct PoolCheck {
  std::string score;                 // the pool's score name
  std::size_t dags = 0;              // DAGs in the pool
  std::vector<PoolCheckItem> items;  // in the order above
  bool summary_skipped = false;      // classes and edges not checked: some DAG is invalid
  std::vector<std::string> skipped;  // what the file says that was not checked, and why
  std::size_t failures() const;      // problems over all items
  bool ok() const { return failures() == 0; }
};

struct PoolCheckOptions {
  double tolerance = 0;   // relative score tolerance (0: the project's)
  std::string data_name;  // how error messages name the data (e.g. its path)
  // Forbidden arcs and tiers the pool must satisfy (`check --forbid/--tiers`; null: only those
  // the file states): item "constraints".
  const Constraints* constraints = nullptr;
};

// Throws InputError (naming the pool file) when the file is not a valid pool JSON, or when
// its variables are not the data's columns.
PoolCheck check_pool_file(const Dataset& data, const std::string& pool_path,
                          const PoolCheckOptions& options = {});

}  // namespace bnsl
