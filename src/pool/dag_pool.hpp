// The pool: one DAG of every distinct Markov equivalence class within epsilon of the best seen
// so far, best first, capped at `max_size` classes, shared by all search chains. BIC and BDeu
// give equivalent DAGs the same score, so a class is kept as the first of its DAGs offered; the
// report lists its other members (pool/class_members.hpp).
//
// Which classes a full pool keeps: epsilon is cut into `bands` score bands of equal width below
// the best (the last one also holds the scores within rounding of best - epsilon), and a full
// pool makes room for a class by dropping the worst class of its most populated band (ties: the
// worse band), or rejects the class if that would be itself. With one band that is "keep the
// best max_size"; with several, a pool too small for every class within epsilon still spans
// the whole range (thousands of near-ties of the best cannot crowd out the rest), and keeps the
// best class of each band. The kept set then depends on the order of the offers.
//
//   DagPool pool(cache, Epsilon::bayes_factor(20), 100000, true, 16);
//   std::uint64_t h = dag_hash(choices);              // or updated incrementally
//   if (pool.may_accept(score)) pool.offer(score, h, choices);
//   for (const PooledDag& d : pool.snapshot()) ...    // sorted best first
//
// A DAG is identified by its chosen cache entry per variable (choices[v] = entry index in
// cache.var(v)); its hash is the XOR of entry_hash(v, choices[v]) (Zobrist hashing), so a
// move that changes a few choices updates it in O(1). Hash matches are confirmed by comparing
// choices. A DAG's class is identified by its skeleton and v-structures (pool/class_key.hpp),
// hashed once per new DAG above the threshold and compared exactly with the kept class's DAG on
// a key match; DAGs already classified are remembered by their 64-bit hash (a false match needs
// two distinct DAGs with one 64-bit hash: about 2^-24 for a billion DAGs). The score and the
// class key of an offered DAG are computed outside the lock (dag_pool.cpp, offer).
//
// Locking: may_accept() reads the atomic threshold of the score's band (best - epsilon, or the
// worst kept score of the band when a class there would be dropped at once) without the lock,
// so the common case -- a DAG far below the best -- costs a few loads. Only DAGs above the
// threshold take the mutex.
//
// Memory: a kept DAG stores its choices as a diff against a reference DAG (the offering
// chain's local optimum, or the pool's best when it was admitted), as (variable, entry) pairs
// of 32-bit ints, so near-optimal neighbours of a local optimum cost a few words each even for
// n in the thousands; a DAG that differs in more than half the variables is stored in full.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tsl/robin_map.h>
#include <tsl/robin_set.h>

#include "bnsl/cache.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/tunables.hpp"

namespace bnsl {

using Choices = std::vector<std::uint32_t>;         // choices[v]: entry index in cache.var(v)
using ChoicesRef = std::shared_ptr<const Choices>;  // a reference DAG for diffs

std::uint64_t entry_hash(std::uint32_t v, std::uint32_t entry);
std::uint64_t dag_hash(std::span<const std::uint32_t> choices);
// Exact score of a DAG: the sum of its entries' scores, in variable order.
double dag_score(const ScoreCache& cache, std::span<const std::uint32_t> choices);

// Score bands of a full pool for the ordering search (and `bnsl merge`): a pool too small for
// every class within epsilon keeps classes across the whole range, in `bands` bands
// (pool.bands, bnsl/tunables.hpp); with one band, all of andes's classes at 60 s fell within
// 0.78 nats of the best (bench/results/pool.md). Problems solved exactly (all orders, the DP:
// n <= max(exhaustive_max_n, dp_max_n) of the search options) keep the best classes, one band.
inline std::size_t pool_bands(int exhaustive_max_n, int dp_max_n, std::size_t n_vars,
                              std::size_t bands) {
  return n_vars <= static_cast<std::size_t>(std::max({exhaustive_max_n, dp_max_n, 0})) ? 1 : bands;
}

// The band of `score` below `best` when epsilon is cut into `bands` bands of `width` each:
// the b with best - (b + 1) width < score <= best - b width, the first band open above and the
// last below (scores within rounding of best - epsilon fall in it).
std::size_t score_band(double best, double width, std::size_t bands, double score);

// Which of `scores` (best first, all within epsilon of scores[0]) a pool of `keep` classes
// with `bands` score bands keeps when they are offered best first (what a full DagPool ends
// with): each band keeps its best classes, every band min(its classes, L) of them or L + 1,
// the extra ones in the better bands, with L as large as `keep` allows. Indices, ascending;
// all of them when there are at most `keep`. `bnsl merge` caps its pools so.
std::vector<std::size_t> banded_selection(const std::vector<double>& scores, double epsilon,
                                          std::size_t keep, std::size_t bands);

struct PooledDag {
  double score = 0;
  std::uint64_t hash = 0;
  Choices choices;
};

class DagPool {
 public:
  static constexpr std::size_t kMaxBands = 64;

