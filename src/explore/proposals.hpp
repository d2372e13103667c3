// Parent sets proposed by a network (search-driven exploration, issues 60 and 65).
//
// The exploration scores each variable's sets up front, guided by the pair statistics; with
// thousands of variables its time runs out on every variable, and what it misses most are the
// larger families: on gen10000 at `learn --time 600` the cache held 622 of the 2,017 true sets
// of four parents. A set of four is reached through its subsets, and a variable's best subsets
// unconditionally often hold its own children. A network found by the search says which
// variables can be parents: those that are not descendants. Grow-shrink over them (add the
// candidate that raises the family's score most while one does, then remove while a removal
// raises it, as BOSS does over an order's predecessors) walks to the sets the network can use.
//
// Parents that matter only together (a child that is the XOR of two of them) raise a family
// only as a pair: neither alone raises it, and neither ranks high among the child's single
// parents, so the exploration's guide puts them last. Where no single candidate raises the
// family, the walk tries every pair among `pairs` of its candidates (all when there are no
// more; else half the best by the score each gives alone, half drawn at random from the rest,
// since a pair that matters only together is not among the best alone) and takes the best
// pair if it raises the family, then grows on.
//
// propose_families() does that for every variable of a network, twice: from the required
// parents (the empty set) and from the variable's parents in the network, over the variable's
// candidates: every parent its cached sets name (with screening: its screened candidates and
// the partners they promoted) and `extra` variables drawn at random (all of them on small
// data), less its descendants in the network; the draws make the walks reach parents that no
// cached set names, such as a pair that only matters together. Every set the walks visit
// is scored exactly by the counting kernel and offered to the cache under rule 1 (merge_families):
// a set is added unless a cached subset of it scores more than epsilon better. A cache so
// extended is no more complete than it was; the sets are exact scores, as every cached set.
#pragma once

#include <cstdint>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/score.hpp"
#include "bnsl/stop.hpp"

namespace bnsl {

struct ProposalOptions {
  ScoreParams score;
  double eps = 0;        // rule 1's epsilon when the proposals join the cache
  int max_parents = -1;  // in-degree limit (-1: none); the walks also stop at max_grow
  int max_grow = 6;      // parents a grow step may reach (explore.propose_max_parents)
  int pairs = 12;        // a pair step's candidates (explore.propose_pairs; 0: no pair step)
  int extra = 16;        // variables drawn at random as further candidates (explore.propose_extra)
  std::uint64_t seed = 1;  // the draw's; learn's rounds pass the search's seed and the round
  int threads = 1;
  const Constraints* constraints = nullptr;  // forbidden arcs are no candidates
  // Each variable's further candidates (the screening's best single parents: the draft cache
  // names only a few of them), or null.
  const std::vector<std::vector<int>>* candidates = nullptr;
};

// Grow-shrink walks for every variable of `net` (parents[v] sorted, acyclic, net.size() ==
// cache.n_vars()) over data scored as options.score says, their sets merged into `cache`.
// Stops between variables when `stop` fires.
ProposalStats propose_families(const Dataset& data, const std::vector<std::vector<int>>& net,
                               const ProposalOptions& options, const StopToken& stop,
                               ScoreCache& cache);

// The families of `from` for variables [begin, end) that `to` lacks into `to`, unless a cached
// subset (held or added before it: smaller sets first) scores more than eps better (rule 1);
// returns how many. Sorts what it changed.
std::uint64_t merge_families(const ScoreCache& from, ScoreCache& to, std::size_t begin,
                             std::size_t end, double eps);

}  // namespace bnsl
