// CSV tables of a pool report, for spreadsheets, R, pandas and benchmark harnesses
// (docs/usage.md, "Reading the results"):
//
// - edges: `from,to,p,p_edge`, one row per arc with p > 0 (an edge one of whose directions
//   has p = 0 appears once, in the other direction), as the pool file's `edges`, by decreasing p;
// - classes: `rank,score,size,log10_size,differs,added,removed,reversed`, one row per class,
//   best first: its DAG's arcs that differ from the best class's DAG, counted and listed
//   ("A -> B; C -> D");
// - the arc-probability matrix (on request), in Benchpress's layout, as the adjacency CSV of
//   the best network (io/adjacency.cpp): a header row of the variables' names (mapped as that
//   CSV maps them: bnsl/network_io.hpp), then one row per variable in the same order, entry
//   (i, j) the probability of the arc i -> j.
//
// Names are quoted as RFC 4180 says (util/csv_field.hpp); lines end with LF. Probabilities
// are the shortest decimals that read back to the pool file's doubles, so a table read back
// equals the file's numbers exactly.
#include <algorithm>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/network_io.hpp"
#include "io/report_io.hpp"
#include "io/text_out.hpp"
#include "util/csv_field.hpp"

namespace bnsl {
namespace {

std::vector<std::string> quoted_names(const PoolReport& r) {
  std::vector<std::string> out;
  for (const std::string& name : r.variables) out.push_back(csv_field(name));
  return out;
}

std::string arc_list(const std::vector<std::pair<int, int>>& arcs,
                     const std::vector<std::string>& names) {
  std::string out;
  for (const auto& [from, to] : arcs) {
    if (!out.empty()) out += "; ";
    out += names[static_cast<std::size_t>(from)] + " -> " + names[static_cast<std::size_t>(to)];
  }
  return out;
}

void header_row(TextOut& out, const std::vector<std::string>& names) {
  for (std::size_t v = 0; v < names.size(); ++v) out << (v ? "," : "") << names[v];
  out << '\n';
}

}  // namespace

void write_edges_csv(std::ostream& os, const PoolReport& r) {
  const std::vector<std::string> names = quoted_names(r);
  TextOut out(os);
  out << "from,to,p,p_edge\n";
  for (const EdgeProb& e : r.edges) {
    out << names[static_cast<std::size_t>(e.from)] << ',' << names[static_cast<std::size_t>(e.to)]
        << ',';
    out.number(e.p, "");
    out << ',';
    out.number(e.p_edge, "");
    out << '\n';
  }
  out.finish();
}

void write_classes_csv(std::ostream& os, const PoolReport& r) {
  TextOut out(os);
  out << "rank,score,size,log10_size,differs,added,removed,reversed\n";
  ParentSets first, scratch;
  const ParentSets& base = r.classes.empty() ? first : sorted_parents(r.classes[0].dag, first);
  for (std::size_t c = 0; c < r.classes.size(); ++c) {
    const PoolClass& k = r.classes[c];
    out.unsigned_integer(c + 1);
    out << ',';
    out.number(k.score, "");
    out << ',' << k.size << ',';
    out.number(k.log10_size, "");
    const DagChanges d = dag_changes(base, sorted_parents(k.dag, scratch));
    out << ',';
    out.unsigned_integer(d.added.size() + d.removed.size() + d.reversed.size());
    for (const auto* list : {&d.added, &d.removed, &d.reversed}) {
      out << ',';  // an empty list is an empty field (csv_field would quote it)
      if (!list->empty()) out << csv_field(arc_list(*list, r.variables));
    }
    out << '\n';
  }
  out.finish();
}

void write_probability_csv(std::ostream& os, const PoolReport& r) {
  TextOut out(os);
  const std::size_t n = r.variables.size();
  // The header of the best network's adjacency CSV, names mapped alike (a control character
  // becomes '_', the mapping in PREFIX.best.adjacency.csv.names.csv), so the matrices align.
  BayesNet net;
  net.names = r.variables;
  net.parents.assign(n, {});
  net.states.assign(n, {});
  std::vector<std::string> header;
  for (const std::string& name : legal_names(net, NetFormat::adjacency).names)
    header.push_back(csv_field(name));
  header_row(out, header);
  std::vector<std::vector<std::pair<int, double>>> from(n);  // row i: (j, p(i -> j))
  for (const EdgeProb& e : r.edges) from[static_cast<std::size_t>(e.from)].emplace_back(e.to, e.p);
  for (auto& row : from) std::sort(row.begin(), row.end());
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t k = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (j) out << ',';
      if (k < from[i].size() && static_cast<std::size_t>(from[i][k].first) == j)
        out.number(from[i][k++].second, "");
      else
        out << '0';
    }
    out << '\n';
  }
  out.finish();
}

}  // namespace bnsl
