// A score cache's entries by parent set (entry_index.hpp): VarCache::find scans a list, which
// lookups by the thousand cannot afford.
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tsl/robin_map.h>

#include "bnsl/cache.hpp"

namespace bnsl {

// Cache entries by parent set, per variable, indexed on first use: the neighbour walk's
// reversals look up the two families they make, the search's start networks (`learn --resume`)
// every family of every network.
class EntryIndex {
 public:
  explicit EntryIndex(const ScoreCache& cache)
      : cache_(cache), maps_(cache.n_vars()), built_(cache.n_vars(), false) {}

  // The entry of v with these parents (sorted ascending), or -1.
  long find(std::size_t v, std::span<const std::int32_t> parents) {
    const VarCache& vc = cache_.var(v);
    if (!built_[v]) {
      built_[v] = true;
      maps_[v].reserve(vc.size());
      for (std::size_t i = 0; i < vc.size(); ++i)
        maps_[v].emplace(key(vc.parents(i)), static_cast<std::uint32_t>(i));
    }
    const auto it = maps_[v].find(key(parents));
    if (it == maps_[v].end()) return -1;
    const auto found = vc.parents(it->second);
    if (std::equal(found.begin(), found.end(), parents.begin(), parents.end())) return it->second;
    const std::vector<int> query(parents.begin(), parents.end());  // a 64-bit collision
    return vc.find(query);
  }

 private:
  static std::uint64_t key(std::span<const std::int32_t> parents) {
    return XXH3_64bits(parents.data(), parents.size_bytes());
  }
  const ScoreCache& cache_;
  std::vector<tsl::robin_map<std::uint64_t, std::uint32_t>> maps_;
  std::vector<bool> built_;
};

}  // namespace bnsl
