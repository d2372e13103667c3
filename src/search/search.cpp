// search(): the ordering search over a score cache (bnsl/search.hpp), and the routes small
// problems take instead of the chains (the choice is SearchDriver::run's, driver.cpp): for
// n <= exhaustive_max_n every order is enumerated (order_enum.cpp on all n! orders; every DAG
// is consistent with some order), and for n <= dp_max_n the subset DP and sink enumeration of
// exact mode run (run_dp), when the time left allows it. Both find the optimum over the cache
// and every DAG within epsilon of it (optimal and complete, unless stopped or capped by
// pool_max). Also the greedy network alone (greedy_network) and the options' capacities.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/search.hpp"
#include "exact/dp.hpp"
#include "exact/families.hpp"
#include "score/compare.hpp"
#include "search/base_sets.hpp"
#include "search/driver.hpp"
#include "search/greedy_dag.hpp"
#include "search/order_enum.hpp"

namespace bnsl {

namespace {

std::size_t capped(std::size_t max, std::size_t cells, std::size_t n) {
  if (cells == 0 || n == 0) return max;
  return std::min(max, std::max<std::size_t>(1000, cells / n));
}

}  // namespace

std::size_t SearchOptions::pool_capacity(std::size_t n) const {
  return capped(pool_max, pool_max_cells, n);
}

std::size_t SearchOptions::dag_capacity(std::size_t n) const {
  return capped(max_dags, pool_max_cells, n);
}

std::string to_string(SearchAlgo algo) {
  return name_of(kSearchAlgoNames, algo);
}

SearchAlgo parse_search_algo(const std::string& text) {
  return value_of(kSearchAlgoNames, text, "search algorithm");
}

// The search needs, for every variable, the entry of its base (base_sets.hpp: the parents
// every entry of it holds, its required parents; the empty set for a cache without them), and
// acyclic base arcs: then every linear extension of them has a network.
void validate(const ScoreCache& cache) {
  const auto name = [&](std::size_t v) {
    return v < cache.names().size() ? cache.names()[v] : std::to_string(v);
  };
  const BaseSets bases(cache);
  for (std::size_t v = 0; v < cache.n_vars(); ++v) {
    if (bases.entry(static_cast<int>(v)) != BaseSets::kNoEntry) continue;
    std::string set;
    for (int p : bases.parents(static_cast<int>(v)))
      set += (set.empty() ? "{" : ", ") + name(static_cast<std::size_t>(p));
    set = set.empty() ? "the empty set" : set + "}";
    throw InputError("score cache: variable " + name(v) +
                     " has no entry with just the parents every entry holds (its required "
                     "parents): " +
                     set);
  }
  if (const int v = bases.cycle_vertex(); v >= 0)
    throw InputError("score cache: variable " + name(static_cast<std::size_t>(v)) +
                     " lies on a cycle of parents that every entry of their child holds "
                     "(required arcs that close a cycle)");
}

// Every order, each enumerated; true if all were done. An order that puts a base parent after
// its child (base_sets.hpp) has no consistent network: enumerate_order offers nothing for it.
bool run_exhaustive(const ScoreCache& cache, DagPool& pool,
                    const std::function<bool()>& should_stop, SearchStats& stats) {
  Order order(cache.n_vars());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  do {
    if (should_stop()) return false;
    const OrderEnumResult r = enumerate_order(cache, order, pool, should_stop, nullptr, 0);
    ++stats.orders;
    ++stats.enumerations;
    stats.pool_offers += r.offered;
    stats.pool_inserted += r.admitted;
    if (r.truncated) return false;
  } while (std::next_permutation(order.begin(), order.end()));
  return true;
}

// The subset DP over the cache, then every DAG within epsilon of its optimum into the pool. If
// that list outgrows search.dp_overfill pool capacities, epsilon is halved until it does not, and
// the whole list is offered: the pool keeps the best DAGs, as many as it holds (then it is not
// complete). uci/zoo, BDeu BF 20: 145,838 DAGs within epsilon, pool capacity 100,000; halving
// until the list fit kept 1,459 of them (1.0%), the best 100,000 are 68.6%. Returns {optimal,
// complete}; {false, false} if stopped before the DP finished (the pool then holds what it
// held).
std::pair<bool, bool> run_dp(const ScoreCache& cache, DagPool& pool, const SearchOptions& o,
                             const StopToken& stop, SearchStats& stats) {
  const exact::FamilyTable fam = exact::make_family_table(cache, exact::kDpMaxVars);
  exact::SubsetDp dp(fam, exact::SubsetDp::bytes_needed(fam.n), o.threads);
  ++stats.orders;
  if (!dp.run(stop) || std::isinf(dp.opt())) return {false, false};
  const double opt = dp.opt();
  const double full = o.epsilon.resolve(std::fabs(opt));
  Choices choices(cache.n_vars());
  auto offer = [&](const std::vector<std::uint32_t>& family) {
    for (std::size_t v = 0; v < choices.size(); ++v) choices[v] = fam.entry[v][family[v]];
    ++stats.pool_offers;
    if (pool.offer(dag_score(cache, choices), dag_hash(choices), choices)) ++stats.pool_inserted;
  };
  offer(dp.best_choice());
  for (double eps = full;; eps /= 2) {
    const double threshold = opt - eps - score_tolerance(opt, opt);
    exact::Enumeration e = exact::enumerate_within(
        fam, dp, threshold, o.tune.dp_overfill * o.pool_capacity(fam.n) + 1, stop);
    ++stats.enumerations;
    if (e.truncated && eps > 1e-9) continue;
    for (const auto& d : e.dags) offer(d);
    return {true, e.complete && eps == full};
  }
}

PoolReport greedy_network(const ScoreCache& cache, const StopToken& stop) {
  validate(cache);
  const GreedyDagResult g = greedy_dag(cache, [&stop] { return stop.stop_requested(); });
  DagPool pool(cache, Epsilon::epsilon(0), 1);
  pool.offer(g.score, dag_hash(g.choices), g.choices);
  SearchOptions o;
  o.epsilon = Epsilon::epsilon(0);
  // The network alone, not the other members of its class: a first network is due within
  // seconds, listing a class costs O(n) per member, and on few rows the greedy network's class
  // is nearly all undirected, so it has members up to dag_capacity.
  PoolReport r = make_report(cache, pool, o, 1);
  r.algorithm = "greedy";
  r.seconds = stop.elapsed();
  return r;
}

PoolReport search(const ScoreCache& cache, const SearchOptions& options, const StopToken& stop,
                  SearchStats* stats, const CheckpointFn& checkpoint) {
  SearchStats total;
  SearchDriver driver(cache, options, stop, checkpoint);
  PoolReport r = driver.run(total);
  if (stats) *stats = total;
  return r;
}

// One chain, tune.start_climbs climbs from random orders, each with its perturbations (a climb
// ends after 20 that do not improve): deterministic, unlike a time budget (with 1 s of search,
// uci/zoo BIC BF 20 listed 484 or 1,111 DAGs in 60 s from run to run, as the start, hence the
// root cuts and the whole search, differed). Trial runs, BIC BF 20, start found (OPT): 1 climb
// zoo -614.44 (-612.26; then 385 DAGs listed in 60 s), 4 climbs -612.26 (all 1,111), letter
// -174,997.45 (= OPT) in 4.0 s, 16 climbs nltcs -20,033.60 (= OPT). The time cap only guards
// against huge caches.
ParentSets ilp_start_network(const ScoreCache& cache, const StopToken& stop,
                             const ExactTunables& tune) {
  SearchOptions o;
  o.max_restarts = tune.start_climbs;
  o.time = stop.has_deadline()
               ? std::min(tune.start_max_seconds, tune.start_share * stop.remaining())
               : tune.start_max_seconds;
  o.threads = 1;
  o.dp_max_n = 0;  // the DP is the other exact method: keep the ILP independent of it
  o.enumerate = false;
  o.complete_classes = false;
  o.pool_max = 1;
  o.checkpoint = 0;
  if (o.time <= 0 || stop.stop_requested()) return {};
  try {
    const PoolReport r = search(cache, o, stop);
    if (!r.dags.empty()) return r.dags.front().parents;
  } catch (const InputError&) {
    // a cache the search refuses (no base entry, cyclic bases): no start
  }
  return {};
}

std::function<ParentSets(const ScoreCache&, const StopToken&)> ilp_start(
    const ExactTunables& tune) {
  return [tune](const ScoreCache& cache, const StopToken& stop) {
    return ilp_start_network(cache, stop, tune);
  };
}

}  // namespace bnsl
