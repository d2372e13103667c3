// The built-in scores' traits (include/bnsl/score.hpp, ScoreDefinition): what BIC and BDeu
// add to a counting pass, their names, and the pruning rules proven for them
// (docs/design.md, "Scores" and "Pruning"). Adding a built-in score: its traits here, its
// name in kScoreKindNames, a case in Counter's dispatch (counting.cpp) and in prune_rules /
// score_uses_ess (score.cpp), and its formula in the tests' oracle.
#pragma once

#include <math.h>  // lgamma_r: the reentrant lgamma (std::lgamma writes the global signgam)

#include <cstdint>
#include <string_view>

#include "bnsl/score.hpp"

namespace bnsl {

inline double log_gamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

// BIC = LL - pen: the counting pass's own summary; no per-configuration term.
struct BicTraits {
  static constexpr std::string_view name = "bic";
  static constexpr bool uses_ess = false;
  static constexpr bool per_config = false;
  static constexpr PruneRules rules{.bic = true};
  static double config_term(const std::uint32_t*, int, std::uint32_t, double, double) { return 0; }
  static double family(const FamilyScore& f, double) { return f.ll - f.penalty; }
};

// BDeu: per configuration j (a_j = ess / q, a_jk = a_j / r)
// lnG(a_j) - lnG(a_j + n_j) + sum over nonzero cells of [lnG(a_jk + n_jk) - lnG(a_jk)].
struct BdeuTraits {
  static constexpr std::string_view name = "bdeu";
  static constexpr bool uses_ess = true;
  static constexpr bool per_config = true;
  static constexpr PruneRules rules{.bdeu = true};
  static double config_term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q,
                            double ess) {
    const double a_j = ess / q, a_jk = a_j / r;
    double s = log_gamma(a_j) - log_gamma(a_j + n_j);
    const double lg_a_jk = log_gamma(a_jk);
    for (int k = 0; k < r; ++k)
      if (counts[k] != 0) s += log_gamma(a_jk + counts[k]) - lg_a_jk;
    return s;
  }
  static double family(const FamilyScore&, double config_sum) { return config_sum; }
};

}  // namespace bnsl
