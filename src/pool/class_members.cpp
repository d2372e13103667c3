// Class members by covered-arc reversals (class_members.hpp), with constraints those that
// satisfy them.
#include "pool/class_members.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "pool/cpdag.hpp"
#include "pool/orientations.hpp"

namespace bnsl {
namespace {

std::uint64_t family_key(std::size_t v, const std::vector<int>& parents) {
  const std::uint64_t h = XXH3_64bits(parents.data(), parents.size() * sizeof(int));
  return XXH3_64bits_withSeed(&h, sizeof h, v);
}

// Whether u -> v is covered: parents(v) = parents(u) + {u} (both sorted).
bool covered(const std::vector<int>& pv, const std::vector<int>& pu, int u) {
  if (pv.size() != pu.size() + 1) return false;
  std::size_t j = 0;
  bool seen_u = false;
  for (int p : pv) {
    if (p == u && !seen_u) {
      seen_u = true;
      continue;
    }
    if (j >= pu.size() || pu[j] != p) return false;
    ++j;
  }
  return seen_u;
}

}  // namespace

// A DAG's key is the XOR of its families' keys, so a reversal (which changes two families)
// updates it in O(parents); a DAG is copied only when its key is new or needs confirming.
std::vector<ParentSets> class_members(const ParentSets& dag, std::size_t max,
                                      const Constraints* constraints,
                                      const Clock::time_point* until, const PoolTunables& tune) {
  if (max == 0) return {};
  // (An in-degree limit alone keeps or drops whole classes: bnsl/constraints.hpp.)
  if (constraints && constraints->arcs_empty()) constraints = nullptr;
  // The DAGs visited at most: the members listed, or, with constraints, more (the header).
  std::size_t cap = max;
  if (constraints) {
    const std::size_t wide = max > SIZE_MAX / 64 ? SIZE_MAX : 64 * max;
    const std::size_t by_size = tune.member_families / std::max<std::size_t>(1, dag.size());
    cap = std::max(max, std::min(std::max(wide, tune.member_visits), by_size));
  }
  std::vector<ParentSets> walked;   // the DAGs visited, in order (the queue)
  std::vector<std::size_t> listed;  // those listed (all of them without constraints)
  walked.push_back(dag);
  for (auto& ps : walked.back()) std::sort(ps.begin(), ps.end());
  listed.push_back(0);
  std::vector<std::uint64_t> keys;
  {
    std::uint64_t h = 0;
    for (std::size_t v = 0; v < walked[0].size(); ++v) h ^= family_key(v, walked[0][v]);
    keys.push_back(h);
  }
  std::unordered_multimap<std::uint64_t, std::size_t> seen{{keys[0], 0}};
  std::vector<int> pu2, pv2;
  const auto more = [&] {
    return listed.size() < max && walked.size() < cap &&
           (!until || (walked.size() & 63) != 0 || Clock::now() < *until);
  };
  for (std::size_t head = 0; head < walked.size() && more(); ++head) {
    const std::size_t n = walked[head].size();
    for (std::size_t v = 0; v < n && more(); ++v)
      for (std::size_t k = 0; k < walked[head][v].size() && more(); ++k) {
        const ParentSets& cur = walked[head];  // valid until walked grows (below, then re-read)
        const int u = cur[v][k];
        const auto uu = static_cast<std::size_t>(u);
        if (!covered(cur[v], cur[uu], u)) continue;
        pv2 = cur[v];  // reverse u -> v
        pv2.erase(pv2.begin() + static_cast<long>(k));
        pu2 = cur[uu];
        pu2.insert(std::upper_bound(pu2.begin(), pu2.end(), static_cast<int>(v)),
                   static_cast<int>(v));
        const std::uint64_t h = keys[head] ^ family_key(v, cur[v]) ^ family_key(v, pv2) ^
                                family_key(uu, cur[uu]) ^ family_key(uu, pu2);
        bool known = false;
        auto [lo, hi] = seen.equal_range(h);
        for (auto it = lo; it != hi && !known; ++it) {
          const ParentSets& g = walked[it->second];
          known = g[v] == pv2 && g[uu] == pu2;
          for (std::size_t w = 0; w < n && known; ++w)
            if (w != v && w != uu) known = g[w] == cur[w];
        }
        if (known) continue;
        ParentSets g = cur;
        g[v] = pv2;
        g[uu] = pu2;
        seen.emplace(h, walked.size());
        keys.push_back(h);
        if (!constraints || !constraints->violation(g)) listed.push_back(walked.size());
        walked.push_back(std::move(g));
      }
  }
  if (!constraints) return walked;
  std::vector<ParentSets> out;
  out.reserve(listed.size());
  for (std::size_t i : listed) out.push_back(std::move(walked[i]));
  return out;
}

bool covered_arc(const ParentSets& dag, int u, int v) {
  const auto& pv = dag[static_cast<std::size_t>(v)];
  return std::binary_search(pv.begin(), pv.end(), u) &&
         covered(pv, dag[static_cast<std::size_t>(u)], u);
}

void list_members(PoolReport& report, std::size_t max_dags, const Clock::time_point* until,
                  const PoolTunables& tune) {
  report.dags.clear();
  OrientationCache cache;  // components shared by the classes (with constraints only)
  for (std::size_t id = 0; id < report.classes.size() && report.dags.size() < max_dags; ++id) {
    if (until && id > 0 && Clock::now() >= *until) break;
    const PoolClass& c = report.classes[id];
    std::size_t want = max_dags - report.dags.size();
    // With constraints, the walk passes over members that break them; once it has listed as
    // many as the class holds that do not, it stops instead of walking on to its cap.
    if (!report.constraints.empty()) {
      std::uint64_t size = 0;
      const EdgeOrientations o =
          edge_orientations(essential_graph(c.dag), {}, &cache, &report.constraints);
      if (!o.size_estimated && o.size.to_u64(size)) want = std::min<std::uint64_t>(want, size);
    }
    for (ParentSets& m : class_members(c.dag, want, &report.constraints, until, tune))
      report.dags.push_back({c.score, std::move(m), static_cast<int>(id)});
  }
  count_members(report);
}

void count_members(PoolReport& report) {
  for (PoolClass& c : report.classes) c.members = 0;
  for (std::size_t i = report.dags.size(); i-- > 0;) {
    PoolClass& c = report.classes[static_cast<std::size_t>(report.dags[i].mec)];
    ++c.members;
    c.first = i;
  }
}

}  // namespace bnsl
