// Preferred directions within equivalence classes (`--prefer-arcs`; Studeny & Haws's weighted
// arrowheads, section 5.2, here as a search over the class's members).
//
// Every DAG of a class has the same score, so which one a report shows is free: with preferred
// arcs (u -> v, weight w), each class shows the member of most weight, the sum of w over the
// preferred arcs it holds. Only the class's reversible edges can differ between members
// (compelled arcs and absent edges are the same in all), so a class none of whose reversible
// edges carries a preferred arc keeps its DAG. Otherwise its members are walked from its DAG by
// covered-arc reversals (class_members.hpp), up to pool.prefer_members per class and
// pool.prefer_total per report (bnsl/tunables.hpp), and the heaviest is kept (the
// earliest among equals, so the class's own DAG wins ties); when the class holds more members
// than were walked, the heaviest is then improved by reversals of covered arcs while one adds
// weight (a local optimum, said so: PreferSummary::partial). The best network written as BIF
// and DOT is the first class's DAG, so it follows the preference too. With constraints
// (report.constraints), the members walked and the reversals climbed are those that satisfy
// them, so the member shown does too.
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "bnsl/report.hpp"
#include "pool/class_members.hpp"

namespace bnsl {
namespace {

double weight_of(const ParentSets& g, const std::vector<NamedArc>& arcs) {
  double w = 0;
  for (const NamedArc& a : arcs) {
    const auto& p = g[static_cast<std::size_t>(a.to)];
    if (std::binary_search(p.begin(), p.end(), a.from)) w += a.weight;
  }
  return w;
}

// Reverses u -> v in g (parent lists stay sorted).
void reverse(ParentSets& g, int u, int v) {
  auto& pv = g[static_cast<std::size_t>(v)];
  pv.erase(std::lower_bound(pv.begin(), pv.end(), u));
  auto& pu = g[static_cast<std::size_t>(u)];
  pu.insert(std::upper_bound(pu.begin(), pu.end(), v), v);
}

// Reversals of covered arcs into allowed arcs while one adds weight; returns the weight reached.
double climb(ParentSets& g, const std::vector<NamedArc>& arcs, const Constraints& constraints,
             double w) {
  for (bool better = true; better;) {
    better = false;
    for (std::size_t v = 0; v < g.size() && !better; ++v)
      for (std::size_t k = 0; k < g[v].size() && !better; ++k) {
        const int u = g[v][k];
        if (!covered_arc(g, u, static_cast<int>(v)) || !constraints.allowed(static_cast<int>(v), u))
          continue;
        reverse(g, u, static_cast<int>(v));
        const double x = weight_of(g, arcs);
        if (x > w + 1e-12) {
          w = x;
          better = true;
        } else {
          reverse(g, static_cast<int>(v), u);
        }
      }
  }
  return w;
}

}  // namespace

PreferSummary prefer_arcs(PoolReport& report, const std::vector<NamedArc>& arcs,
                          const PoolTunables& tune) {
  PreferSummary s;
  s.arcs = arcs.size();
  std::map<std::pair<int, int>, bool> on_edge;  // unordered pairs with a preferred arc
  for (const NamedArc& a : arcs) on_edge[{std::min(a.from, a.to), std::max(a.from, a.to)}] = true;
  std::size_t budget = tune.prefer_total;
  for (PoolClass& c : report.classes) {
    const bool touched = std::any_of(c.edges.begin(), c.edges.end(), [&](const auto& e) {
      return on_edge.count({std::min(e.first, e.second), std::max(e.first, e.second)}) > 0;
    });
    if (!touched) continue;
    ++s.classes;
    ParentSets dag = c.dag;
    for (auto& p : dag) std::sort(p.begin(), p.end());
    const double before = weight_of(dag, arcs);
    const std::vector<ParentSets> members =
        class_members(dag, std::min(tune.prefer_members, std::max<std::size_t>(1, budget)),
                      &report.constraints, nullptr, tune);
    budget -= std::min(budget, members.size());
    std::size_t best = 0;
    double w = before;
    for (std::size_t i = 1; i < members.size(); ++i)
      if (const double x = weight_of(members[i], arcs); x > w + 1e-12) {
        w = x;
        best = i;
      }
    dag = members[best];
    // Fewer members walked than the class holds (sizes are decimals, exact unless estimated
    // under constraints: summarize's sizes_estimated).
    const bool all = !c.size.empty() && c.size.size() < 20 && std::stoull(c.size) <= members.size();
    if (!all) {
      w = climb(dag, arcs, report.constraints, w);
      ++s.partial;
    }
    if (w > before + 1e-12) {
      c.dag = std::move(dag);
      ++s.changed;
    }
  }
  report.preferred = s;
  return s;
}

}  // namespace bnsl
