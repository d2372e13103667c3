// Pool summary: Markov equivalence classes and edge probabilities.
//
// Classes: DAGs with equal essential graphs (pool/cpdag.hpp) form a class. A report from the
// search lists its classes (one DAG each) and some of their members; a report from exact mode
// or from a file without classes lists DAGs only, and their classes are given ids in order of
// first appearance (the DAGs are sorted best first, so class 0 is the class of the best DAG).
// Each class's size (the number of DAGs it holds, whether listed or not) is counted exactly
// from its essential graph: the product of its chain components' AMO counts (Clique-Picking,
// pool/mec_size.cpp), computed once per component shared by several classes.
//
// Constraints (report.constraints: forbidden arcs, tiers). The classes are then classes of the
// constrained space: a class's size and its edges' orientation fractions count only its DAGs
// that hold no disallowed arc (pool/orientations.cpp), exactly, or, for a class whose count
// needs too many subproblems, estimated from sampled DAGs (report.sizes_estimated counts them).
//
// Edge probabilities. Class c weighs w(c) = size(c) * exp(s(c) - s_best): each of its DAGs
// weighs exp(s - s_best), the posterior odds against the best DAG under a uniform structure
// prior restricted to the pool's classes (BIC and BDeu approximate the log marginal
// likelihood). The probability of the edge a - b is the summed weight of the classes whose
// skeleton holds it over the total; of the arc a -> b, the summed weight times the fraction of
// the class's DAGs orienting it a -> b: 1 for a compelled arc, and for a reversible edge the
// fraction computed by pool/orientations.cpp. On a pool listing every DAG of its classes this
// is the DAG-weighted sum exactly (up to rounding).
//
// A summary within a time limit (the search's final report, when the time left is short)
// describes the classes best first by its own clock and cuts the rest with their listed DAGs:
// the report then holds the best classes its time paid for, and the edge probabilities are
// those of the pool of the classes kept.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "bnsl/stop.hpp"
#include "pool/class_members.hpp"
#include "pool/cpdag.hpp"
#include "pool/orientations.hpp"
#include "util/threads.hpp"

namespace bnsl {
namespace {

std::uint64_t arc_key(int from, int to) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
         static_cast<std::uint32_t>(to);
}

// The CPDAG and size of class c, from c.dag, and the orientation fractions of its reversible
// edges (of its DAGs that satisfy `constraints`, when not null); its CPDAG's encoding into
// *code when code is not null.
EdgeOrientations describe_class(PoolClass& c, OrientationCache& cache,
                                std::vector<std::uint32_t>* code, const Constraints* constraints) {
  const Cpdag e = essential_graph(c.dag);
  c.arcs.clear();
  c.edges.clear();
  for (std::size_t v = 0; v < e.n_vars(); ++v) {
    const int to = static_cast<int>(v);
    for (int p : e.directed[v]) c.arcs.emplace_back(p, to);
    for (int u : e.undirected[v])
      if (u < to) c.edges.emplace_back(u, to);
  }
  std::sort(c.arcs.begin(), c.arcs.end());
  std::sort(c.edges.begin(), c.edges.end());
  if (code) *code = e.encode();
  // The size is the product of the chain components' AMO counts, which the orientations
  // count (per component, shared across classes) as mec_size would, or their AMOs that
  // satisfy the constraints.
  EdgeOrientations o = edge_orientations(e, {}, &cache, constraints);
  c.size = o.size.to_string();
  c.log10_size = o.size.log10();
  return o;
}

std::vector<EdgeProb> edge_probabilities(const std::vector<PoolClass>& classes,
                                         const std::vector<EdgeOrientations>& described) {
  double best = -std::numeric_limits<double>::infinity();
  for (const auto& c : classes) best = std::max(best, c.score);
  std::vector<double> log_w(classes.size());
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < classes.size(); ++i) {
    log_w[i] = classes[i].log10_size * std::numbers::ln10 + (classes[i].score - best);
    top = std::max(top, log_w[i]);
  }
  // Arc -> summed weight of its direction, and for the pair (low, high) the summed weight of
  // the classes holding it at all: added in the order the total is, so that an edge of every
  // class has p_edge 1 exactly, not 1 - 1e-16 as the two directions' sum can be.
  struct Mass {
    double arc = 0, pair = 0;
  };
  std::unordered_map<std::uint64_t, Mass> mass;
  double total = 0;
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const double w = std::exp(log_w[i] - top);
    total += w;
    for (const auto& [a, b] : classes[i].arcs) {
      mass[arc_key(a, b)].arc += w;
      mass[arc_key(std::min(a, b), std::max(a, b))].pair += w;
    }
    for (const auto& [u, v, f] : described[i].fractions) {
      Mass& forward = mass[arc_key(u, v)];  // u < v
      forward.arc += w * f;
      forward.pair += w;
      mass[arc_key(v, u)].arc += w * (1 - f);
    }
  }
  std::vector<EdgeProb> edges;
  edges.reserve(mass.size());
  for (const auto& [key, m] : mass) {
    if (!(m.arc > 0)) continue;  // weight underflowed to 0, or never so oriented: report p > 0
    EdgeProb e;
    e.from = static_cast<int>(key >> 32);
    e.to = static_cast<int>(key & 0xffffffffu);
    e.p = m.arc / total;
    e.p_edge = mass.find(arc_key(std::min(e.from, e.to), std::max(e.from, e.to)))->second.pair /
               total;  // every arc added its pair's entry
    edges.push_back(e);
  }
  std::sort(edges.begin(), edges.end(), [](const EdgeProb& a, const EdgeProb& b) {
    if (a.p != b.p) return a.p > b.p;
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  return edges;
}

// Whether every listed DAG carries the id of one of the classes (as the search's reports do).
bool ids_known(const PoolReport& report) {
  return std::all_of(report.dags.begin(), report.dags.end(), [&](const PoolDag& d) {
    return d.mec >= 0 && static_cast<std::size_t>(d.mec) < report.classes.size();
  });
}

// The class id of every listed DAG, by its essential graph's encoding among the classes'
// (class_code[id]).
void classify_listed(PoolReport& report, const std::vector<std::vector<std::uint32_t>>& class_code,
                     int threads) {
  std::unordered_multimap<std::uint64_t, int> by_hash;
  for (std::size_t i = 0; i < class_code.size(); ++i)
    by_hash.emplace(hash_encoding(class_code[i]), static_cast<int>(i));
  parallel_for(static_cast<long>(report.dags.size()), threads, 16, [&](long i) {
    PoolDag& d = report.dags[static_cast<std::size_t>(i)];
    const std::vector<std::uint32_t> code = essential_graph(d.parents).encode();
    d.mec = -1;
    auto [lo, hi] = by_hash.equal_range(hash_encoding(code));
    for (auto it = lo; it != hi; ++it)
      if (class_code[static_cast<std::size_t>(it->second)] == code) d.mec = it->second;
  });
  for (std::size_t i = 0; i < report.dags.size(); ++i)
    if (report.dags[i].mec < 0)
      throw RuntimeError("pool: dags[" + std::to_string(i) + "] belongs to no listed class");
}

}  // namespace

