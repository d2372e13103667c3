// SetTable: a hash set of sorted parent lists, each stored once in one arena and named by
// a dense id. Membership is by xxHash of the sorted list with an exact comparison, so two
// different sets are never confused. Used for the levels of the sequential explorer and the
// open/closed lists of independence selection.
//
// Narrow tables (every member below 64: data of at most 64 variables, as in exact mode) key
// their hash table by the set's bitmask instead, held in the table itself: a lookup then reads
// one bucket, where a list key reads its bucket, its offset and its members in the arena, each
// a cache miss once the table outgrows the caches (uci/wdbc's exhaustive exploration: about
// half the explorer's time went to these misses). Runs (narrow tables with `runs`): the
// sequential explorer inserts and looks up sets in runs that differ only in their largest
// member (S + y for y = max S + 1, ...), so there the hash is that of the set without its
// largest member plus that member: a run lands in consecutive buckets, and its lookups in the
// same few cache lines (uci/bands and steel: about a quarter less time). Explorers that visit
// sets in no such order keep the hash of the whole mask (clustered runs would only lengthen
// their probes).
#pragma once

#include <xxhash.h>

#include <tsl/robin_map.h>
#include <tsl/robin_set.h>
#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace bnsl {

class SetTable {
 public:
  // narrow: every member of every set is below 64.
  explicit SetTable(bool narrow = false, bool runs = false)
      : narrow_(narrow), set_(16, Hash{this}, Eq{this}), masks_(16, MaskHash{runs}) {}
  SetTable(const SetTable&) = delete;
  SetTable& operator=(const SetTable&) = delete;

  std::size_t size() const { return offsets_.size() - 1; }
  std::span<const std::int32_t> get(std::uint32_t id) const {
    return {arena_.data() + offsets_[id], arena_.data() + offsets_[id + 1]};
  }
  // Id of the set, or -1. `s` must be sorted ascending.
  std::int64_t find(std::span<const std::int32_t> s) const {
    if (narrow_) {
      auto it = masks_.find(mask_of(s));
      return it == masks_.end() ? -1 : static_cast<std::int64_t>(it->second);
    }
    auto it = set_.find(s);
    return it == set_.end() ? -1 : static_cast<std::int64_t>(*it);
  }
  // Inserts `s` (sorted, absent) and returns its id.
  std::uint32_t insert(std::span<const std::int32_t> s) {
    const auto id = static_cast<std::uint32_t>(size());
    arena_.insert(arena_.end(), s.begin(), s.end());
    offsets_.push_back(static_cast<std::uint32_t>(arena_.size()));
    if (narrow_)
      masks_.emplace(mask_of(s), id);
    else
      set_.insert(id);
    return id;
  }
  // Empties the table and keeps its memory (no pages to fault in again, no rehashing while
  // it refills to its former size).
  void clear() {
    arena_.clear();
    offsets_.resize(1);
    set_.clear();
    masks_.clear();
  }
  std::size_t bytes() const {
    return arena_.capacity() * 4 + offsets_.capacity() * 4 + set_.bucket_count() * 16 +
           masks_.bucket_count() * 24;
  }

 private:
  static std::uint64_t mask_of(std::span<const std::int32_t> s) {
    std::uint64_t m = 0;
    for (std::int32_t v : s) m |= std::uint64_t{1} << v;
    return m;
  }
  struct MaskHash {  // the splitmix64 finalizer (masks differ in few bits), runs aside
    bool runs = false;
    std::size_t operator()(std::uint64_t x) const {
      std::uint64_t top = 0;
      if (runs && x != 0) {
        top = static_cast<std::uint64_t>(63 - std::countl_zero(x));
        x &= ~(std::uint64_t{1} << top);
      }
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
      return static_cast<std::size_t>((x ^ (x >> 31)) + top);
    }
  };
  static std::uint64_t hash_of(std::span<const std::int32_t> s) {
    return XXH3_64bits(s.data(), s.size_bytes());
  }
  struct Hash {
    using is_transparent = void;
    const SetTable* t;
    std::size_t operator()(std::uint32_t id) const { return hash_of(t->get(id)); }
    std::size_t operator()(std::span<const std::int32_t> s) const { return hash_of(s); }
  };
  struct Eq {
    using is_transparent = void;
    const SetTable* t;
    static bool same(std::span<const std::int32_t> a, std::span<const std::int32_t> b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }
    bool operator()(std::uint32_t a, std::uint32_t b) const { return a == b; }
    bool operator()(std::uint32_t a, std::span<const std::int32_t> b) const {
      return same(t->get(a), b);
    }
    bool operator()(std::span<const std::int32_t> a, std::uint32_t b) const {
      return same(a, t->get(b));
    }
  };

  bool narrow_;
  std::vector<std::int32_t> arena_;
  std::vector<std::uint32_t> offsets_{0};
  tsl::robin_set<std::uint32_t, Hash, Eq, std::allocator<std::uint32_t>, true> set_;
  tsl::robin_map<std::uint64_t, std::uint32_t, MaskHash> masks_;  // narrow tables
};

// Calls f(subset, dropped_position) for each immediate subset of the sorted `set` (the set
// without one member), built in `scratch`; stops early when f returns false.
template <class F>
bool for_each_immediate_subset(std::span<const std::int32_t> set,
                               std::vector<std::int32_t>& scratch, F f) {
  const std::size_t k = set.size();
  if (k == 0) return true;
  scratch.resize(k - 1);
  for (std::size_t drop = 0; drop < k; ++drop) {
    std::size_t w = 0;
    for (std::size_t i = 0; i < k; ++i)
      if (i != drop) scratch[w++] = set[i];
    if (!f(std::span<const std::int32_t>(scratch), drop)) return false;
  }
  return true;
}

}  // namespace bnsl
