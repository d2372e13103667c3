// Internals of the ordering search, shared by obs.cpp, asobs.cpp, local_search.cpp and
// driver.cpp (and the tests).
//
//   ObsState obs(cache);  obs.set_order(order);          // best DAG consistent with order
//   ObsState::Swap s = obs.try_swap(i);                   // O(entries scanned), two nodes
//   if (!s.blocked && clearly_greater(s.score, obs.score())) obs.apply(s);
//   AsobsState as(cache); double v = as.evaluate(order, choices);   // v >= OBS on order
//
// Orders are linear extensions of the cache's base arcs (base_sets.hpp): ObsState::set_order
// makes them so; ASOBS's evaluate() needs one (an OBS order, or a topological order of a
// network over the cache, is one).
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/search.hpp"
#include "pool/dag_pool.hpp"
#include "search/base_sets.hpp"

namespace bnsl {

using Order = std::vector<int>;  // order[i]: the variable at position i

// Hands evaluated DAGs to the pool: one atomic load for the common case of a DAG below the
// pool's threshold; counts offers.
struct Offerer {
  DagPool& pool;
  SearchStats& stats;
  ChoicesRef ref;  // the chain's last local optimum (diff reference), may be null

  bool wants(double score) {
    ++stats.pool_offers;
    return pool.may_accept(score);
  }
  void offer(double score, std::uint64_t hash, std::span<const std::uint32_t> choices) {
    if (pool.offer(score, hash, choices, ref)) ++stats.pool_inserted;
  }
};

// OBS (Teyssier & Koller 2005): the best network consistent with an order, kept up to date
// under adjacent swaps. See obs.cpp.
class ObsState {
 public:
  explicit ObsState(const ScoreCache& cache);

  struct Swap {
    std::size_t i = 0;           // positions i and i+1 exchange their variables
    std::uint32_t u_choice = 0;  // new choice of order[i] (which moves to i+1)
    std::uint32_t w_choice = 0;  // new choice of order[i+1] (which moves to i)
    double score = 0;            // network score after the swap (-infinity if blocked)
    bool blocked = false;        // order[i] is a base parent of order[i+1]: never applied
  };

  // The order is first made a linear extension of the base arcs (BaseSets::repair: unchanged
  // if it is one), so that every node has an entry.
  void set_order(std::span<const int> order);
  // A swap of a base parent and its child is blocked (OBS would leave the child no entry).
  Swap try_swap(std::size_t i) const;
  // Applies a swap that is not blocked.
  void apply(const Swap& s);
  std::uint64_t swap_hash(const Swap& s) const;  // dag_hash of the network after the swap
  void resync();  // recomputes score and hash exactly (drift of incremental sums)
  // Offers the DAG a swap would give (copying the choices only if the pool may want it).
  void offer_swap(const Swap& s, Offerer& off);

  // The variables related to v: those in some entry of v, and those with v in some entry.
  // Only a related node's choice, or v's, can change when v passes it in the order; v passing
  // an unrelated node changes no choice (OBS is a function of the order). v's base parents
  // and base children are related to it (they occur in entries).
  const std::vector<int>& related(int v) const { return related_[v]; }
  // Moves v to position `to` past nodes none of which is related to v (the caller knows):
  // the network does not change. O(distance), a block move. Never passes a base parent or
  // child of v, since those are related.
  void jump(int v, std::size_t to);
  // Moves v to position `to`, the other nodes keeping their relative order: jumps over the
  // runs of unrelated nodes and swaps (try_swap + apply) with each related one, so it costs
  // O(related nodes passed) swaps instead of O(distance). A blocked swap ends it (v would pass
  // a base parent going left, or a base child going right): v stays next to that node and it
  // returns false; true if v reached `to`.
  bool move(int v, std::size_t to);
  const BaseSets& bases() const { return bases_; }

  // The best place for v in the order, found without moving anything (an insertion move's
  // evaluation): v slides left, then right, past the nodes related to it, nearest first;
  // between two of them every position gives the same network. Each pass re-decides v and
  // the node passed as the adjacent swap would; a blocked pass (a base parent going left, a
  // base child going right) ends that slide. Every network on the way is offered to `off`
  // (on the right slide from past v's position on) when given. O(related nodes x entries
  // scanned): no O(n) work, so an insertion pass over all nodes costs O(n related), not
  // O(n^2). Then move(v, to) makes the move if the caller takes it.
  struct Insertion {
    double score;        // the network's score with v at `to` (score() if nowhere is better)
    std::size_t to;      // the position for move(); position(v) if nowhere clearly better
    std::size_t passes;  // passes evaluated (the swaps an actual slide would have tried)
  };
  Insertion best_insertion(int v, Offerer* off);

  const Order& order() const { return order_; }
  int position(int v) const { return pos_[v]; }
  const Choices& choices() const { return choices_; }
  double score() const { return score_; }
  std::uint64_t hash() const { return hash_; }
  std::size_t size() const { return order_.size(); }

 private:
  std::uint32_t first_valid(int v, std::uint32_t from, std::uint32_t to, int extra, int excluded,
                            int limit) const;
  std::uint32_t first_valid_with(int u, int w, int limit) const;
  std::uint32_t first_valid_with(int u, std::uint32_t current, int w, int limit) const;
  template <bool kLeft>
  void slide(int v, Offerer* off, Insertion& best);