  // by_class false: one entry per distinct DAG, for scores that are not score equivalent
  // (every DAG is then its own "class"). bands: see the top of the file (1 to kMaxBands).
  // max_classified: offered DAGs remembered as met (their class encoded) before the memory of
  // them is cleared (pool.classified_max).
  DagPool(const ScoreCache& cache, Epsilon epsilon, std::size_t max_size, bool by_class = true,
          std::size_t bands = 1, std::size_t max_classified = PoolTunables{}.classified_max);

  // False if a DAG of this score would certainly be rejected (lock-free).
  bool may_accept(double score) const;
  // The lowest score any band may accept (lock-free; the bands' thresholds are at or above it).
  double threshold() const { return threshold_.load(std::memory_order_relaxed); }
  // Offers a DAG; `score` is a hint (the pool recomputes it exactly from the cache). Returns
  // true if it was admitted (new and good enough). `ref`: a DAG close to this one (may be null).
  bool offer(double score, std::uint64_t hash, std::span<const std::uint32_t> choices,
             const ChoicesRef& ref = nullptr);
  // Offered DAGs above the threshold that were equivalent to a kept one (not admitted).
  std::uint64_t equivalent() const;

  double best() const;             // -infinity while empty
  double epsilon() const;          // current epsilon (depends on best for Epsilon::factor)
  std::size_t size() const;        // classes kept
  std::uint64_t inserted() const;  // classes admitted so far
  bool truncated() const;          // a class within epsilon was dropped for max_size
  // One DAG per class, sorted best first; the best max_count of them.
  std::vector<PooledDag> snapshot(std::size_t max_count = SIZE_MAX) const;
  // At most `count` of the snapshot's DAGs, spread evenly over it (the first, the last, and the
  // ones between at equal steps), best first: decodes only those.
  std::vector<PooledDag> sample(std::size_t count) const;
  std::vector<std::size_t> band_counts() const;  // classes per band, best band first
  Choices best_choices() const;
  // Where the admitted classes went that the pool no longer holds: below best - epsilon when
  // the best rose past them (the last rise that did so: by how much, and how many it took), or
  // dropped for room (max_size, the band rule) with the offered classes it turned away.
  struct Losses {
    std::uint64_t left_epsilon = 0;  // classes trimmed by rises of the best
    std::uint64_t for_room = 0;      // classes within epsilon dropped or turned away for room
    double last_rise = 0;            // the last rise that trimmed a class: by how much
    std::uint64_t last_trimmed = 0;  // ... and the classes it trimmed
  };
  Losses losses() const;

 private:
  struct Key {  // ordered best first, ties by hash
    double score;
    std::uint64_t hash;
    bool operator<(const Key& o) const {
      return score != o.score ? score > o.score : hash < o.hash;
    }
  };
  struct Stored {
    ChoicesRef ref;                   // null: diff holds every choice in variable order
    std::vector<std::uint32_t> diff;  // (variable, entry) pairs differing from *ref
    std::uint64_t class_hash = 0;     // class_key of the DAG (pool/class_key.hpp)
  };

