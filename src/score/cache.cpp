// Parent-set score caches (see include/bnsl/cache.hpp).
//
// A VarCache keeps its entries in three flat arrays instead of one vector per entry: the
// scores, an offset table, and one arena holding every parent list back to back, each sorted
// ascending. With thousands of variables and millions of candidate parent sets this costs
// 8 + 4 + 4·|Π| bytes per entry and keeps scans cache-friendly. Entry order is whatever the
// caller built, until sort_best_first() puts it in the one deterministic order the rest of
// bnsl relies on: score descending, then fewer parents, then lexicographic parent lists.
#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace bnsl {

namespace {

// NaN would break the strict weak ordering of the sort; it ranks with -infinity instead.
double rank_key(double score) {
  return std::isnan(score) ? -std::numeric_limits<double>::infinity() : score;
}

}  // namespace

void VarCache::add(double score, std::span<const int> parents) {
  if (arena_.size() + parents.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("VarCache: parent arena exceeds 2^32 slots");
  }
  const auto begin = static_cast<std::ptrdiff_t>(arena_.size());
  arena_.insert(arena_.end(), parents.begin(), parents.end());
  std::sort(arena_.begin() + begin, arena_.end());
  scores_.push_back(score);
  offsets_.push_back(static_cast<std::uint32_t>(arena_.size()));
}

// Exact comparison: a tolerance (score/compare.hpp) is not transitive, so it cannot order a
// sort; entries equal within tolerance keep this exact, deterministic order.
void VarCache::sort_best_first() {
  struct Key {
    double score;         // rank_key of the entry's score
    std::uint32_t index;  // entry
  };
  std::vector<Key> order(size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = {rank_key(scores_[i]), i};
  auto better = [this](const Key& a, const Key& b) {
    if (a.score != b.score) return a.score > b.score;
    const auto pa = parents(a.index);
    const auto pb = parents(b.index);
    if (pa.size() != pb.size()) return pa.size() < pb.size();
    if (!std::equal(pa.begin(), pa.end(), pb.begin())) {
      return std::lexicographical_compare(pa.begin(), pa.end(), pb.begin(), pb.end());
    }
    return a.index < b.index;  // identical entries: keep insertion order
  };
  if (std::is_sorted(order.begin(), order.end(), better)) return;
  std::sort(order.begin(), order.end(), better);

  VarCache sorted;
  sorted.reserve(size(), arena_.size());
  for (const Key& key : order) {
    const auto p = parents(key.index);
    sorted.scores_.push_back(scores_[key.index]);
    sorted.arena_.insert(sorted.arena_.end(), p.begin(), p.end());
    sorted.offsets_.push_back(static_cast<std::uint32_t>(sorted.arena_.size()));
  }
  *this = std::move(sorted);
}

void VarCache::filter(const std::vector<bool>& keep) {
  if (keep.size() != size()) {
    throw std::invalid_argument("VarCache::filter: keep has the wrong size");
  }
  std::size_t out = 0;     // entries kept so far
  std::uint32_t slot = 0;  // arena slots kept so far
  for (std::size_t i = 0; i < size(); ++i) {
    if (!keep[i]) continue;
    const std::uint32_t begin = offsets_[i];
    const std::uint32_t end = offsets_[i + 1];
    std::copy(arena_.begin() + begin, arena_.begin() + end, arena_.begin() + slot);
    slot += end - begin;
    scores_[out] = scores_[i];
    offsets_[out + 1] = slot;
    ++out;
  }
  scores_.resize(out);
  offsets_.resize(out + 1);
  arena_.resize(slot);
}

long VarCache::find(std::span<const int> parents) const {
  std::vector<std::int32_t> query(parents.begin(), parents.end());
  std::sort(query.begin(), query.end());
  for (std::size_t i = 0; i < size(); ++i) {
    const auto p = this->parents(i);
    if (p.size() == query.size() && std::equal(p.begin(), p.end(), query.begin())) {
      return static_cast<long>(i);
    }
  }
  return -1;
}

void VarCache::reserve(std::size_t entries, std::size_t parent_slots) {
  scores_.reserve(entries);
  offsets_.reserve(entries + 1);
  arena_.reserve(parent_slots);
}

std::size_t VarCache::bytes() const {
  return sizeof(*this) + scores_.capacity() * sizeof(double) +
         offsets_.capacity() * sizeof(std::uint32_t) + arena_.capacity() * sizeof(std::int32_t);
}

ScoreCache::ScoreCache(std::size_t n_vars, std::vector<std::string> names)
    : vars_(n_vars), names_(std::move(names)) {
  if (!names_.empty() && names_.size() != n_vars) {
    throw std::invalid_argument("ScoreCache: " + std::to_string(names_.size()) + " names for " +
                                std::to_string(n_vars) + " variables");
  }
}

std::vector<std::string> ScoreCache::names_or_defaults() const {
  if (!names_.empty()) return names_;
  std::vector<std::string> names;
  for (std::size_t v = 0; v < vars_.size(); ++v) names.push_back(default_variable_name(v));
  return names;
}

std::size_t ScoreCache::total_entries() const {
  std::size_t total = 0;
  for (const VarCache& v : vars_) total += v.size();
  return total;
}

std::size_t ScoreCache::apply(const Constraints& constraints) {
  if (constraints.empty()) return 0;
  std::size_t dropped = 0;
  const std::vector<std::vector<int>> required_of = constraints.required_by_child(n_vars());
  for (std::size_t v = 0; v < n_vars(); ++v) {
    VarCache& vc = var(v);
    const std::vector<int>& must = required_of[v];
    std::vector<bool> keep(vc.size(), true);
    bool any = false;
    for (std::size_t i = 0; i < vc.size(); ++i) {
      const auto ps = vc.parents(i);
      bool ok = std::includes(ps.begin(), ps.end(), must.begin(), must.end()) &&
                (constraints.max_parents < 0 ||
                 ps.size() <= static_cast<std::size_t>(constraints.max_parents));
      for (std::size_t k = 0; k < ps.size() && ok; ++k)
        ok = constraints.allowed(ps[k], static_cast<int>(v));
      if (!ok) {
        keep[i] = false;
        any = true;
        ++dropped;
      }
    }
    if (any) vc.filter(keep);
  }
  return dropped;
}

std::size_t ScoreCache::bytes() const {
  std::size_t total = sizeof(*this) + (vars_.capacity() - vars_.size()) * sizeof(VarCache);
  for (const VarCache& v : vars_) total += v.bytes();
  total += names_.capacity() * sizeof(std::string);
  for (const std::string& name : names_) total += name.capacity();  // approximate: ignores SSO
  return total;
}

}  // namespace bnsl
