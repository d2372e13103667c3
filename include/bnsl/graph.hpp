// The basic types of the domain: a DAG over variables 0..n-1 as the parent set of each
// variable, its topological order (which also tells whether it is acyclic), and an arc between
// variables as a file names it. Everything else in bnsl builds on these.
//
//   bnsl::ParentSets g{{}, {0}, {0, 1}};            // 0 -> 1, 0 -> 2, 1 -> 2
//   std::vector<int> order = bnsl::topological_order(g);   // {0, 1, 2}
//   bnsl::is_acyclic(g);                            // true: the order holds every variable
//   bnsl::adjacent(g, 2, 0);                        // true: 0 -> 2
//
// The pool checker (src/check/) keeps its own acyclicity test on purpose: it checks what the
// rest of bnsl computed with code that did not compute it.
#pragma once

#include <cstddef>
#include <vector>

namespace bnsl {

using ParentSets = std::vector<std::vector<int>>;  // parents[v]: sorted parent indices of v

// A topological order of the graph, every variable after its parents (Kahn's algorithm: the
// parentless variables in index order, then each variable when its last parent is placed, in
// the order they become ready). When the graph has a directed cycle the order stops short: it
// holds only the variables no cycle leads to, fewer than the variables. (`bnsl sample` draws
// in this order, so it is part of what a seed reproduces.)
std::vector<int> topological_order(const ParentSets& parents);

// Whether the graph has no directed cycle.
bool is_acyclic(const ParentSets& parents);

// Whether u and v are joined by an arc either way (parent lists sorted).
bool adjacent(const ParentSets& parents, int u, int v);

// An arc from -> to between variables named in a file (bnsl/arcs.hpp reads them): domain
// knowledge, preferences.
struct NamedArc {
  int from = 0, to = 0;  // variable indices: from -> to
  double weight = 1;     // the third column, when the file has one
  std::size_t line = 0;  // the line of the file it was read from
};

}  // namespace bnsl
