// The size of a Markov equivalence class: the number of DAGs whose essential graph is a given
// CPDAG, exactly, in polynomial time (Clique-Picking, Wienöbst, Bannach & Liśkiewicz, AAAI
// 2021).
//
//   bnsl::Cpdag e = bnsl::essential_graph(parents);
//   bnsl::BigUint size = bnsl::mec_size(e);     // size.to_string(), size.log10()
//
// The DAGs of a class orient each chain component (connected component of the undirected
// edges; chordal in an essential graph) independently, as an acyclic orientation without
// v-structures (an AMO), so the size is the product of the components' AMO counts.
#pragma once

#include <vector>

#include "pool/cpdag.hpp"
#include "util/big_uint.hpp"

namespace bnsl {

BigUint mec_size(const Cpdag& cpdag);

// The number of AMOs of the undirected graph adjacency[v] (sorted neighbours, symmetric),
// which must be chordal (throws RuntimeError otherwise); a disconnected graph gives the
// product over its components.
BigUint count_amos(const std::vector<std::vector<int>>& adjacency);

}  // namespace bnsl
