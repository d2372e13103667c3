// DAGs as parent sets (bnsl/graph.hpp).
#include "bnsl/graph.hpp"

#include <algorithm>

namespace bnsl {

std::vector<int> topological_order(const ParentSets& parents) {
  const std::size_t n = parents.size();
  std::vector<std::vector<int>> children(n);
  std::vector<std::size_t> missing(n);
  for (std::size_t v = 0; v < n; ++v) {
    for (const int p : parents[v])
      children[static_cast<std::size_t>(p)].push_back(static_cast<int>(v));
    missing[v] = parents[v].size();
  }
  std::vector<int> order;
  order.reserve(n);
  for (std::size_t v = 0; v < n; ++v)
    if (missing[v] == 0) order.push_back(static_cast<int>(v));
  for (std::size_t i = 0; i < order.size(); ++i)
    for (const int c : children[static_cast<std::size_t>(order[i])])
      if (--missing[static_cast<std::size_t>(c)] == 0) order.push_back(c);
  return order;
}

bool is_acyclic(const ParentSets& parents) {
  return topological_order(parents).size() == parents.size();
}

bool adjacent(const ParentSets& parents, int u, int v) {
  const auto has = [](const std::vector<int>& sorted, int x) {
    return std::binary_search(sorted.begin(), sorted.end(), x);
  };
  return has(parents[static_cast<std::size_t>(v)], u) ||
         has(parents[static_cast<std::size_t>(u)], v);
}

}  // namespace bnsl
