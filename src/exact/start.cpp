// The ILP's first incumbent. CBC's own heuristics rarely find a DAG (their roundings of LP
// points are cyclic), so without a good start its cutoff is the network of the identity order:
// on uci/letter (17 variables, BIC BF 20) -177,348 against OPT -174,997. A few seconds of
// ordering search find OPT there (the pipeline passes one: ExactOptions::start, bnsl/search.hpp's
// ilp_start_network). The start only speeds the proof up (a cutoff, and the
// threshold of the root screening in root_lp.cpp); OPT and a complete list do not depend on it.
#include "exact/start.hpp"

#include <algorithm>

namespace bnsl::exact {
namespace {

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
                                         const StopToken& stop, const StartFn& start) {
  std::vector<std::uint32_t> best = order_network(fam);
  if (!start || stop.stop_requested()) return best;
  const ParentSets parents = start(cache, stop);
  if (parents.size() != static_cast<std::size_t>(fam.n)) return best;
  if (auto found = as_choice(fam, parents);
      !found.empty() && (best.empty() || fam.score(found) > fam.score(best)))
    best = std::move(found);
  return best;
}

}  // namespace bnsl::exact
