// Local search over orders: one chain of restarts, climbs and perturbations (Teyssier &
// Koller 2005 for swap-based climbing; Lee & van Beek 2017, MINOBS, for insertion moves and
// iterated local search with perturbations; Scanagatta et al. 2015 for ASOBS).
//
// A climb starts from an order and reaches a local optimum:
//  1. OBS adjacent-swap passes (two nodes re-decided per swap) until no swap improves, then
//     insertion moves: each node slides through every position of the order (past the nodes
//     related to it by incremental swaps, over the others by jumps, obs.cpp), and moves to
//     the best position if that clearly improves; then parent pulls: a node's best few
//     entries that need parents placed after it are tried by moving those parents, in order,
//     to just in front of it (the two-node move a reversed collider needs, see
//     obs_pull_pass). Repeated until no move type improves. (An insertion window of 64
//     positions instead of the whole order was much worse on pigs: long moves matter.)
//  2. ASOBS only: the order's ASOBS network (>= its OBS network), then incremental ASOBS swap
//     sweeps (asobs.cpp) until none improves. Then step 1 again on a topological order of that
//     network (where OBS scores at least as much: the network is consistent with it); if that
//     ends clearly better, the climb goes on with step 2 from there, else it ends with the
//     ASOBS network.
// Every DAG evaluated on the way is offered to the pool (one atomic load when it is far below
// the best). At each local optimum, every DAG consistent with its (topological) order within
// the pool threshold is enumerated into the pool (order_enum.cpp), and so are those of a few
// near-optimal neighbouring orders (enumerate_near).
// A chain restarts from a uniformly random order (chain 0's first climb: the greedy network's
// order; with many variables, SearchOptions::incumbent_min_n, every restart starts from the
// best order any chain has reached, perturbed), then perturbs its best local optimum
// (a few random transpositions) and climbs again, keeping the result if it is better; after
// `perturb_tries` perturbations without improvement it restarts. Guarantee: every climb ends
// at a network whose topological order admits no improving adjacent swap, insertion or
// parent pull under OBS (and, under ASOBS, whose order admits no improving ASOBS
// swap); scores only increase along a climb.
//
// Base arcs (base_sets.hpp: parents every entry of a variable holds, as required arcs make
// them). Every order a climb works on is a linear extension of them: a climb's first step,
// ObsState::set_order, repairs its start (random, perturbed, the incumbent's or greedy's order);
// OBS and ASOBS swaps of a base parent and its child are blocked or skipped; an insertion
// slides a node only between its nearest base parent on the left and base child on the right;
// a parent pull that would pass one is undone; and a topological order of a network over the
// cache is one already (every family holds its base). So every order enumerated is one too.
#include <tsl/robin_set.h>
#include <xxhash.h>

#include <algorithm>
#include <cassert>
#include <optional>
#include <random>

#include "score/compare.hpp"
#include "search/order_enum.hpp"
#include "search/search_internal.hpp"

