// Re-scoring DAGs from the data (rescore.hpp).
#include "check/rescore.hpp"

#include <algorithm>
#include <set>

namespace bnsl {

std::string graph_problem(const ParentSets& parents, const std::vector<std::string>& names) {
  const std::size_t n = parents.size();
  const auto name = [&](std::size_t v) {
    return v < names.size() ? "'" + names[v] + "'" : "variable " + std::to_string(v + 1);
  };
  std::vector<std::vector<int>> children(n);
  std::vector<std::size_t> missing(n);
  for (std::size_t v = 0; v < n; ++v) {
    std::set<int> seen;
    for (int p : parents[v]) {
      if (static_cast<std::size_t>(p) == v) return name(v) + " is its own parent";
      if (!seen.insert(p).second)
        return name(v) + " lists the parent " + name(static_cast<std::size_t>(p)) + " twice";
      children[p].push_back(static_cast<int>(v));
    }
    missing[v] = parents[v].size();
  }
  std::vector<int> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (missing[v] == 0) ready.push_back(static_cast<int>(v));
  std::size_t done = 0;
  while (!ready.empty()) {
    int v = ready.back();
    ready.pop_back();
    ++done;
    for (int c : children[v])
      if (--missing[c] == 0) ready.push_back(c);
  }
  return done == n ? "" : "directed cycle among " + std::to_string(n - done) + " nodes";
}

double rescore(const LocalScorer& scorer, const ParentSets& parents, FamilyMemo& memo) {
  double total = 0;
  for (std::size_t v = 0; v < parents.size(); ++v) {
    std::pair<int, std::vector<int>> key{static_cast<int>(v), parents[v]};
    std::sort(key.second.begin(), key.second.end());
    auto it = memo.find(key);
    if (it == memo.end()) {
      const double s = scorer.score(key.first, key.second).score;
      it = memo.emplace(std::move(key), s).first;
    }
    total += it->second;
  }
  return total;
}

}  // namespace bnsl
