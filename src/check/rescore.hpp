// Re-scoring DAGs from the data, for the pool checker (src/check/check.cpp) and for
// `bnsl merge` of pools (src/pipeline/merge.cpp); the search never uses it: a pool's scores
// are checked by code that did not compute them.
//
//   bnsl::FamilyMemo memo;
//   if (bnsl::graph_problem(dag).empty()) score = bnsl::rescore(scorer, dag, memo);
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/report.hpp"
#include "bnsl/score.hpp"

namespace bnsl {

// Empty when the parent lists are a valid acyclic graph (no self-loop, no parent listed twice,
// no directed cycle); otherwise what is wrong, naming the variables by `names` (when given, one
// per variable).
std::string graph_problem(const ParentSets& parents, const std::vector<std::string>& names = {});

// Local scores already computed, by (child, sorted parents): pooled DAGs share most families.
using FamilyMemo = std::map<std::pair<int, std::vector<int>>, double>;

// The DAG's score from the data: the sum of its local scores, in variable order.
double rescore(const LocalScorer& scorer, const ParentSets& parents, FamilyMemo& memo);

}  // namespace bnsl
