// Shared by the exact-mode tests (test_exact, test_k_best, test_exact_classes): a cache holding
// exactly the oracle's families, and the exact methods this build has.
#pragma once

#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/exact.hpp"
#include "oracle.hpp"

namespace exact_test {

// A cache holding exactly the oracle's families (scored without bnsl's scorer).
inline bnsl::ScoreCache oracle_cache(const oracle::Families& fam) {
  bnsl::ScoreCache cache(fam.size());
  for (std::size_t v = 0; v < fam.size(); ++v) {
    for (const auto& [m, s] : fam[v]) cache.var(v).add(s, oracle::from_mask(m));
    cache.var(v).sort_best_first();
  }
  return cache;
}

// dp, and ilp when built with CBC.
inline std::vector<bnsl::ExactMethod> methods() {
  std::vector<bnsl::ExactMethod> m = {bnsl::ExactMethod::dp};
  if (bnsl::ilp_available()) m.push_back(bnsl::ExactMethod::ilp);
  return m;
}

}  // namespace exact_test
