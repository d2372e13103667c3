// The parents every network over a score cache holds (see base_sets.cpp).
//
//   BaseSets bases(cache);
//   bases.entry(v);            // v's entry whose parents are exactly base(v), or kNoEntry
//   bases.cycle_vertex();      // a variable on a cycle of base arcs, -1 if there is none
//   bases.repair(order);       // a linear extension of the base arcs (unchanged if it was one)
//   bases.holds(u, v);         // u in base(v): v may never precede u in an order
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "bnsl/cache.hpp"

namespace bnsl {

class BaseSets {
 public:
  static constexpr std::uint32_t kNoEntry = std::numeric_limits<std::uint32_t>::max();

  explicit BaseSets(const ScoreCache& cache);

  // No variable has a base parent (every cache that holds the empty set for every variable).
  bool empty() const { return parents_.list.empty(); }
  std::size_t arcs() const { return parents_.list.size(); }
  // base(v): the parents every entry of v holds, ascending.
  std::span<const int> parents(int v) const { return parents_.of(v); }
  // The variables with v in their base, ascending.
  std::span<const int> children(int v) const { return children_.of(v); }
  // u in base(v). One well-predicted branch when v has no base parent.
  bool holds(int u, int v) const {
    const auto i = static_cast<std::size_t>(v);
    const std::uint32_t b = parents_.start[i], e = parents_.start[i + 1];
    if (b == e) return false;
    for (std::uint32_t k = b; k < e; ++k)
      if (parents_.list[k] == u) return true;
    return false;
  }
  // The entry of v whose parents are exactly base(v) (the first, if the cache repeats it), or
  // kNoEntry (v has no entries, or none of them is its base).
  std::uint32_t entry(int v) const { return entry_[static_cast<std::size_t>(v)]; }
  // A variable on a cycle of base arcs, or -1 when they are acyclic.
  int cycle_vertex() const;
  // Whether every base arc u -> v has u before v in `order`.
  bool respects(std::span<const int> order) const;
  // Makes `order` a linear extension of the base arcs, stably: Kahn's algorithm that always
  // takes, of the variables whose base parents are all placed, the earliest in `order`. An
  // order that already is one is left unchanged. The base arcs must be acyclic.
  void repair(std::vector<int>& order) const;

 private:
  struct Lists {  // one list per variable: list[start[v] .. start[v + 1])
    std::vector<std::uint32_t> start;
    std::vector<int> list;
    std::span<const int> of(int v) const {
      const auto i = static_cast<std::size_t>(v);
      return {list.data() + start[i], list.data() + start[i + 1]};
    }
  };
  Lists parents_, children_;
  std::vector<std::uint32_t> entry_;
};

}  // namespace bnsl