namespace bnsl {

std::uint64_t chain_seed(std::uint64_t seed, std::uint64_t chain_index) {
  auto mix = [](std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return mix(mix(seed) ^ mix(chain_index + 0x632be59bd9b4e019ULL));
}

namespace {

class Chain {
 public:
  Chain(ChainContext& ctx, std::uint64_t index, SearchStats& stats)
      : ctx_(ctx),
        stats_(stats),
        rng_(chain_seed(ctx.options.seed, index)),
        obs_(ctx.cache),
        off_{ctx.pool, stats, nullptr},
        index_(index) {
    if (ctx.options.algo == SearchAlgo::asobs) asobs_.emplace(ctx.cache);
  }

  void run();

 private:
  bool stopped() { return ctx_.should_stop(); }
  void climb(Order& order, Choices& choices, double& score);
  bool obs_swap_pass();
  bool obs_insertion_pass();
  template <class Move>
  bool shuffled_pass(Move move);
  bool insert_best(int v);
  bool obs_pull_pass();
  bool pull_parents(int v, std::uint32_t entry);
  void obs_climb();
  void finish_local_optimum(const Order& order, const Choices& choices, double score);
  void enumerate_near(const Order& start);
  void enqueue_swapped(std::vector<Order>& queue, tsl::robin_set<std::uint64_t>& seen,
                       const Order& o, std::size_t i);
  Order start_order();
  Order random_order();
  Order perturb(const Order& order);

  ChainContext& ctx_;
  SearchStats& stats_;
  std::mt19937_64 rng_;
  ObsState obs_;
  std::optional<AsobsState> asobs_;
  Offerer off_;
  tsl::robin_set<std::uint64_t> enumerated_;        // local optima already enumerated
  std::vector<std::size_t> later_;                  // scratch of enumerate_near
  std::vector<int> pulled_;                         // parents a pull moves, in order
  std::vector<std::pair<int, std::size_t>> pulls_;  // moves of a parent pull, to undo it
  bool first_ = true;                               // no climb yet
  std::uint64_t index_;
};

void Chain::run() {
  const int tries = std::max(0, ctx_.options.perturb_tries);
  while (!stopped() && ctx_.claim_restart()) {
    ++stats_.restarts;
    Order order = start_order();
    Choices choices;
    double score = 0;
    climb(order, choices, score);
    finish_local_optimum(order, choices, score);
    Order best_order = order;
    double best = score;
    for (int fails = 0; fails < tries && !stopped();) {
      ++stats_.perturbations;
      order = perturb(best_order);
      climb(order, choices, score);
      finish_local_optimum(order, choices, score);
      if (clearly_greater(score, best)) {
        best_order = order;
        best = score;
        fails = 0;
      } else {
        ++fails;
      }
    }
  }
}

void Chain::climb(Order& order, Choices& choices, double& score) {
  obs_.set_order(order);
  ++stats_.orders;
  for (bool have_asobs = false;; have_asobs = true) {
    obs_climb();
    if (!asobs_) {
      order = obs_.order();
      choices = obs_.choices();
      score = obs_.score();
      return;
    }
    if (have_asobs && (stopped() || !clearly_greater(obs_.score(), score))) return;
    order = obs_.order();
    score = asobs_->evaluate(order, choices);
    ++stats_.orders;
    // A sweep re-decides every earlier node after each swap that changes the network: O(n^2)
    // per sweep, which at 10,000 variables took 75% of the search time and let one climb run
    // for minutes; above search.asobs_sweep_max_n the climb keeps the ASOBS network of the OBS
    // order.
    while (order.size() <= ctx_.options.tune.asobs_sweep_max_n && !stopped() &&
           asobs_->sweep(order, choices, score, off_, ctx_.should_stop) > 0) {
    }
    obs_.set_order(topological_order(ctx_.cache, choices, order));
    ++stats_.orders;
  }
}

void Chain::obs_climb() {
  for (;;) {
    while (!stopped() && obs_swap_pass()) {
    }
    if (stopped()) break;
    if (obs_insertion_pass()) continue;
    if (stopped() || !obs_pull_pass()) break;
  }
  obs_.resync();
}

bool Chain::obs_swap_pass() {
  bool improved = false;
  for (std::size_t i = 0; i + 1 < obs_.size(); ++i) {
    const ObsState::Swap s = obs_.try_swap(i);
    ++stats_.swaps_tried;
    if (s.blocked) continue;
    obs_.offer_swap(s, off_);
    if (clearly_greater(s.score, obs_.score())) {
      obs_.apply(s);
      ++stats_.swaps_accepted;
      improved = true;
    }
  }
  return improved;
}

// Tries `move` on every node, in random order; true if any clearly improved.
template <class Move>
bool Chain::shuffled_pass(Move move) {
  Order nodes = obs_.order();
  std::shuffle(nodes.begin(), nodes.end(), rng_);
  bool improved = false;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    if ((k & 15) == 0 && stopped()) break;
    if (move(nodes[k])) improved = true;
  }
  obs_.resync();
  return improved;
}

bool Chain::obs_insertion_pass() {
  return shuffled_pass([this](int v) { return insert_best(v); });
}

// Slides v left, then right, through every position of the order, and leaves it at the best
// one. Returns true if that is a clear improvement. Only the positions next to nodes related
// to v can change the network (obs.cpp): ObsState::best_insertion evaluates v passing each of
// them without moving anything, and the order changes only when v moves. A blocked pass ends
// a slide: v cannot pass a base parent going left, nor a base child going right.
bool Chain::insert_best(int v) {
  const ObsState::Insertion best = obs_.best_insertion(v, &off_);
  stats_.swaps_tried += best.passes;
  if (best.to == static_cast<std::size_t>(obs_.position(v))) return false;
  // best.to lies between the nodes both slides stopped at: the move passes neither.
  [[maybe_unused]] const bool moved = obs_.move(v, best.to);
  assert(moved);
  ++stats_.insertions;
  ++stats_.swaps_accepted;
  return true;
}

// Parent pulls: for each node v, its best search.pull_entries entries better than its current one
// (each has a parent after v, or OBS would have taken it) are tried by moving those parents,
// in their order, to just in front of v; the new order is kept if its network clearly
// improves, else the swaps are undone. This is the move a reversed collider needs: on pigs,
// a -> c <- b is learned as c -> a, c -> b, a -> b with a child of c between c and {a, b} in the
// order; moving c behind a and b also moves it behind its child, and moving a or b alone in
// front of c loses (each alone depends on c), but moving both gains (test_search.cpp has one).
// A pull that would move a parent past one of its base parents (or past v, when v is one) is
// blocked: the moves made are undone and the entry is not taken.
bool Chain::obs_pull_pass() {
  return shuffled_pass([this](int v) {
    const std::uint32_t tries = std::min(obs_.choices()[v], ctx_.options.tune.pull_entries);
    for (std::uint32_t e = 0; e < tries; ++e)
      if (pull_parents(v, e)) return true;
    return false;
  });
}

bool Chain::pull_parents(int v, std::uint32_t entry) {
  pulled_.clear();
  for (int p : ctx_.cache.var(v).parents(entry))
    if (obs_.position(p) > obs_.position(v)) pulled_.push_back(p);
  std::sort(pulled_.begin(), pulled_.end(),
            [&](int a, int b) { return obs_.position(a) < obs_.position(b); });
  const double start = obs_.score();
  pulls_.clear();  // (node, position before its move), to undo in reverse
  bool blocked = false;
  for (int p : pulled_) {
    pulls_.push_back({p, static_cast<std::size_t>(obs_.position(p))});
    ++stats_.swaps_tried;
    if (!obs_.move(p, static_cast<std::size_t>(obs_.position(v)))) {
      blocked = true;  // p stopped at one of its base parents: undone with the others
      break;
    }
  }
  if (!blocked && clearly_greater(obs_.score(), start)) {
    ++stats_.pulls;
    ++stats_.swaps_accepted;
    return true;
  }
  // Each node goes back the way it came, past nodes it has passed (so none blocks it).
  for (auto it = pulls_.rbegin(); it != pulls_.rend(); ++it) {
    [[maybe_unused]] const bool back = obs_.move(it->first, it->second);
    assert(back);
  }
  return false;
}

void Chain::finish_local_optimum(const Order& order, const Choices& choices, double score) {
  ++stats_.local_optima;
  ctx_.climbs.fetch_add(1, std::memory_order_relaxed);
  const std::uint64_t hash = dag_hash(choices);
  if (off_.wants(score)) off_.offer(score, hash, choices);
  if (ctx_.incumbent) ctx_.incumbent->offer(order, score);
  off_.ref = std::make_shared<const Choices>(choices);
  if (!ctx_.options.enumerate || stopped()) return;
  if (!enumerated_.insert(hash).second) return;
  if (enumerated_.size() > (1u << 20)) enumerated_.clear();
  enumerate_near(asobs_ ? topological_order(ctx_.cache, choices, order) : order);
}

// Enumerates the consistent DAGs of `start` and of the orders reachable from it by adjacent
// swaps whose OBS network stays above the pool threshold (breadth first, swaps that change
// the network first, at most min(search.flood_orders + 4 n, search.flood_max) orders):
// Markov-equivalent and near-optimal networks often need an order in which two adjacent nodes are
// exchanged, e.g. to reverse a covered arc. The whole neighbourhood offers at most pool_max + 1000
// DAGs, so that with many near-ties (where the DAGs within epsilon are exponentially many)
// enumeration cannot crowd out the search.
void Chain::enumerate_near(const Order& start) {
  const std::size_t budget =
      std::min(ctx_.options.tune.flood_orders + 4 * start.size(), ctx_.options.tune.flood_max);
  std::uint64_t left =  // offers
      static_cast<std::uint64_t>(ctx_.options.pool_capacity(start.size())) + 1000;
  std::vector<Order> queue{start};
  tsl::robin_set<std::uint64_t> seen{XXH3_64bits(start.data(), start.size() * sizeof(int))};
  for (std::size_t head = 0; head < queue.size() && head < budget && !stopped(); ++head) {
    const Order o = queue[head];
    const OrderEnumResult r =
        enumerate_order(ctx_.cache, o, ctx_.pool, ctx_.should_stop, off_.ref, left);
    ++stats_.enumerations;
    stats_.pool_offers += r.offered;
    stats_.pool_inserted += r.admitted;
    if (r.truncated || r.offered >= left) break;
    left -= r.offered;
    if (queue.size() >= budget) continue;
    obs_.set_order(o);  // o is a linear extension of the base arcs: unchanged
    assert(obs_.order() == o);
    ++stats_.orders;
    later_.clear();
    for (std::size_t i = 0; i + 1 < o.size(); ++i) {
      const ObsState::Swap s = obs_.try_swap(i);
      ++stats_.swaps_tried;
      if (s.blocked || !ctx_.pool.may_accept(s.score)) continue;
      const bool same_dag =
          s.u_choice == obs_.choices()[o[i]] && s.w_choice == obs_.choices()[o[i + 1]];
      if (same_dag) {  // enqueued after the swaps that change the network
        later_.push_back(i);
        continue;
      }
      enqueue_swapped(queue, seen, o, i);
    }
    for (std::size_t i : later_) enqueue_swapped(queue, seen, o, i);
  }
}

void Chain::enqueue_swapped(std::vector<Order>& queue, tsl::robin_set<std::uint64_t>& seen,
                            const Order& o, std::size_t i) {
  Order next = o;
  std::swap(next[i], next[i + 1]);
  if (seen.insert(XXH3_64bits(next.data(), next.size() * sizeof(int))).second)
    queue.push_back(std::move(next));
}

// A restart's order: chain 0's first climb starts from the greedy network's order; with an
// incumbent, restarts start from it, perturbed; else from a random order.
Order Chain::start_order() {
  const bool first = first_;
  first_ = false;
  if (first && index_ == 0 && ctx_.start) return *ctx_.start;
  Order order;
  if (ctx_.incumbent && ctx_.incumbent->get(order)) return perturb(order);
  return random_order();
}

Order Chain::random_order() {
  Order order(ctx_.cache.n_vars());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::shuffle(order.begin(), order.end(), rng_);
  return order;
}

// A few random transpositions (2 to 2 + n/32 of them).
Order Chain::perturb(const Order& order) {
  Order out = order;
  const std::size_t n = out.size();
  if (n < 2) return out;
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  const std::size_t k = 2 + std::uniform_int_distribution<std::size_t>(0, n / 32)(rng_);
  for (std::size_t t = 0; t < k; ++t) std::swap(out[pick(rng_)], out[pick(rng_)]);
  return out;
}

}  // namespace

void Incumbent::offer(const Order& order, double score) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!clearly_greater(score, score_)) return;
  order_ = order;
  score_ = score;
}

bool Incumbent::get(Order& out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (order_.empty()) return false;
  out = order_;
  return true;
}

void run_chain(ChainContext& ctx, std::uint64_t chain_index, SearchStats& stats) {
  Chain chain(ctx, chain_index, stats);
  chain.run();
}

}  // namespace bnsl
