// A score cache's entries by parent set: VarCache::find scans a list, which lookups by the
// thousand cannot afford.
#pragma once

#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <tsl/robin_map.h>

#include "bnsl/cache.hpp"

namespace bnsl {

// One variable's entries by parent set (a 64-bit hash of the sorted parents), kept up to date
// by add() as entries are appended.
class VarEntryIndex {
 public:
  explicit VarEntryIndex(const VarCache& vc) : vc_(&vc) {
    map_.reserve(vc.size());
    for (std::size_t i = 0; i < vc.size(); ++i) add(i);
  }
  // Indexes entry i (appended to the list since).
  void add(std::size_t i) { map_.emplace(key(vc_->parents(i)), static_cast<std::uint32_t>(i)); }
  // The entry with these parents (sorted ascending), or -1.
  long find(std::span<const std::int32_t> parents) const {
    const auto it = map_.find(key(parents));
    if (it == map_.end()) return -1;
    const auto found = vc_->parents(it->second);
    if (std::equal(found.begin(), found.end(), parents.begin(), parents.end())) return it->second;
    return vc_->find(std::vector<int>(parents.begin(), parents.end()));  // a 64-bit collision
  }

 private:
  static std::uint64_t key(std::span<const std::int32_t> parents) {
    return XXH3_64bits(parents.data(), parents.size_bytes());
  }
  const VarCache* vc_;
  tsl::robin_map<std::uint64_t, std::uint32_t> map_;
};

// Cache entries by parent set, per variable, indexed on first use: the neighbour walk's
// reversals look up the two families they make, the search's start networks (`learn --resume`)
// every family of every network.
class EntryIndex {
 public:
  explicit EntryIndex(const ScoreCache& cache) : cache_(cache), maps_(cache.n_vars()) {}

  // The entry of v with these parents (sorted ascending), or -1.
  long find(std::size_t v, std::span<const std::int32_t> parents) {
    if (!maps_[v]) maps_[v].emplace(cache_.var(v));
    return maps_[v]->find(parents);
  }

 private:
  const ScoreCache& cache_;
  std::vector<std::optional<VarEntryIndex>> maps_;  // built at v's first lookup
};

}  // namespace bnsl
