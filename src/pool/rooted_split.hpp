// The rooted split of a connected chordal graph (rooted_split.cpp): the arcs that orienting one
// vertex's edges outwards forces, and the undirected pieces left. Both the orientation fractions
// (component_orientations.cpp) and Clique-Picking's count (mec_size.cpp) recurse through it.
#pragma once

#include <utility>
#include <vector>

namespace bnsl {

// The acyclic orientations without v-structures (AMOs) of a connected chordal graph
// (adjacency[v]: sorted neighbours) whose only source is `root`, as the arcs that orienting
// root's edges outwards forces (Meek's rules 1-3) and the undirected connected pieces left,
// which the AMOs orient independently (their count is the product of the pieces' AMO counts).
// Exposed for tests.
struct RootedSplit {
  std::vector<std::pair<int, int>> arcs;  // forced arcs (from, to)
  std::vector<std::vector<int>> pieces;   // sorted vertex sets of at least 2 vertices
};
RootedSplit rooted_split(const std::vector<std::vector<int>>& adjacency, int root);

}  // namespace bnsl