  const ScoreCache& cache_;
  BaseSets bases_;
  // For variable v, the entries that contain parent p, ascending: with_[v] lists
  // (p, first slot in entries_[v]) for each parent p that occurs, sorted by p.
  std::vector<std::vector<std::pair<int, std::uint32_t>>> with_;
  std::vector<std::vector<std::uint32_t>> entries_;
  std::vector<std::vector<int>> related_;  // sorted, see related()
  std::vector<int> scratch_positions_;
  Order order_;
  std::vector<int> pos_;
  Choices choices_;
  double score_ = 0;
  std::uint64_t hash_ = 0;
  Choices scratch_;
  // best_insertion's scratch: the related nodes of one side, nearest first, and the choices
  // the nodes passed so far would take.
  std::vector<int> slide_nodes_;
  std::vector<std::pair<int, std::uint32_t>> slide_changed_;
};

// ASOBS (Scanagatta et al. 2015, section 4): nodes visited from last to first, each taking
// its best entry with no parent among its current descendants. See asobs.cpp.
class AsobsState {
 public:
  explicit AsobsState(const ScoreCache& cache);

  // Full evaluation of an order, a linear extension of the base arcs (throws RuntimeError if
  // it is not and some node is left without an entry); fills choices, returns the score.
  // O(C k + n^2 / 64 ...).
  double evaluate(std::span<const int> order, Choices& choices);

  // One pass of incremental adjacent swaps from the back of the order to the front (see
  // asobs.cpp for what a swap can affect). order/choices/score: the current ASOBS network of
  // the order (a linear extension of the base arcs, and it stays one: swaps of a base parent
  // and its child are skipped), updated in place. Returns the number of improving swaps
  // applied.
  std::size_t sweep(Order& order, Choices& choices, double& score, Offerer& off,
                    const std::function<bool()>& should_stop);

  std::size_t bytes() const { return n_ * words_ * sizeof(std::uint64_t); }

 private:
  void reset();
  // v's best entry with no parent among its descendants, or kNone.
  static constexpr std::uint32_t kNone = BaseSets::kNoEntry;
  std::uint32_t choose(int v) const;
  void commit(int v, std::uint32_t e);
  void mark();
  void rollback();
  bool is_desc(int a, int b) const {
    return (desc_[static_cast<std::size_t>(a) * words_ + (b >> 6)] >> (b & 63)) & 1u;
  }
  bool try_sweep_swap(std::size_t i, Order& order, Choices& choices, double& score,
                      double& tail_old, Offerer& off);

  const ScoreCache& cache_;
  BaseSets bases_;
  std::size_t n_, words_;
  // Row a: bit b set iff b is a descendant of a. From calloc: a large block comes as zero pages
  // that cost neither time nor memory until a row is written (1.25 GB of address space at
  // 100,000 variables, most of it never touched where the networks are sparse), and reset()
  // clears only the rows written since the last one.
  struct FreeWords {
    void operator()(std::uint64_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint64_t[], FreeWords> desc_;
  std::vector<int> written_;          // the rows written since the last reset()
  std::vector<char> is_written_;      // per row: in written_
  std::vector<std::int64_t> chosen_;  // committed entry per variable, -1 if not yet
  bool logging_ = false;
  std::vector<std::pair<std::size_t, std::uint64_t>> undo_words_;
  std::vector<int> undo_nodes_;
  std::vector<std::uint64_t> d_;        // scratch: desc(v) + v
  std::vector<std::uint32_t> d_words_;  // its non-zero words
  std::vector<int> stack_;
  std::vector<double> prefix_best_;                           // sum of best scores of positions < i
  Choices trial_;                                             // choices of a swap being evaluated
  std::vector<std::pair<int, std::uint32_t>> trial_changes_;  // (variable, new entry)
};

// A topological order of the DAG given by choices, ties broken by position in `order`.
Order topological_order(const ScoreCache& cache, const Choices& choices, const Order& order);

// The best order the chains have climbed to, shared (restarts of large problems start there).
class Incumbent {
 public:
  void offer(const Order& order, double score);
  bool get(Order& out) const;  // false while none was offered

 private:
  mutable std::mutex mutex_;
  Order order_;
  double score_ = -std::numeric_limits<double>::infinity();
};

// One search chain: restarts, climbs, perturbations and enumeration at local optima.
struct ChainContext {
  const ScoreCache& cache;
  const SearchOptions& options;
  DagPool& pool;
  std::function<bool()> should_stop;
  std::function<bool()> claim_restart;  // false once max_restarts are used up
  std::atomic<std::uint64_t>& climbs;   // local optima reached by all chains (progress)
  std::shared_ptr<const Order> start;   // chain 0's first start (null: random)
  Incumbent* incumbent;                 // restarts start there (null: from random orders)
};

void run_chain(ChainContext& ctx, std::uint64_t chain_index, SearchStats& stats);

// The stream of chain c under a seed (splitmix64 of both).
std::uint64_t chain_seed(std::uint64_t seed, std::uint64_t chain_index);

}  // namespace bnsl