void summarize(PoolReport& report, int threads) {
  summarize(report, threads, SummaryLimit{});
}

std::size_t summarize(PoolReport& report, int threads, const SummaryLimit& limit) {
  report.edges.clear();
  report.mec_count = 0;
  report.orientation_sampled = report.orientation_samples = 0;
  report.sizes_estimated = 0;
  if (report.classes.empty()) {
    if (report.dags.empty()) return 0;
    MecIndex index(report.dags);
    const std::vector<int> ids = index.classify_all(threads);
    for (std::size_t i = 0; i < report.dags.size(); ++i) report.dags[i].mec = ids[i];
    report.classes.resize(static_cast<std::size_t>(index.size()));
    for (int id = 0; id < index.size(); ++id) {
      const PoolDag& first = report.dags[index.representative(id)];
      report.classes[static_cast<std::size_t>(id)].dag = first.parents;
      report.classes[static_cast<std::size_t>(id)].score = first.score;
    }
  }
  for (std::size_t i = 0; i < report.classes.size(); ++i)
    if (report.classes[i].dag.empty())
      throw RuntimeError("pool: classes[" + std::to_string(i) + "] has no DAG");
  const bool classify = !ids_known(report);
  std::vector<std::vector<std::uint32_t>> codes(classify ? report.classes.size() : 0);
  std::vector<EdgeOrientations> described(report.classes.size());
  OrientationCache cache;
  const Constraints* constraints = report.constraints.empty() ? nullptr : &report.constraints;
  // Class c is described while its writing and that of the classes before it still fit before
  // limit.end (dynamic chunks hand classes out best first; another thread may have described a
  // later one before this one was refused, and the cut below drops it too).
  const bool limited = !classify && limit.end != Clock::time_point::max();
  const bool watch_signal = !classify && std::isfinite(limit.after_signal);
  constexpr Clock::rep kNoSignal = std::numeric_limits<Clock::rep>::max();
  std::atomic<Clock::rep> signal_end{kNoSignal};  // when a signal was seen: its end
  std::vector<char> done(report.classes.size(), 0);
  parallel_for(static_cast<long>(report.classes.size()), threads, 16, [&](long id) {
    const auto c = static_cast<std::size_t>(id);
    if (limited && c > 0) {
      const std::chrono::duration<double> writing(limit.seconds_per_class *
                                                  static_cast<double>(c + 1));
      if (limit.end - Clock::now() < writing) return;
    }
    if (watch_signal && c > 0 && signal_received()) {
      const Clock::rep now = Clock::now().time_since_epoch().count();
      Clock::rep end = kNoSignal;
      signal_end.compare_exchange_strong(
          end, now + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(limit.after_signal))
                         .count());
      if (now > signal_end.load()) return;
    }
    described[c] =
        describe_class(report.classes[c], cache, classify ? &codes[c] : nullptr, constraints);
    done[c] = 1;
  });
  const auto kept = static_cast<std::size_t>(std::find(done.begin(), done.end(), 0) - done.begin());
  const std::size_t cut = report.classes.size() - kept;
  if (cut > 0) {
    report.classes.resize(kept);
    described.resize(kept);
    std::erase_if(report.dags,
                  [kept](const PoolDag& d) { return static_cast<std::size_t>(d.mec) >= kept; });
  }
  if (classify) classify_listed(report, codes, threads);
  count_members(report);
  for (const EdgeOrientations& d : described) {
    if (d.sampled > 0) {
      report.orientation_sampled += d.sampled;
      report.orientation_samples = d.samples;
    }
    report.sizes_estimated += d.size_estimated;
  }
  report.mec_count = static_cast<int>(report.classes.size());
  report.edges = edge_probabilities(report.classes, described);
  return cut;
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
