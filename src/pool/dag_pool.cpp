// The pool (docs/design.md, "The DAG pool"): keeps one DAG of every distinct equivalence class
// with s(G) >= s_best - epsilon, re-trimmed whenever s_best rises, capped at max_size classes
// (which ones a full pool keeps: dag_pool.hpp). Guarantee: after any sequence of offers, the
// pool holds exactly one DAG of each distinct class offered within epsilon of the best offered
// DAG, or, if truncated() says a class within epsilon was dropped for room, max_size of them,
// the best one among them. Scores are recomputed from the cache on admission, so
// incremental drift in the searchers never reaches the report. Comparisons use score/compare.hpp.
#include "pool/dag_pool.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "pool/class_key.hpp"
#include "score/compare.hpp"

namespace bnsl {
namespace {

// Band floor(x) of `bands`, clamped: x = (best - score) / width.
std::size_t clamped_band(double x, std::size_t bands) {
  return x <= 0 ? 0 : x >= static_cast<double>(bands - 1) ? bands - 1 : static_cast<std::size_t>(x);
}

}  // namespace

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

DagPool::DagPool(const ScoreCache& cache, Epsilon epsilon, std::size_t max_size, bool by_class,
                 std::size_t bands, std::size_t max_classified)
    : cache_(cache),
      epsilon_(epsilon),
      max_size_(max_size < 1 ? 1 : max_size),
      by_class_dedupe_(by_class),
      max_classified_(std::max<std::size_t>(max_classified, 1)),
      best_(-std::numeric_limits<double>::infinity()),
      bands_(std::clamp<std::size_t>(bands, 1, kMaxBands)),
      band_count_(bands_, 0),
      band_best_(-std::numeric_limits<double>::infinity()),
      band_width_(0),
      threshold_(-std::numeric_limits<double>::infinity()) {
  for (auto& t : band_threshold_) t.store(-std::numeric_limits<double>::infinity());
}

bool DagPool::may_accept(double score) const {
  std::size_t b = 0;
  bool lower = false, upper = false;  // within rounding of the band's top or bottom edge
  const double w = band_width_.load(std::memory_order_relaxed);
  if (bands_ > 1 && w > 0) {
    const double x = (band_best_.load(std::memory_order_relaxed) - score) / w;
    if (x > 0) {
      b = clamped_band(x, bands_);
      const double near = 1e-6 * std::max(1.0, x);
      lower = b > 0 && x - static_cast<double>(b) < near;
      upper = b + 1 < bands_ && static_cast<double>(b + 1) - x < near;
    }
  }
  double t = band_threshold_[b].load(std::memory_order_relaxed);
  if (lower) t = std::min(t, band_threshold_[b - 1].load(std::memory_order_relaxed));
  if (upper) t = std::min(t, band_threshold_[b + 1].load(std::memory_order_relaxed));
  return score >= t;
}

// The score (O(n)) and the class key (pool/class_key.hpp, O(n) for bounded in-degree) of an
// offered DAG are computed outside the lock, so chains offering at once classify in parallel;
// the lock is taken before (is it new and within the threshold?) and after (is its class new?
// then admit), and the first check is repeated after, since another chain may have admitted
// the DAG or raised the threshold in between.
bool DagPool::offer(double /*score*/, std::uint64_t hash, std::span<const std::uint32_t> choices,
                    const ChoicesRef& ref) {
  const double exact = dag_score(cache_, choices);
  const auto fresh = [&] {  // under the lock
    if (!dags_.empty() && clearly_greater(best_ - eps_, exact)) return false;
    return !contains(hash, choices) && !classified_.contains(hash);
  };
  if (!by_class_dedupe_) {
    std::lock_guard<std::mutex> lock(mutex_);
    return fresh() && admit(exact, hash, hash, choices, ref);
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!fresh()) return false;
  }
  const std::uint64_t class_hash = offered_key(choices, ref);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!fresh()) return false;
  if (classified_.size() >= max_classified_) classified_.clear();
  classified_.insert(hash);
  if (has_class(class_hash, choices)) {
    ++equivalent_;
    return false;
  }
  return admit(exact, hash, class_hash, choices, ref);
}

