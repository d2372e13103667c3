// Structural comparison of a learned DAG with the true one (bnsl/eval.hpp).
//
// Method: each graph is reduced to the mark of every adjacent pair {u, v}, u < v: u -> v,
// v -> u, or u - v (undirected, essential graphs only). Arc and skeleton counts come from the
// DAGs' marks; the structural Hamming distance is the number of pairs whose marks differ
// (absent counting as a mark), computed between the DAGs and between their essential graphs
// (Chickering 1995, src/pool/cpdag.cpp). The CPDAG SHD is the count of Tsamardinos, Brown &
// Aliferis, "The max-min hill-climbing Bayesian network structure learning algorithm", Machine
// Learning 65 (2006), Section 6.1 (also pcalg's shd()): 1 per missing edge, extra edge, or
// edge with a different mark. Guarantee: both SHDs are metrics on their graphs; the CPDAG SHD
// is 0 exactly when the two DAGs are Markov equivalent. Cost O(|E| log |E|).
#include <map>
#include <string>
#include <utility>

#include "bnsl/error.hpp"
#include "bnsl/eval.hpp"
#include "pool/cpdag.hpp"

namespace bnsl {
namespace {

enum class Mark : int { forward = 1, backward = 2, undirected = 3 };  // of the pair (u < v)
using Marks = std::map<std::pair<int, int>, Mark>;

void add_arc(Marks& m, int from, int to) {
  if (from < to)
    m[{from, to}] = Mark::forward;
  else
    m[{to, from}] = Mark::backward;
}

Marks dag_marks(const ParentSets& g) {
  Marks m;
  for (std::size_t v = 0; v < g.size(); ++v)
    for (int p : g[v]) add_arc(m, p, static_cast<int>(v));
  return m;
}

Marks cpdag_marks(const Cpdag& c) {
  Marks m;
  for (std::size_t v = 0; v < c.n_vars(); ++v) {
    for (int p : c.directed[v]) add_arc(m, p, static_cast<int>(v));
    for (int u : c.undirected[v])
      if (u < static_cast<int>(v)) m[{u, static_cast<int>(v)}] = Mark::undirected;
  }
  return m;
}

std::size_t marks_distance(const Marks& a, const Marks& b) {
  std::size_t d = 0;
  for (const auto& [pair, mark] : a) {
    auto it = b.find(pair);
    d += it == b.end() || it->second != mark;
  }
  for (const auto& [pair, mark] : b) d += a.find(pair) == a.end();
  return d;
}

void check_sizes(const ParentSets& a, const ParentSets& b) {
  if (a.size() != b.size())
    throw RuntimeError("compare: graphs over " + std::to_string(a.size()) + " and " +
                       std::to_string(b.size()) + " variables");
}

}  // namespace

std::size_t dag_shd(const ParentSets& a, const ParentSets& b) {
  check_sizes(a, b);
  return marks_distance(dag_marks(a), dag_marks(b));
}

std::size_t cpdag_shd(const ParentSets& a, const ParentSets& b) {
  check_sizes(a, b);
  return marks_distance(cpdag_marks(essential_graph(a)), cpdag_marks(essential_graph(b)));
}

StructureComparison compare_structures(const ParentSets& truth, const ParentSets& learned) {
  check_sizes(truth, learned);
  const Marks t = dag_marks(truth), l = dag_marks(learned);
  StructureComparison c;
  c.variables = truth.size();
  c.true_arcs = t.size();
  c.learned_arcs = l.size();
  for (const auto& [pair, mark] : l) {
    auto it = t.find(pair);
    if (it == t.end())
      ++c.arcs_extra;
    else if (it->second == mark)
      ++c.arcs_found;
    else
      ++c.arcs_reversed;
  }
  for (const auto& [pair, mark] : t) c.arcs_missed += l.find(pair) == l.end();
  c.edges_found = c.arcs_found + c.arcs_reversed;
  c.edges_missed = c.arcs_missed;
  c.edges_extra = c.arcs_extra;
  c.shd = c.arcs_missed + c.arcs_extra + c.arcs_reversed;
  c.shd_cpdag = cpdag_shd(truth, learned);  // also rejects cyclic graphs
  return c;
}

}  // namespace bnsl
