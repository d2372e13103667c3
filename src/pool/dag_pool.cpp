// The DAG pool (DESIGN.md, "The DAG pool"): keeps every distinct DAG with
// s(G) >= s_best - epsilon, re-trimmed whenever s_best rises, capped at max_size keeping the
// best. Guarantee: after any sequence of offers, the pool holds exactly the distinct offered
// DAGs within epsilon of the best offered one (or the max_size best of them, and truncated()
// says so). Scores are recomputed from the cache on admission, so incremental drift in the
// searchers never reaches the report. Comparisons use score/compare.hpp.
#include "pool/dag_pool.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "score/compare.hpp"

namespace bnsl {

std::uint64_t entry_hash(std::uint32_t v, std::uint32_t entry) {
  const std::uint64_t key = (static_cast<std::uint64_t>(v) << 32) | entry;
  return XXH3_64bits(&key, sizeof key);
}

std::uint64_t dag_hash(std::span<const std::uint32_t> choices) {
  std::uint64_t h = 0;
  for (std::size_t v = 0; v < choices.size(); ++v)
    h ^= entry_hash(static_cast<std::uint32_t>(v), choices[v]);
  return h;
}

double dag_score(const ScoreCache& cache, std::span<const std::uint32_t> choices) {
  double s = 0;
  for (std::size_t v = 0; v < choices.size(); ++v) s += cache.var(v).score(choices[v]);
  return s;
}

DagPool::DagPool(const ScoreCache& cache, Epsilon epsilon, std::size_t max_size)
    : cache_(cache),
      epsilon_(epsilon),
      max_size_(max_size < 1 ? 1 : max_size),
      best_(-std::numeric_limits<double>::infinity()),
      threshold_(-std::numeric_limits<double>::infinity()) {}

bool DagPool::offer(double /*score*/, std::uint64_t hash, std::span<const std::uint32_t> choices,
                    const ChoicesRef& ref) {
  std::lock_guard<std::mutex> lock(mutex_);
  const double exact = dag_score(cache_, choices);
  if (!dags_.empty() && clearly_greater(best_ - eps_, exact)) return false;
  if (contains(hash, choices)) return false;
  if (dags_.size() >= max_size_ && exact <= std::prev(dags_.end())->first.score) {
    truncated_ = true;  // within epsilon (checked above) but no room
    return false;
  }
  if (exact > best_) {
    best_ = exact;
    eps_ = epsilon_.resolve(std::fabs(best_));
    best_ref_ = std::make_shared<const Choices>(choices.begin(), choices.end());
  }
  dags_.emplace(Key{exact, hash}, encode(choices, ref ? ref : best_ref_));
  by_hash_.emplace(hash, exact);
  ++inserted_;
  trim();
  update_threshold();
  return true;
}

DagPool::Stored DagPool::encode(std::span<const std::uint32_t> choices,
                                const ChoicesRef& ref) const {
  Stored s;
  const std::size_t n = choices.size();
  if (ref && ref->size() == n) {
    std::size_t differ = 0;
    for (std::size_t v = 0; v < n; ++v) differ += (*ref)[v] != choices[v];
    if (2 * differ <= n) {
      s.ref = ref;
      s.diff.reserve(2 * differ);
      for (std::size_t v = 0; v < n; ++v)
        if ((*ref)[v] != choices[v]) {
          s.diff.push_back(static_cast<std::uint32_t>(v));
          s.diff.push_back(choices[v]);
        }
      return s;
    }
  }
  s.diff.assign(choices.begin(), choices.end());
  return s;
}

Choices DagPool::decode(const Stored& s) const {
  if (!s.ref) return s.diff;
  Choices c = *s.ref;
  for (std::size_t i = 0; i + 1 < s.diff.size(); i += 2) c[s.diff[i]] = s.diff[i + 1];
  return c;
}

bool DagPool::contains(std::uint64_t hash, std::span<const std::uint32_t> choices) const {
  auto [lo, hi] = by_hash_.equal_range(hash);
  for (auto it = lo; it != hi; ++it) {
    auto d = dags_.find(Key{it->second, hash});
    if (d == dags_.end()) continue;
    const Choices c = decode(d->second);
    if (std::equal(c.begin(), c.end(), choices.begin(), choices.end())) return true;
  }
  return false;
}

void DagPool::trim() {
  while (!dags_.empty()) {
    auto last = std::prev(dags_.end());
    const bool below = clearly_greater(best_ - eps_, last->first.score);
    if (!below && dags_.size() <= max_size_) break;
    if (!below) truncated_ = true;
    auto [lo, hi] = by_hash_.equal_range(last->first.hash);
    for (auto it = lo; it != hi; ++it)
      if (it->second == last->first.score) {
        by_hash_.erase(it);
        break;
      }
    dags_.erase(last);
  }
}

void DagPool::update_threshold() {
  double t = best_ - eps_ - score_tolerance(best_, best_ - eps_);
  if (dags_.size() >= max_size_) t = std::max(t, std::prev(dags_.end())->first.score);
  threshold_.store(t, std::memory_order_relaxed);
}

double DagPool::best() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return best_;
}

double DagPool::epsilon() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dags_.empty() ? epsilon_.resolve(0) : eps_;
}

std::size_t DagPool::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dags_.size();
}

std::uint64_t DagPool::inserted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return inserted_;
}

bool DagPool::truncated() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return truncated_;
}

std::vector<PooledDag> DagPool::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PooledDag> out;
  out.reserve(dags_.size());
  for (const auto& [key, stored] : dags_) out.push_back({key.score, key.hash, decode(stored)});
  return out;
}

Choices DagPool::best_choices() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return best_ref_ ? *best_ref_ : Choices{};
}

}  // namespace bnsl