// Under the lock: a DAG of a class the pool does not hold, within epsilon of the best.
bool DagPool::admit(double exact, std::uint64_t hash, std::uint64_t class_hash,
                    std::span<const std::uint32_t> choices, const ChoicesRef& ref) {
  if (exact > best_) {
    const double rise = exact - best_;
    best_ = exact;
    eps_ = epsilon_.resolve(std::fabs(best_));
    width_ = eps_ / static_cast<double>(bands_);
    best_ref_ = std::make_shared<const Choices>(choices.begin(), choices.end());
    if (const std::size_t trimmed = trim(); trimmed > 0) {
      losses_.left_epsilon += trimmed;
      losses_.last_rise = rise;
      losses_.last_trimmed = trimmed;
    }
    recount();
  }
  const std::size_t band = band_of(exact);
  if (dags_.size() >= max_size_) {  // room: the worst class of the most populated band goes
    const std::size_t victim = victim_band(band);
    const auto worst = worst_in_band(victim);
    truncated_ = true;  // a class within epsilon is dropped: the offered one or that one
    ++losses_.for_room;
    if (worst == dags_.end() || (victim == band && exact <= worst->first.score)) {
      // Turned away, not classified: offered again once a rise of the best has made room (the
      // neighbour walk around a new best meets many DAGs the chains offered before), it is
      // admitted then.
      classified_.erase(hash);
      update_threshold();
      return false;
    }
    --band_count_[victim];
    erase(worst);
  }
  Stored stored = encode(choices, ref ? ref : best_ref_);
  stored.class_hash = class_hash;
  index(dags_.emplace(Key{exact, hash}, std::move(stored)).first);
  ++band_count_[band];
  ++inserted_;
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

bool DagPool::equals(const Stored& s, std::span<const std::uint32_t> choices) {
  if (!s.ref) return std::equal(s.diff.begin(), s.diff.end(), choices.begin(), choices.end());
  const Choices& ref = *s.ref;
  if (ref.size() != choices.size()) return false;
  std::size_t d = 0;  // next (variable, entry) pair of the diff
  for (std::size_t v = 0; v < ref.size(); ++v) {
    std::uint32_t want = ref[v];
    if (d < s.diff.size() && s.diff[d] == v) {
      want = s.diff[d + 1];
      d += 2;
    }
    if (want != choices[v]) return false;
  }
  return true;
}

bool DagPool::contains(std::uint64_t hash, std::span<const std::uint32_t> choices) const {
  auto it = by_hash_.find(hash);
  if (it == by_hash_.end()) return false;
  if (equals(it->second->second, choices)) return true;
  auto [lo, hi] = collisions_.equal_range(hash);
  for (auto c = lo; c != hi; ++c)
    if (equals(c->second->second, choices)) return true;
  return false;
}

std::uint64_t DagPool::offered_key(std::span<const std::uint32_t> choices, const ChoicesRef& ref) {
  const std::size_t n = choices.size();
  if (!ref || ref->size() != n) return class_key(n, parents_of(choices));
  std::vector<std::int32_t> changed;  // ascending
  for (std::size_t v = 0; v < n; ++v)
    if ((*ref)[v] != choices[v]) {
      changed.push_back(static_cast<std::int32_t>(v));
      if (changed.size() > n / 4) return class_key(n, parents_of(choices));
    }
  const std::shared_ptr<const RefInfo> info = ref_info(ref);
  const auto children = [&info](std::size_t v) {
    return std::span<const std::int32_t>(info->child.data() + info->child_off[v],
                                         info->child.data() + info->child_off[v + 1]);
  };
  return class_key_near(info->key, changed, parents_of(*ref), parents_of(choices), children);
}

std::shared_ptr<const DagPool::RefInfo> DagPool::ref_info(const ChoicesRef& ref) {
  {
    std::lock_guard<std::mutex> lock(refs_mutex_);
    for (const auto& [r, info] : refs_)
      if (r == ref) return info;
  }
  const std::size_t n = ref->size();
  auto info = std::make_shared<RefInfo>();
  const auto parents = parents_of(*ref);
  info->key = class_key(n, parents);
  info->child_off.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v)
    for (const std::int32_t p : parents(v)) ++info->child_off[static_cast<std::size_t>(p) + 1];
  for (std::size_t v = 0; v < n; ++v) info->child_off[v + 1] += info->child_off[v];
  info->child.resize(info->child_off[n]);
  std::vector<std::uint32_t> next(info->child_off.begin(), info->child_off.end() - 1);
  for (std::size_t v = 0; v < n; ++v)  // children in ascending order
    for (const std::int32_t p : parents(v))
      info->child[next[static_cast<std::size_t>(p)]++] = static_cast<std::int32_t>(v);
  std::lock_guard<std::mutex> lock(refs_mutex_);
  if (refs_.size() >= kRefs) refs_.erase(refs_.begin());
  refs_.emplace_back(ref, info);
  return info;
}

