// The blocks (biconnected components) of a connected chordal graph and how AMO counts combine
// over them. Counting the AMOs of a whole chain component at once costs a long path or a tree
// of n vertices O(n^3) by Clique-Picking (every subpath is a subproblem) and O(n^2) rooted
// splits in the orientation fractions; over its blocks, a tree costs O(n).
//
// Why the blocks combine: an AMO of a connected chordal graph G has exactly one source r, and
// every block B of G is then oriented as an AMO of B whose source is B's vertex nearest to r,
// entry_B(r) (r itself when r lies in B, else the cut vertex through which B is reached from
// r): a directed path leaves r, and one entering B from elsewhere passes that cut vertex.
// Conversely any choice of such AMOs, one per block, gives an acyclic orientation of G without
// v-structures (the blocks share single vertices, so no v-structure or cycle spans two blocks,
// and each cut vertex is a source of every block beyond it). Hence, with a_B(x) the AMOs of B
// with source x,
//   #AMO_r(G) = product over blocks B of a_B(entry_B(r)).
// Root the block tree at block 0. For a block B, every other block is entered from B's side
// the same way whichever vertex of B the source is, so #AMO_r(G) = a_B(r) * O_B for r in B,
// with O_B (`outside`) the product over the other blocks of a at their vertex toward B; and
//   #AMO(G) = sum over B of O_B * (#AMO(B) - a_B(cut(B)))
// where each block but the root leaves its parent cut vertex to the block above it (every
// vertex counted once). combine_blocks computes O_B for every block with O(blocks) products.
#pragma once

#include <functional>
#include <vector>

#include "util/big_uint.hpp"

namespace bnsl {

struct BlockTree {
  std::vector<std::vector<int>> blocks;    // sorted vertex sets; a parent before its children
  std::vector<int> parent;                 // parent block; -1 for block 0, the root
  std::vector<int> cut;                    // the vertex shared with the parent; -1 for the root
  std::vector<std::vector<int>> children;  // child blocks
};

// The blocks of the connected graph adjacency[v] (sorted neighbours, at least 2 vertices):
// Hopcroft and Tarjan's depth-first search, without recursion (a path of 10,000 vertices is
// 10,000 deep).
BlockTree block_tree(const std::vector<std::vector<int>>& adjacency);

struct BlockCounts {
  BigUint total;                 // #AMO(G)
  std::vector<BigUint> outside;  // O_B per block
};

// `count[b]` = #AMO of block b; `rooted(b, x)` = a_b(x), the AMOs of block b with source x,
// asked for b's parent cut vertex and the cut vertices of its children only.
BlockCounts combine_blocks(const BlockTree& tree, const std::vector<BigUint>& count,
                           const std::function<BigUint(int block, int vertex)>& rooted);

}  // namespace bnsl
