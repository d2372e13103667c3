// The K best networks of a cache (Chen, Darwiche & Choi 2018's task), or the K best Markov
// equivalence classes, from exact mode's complete listings.
//
// Method. Both exact methods list every DAG within epsilon of OPT, completely. If such a list
// holds at least K units (DAGs, or classes), the K best units of the whole space are in it:
// every DAG outside the list scores below OPT - epsilon, below each listed one. So the K best
// are the head of the list, cut after the K-th unit and every unit tied with it (k_best_cut).
// A listing's cost grows with the DAGs within epsilon, so epsilon starts at 1 nat and doubles
// until the list holds K units, the cache's whole space (OPT - epsilon at or below the least
// score any DAG can have), or max_epsilon (the cache is only known to keep the families of
// networks within it: fewer than K are reported, stats.k_best_short). A listing cut by
// max_solutions halves the step instead (bisection between the widest epsilon with fewer
// than K units and the narrowest that overflowed), unless the overflowing listing, which keeps
// the best max_solutions and lists every DAG above its last bar (ExactStats::listed_above),
// already holds the K-th unit and its ties above that bar; one stopped by the deadline or a
// signal ends the rounds with what it holds, incomplete.
//
// The same DAG-level listing serves classes: members of a class share their score (BIC and
// BDeu are score equivalent), and a class is within epsilon with all its members or none, so
// the head cut by classes lists every DAG of each of the K best classes. The rounds repeat
// the listing (the DP's tables are kept; the ILP proves OPT again), which the doubling keeps
// within a small factor of the last round's cost.
#include "exact/k_best.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "pool/cpdag.hpp"
#include "score/compare.hpp"

namespace bnsl::exact {
namespace {

// The least score any DAG of the table can have: the sum of each variable's worst family.
double floor_score(const FamilyTable& fam) {
  double s = 0;
  for (const auto& scores : fam.scores) s += scores.empty() ? 0.0 : scores.back();
  return s;
}

}  // namespace

KBestCut k_best_cut(const std::vector<PoolDag>& sorted, const std::vector<int>& class_ids,
                    std::size_t k) {
  KBestCut cut;
  if (k == 0) return cut;
  const auto unit = [&](std::size_t i) {
    return class_ids.empty() ? static_cast<int>(i) : class_ids[i];
  };
  // The first DAG of the K-th unit, in order of first appearance.
  std::unordered_set<int> seen;
  std::size_t kth = sorted.size();
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (seen.insert(unit(i)).second && seen.size() == k) {
      kth = i;
      break;
    }
  if (kth == sorted.size()) return {sorted.size(), seen.size()};
  const double s = sorted[kth].score;
  std::size_t end = kth + 1;
  while (end < sorted.size() && (sorted[end].score > s || score_equal(sorted[end].score, s))) ++end;
  seen.clear();
  for (std::size_t i = 0; i < end; ++i) seen.insert(unit(i));
  return {end, seen.size()};
}

std::vector<PoolDag> list_k_best(const FamilyTable& fam, const KBest& k_best, const ListFn& list,
                                 int threads, ExactStats& st, const ExactTunables& tune) {
  const double floor = floor_score(fam);
  double lo = -1;                                       // complete, fewer than K units
  double hi = std::numeric_limits<double>::infinity();  // overflowed max_solutions
  double eps = std::min(tune.k_best_first_epsilon, k_best.max_epsilon);
  std::vector<PoolDag> pool;
  // The cut of a listing sorted best first, units by class when k_best.classes.
  const auto cut_of = [&](const std::vector<PoolDag>& sorted) {
    std::vector<int> ids;
    if (k_best.classes && !sorted.empty()) ids = MecIndex(sorted).classify_all(threads);
    return k_best_cut(sorted, ids, k_best.k);
  };
  for (int round = 0; round < tune.k_best_rounds; ++round) {
    ++st.k_best_rounds;
    pool = to_pool(fam, list(Epsilon::epsilon(eps)));
    // Stopped (a list past max_solutions without listed_above was stopped too): what it holds.
    if (!st.optimal || (!st.complete && !st.truncated) ||
        (st.truncated && !std::isfinite(st.listed_above)))
      break;
    if (st.truncated) {  // more DAGs within eps than max_solutions: the best are listed,
      const KBestCut cut = cut_of(pool);  // every one above listed_above
      if (cut.units >= k_best.k && clearly_greater(pool[cut.dags - 1].score, st.listed_above)) {
        // the K-th unit and its ties are above it: the K best are the list's head
        st.k_best_units = cut.units;
        st.complete = true;
        st.truncated = false;
        pool.resize(cut.dags);
        st.epsilon = st.opt - pool.back().score;
        return pool;
      }
      hi = eps;  // else narrow
      eps = lo < 0 ? eps / 2 : (lo + eps) / 2;
      if (hi - std::max(lo, 0.0) < 1e-9 * std::max(1.0, std::fabs(st.opt))) break;
      continue;
    }
    const KBestCut cut = cut_of(pool);
    st.k_best_units = cut.units;
    if (cut.units >= k_best.k) {
      pool.resize(cut.dags);
      st.epsilon = st.opt - pool.back().score;
      return pool;
    }
    const bool everything = st.opt - eps <= floor;
    if (everything) {  // the cache's whole space: epsilon down to its last DAG
      st.epsilon = st.opt - pool.back().score;
      return pool;
    }
    if (eps >= k_best.max_epsilon) {  // complete within eps, fewer than K
      st.k_best_short = true;
      return pool;
    }
    lo = eps;
    eps = std::isinf(hi) ? std::min(2 * eps, k_best.max_epsilon) : (lo + hi) / 2;
  }
  // Stopped, or the listing overflowed at every width tried: the best of what was listed,
  // not known to be the K best.
  st.complete = false;
  const KBestCut cut = cut_of(pool);
  pool.resize(cut.dags);
  st.k_best_units = cut.units;
  return pool;
}

}  // namespace bnsl::exact
