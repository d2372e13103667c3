// Brier score of a pool's skeleton-edge probabilities against the true network (bnsl/eval.hpp,
// edge_brier).
//
// Method: the Brier score (Brier, "Verification of forecasts expressed in terms of
// probability", Monthly Weather Review 78(1), 1950) of the forecasts p_edge for the events
// "the truth has an arc between u and v", one forecast per unordered pair, averaged over all
// n(n-1)/2 pairs. A pair neither listed by the pool (p = 0) nor adjacent in the truth (t = 0)
// contributes (0 - 0)^2 = 0, so the sum runs over the listed and true pairs only: both are
// reduced to sorted keys and merged, O(m log m) for m listed, true and best pairs, never n^2
// (n reaches 10,000). The best network alone forecasts 1 on its edges and 0 elsewhere: its sum
// is the size of the symmetric difference of the skeletons. Sums are taken in key order, so the
// result does not depend on the order of the pool's list.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/eval.hpp"

namespace bnsl {
namespace {

// Two entries of a pair, or a probability and its bounds, may differ by rounding: p_edge is a
// sum of two ratios, so it can exceed 1 by a few ulps.
constexpr double kTolerance = 1e-9;

using PairKey = std::uint64_t;  // (min << 32) | max of the pair's indices

PairKey pair_key(int u, int v) {
  const auto [a, b] = std::minmax(u, v);
  return static_cast<PairKey>(a) << 32 | static_cast<std::uint32_t>(b);
}

// The skeleton of a DAG as sorted distinct pair keys.
std::vector<PairKey> skeleton(const ParentSets& g) {
  std::vector<PairKey> keys;
  for (std::size_t v = 0; v < g.size(); ++v)
    for (int p : g[v]) keys.push_back(pair_key(p, static_cast<int>(v)));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// How an error message names variable v: by name when `names` covers the variables.
std::string variable(int v, const std::vector<std::string>& names) {
  return v >= 0 && static_cast<std::size_t>(v) < names.size() ? "'" + names[v] + "'"
                                                              : std::to_string(v);
}

std::string pair_text(const PairProbability& e, const std::vector<std::string>& names) {
  return variable(e.u, names) + " - " + variable(e.v, names);
}

std::string number_text(double x) {
  return nlohmann::json(x).dump();  // shortest text that reads back to x
}

// The pool's pairs as sorted distinct keys with their probabilities: the first listed entry of
// a pair, after checking that any other entry of it agrees.
std::vector<std::pair<PairKey, double>> distinct_pairs(const std::vector<PairProbability>& pool,
                                                       std::size_t n, const std::string& file,
                                                       const std::vector<std::string>& names) {
  std::vector<std::size_t> order;  // indices into pool, by pair key, stable
  order.reserve(pool.size());
  const long long nn = static_cast<long long>(n);
  for (std::size_t k = 0; k < pool.size(); ++k) {
    const PairProbability& e = pool[k];
    if (e.u < 0 || e.v < 0 || e.u >= nn || e.v >= nn || e.u == e.v)
      throw InputError(file, 0, 0,
                       "edge probability of " + pair_text(e, names) +
                           ": not a pair of distinct variables (of " + std::to_string(n) + ")");
    if (!(e.p >= -kTolerance && e.p <= 1 + kTolerance))
      throw InputError(file, 0, 0,
                       "edge probability " + number_text(e.p) + " of " + pair_text(e, names) +
                           " is not in [0, 1]");
    order.push_back(k);
  }
  auto key = [&](std::size_t k) { return pair_key(pool[k].u, pool[k].v); };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  std::vector<std::pair<PairKey, double>> out;
  std::size_t first = 0;  // the entry of pool that out.back() comes from
  for (std::size_t k : order) {
    if (out.empty() || out.back().first != key(k)) {
      out.emplace_back(key(k), pool[k].p);
      first = k;
    } else if (std::abs(pool[first].p - pool[k].p) > kTolerance) {
      throw InputError(file, 0, 0,
                       "two entries of the edge " + pair_text(pool[first], names) +
                           " give different p_edge: " + number_text(pool[first].p) + " and " +
                           number_text(pool[k].p));
    }
  }
  return out;
}

// Pairs in both sorted key lists.
std::size_t common(const std::vector<PairKey>& a, const std::vector<PairKey>& b) {
  std::size_t count = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++count;
      ++i;
      ++j;
    }
  }
  return count;
}

}  // namespace

EdgeBrier edge_brier(const ParentSets& truth, const std::vector<PairProbability>& pool,
                     const ParentSets& best, const std::string& file,
                     const std::vector<std::string>& names) {
  const std::size_t n = truth.size();
  if (best.size() != n)
    throw RuntimeError("edge_brier: the true DAG has " + std::to_string(n) +
                       " variables, the best DAG " + std::to_string(best.size()));
  const std::vector<std::string> none;  // names that do not cover the variables name none
  const auto listed = distinct_pairs(pool, n, file, names.size() == n ? names : none);
  const auto true_keys = skeleton(truth), best_keys = skeleton(best);
  EdgeBrier b;
  b.pairs = n < 2 ? 0 : n * (n - 1) / 2;
  // Merge the listed pairs (p) with the true ones (t = 1); a true pair not listed has p = 0.
  std::size_t i = 0, j = 0;
  while (i < listed.size() || j < true_keys.size()) {
    if (j == true_keys.size() || (i < listed.size() && listed[i].first < true_keys[j])) {
      b.pool_sum += listed[i].second * listed[i].second;  // listed, not true
      ++i;
    } else if (i == listed.size() || true_keys[j] < listed[i].first) {
      b.pool_sum += 1;  // true, not listed
      ++j;
    } else {
      const double miss = 1 - listed[i].second;  // listed and true
      b.pool_sum += miss * miss;
      ++i;
      ++j;
    }
  }
  b.best_sum =
      static_cast<double>(best_keys.size() + true_keys.size() - 2 * common(best_keys, true_keys));
  const double pairs = b.pairs ? static_cast<double>(b.pairs) : std::nan("");
  b.brier_pool = b.pool_sum / pairs;
  b.brier_best = b.best_sum / pairs;
  return b;
}

}  // namespace bnsl