  using Map = std::map<Key, Stored>;

  Stored encode(std::span<const std::uint32_t> choices, const ChoicesRef& ref) const;
  Choices decode(const Stored& s) const;
  static bool equals(const Stored& s, std::span<const std::uint32_t> choices);
  bool contains(std::uint64_t hash, std::span<const std::uint32_t> choices) const;
  // v's parents in the DAG `choices` (pool/class_key.hpp's accessor); choices must outlive it
  auto parents_of(std::span<const std::uint32_t> choices) const {
    return [this, choices](std::size_t v) { return cache_.var(v).parents(choices[v]); };
  }
  // The class key of an offered DAG: from its reference DAG's key, corrected where the two
  // differ (class_key_near), when it has one of the same size differing in at most a quarter of
  // the variables; otherwise class_key over every variable. A reference's key and children are
  // computed once (refs_: the last kRefs references met).
  std::uint64_t offered_key(std::span<const std::uint32_t> choices, const ChoicesRef& ref);
  struct RefInfo {
    std::uint64_t key = 0;
    std::vector<std::uint32_t> child_off;  // children of v: child[child_off[v] .. [v + 1])
    std::vector<std::int32_t> child;
  };
  std::shared_ptr<const RefInfo> ref_info(const ChoicesRef& ref);
  // Under the lock: is a class of this key (pool/class_key.hpp) kept? Compared exactly.
  bool has_class(std::uint64_t class_hash, std::span<const std::uint32_t> choices) const;
  bool admit(double exact, std::uint64_t hash, std::uint64_t class_hash,
             std::span<const std::uint32_t> choices, const ChoicesRef& ref);
  void index(Map::iterator it);
  void erase(Map::iterator it);
  std::size_t trim();
  void update_threshold();
  // Bands (under the lock): edge(b) is the top score of band b; band_of is the b with
  // edge(b + 1) < score <= edge(b) (band 0 has no top, the last no bottom).
  double edge(std::size_t b) const { return best_ - static_cast<double>(b) * width_; }
  std::size_t band_of(double score) const;
  std::size_t victim_band(std::size_t extra) const;  // most populated, one more in `extra`
  Map::iterator worst_in_band(std::size_t b);        // dags_.end() if the band is empty
  void recount();

  const ScoreCache& cache_;
  Epsilon epsilon_;
  std::size_t max_size_;
  bool by_class_dedupe_;
  mutable std::mutex mutex_;
  Map dags_;
  // Hash -> kept DAG: the first with each hash in by_hash_, further distinct DAGs with the
  // same 64-bit hash (rare) in collisions_. Map iterators stay valid until their erase.
  tsl::robin_map<std::uint64_t, Map::iterator> by_hash_;
  std::unordered_multimap<std::uint64_t, Map::iterator> collisions_;
  std::unordered_multimap<std::uint64_t, Map::iterator> by_class_;  // class hash -> kept DAG
  tsl::robin_set<std::uint64_t> classified_;  // hashes of DAGs whose class was looked up
  std::size_t max_classified_;                // ... at most (then forgotten)
  static constexpr std::size_t kRefs = 16;    // about two per chain
  std::mutex refs_mutex_;
  std::vector<std::pair<ChoicesRef, std::shared_ptr<const RefInfo>>> refs_;  // newest last
  std::uint64_t equivalent_ = 0;
  ChoicesRef best_ref_;
  double best_;
  double eps_ = 0;
  std::size_t bands_;
  double width_ = 0;  // eps_ / bands_
  std::vector<std::size_t> band_count_;
  std::array<std::atomic<double>, kMaxBands> band_threshold_;
  std::atomic<double> band_best_, band_width_;  // best_ and width_ for may_accept
  std::uint64_t inserted_ = 0;
  bool truncated_ = false;
  Losses losses_;
  std::atomic<double> threshold_;
};

}  // namespace bnsl
