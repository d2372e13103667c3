// Graphviz renderings of a pool report: the best DAG, and the consensus graph.
//
// Consensus graph, up to kWholeConsensusMaxVars variables: the undirected edges a - b whose
// probability p_edge (the weight of the pool's classes whose DAGs contain a -> b or b -> a,
// include/bnsl/report.hpp) exceeds 0.5. Such an edge is drawn as the arc a -> b when that
// direction alone carries more than 0.5, and without arrowhead otherwise; its pen width grows
// linearly from 1 (p = 0.5) to 4 (p = 1), and it is labelled with the drawn probability (the
// arc's, or the edge's when undirected; two decimals) only when that is below 1, so that the
// certain edges, the most, stay unlabelled.
//
// Above that, a whole consensus is a hairball no layout untangles, while what a person asks of
// it is where the pool disagrees: the graph holds the uncertain edges only (p_edge neither 0
// nor 1, to 1e-9) and their endpoints, each labelled with p_edge, dashed below 0.5, with an
// arrowhead where the edge, when present, always points the same way. The edges every class
// holds are the best network's (PREFIX.best.dot). The graph asks for Graphviz's sfdp layout
// (`dot` honours the `layout` attribute), with straight edges and node overlaps removed, which
// lays out graphs of thousands of nodes in seconds where dot's layered layout takes hours; the
// best network's DOT asks for it too at that size.
//
// Node labels are the variable names, written as DOT quoted strings (backslash and double
// quote escaped).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/report_io.hpp"

namespace bnsl {
namespace {

// A probability within this of 0 or 1 counts as certain: sums of class weights that hold an
// edge in every class can differ from the total in the last bits.
constexpr double kCertain = 1e-9;

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string fixed(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

// The sfdp layout and its hints, for graphs past kWholeConsensusMaxVars variables.
constexpr const char* kLargeLayout =
    "  graph [layout=sfdp, overlap=prism, splines=false, outputorder=edgesfirst];\n"
    "  node [shape=box, fontsize=10, height=0.2, margin=0.03];\n"
    "  edge [arrowsize=0.6];\n";

bool large(const PoolReport& r) {
  return r.variables.size() > kWholeConsensusMaxVars;
}

// "digraph NAME {" and the nodes: every variable, or those `shown` marks.
std::string header(const PoolReport& r, const std::string& name, const std::string& comment,
                   const std::vector<char>* shown = nullptr) {
  std::string out = "// " + comment + "\ndigraph " + name + " {\n";
  out += large(r) ? kLargeLayout : "  node [shape=ellipse];\n";
  for (std::size_t v = 0; v < r.variables.size(); ++v)
    if (!shown || (*shown)[v])
      out += "  n" + std::to_string(v) + " [label=" + quoted(r.variables[v]) + "];\n";
  return out;
}

// The probabilities of the pair a - b (a < b): p(a -> b), p(b -> a) and p_edge.
struct PairProb {
  double forward = 0, backward = 0, edge = 0;
};

// Every pair with an arc of p > 0.
std::map<std::pair<int, int>, PairProb> pairs(const PoolReport& r) {
  std::map<std::pair<int, int>, PairProb> out;
  for (const auto& e : r.edges) {
    auto key = std::minmax(e.from, e.to);
    PairProb& slot = out[{key.first, key.second}];
    (e.from < e.to ? slot.forward : slot.backward) = e.p;
    slot.edge = r.has_p_edge ? e.p_edge : slot.forward + slot.backward;  // format-1 files
  }
  return out;
}

std::string whole_consensus(const PoolReport& r) {
  std::string out = header(r, "consensus",
                           "consensus of the pool's " + std::to_string(r.classes.size()) +
                               " equivalence classes: edges with probability > 0.5");
  for (const auto& [key, p] : pairs(r)) {
    if (!(p.edge > 0.5)) continue;
    const bool forward = p.forward > 0.5, backward = p.backward > 0.5;
    const int from = backward ? key.second : key.first, to = backward ? key.first : key.second;
    const double shown = forward ? p.forward : backward ? p.backward : p.edge;
    out += "  n" + std::to_string(from) + " -> n" + std::to_string(to) + " [";
    if (shown < 1 - kCertain) out += "label=\"" + fixed(shown, 2) + "\", ";
    out += "penwidth=" + fixed(1 + 6 * (shown - 0.5), 2);
    out += forward || backward ? "];\n" : ", dir=none];\n";
  }
  return out + "}\n";
}

std::string uncertain_part(const PoolReport& r) {
  std::vector<std::pair<std::pair<int, int>, PairProb>> uncertain;
  std::vector<char> shown(r.variables.size(), 0);
  for (const auto& [key, p] : pairs(r)) {
    if (p.edge <= kCertain || p.edge >= 1 - kCertain) continue;
    uncertain.push_back({key, p});
    shown[static_cast<std::size_t>(key.first)] = shown[static_cast<std::size_t>(key.second)] = 1;
  }
  const std::size_t nodes = static_cast<std::size_t>(std::count(shown.begin(), shown.end(), 1));
  const std::string what = std::to_string(uncertain.size()) + " uncertain edges (probability " +
                           "neither 0 nor 1) among " + std::to_string(nodes) + " of " +
                           std::to_string(r.variables.size()) + " variables";
  std::string out = header(r, "consensus",
                           "the pool's " + std::to_string(r.classes.size()) +
                               " equivalence classes disagree on these edges: " + what +
                               "; the edges every class holds are in the best network's DOT",
                           &shown);
  out +=
      "  label=" + quoted(what + (uncertain.empty() ? ": every class has the same skeleton" : "")) +
      ";\n";
  for (const auto& [key, p] : uncertain) {
    const double p_edge = p.edge;
    const bool backward = p.forward <= kCertain * p_edge;  // present, it is always b -> a
    const bool forward = p.backward <= kCertain * p_edge;
    const int from = backward ? key.second : key.first, to = backward ? key.first : key.second;
    out += "  n" + std::to_string(from) + " -> n" + std::to_string(to) + " [label=\"" +
           fixed(p_edge, 2) + "\", penwidth=" + fixed(1 + 3 * p_edge, 2);
    if (p_edge < 0.5) out += ", style=dashed";
    out += forward || backward ? "];\n" : ", dir=none];\n";
  }
  return out + "}\n";
}

}  // namespace

std::string best_dot_text(const PoolReport& r) {
  std::string comment = "best DAG of the pool";
  const bool any = !r.dags.empty() || !r.classes.empty();
  if (any)
    comment += ", " + r.score + " score " +
               std::to_string(r.dags.empty() ? r.classes[0].score : r.dags[0].score);
  std::string out = header(r, "best", comment);
  if (any) {
    const auto& parents = best_network(r);
    for (std::size_t v = 0; v < parents.size(); ++v)
      for (int p : parents[v])
        out += "  n" + std::to_string(p) + " -> n" + std::to_string(v) + ";\n";
  }
  return out + "}\n";
}

std::string consensus_dot_text(const PoolReport& r) {
  return large(r) ? uncertain_part(r) : whole_consensus(r);
}

}  // namespace bnsl