bool DagPool::has_class(std::uint64_t class_hash, std::span<const std::uint32_t> choices) const {
  auto [lo, hi] = by_class_.equal_range(class_hash);
  for (auto it = lo; it != hi; ++it) {
    const Choices kept = decode(it->second->second);
    if (markov_equivalent(choices.size(), parents_of(kept), parents_of(choices))) return true;
  }
  return false;
}

void DagPool::index(Map::iterator it) {
  if (!by_hash_.emplace(it->first.hash, it).second) collisions_.emplace(it->first.hash, it);
  if (by_class_dedupe_) by_class_.emplace(it->second.class_hash, it);
}

void DagPool::erase(Map::iterator it) {
  const std::uint64_t h = it->first.hash;
  auto primary = by_hash_.find(h);
  auto [lo, hi] = collisions_.equal_range(h);
  if (primary != by_hash_.end() && primary->second == it) {
    if (lo != hi) {  // promote a colliding DAG to the primary slot
      primary.value() = lo->second;
      collisions_.erase(lo);
    } else {
      by_hash_.erase(primary);
    }
  } else {
    for (auto c = lo; c != hi; ++c)
      if (c->second == it) {
        collisions_.erase(c);
        break;
      }
  }
  if (by_class_dedupe_) {
    auto [clo, chi] = by_class_.equal_range(it->second.class_hash);
    for (auto c = clo; c != chi; ++c)
      if (c->second == it) {
        by_class_.erase(c);
        break;
      }
  }
  dags_.erase(it);
}

// Drops the classes below best - epsilon (after the best rose); returns how many.
std::size_t DagPool::trim() {
  std::size_t trimmed = 0;
  for (; !dags_.empty() && clearly_greater(best_ - eps_, std::prev(dags_.end())->first.score);
       ++trimmed)
    erase(std::prev(dags_.end()));
  return trimmed;
}

std::size_t DagPool::band_of(double score) const {
  return score_band(best_, width_, bands_, score);
}

std::size_t score_band(double best, double width, std::size_t bands, double score) {
  if (bands <= 1 || !(width > 0)) return 0;
  std::size_t b = clamped_band((best - score) / width, bands);
  const auto edge = [&](std::size_t k) { return best - static_cast<double>(k) * width; };
  while (b > 0 && score > edge(b)) --b;  // the division's rounding, settled by the edges
  while (b + 1 < bands && score <= edge(b + 1)) ++b;
  return b;
}

