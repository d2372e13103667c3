// The ILP's first incumbent. CBC's own heuristics rarely find a DAG (their roundings of LP
// points are cyclic), so without a good start its cutoff is the network of the identity order:
// on uci/letter (17 variables, BIC BF 20) -177,348 against OPT -174,997. A few seconds of
// ordering search find OPT there. The start only speeds the proof up (a cutoff, and the
// threshold of the root screening in root_lp.cpp); OPT and a complete list do not depend on it.
#include "exact/start.hpp"

#include <algorithm>

#include "bnsl/error.hpp"
#include "bnsl/search.hpp"

namespace bnsl::exact {
namespace {

// One chain, kClimbs climbs from random orders, each with its perturbations (a climb ends
// after 20 that do not improve): deterministic, unlike a time budget (with 1 s of search,
// uci/zoo BIC BF 20 listed 484 or 1,111 DAGs in 60 s from run to run, as the start, hence the
// root cuts and the whole search, differed). Trial runs, BIC BF 20, start found (OPT): 1 climb
// zoo -614.44 (-612.26; then 385 DAGs listed in 60 s), 4 climbs -612.26 (all 1,111), letter
// -174,997.45 (= OPT) in 4.0 s, 16 climbs nltcs -20,033.60 (= OPT). The time cap only guards
// against huge caches.
constexpr std::uint64_t kClimbs = 8;
constexpr double kMaxShareOfRemaining = 0.1;
constexpr double kMaxSeconds = 60;

// The search's DAG as family indices of fam; empty if some parent set is not a family.
std::vector<std::uint32_t> as_choice(const FamilyTable& fam, const ParentSets& parents) {
  std::vector<std::uint32_t> choice(static_cast<std::size_t>(fam.n));
  for (int v = 0; v < fam.n; ++v) {
    Mask mask = 0;
    for (int u : parents[v]) mask |= Mask{1} << u;
    const auto& masks = fam.masks[v];
    const auto it = std::find(masks.begin(), masks.end(), mask);
    if (it == masks.end()) return {};
    choice[v] = static_cast<std::uint32_t>(it - masks.begin());
  }
  return choice;
}

}  // namespace

std::vector<std::uint32_t> start_network(const ScoreCache& cache, const FamilyTable& fam,
                                         const StopToken& stop) {
  std::vector<std::uint32_t> best = order_network(fam);
  SearchOptions o;
  o.max_restarts = kClimbs;
  o.time = stop.has_deadline() ? std::min(kMaxSeconds, kMaxShareOfRemaining * stop.remaining())
                               : kMaxSeconds;
  o.threads = 1;
  o.dp_max_n = 0;  // the DP is the other exact method: keep the ILP independent of it
  o.enumerate = false;
  o.complete_classes = false;
  o.pool_max = 1;
  o.checkpoint = 0;
  if (o.time <= 0 || stop.stop_requested()) return best;
  try {
    const PoolReport r = search(cache, o, stop);
    if (!r.dags.empty())
      if (auto found = as_choice(fam, r.dags.front().parents);
          !found.empty() && (best.empty() || fam.score(found) > fam.score(best)))
        best = std::move(found);
  } catch (const InputError&) {
    // a cache the search refuses (no base entry, cyclic bases): keep the identity order's
  }
  return best;
}

}  // namespace bnsl::exact
