// How the DAGs of a Markov equivalence class orient its reversible edges: for each reversible
// edge u - v of a CPDAG, the fraction of the class's DAGs (its consistent extensions) that
// contain u -> v. Exact by the rooted decomposition of each chain component (see
// orientations.cpp and component_orientations.cpp); a component whose decomposition needs more
// than max_subproblems distinct vertex sets is estimated from `samples` uniformly drawn
// orientations instead.
//
// With constraints (bnsl/constraints.hpp), only the class's DAGs that hold no disallowed arc
// count, in the size and in the fractions. A component whose constrained count needs more than
// max_subproblems vertex sets is estimated from `samples` orientations drawn among those that
// satisfy them (importance sampling), and its size is then an estimate too (size_estimated).
//
//   bnsl::Cpdag e = bnsl::essential_graph(parents);
//   bnsl::EdgeOrientations o = bnsl::edge_orientations(e);
//   for (const auto& [u, v, p] : o.fractions) ...   // u < v: P(u -> v); P(v -> u) = 1 - p
//   o.sampled                                       // 0: all exact
//   bnsl::EdgeOrientations c = bnsl::edge_orientations(e, {}, &cache, &report.constraints);
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "bnsl/constraints.hpp"
#include "pool/cpdag.hpp"
#include "util/big_uint.hpp"

namespace bnsl {

struct EdgeOrientations {
  std::vector<std::tuple<int, int, double>> fractions;  // (u, v, P(u -> v)), u < v, sorted
  BigUint size = 1;         // the class's DAGs: the product of its components' AMO counts
  std::size_t sampled = 0;  // chain components estimated by sampling (0: all exact)
  std::size_t samples = 0;  // orientations drawn per sampled component
  // With constraints: some component's count of satisfying DAGs was estimated by sampling
  // (it is then also counted in `sampled`), so `size` is an estimate.
  bool size_estimated = false;
};

struct OrientationLimits {
  std::size_t max_subproblems = 1024;  // distinct vertex sets for an exact component (block)
  std::size_t samples = 1000;          // orientations drawn for a component beyond that
  std::uint64_t seed = 1;              // of the sampling (the result is deterministic)
};

// Components already solved, shared by the classes of a pool (they share most of their chain
// components) and by threads.
class OrientationCache {
 public:
  struct Entry {
    std::vector<std::tuple<int, int, double>> fractions;  // component indices
    BigUint count;                                        // the component's AMOs
    bool sampled = false;
    bool estimated = false;  // count estimated (constraints only)
  };
  bool find(const std::vector<int>& key, Entry& out) const;
  void put(std::vector<int> key, Entry entry);

 private:
  mutable std::mutex mutex_;
  std::map<std::vector<int>, Entry> entries_;
};

// `constraints` (null or empty: none): count only the DAGs that satisfy them (the cache keys a
// component by its disallowed arcs too). A class none of whose DAGs satisfies them gets size 0,
// and the fractions over all its DAGs.
EdgeOrientations edge_orientations(const Cpdag& cpdag, const OrientationLimits& limits = {},
                                   OrientationCache* cache = nullptr,
                                   const Constraints* constraints = nullptr);

}  // namespace bnsl
