// The ILP's first incumbent. CBC's own heuristics rarely find a DAG (their roundings of LP
// points are cyclic), so without a good start its cutoff is the network of the identity order:
// on uci/letter (17 variables, BIC BF 20) -177,348 against OPT -174,997. One second of ordering
// search finds -174,997.52 there (trial run). The start only speeds the proof up (a cutoff, and
// the threshold of the root screening in root_lp.cpp); OPT and the list do not depend on it.
#include "exact/start.hpp"

#include <algorithm>
#include <cmath>

#include "bnsl/error.hpp"
#include "bnsl/search.hpp"

namespace bnsl::exact {
namespace {

constexpr double kFamiliesPerSecond = 50000;
constexpr double kMinSeconds = 0.1;
constexpr double kShareOfRemaining = 0.05;

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
                                         int threads, const StopToken& stop) {
  std::vector<std::uint32_t> best = order_network(fam);
  SearchOptions o;
  o.time = std::max(kMinSeconds, static_cast<double>(fam.total()) / kFamiliesPerSecond);
  if (stop.has_deadline()) o.time = std::min(o.time, kShareOfRemaining * stop.remaining());
  o.threads = threads;
  o.dp_max_n = 0;  // the DP is the other exact method: keep the ILP independent of it
  o.enumerate = false;
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
    // some variable has no empty parent set: no order-based search; keep the identity order's
  }
  return best;
}

}  // namespace bnsl::exact