std::vector<std::size_t> banded_selection(const std::vector<double>& scores, double epsilon,
                                          std::size_t keep, std::size_t bands) {
  std::vector<std::size_t> out;
  if (scores.size() <= keep) {
    for (std::size_t i = 0; i < scores.size(); ++i) out.push_back(i);
    return out;
  }
  bands = std::max<std::size_t>(bands, 1);
  const double width = epsilon / static_cast<double>(bands);
  std::vector<std::size_t> band(scores.size()), count(bands, 0);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    band[i] = score_band(scores.front(), width, bands, scores[i]);
    ++count[band[i]];
  }
  // The level L: the largest with sum_b min(count_b, L) <= keep; then one more for each band
  // holding more than L, better bands first, while room is left.
  const auto filled = [&](std::size_t level) {
    std::size_t sum = 0;
    for (const std::size_t c : count) sum += std::min(c, level);
    return sum;
  };
  std::size_t lo = 0, hi = keep;  // filled(lo) <= keep
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (filled(mid) <= keep)
      lo = mid;
    else
      hi = mid - 1;
  }
  std::vector<std::size_t> quota(bands);
  std::size_t room = keep - filled(lo);
  for (std::size_t b = 0; b < bands; ++b) {
    quota[b] = std::min(count[b], lo);
    if (count[b] > lo && room > 0) {
      ++quota[b];
      --room;
    }
  }
  for (std::size_t i = 0; i < scores.size(); ++i)  // best first: each band's best
    if (quota[band[i]] > 0) {
      --quota[band[i]];
      out.push_back(i);
    }
  return out;
}

std::size_t DagPool::victim_band(std::size_t extra) const {
  std::size_t victim = 0, most = 0;
  for (std::size_t b = 0; b < bands_; ++b) {
    const std::size_t c = band_count_[b] + (b == extra);
    if (c >= most) {  // ties: the worse band
      most = c;
      victim = b;
    }
  }
  return victim;
}

DagPool::Map::iterator DagPool::worst_in_band(std::size_t b) {
  if (band_count_[b] == 0) return dags_.end();
  // The first class at or below the next band's top edge ends band b.
  const auto end = b + 1 < bands_ ? dags_.lower_bound(Key{edge(b + 1), 0}) : dags_.end();
  return std::prev(end);
}

void DagPool::recount() {
  std::fill(band_count_.begin(), band_count_.end(), 0);
  for (const auto& [key, stored] : dags_) ++band_count_[band_of(key.score)];
}

// Each band's threshold: best - epsilon - tol, or, when a class there would be the one dropped
// for room, the band's worst kept score (no class at all if the band is empty).
void DagPool::update_threshold() {
  const double base = best_ - eps_ - score_tolerance(best_, best_ - eps_);
  double lowest = std::numeric_limits<double>::infinity();
  for (std::size_t b = 0; b < bands_; ++b) {
    double t = base;
    if (dags_.size() >= max_size_ && victim_band(b) == b) {
      const auto worst = worst_in_band(b);
      t = worst == dags_.end() ? std::numeric_limits<double>::infinity()
                               : std::max(base, worst->first.score);
    }
    band_threshold_[b].store(t, std::memory_order_relaxed);
    lowest = std::min(lowest, t);
  }
  band_best_.store(best_, std::memory_order_relaxed);
  band_width_.store(width_, std::memory_order_relaxed);
  threshold_.store(lowest, std::memory_order_relaxed);
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

std::uint64_t DagPool::equivalent() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return equivalent_;
}

bool DagPool::truncated() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return truncated_;
}

DagPool::Losses DagPool::losses() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return losses_;
}

std::vector<PooledDag> DagPool::snapshot(std::size_t max_count) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PooledDag> out;
  out.reserve(std::min(max_count, dags_.size()));
  for (const auto& [key, stored] : dags_) {
    if (out.size() == max_count) break;
    out.push_back({key.score, key.hash, decode(stored)});
  }
  return out;
}

std::vector<PooledDag> DagPool::sample(std::size_t count) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<PooledDag> out;
  const std::size_t size = dags_.size();
  if (count == 0 || size == 0) return out;
  count = std::min(count, size);
  out.reserve(count);
  // The i-th of count picks the DAG at rank i * (size - 1) / (count - 1).
  std::size_t rank = 0, next = 0, picked = 0;
  for (auto it = dags_.begin(); it != dags_.end() && picked < count; ++it, ++rank) {
    if (rank != next) continue;
    out.push_back({it->first.score, it->first.hash, decode(it->second)});
    ++picked;
    next = count == 1 ? size : picked * (size - 1) / (count - 1);
  }
  return out;
}

std::vector<std::size_t> DagPool::band_counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return band_count_;
}

Choices DagPool::best_choices() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return best_ref_ ? *best_ref_ : Choices{};
}

}  // namespace bnsl
