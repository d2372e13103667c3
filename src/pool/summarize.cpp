// Pool summary: Markov equivalence classes and edge probabilities.
//
// Each DAG G of the pool gets the weight w(G) = exp(s(G) - s_best): BIC and BDeu approximate
// the log marginal likelihood, so w is (approximately) the posterior odds of G against the
// best DAG under a uniform structure prior restricted to the pool. The probability of an arc
// is p(a -> b) = sum of w(G) over the DAGs containing a -> b, divided by sum of w(G); the
// probability of the undirected edge a - b is p(a -> b) + p(b -> a) (a DAG has at most one of
// the two). Classes: DAGs with equal essential graphs (pool/cpdag.hpp) share an id; ids are
// given in order of first appearance in the pool, which is sorted best first, so class 0 is
// the class of the best DAG. Each class's size (the number of DAGs it holds, whether the pool
// lists them or not) is counted exactly from its essential graph (pool/mec_size.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "parallel/threads.hpp"
#include "pool/cpdag.hpp"
#include "pool/mec_size.hpp"

namespace bnsl {
namespace {

std::uint64_t arc_key(int from, int to) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
         static_cast<std::uint32_t>(to);
}

std::vector<EdgeProb> edge_probabilities(const std::vector<PoolDag>& dags) {
  double best = dags.front().score;
  for (const auto& d : dags) best = std::max(best, d.score);
  std::unordered_map<std::uint64_t, double> mass;  // arc -> summed weight
  double total = 0;
  for (const auto& d : dags) {
    const double w = std::exp(d.score - best);
    total += w;
    for (std::size_t v = 0; v < d.parents.size(); ++v)
      for (int p : d.parents[v]) mass[arc_key(p, static_cast<int>(v))] += w;
  }
  std::vector<EdgeProb> edges;
  edges.reserve(mass.size());
  for (const auto& [key, m] : mass) {
    if (!(m > 0)) continue;  // weight underflowed to 0: report only p > 0
    EdgeProb e;
    e.from = static_cast<int>(key >> 32);
    e.to = static_cast<int>(key & 0xffffffffu);
    e.p = m / total;
    edges.push_back(e);
  }
  for (auto& e : edges) {
    auto back = mass.find(arc_key(e.to, e.from));
    e.p_edge = e.p + (back == mass.end() ? 0.0 : back->second / total);
  }
  std::sort(edges.begin(), edges.end(), [](const EdgeProb& a, const EdgeProb& b) {
    if (a.p != b.p) return a.p > b.p;
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  return edges;
}

// The class of the DAG `dag`: its essential graph as arc and edge lists, and its size.
PoolClass describe_class(const PoolDag& dag) {
  const Cpdag e = essential_graph(dag.parents);
  PoolClass c;
  c.score = dag.score;
  for (std::size_t v = 0; v < e.n_vars(); ++v) {
    const int to = static_cast<int>(v);
    for (int p : e.directed[v]) c.arcs.emplace_back(p, to);
    for (int u : e.undirected[v])
      if (u < to) c.edges.emplace_back(u, to);
  }
  std::sort(c.arcs.begin(), c.arcs.end());
  std::sort(c.edges.begin(), c.edges.end());
  const BigUint size = mec_size(e);
  c.size = size.to_string();
  c.log10_size = size.log10();
  return c;
}

}  // namespace

void summarize(PoolReport& report, int threads) {
  report.edges.clear();
  report.classes.clear();
  report.mec_count = 0;
  if (report.dags.empty()) return;
  MecIndex index(report.dags);
  const std::vector<int> ids = index.classify_all(threads);
  for (std::size_t i = 0; i < report.dags.size(); ++i) report.dags[i].mec = ids[i];
  report.mec_count = index.size();
  report.classes.resize(static_cast<std::size_t>(index.size()));
  parallel_for(index.size(), threads, 16, [&](long id) {
    const std::size_t first = index.representative(static_cast<int>(id));
    PoolClass& c = report.classes[static_cast<std::size_t>(id)];
    c = describe_class(report.dags[first]);
    c.first = first;
  });
  for (int id : ids) ++report.classes[static_cast<std::size_t>(id)].members;
  report.edges = edge_probabilities(report.dags);
}

std::string class_dag_count(const PoolReport& report) {
  BigUint total;
  for (const PoolClass& c : report.classes) {
    BigUint size;
    if (!BigUint::parse(c.size, size))
      throw RuntimeError("class size '" + c.size + "' is not a decimal number");
    total += size;
  }
  return total.to_string();
}

}  // namespace bnsl
