// Graphviz renderings of a pool report: the best DAG, and the consensus graph.
//
// Consensus graph: the undirected edges a - b whose probability p_edge (the weight of the
// pool's classes whose DAGs contain a -> b or b -> a, include/bnsl/report.hpp) exceeds 0.5. Such an
// edge is drawn as the arc a -> b when that direction alone carries more than 0.5, and without
// arrowhead otherwise; its label is the drawn probability (the arc's, or the edge's when
// undirected) with two decimals and its pen width grows linearly from 1 (p = 0.5) to 4 (p = 1).
// Node labels are the variable names, written as DOT quoted strings (backslash and double quote
// escaped).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "io/report_io.hpp"

namespace bnsl {
namespace {

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

std::string header(const PoolReport& r, const std::string& name, const std::string& comment) {
  std::string out = "// " + comment + "\ndigraph " + name + " {\n  node [shape=ellipse];\n";
  for (std::size_t v = 0; v < r.variables.size(); ++v)
    out += "  n" + std::to_string(v) + " [label=" + quoted(r.variables[v]) + "];\n";
  return out;
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
  // (a, b) with a < b -> (p(a -> b), p(b -> a)), from the arcs with p > 0.
  std::map<std::pair<int, int>, std::pair<double, double>> edges;
  for (const auto& e : r.edges) {
    auto key = std::minmax(e.from, e.to);
    auto& slot = edges[{key.first, key.second}];
    (e.from < e.to ? slot.first : slot.second) = e.p;
  }
  std::string out = header(r, "consensus",
                           "consensus of the pool's " + std::to_string(r.classes.size()) +
                               " equivalence classes: edges with probability > 0.5");
  for (const auto& [key, p] : edges) {
    const double p_edge = p.first + p.second;
    if (!(p_edge > 0.5)) continue;
    const bool forward = p.first > 0.5, backward = p.second > 0.5;
    const int from = backward ? key.second : key.first, to = backward ? key.first : key.second;
    const double shown = forward ? p.first : backward ? p.second : p_edge;
    out += "  n" + std::to_string(from) + " -> n" + std::to_string(to) + " [label=\"" +
           fixed(shown, 2) + "\", penwidth=" + fixed(1 + 6 * (shown - 0.5), 2);
    out += forward || backward ? "];\n" : ", dir=none];\n";
  }
  return out + "}\n";
}

}  // namespace bnsl
