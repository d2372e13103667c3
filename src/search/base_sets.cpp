// Base parent sets. A variable's base is the intersection of the parent sets of all its cache
// entries: the parents it has in every network over the cache. A cache explored with required
// arcs (`--require`) keeps v's required parents R(v) in every set of v and holds R(v) itself,
// so its bases are the required parents; any other cache holds the empty set for every
// variable, and its bases are empty. The search knows nothing of constraint files: it reads
// the base arcs u -> v (u in base(v)) off the cache. They must be acyclic, and every variable
// must have the entry equal to its base (the search's validate()).
//
// What the ordering search needs from them. OBS gives a node its best entry whose parents all
// precede it, so on an order where a base parent follows its child that child has no entry at
// all: the search keeps every order a linear extension of the base arcs. Then every node has
// its base entry (its base parents precede it), adjacent swaps of a base parent and its child
// are the only ones barred, and repair() turns any order (a random restart, a perturbation)
// into the nearest linear extension in the sense of Kahn's algorithm with priorities: each
// step places, among the nodes whose base parents are all placed, the earliest in the given
// order. That is stable: a linear extension comes out unchanged.
#include "search/base_sets.hpp"

#include <algorithm>
#include <functional>
#include <iterator>
#include <queue>
#include <utility>

namespace bnsl {

BaseSets::BaseSets(const ScoreCache& cache) : entry_(cache.n_vars(), kNoEntry) {
  const std::size_t n = cache.n_vars();
  parents_.start.assign(n + 1, 0);
  children_.start.assign(n + 1, 0);
  std::vector<int> base, meet;
  for (std::size_t v = 0; v < n; ++v) {
    const VarCache& vc = cache.var(v);
    base.clear();
    if (!vc.empty()) {
      const auto first = vc.parents(0);
      base.assign(first.begin(), first.end());
      for (std::size_t e = 1; e < vc.size() && !base.empty(); ++e) {
        const auto ps = vc.parents(e);  // sorted, as base
        meet.clear();
        std::set_intersection(base.begin(), base.end(), ps.begin(), ps.end(),
                              std::back_inserter(meet));
        base.swap(meet);
      }
      // Every entry holds base, so the entry of base's size is base.
      for (std::size_t e = 0; e < vc.size(); ++e)
        if (vc.parents(e).size() == base.size()) {
          entry_[v] = static_cast<std::uint32_t>(e);
          break;
        }
    }
    parents_.list.insert(parents_.list.end(), base.begin(), base.end());
    parents_.start[v + 1] = static_cast<std::uint32_t>(parents_.list.size());
    for (int p : base) ++children_.start[static_cast<std::size_t>(p) + 1];
  }
  for (std::size_t v = 0; v < n; ++v) children_.start[v + 1] += children_.start[v];
  children_.list.resize(parents_.list.size());
  std::vector<std::uint32_t> fill(children_.start.begin(), children_.start.end() - 1);
  for (std::size_t v = 0; v < n; ++v)  // ascending v: each child list comes out sorted
    for (int p : parents(static_cast<int>(v)))
      children_.list[fill[static_cast<std::size_t>(p)]++] = static_cast<int>(v);
}

int BaseSets::cycle_vertex() const {
  if (empty()) return -1;
  const std::size_t n = entry_.size();
  std::vector<std::size_t> indegree(n);
  std::vector<int> ready;
  for (std::size_t v = 0; v < n; ++v) {
    indegree[v] = parents(static_cast<int>(v)).size();
    if (indegree[v] == 0) ready.push_back(static_cast<int>(v));
  }
  std::size_t placed = 0;
  while (!ready.empty()) {
    const int x = ready.back();
    ready.pop_back();
    ++placed;
    for (int c : children(x))
      if (--indegree[static_cast<std::size_t>(c)] == 0) ready.push_back(c);
  }
  if (placed == n) return -1;
  // Every node left has a base parent left: walking back through them must repeat a node,
  // and the first one repeated lies on a cycle.
  int x = 0;
  while (indegree[static_cast<std::size_t>(x)] == 0) ++x;
  std::vector<char> seen(n, 0);
  while (!seen[static_cast<std::size_t>(x)]) {
    seen[static_cast<std::size_t>(x)] = 1;
    for (int p : parents(x))
      if (indegree[static_cast<std::size_t>(p)] > 0) {
        x = p;
        break;
      }
  }
  return x;
}

bool BaseSets::respects(std::span<const int> order) const {
  if (empty()) return true;
  std::vector<int> pos(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    pos[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  for (std::size_t v = 0; v < entry_.size(); ++v)
    for (int p : parents(static_cast<int>(v)))
      if (pos[static_cast<std::size_t>(p)] > pos[v]) return false;
  return true;
}

void BaseSets::repair(std::vector<int>& order) const {
  if (empty() || respects(order)) return;
  const std::size_t n = order.size();
  std::vector<int> pos(n);
  std::vector<std::size_t> indegree(n);
  for (std::size_t i = 0; i < n; ++i) pos[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  using Item = std::pair<int, int>;  // (position in order, variable), earliest first
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (std::size_t v = 0; v < n; ++v) {
    indegree[v] = parents(static_cast<int>(v)).size();
    if (indegree[v] == 0) ready.push({pos[v], static_cast<int>(v)});
  }
  std::size_t k = 0;
  while (!ready.empty()) {
    const int x = ready.top().second;
    ready.pop();
    order[k++] = x;
    for (int c : children(x))
      if (--indegree[static_cast<std::size_t>(c)] == 0)
        ready.push({pos[static_cast<std::size_t>(c)], c});
  }
  // k < n only if the base arcs close a cycle (refused before any search): the nodes on and
  // behind it follow, in their old order, so that `order` stays a permutation.
  if (k < n) {
    std::vector<int> rest;
    for (std::size_t v = 0; v < n; ++v)
      if (indegree[v] > 0) rest.push_back(static_cast<int>(v));
    std::sort(rest.begin(), rest.end(), [&](int a, int b) {
      return pos[static_cast<std::size_t>(a)] < pos[static_cast<std::size_t>(b)];
    });
    for (int v : rest) order[k++] = v;
  }
}

}  // namespace bnsl
