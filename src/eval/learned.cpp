// Reading a learned structure for evaluation (bnsl/eval.hpp, read_learned): a network file in
// any format bnsl reads (bnsl/network_io.hpp, by extension; a BIF network, for instance), a
// pool JSON's best DAG and edge probabilities, or a plain structure file of "child: p1 p2"
// lines, with variables matched to the true network's by name. Every name is checked against
// the true network, a BIF or pool must have exactly its variables, and the result is checked
// acyclic (Kahn's algorithm), so compare_structures always gets a DAG over the true network's
// variables.
#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "bnsl/error.hpp"
#include "bnsl/eval.hpp"
#include "bnsl/graph.hpp"
#include "bnsl/network_io.hpp"
#include "bnsl/results.hpp"

namespace bnsl {
namespace {

std::map<std::string, int> index_names(const std::vector<std::string>& names) {
  std::map<std::string, int> at;
  for (std::size_t v = 0; v < names.size(); ++v) at.emplace(names[v], static_cast<int>(v));
  return at;
}

// The position in `names` of every variable of `theirs`; throws unless the sets are equal.
std::vector<int> match_variables(const std::vector<std::string>& theirs,
                                 const std::vector<std::string>& names, const std::string& file) {
  const auto at = index_names(names);
  std::vector<int> to(theirs.size());
  std::vector<bool> seen(names.size(), false);
  for (std::size_t v = 0; v < theirs.size(); ++v) {
    auto it = at.find(theirs[v]);
    if (it == at.end())
      throw InputError(file, 0, 0, "variable '" + theirs[v] + "' is not in the true network");
    to[v] = it->second;
    seen[it->second] = true;
  }
  for (std::size_t v = 0; v < names.size(); ++v)
    if (!seen[v])
      throw InputError(file, 0, 0, "variable '" + names[v] + "' of the true network is missing");
  return to;
}

ParentSets remap(const ParentSets& parents, const std::vector<int>& to) {
  ParentSets out(to.size());
  for (std::size_t v = 0; v < parents.size(); ++v)
    for (int p : parents[v]) out[to[v]].push_back(to[p]);
  for (auto& p : out) std::sort(p.begin(), p.end());
  return out;
}

void check_acyclic(const ParentSets& g, const std::string& file) {
  if (!is_acyclic(g)) throw InputError(file, 0, 0, "the learned graph has a directed cycle");
}

// The pool's edge probabilities (p_edge of every entry of its edges list) with indices mapped
// by `to`; none when the file has no p_edge fields. An entry with p_edge below its p (by more
// than rounding) throws: a malformed list.
std::optional<std::vector<PairProbability>> edge_probabilities(const PoolReport& pool,
                                                               const std::vector<int>& to,
                                                               const std::string& file) {
  if (!pool.has_p_edge) return std::nullopt;
  const auto& edges = pool.edges;
  std::vector<PairProbability> out;
  out.reserve(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const EdgeProb& e = edges[i];
    if (e.p_edge < e.p - 1e-9)
      throw InputError(file, 0, 0,
                       "pool JSON: 'edges[" + std::to_string(i) +
                           "].p_edge': " + nlohmann::json(e.p_edge).dump() +
                           " is below p = " + nlohmann::json(e.p).dump());
    out.push_back({to[e.from], to[e.to], e.p_edge});
  }
  return out;
}

// Splits a line into words (separators: blanks, tabs, commas) with their 1-based columns.
std::vector<std::pair<std::string, std::size_t>> words(const std::string& s, std::size_t from) {
  std::vector<std::pair<std::string, std::size_t>> out;
  std::size_t i = from;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == ',' || s[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != ',' && s[i] != '\r') ++i;
    if (i > start) out.emplace_back(s.substr(start, i - start), start + 1);
  }
  return out;
}

}  // namespace

LearnedNetwork parse_structure(const std::string& text, const std::string& file,
                               const std::vector<std::string>& names) {
  const auto at = index_names(names);
  LearnedNetwork l{"structure", ParentSets(names.size()), std::nullopt, std::nullopt};
  std::vector<bool> listed(names.size(), false);
  std::istringstream in(text);
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    line = line.substr(0, line.find('#'));
    const std::size_t colon = line.find(':');
    const auto child = words(line.substr(0, colon == std::string::npos ? line.size() : colon), 0);
    if (child.empty() && colon == std::string::npos) continue;  // blank or comment
    if (colon == std::string::npos || child.size() != 1)
      throw InputError(file, number, 1, "expected 'child: parent1 parent2 ...'");
    auto lookup = [&](const std::pair<std::string, std::size_t>& w) {
      auto it = at.find(w.first);
      if (it == at.end())
        throw InputError(file, number, w.second,
                         "'" + w.first + "' is not a variable of the true network");
      return it->second;
    };
    const int v = lookup(child[0]);
    if (listed[v])
      throw InputError(file, number, child[0].second, "'" + child[0].first + "' listed twice");
    listed[v] = true;
    for (const auto& w : words(line, colon + 1)) {
      const int p = lookup(w);
      if (p == v || std::count(l.parents[v].begin(), l.parents[v].end(), p))
        throw InputError(file, number, w.second, "parent '" + w.first + "' repeated or the child");
      l.parents[v].push_back(p);
    }
    std::sort(l.parents[v].begin(), l.parents[v].end());
  }
  check_acyclic(l.parents, file);
  return l;
}

LearnedNetwork read_learned(const std::string& path, const std::vector<std::string>& names) {
  if (const auto format = format_by_extension(path)) {
    BayesNet net = read_network(path, *format);
    std::optional<BayesNet> params;
    if (net.has_parameters()) params = net;
    LearnedNetwork l{name_of(kNetFormatNames, *format),
                     remap(net.parents, match_variables(net.names, names, path)), std::move(params),
                     std::nullopt};
    check_acyclic(l.parents, path);
    return l;
  }
  if (path.ends_with(".json")) {
    const PoolReport pool = read_pool_json(path);
    if (pool.dags.empty()) throw InputError(path, 0, 0, "pool JSON lists no DAG");
    const std::vector<int> to = match_variables(pool.variables, names, path);
    LearnedNetwork l{"pool", remap(pool.dags[0].parents, to), std::nullopt,
                     edge_probabilities(pool, to, path)};
    check_acyclic(l.parents, path);
    return l;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open the structure file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_structure(text.str(), path, names);
}

}  // namespace bnsl
