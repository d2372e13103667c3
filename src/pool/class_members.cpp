// Class members by covered-arc reversals (class_members.hpp).
#include "pool/class_members.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

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
std::vector<ParentSets> class_members(const ParentSets& dag, std::size_t max) {
  std::vector<ParentSets> out;
  if (max == 0) return out;
  out.push_back(dag);
  for (auto& ps : out.back()) std::sort(ps.begin(), ps.end());
  std::vector<std::uint64_t> keys;
  {
    std::uint64_t h = 0;
    for (std::size_t v = 0; v < out[0].size(); ++v) h ^= family_key(v, out[0][v]);
    keys.push_back(h);
  }
  std::unordered_multimap<std::uint64_t, std::size_t> seen{{keys[0], 0}};
  std::vector<int> pu2, pv2;
  for (std::size_t head = 0; head < out.size() && out.size() < max; ++head) {
    const std::size_t n = out[head].size();
    for (std::size_t v = 0; v < n && out.size() < max; ++v)
      for (std::size_t k = 0; k < out[head][v].size() && out.size() < max; ++k) {
        const ParentSets& cur = out[head];  // valid until out grows (below, then re-read)
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
          const ParentSets& g = out[it->second];
          known = g[v] == pv2 && g[uu] == pu2;
          for (std::size_t w = 0; w < n && known; ++w)
            if (w != v && w != uu) known = g[w] == cur[w];
        }
        if (known) continue;
        ParentSets g = cur;
        g[v] = pv2;
        g[uu] = pu2;
        seen.emplace(h, out.size());
        keys.push_back(h);
        out.push_back(std::move(g));
      }
  }
  return out;
}

bool covered_arc(const ParentSets& dag, int u, int v) {
  const auto& pv = dag[static_cast<std::size_t>(v)];
  return std::binary_search(pv.begin(), pv.end(), u) &&
         covered(pv, dag[static_cast<std::size_t>(u)], u);
}

void list_members(PoolReport& report, std::size_t max_dags) {
  report.dags.clear();
  for (std::size_t id = 0; id < report.classes.size() && report.dags.size() < max_dags; ++id) {
    const PoolClass& c = report.classes[id];
    for (ParentSets& m : class_members(c.dag, max_dags - report.dags.size()))
      report.dags.push_back({c.score, std::move(m), static_cast<int>(id)});
  }
}

}  // namespace bnsl
