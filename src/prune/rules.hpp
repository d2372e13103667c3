// epsilon-relaxed pruning rules: when a parent set may leave a cache.
//
// A parent set may be dropped only if no network scoring within eps of the optimum can use
// it. Every rule below exhibits, for a dropped set P', a subset P with s(P) > s(P') + eps:
// replacing P' by P in any network gives an acyclic network more than eps better, so the
// original is more than eps below the optimum. Conventions (docs/design.md, "Pruning"):
// s = local score, higher is better; pen(P) = (ln N / 2)(r_X - 1) q_P; LL(P) = -N H(X|P) <= 0.
// The LL ceiling: C = LL(U) = -N H(X|U), U every variable but X. Conditioning on more
// variables never raises the empirical conditional entropy (a finer partition of the rows),
// so LL(P) <= C <= 0 for every parent set P; C < 0 where rows that agree on all of U disagree
// on X, so it helps where rows repeat (uci/sensors: 5,456 rows, 2,527 distinct; N H(X|U)
// averages 466 per variable). Rules 2 to 4 use C where de Campos and Ji use LL <= 0 (C = 0
// gives their rules back); ll_ceiling.hpp computes it.
//
//  1. Subset rule (Teyssier-Koller, relaxed): drop P' if s(P) > s(P') + eps, P a proper subset.
//  2. BIC bound (de Campos-Ji, with the ceiling): s(P') <= C - pen(P'); so
//     s(P) - C + pen(P') > eps drops P' and, as pen only grows with supersets, every superset
//     of P'. Decidable before scoring P'.
//  3. Size bound (with the ceiling and the best subset): every proper superset P'' of P holds
//     some P + Y, r_Y >= 2, so s(P'') <= C - pen(P'') <= C - 2 pen(P), and P or one of its
//     subsets, scoring b(P) = max over subsets of P, P included, is a subset of P'' too: so
//     b(P) - C + 2 pen(P) > eps drops every proper superset of P (P itself stays). With
//     b(P) = s(P) = LL(P) - pen(P) it is de Campos-Ji's pen(P) > N (H(X|P) - H(X|U)) + eps.
//  4. Entropy rule (de Campos et al. 2018, with the ceiling): for P' = P + Y,
//     LL(P') - LL(P) = N I(X;Y|P) = N (H(X|P) - H(X|P')) <= N min{H(X|P) - H(X|U), H(Y|P)}
//     (H(X|P') >= H(X|U) as U holds P'), while pen(P') - pen(P) = (r_Y - 1) pen(P); so
//     N min{H(X|P) - H(X|U), H(Y|P)} < (r_Y - 1) pen(P) - eps drops P' (P beats it by
//     > eps), and every superset P' + Z (compare with P + Z: conditioning only lowers
//     H(X|P) and H(Y|P), and raises pen(P + Z) >= pen(P)).
//  5. BIC* bound (Scanagatta 2015, Thm 2) bounds s(P1 + P2) from below before scoring, to cut
//     supersets unscored. bnsl generates a set's supersets only after scoring the set, and
//     rule 2 with the exact score fires whenever rule 5 would, so rule 5 is subsumed.
//  6. BDeu bound (after Cussens-Bartlett, per cell): write one configuration's BDeu term as
//     the log probability of its rows' child states in sequence under the Dirichlet prior
//     (a = alpha / q, a / r_X per state): a row whose state is new in the configuration has
//     predictive probability (a / r_X) / (a + i) <= 1 / r_X, any other row at most 1. So
//     a configuration with d distinct child states contributes at most -d ln r_X, and
//     s(P') <= -c(P') ln r_X, c = the nonzero cells n_jk (configuration, state) of P'. A
//     superset splits each configuration's rows, and every state present stays present in
//     some part, so c never decreases in supersets (the paper's r+, one per configuration,
//     is the weaker c >= r+):  s(P) + c(P') ln r_X > eps drops P' and every superset.
//  7. k-best size bound (Chen, Darwiche & Choi 2018, Thm 5 and Cor. 1), BIC, for the K best
//     networks instead of those within eps. Let r_X >= 2 and P' a proper subset of P missing
//     a parent of arity >= 2, so q_P >= 2 q_P' and pen(P') <= pen(P) / 2. With H(X|P) >= 0,
//     H(X|P') <= ln r_X and ln r <= (r - 1) ln 2 for r >= 2:
//       s(P') - s(P) = N H(X|P) - N H(X|P') + pen(P) - pen(P')
//                    >= pen(P) / 2 - N ln r_X >= (r_X - 1) [(ln N / 4) q_P - N ln 2],
//     positive when q_P > 4 N / log2 N (the paper's 2N / c, c = (1/2) log2 N). A set P of m
//     parents, each of arity >= 2, has q_P >= 2^m and 2^m - 1 proper subsets; replacing P by
//     each of them in a network G gives 2^m - 1 distinct acyclic networks, each strictly
//     better than G, whose skeletons differ (they lose different arcs into X), so they are
//     also 2^m - 1 classes each strictly better than G's. If K <= 2^m - 1, G is neither among
//     the K best networks (classes) nor tied with the K-th. Hence the cap: the least d' >=
//     d = floor(log2(4 N / log2 N)) with K <= 2^(d' + 1) - 1 (then 2^(d' + 1) > 4N / log2 N).
//     Sets of more than d' parents are never needed for the K best (k_best_max_parents).
//  8. BDeu atom bound (after Correia, Cussens & de Campos 2020): rule 6 per configuration of P,
//     sharpened with the rows that agree on every other variable; bdeu_atoms.hpp.
//
// Rules 2, 3, 4 and 7 hold for BIC only, rule 6 for BDeu only, rule 1 for any score: each score's
// traits say which it has (PruneRules, include/bnsl/score.hpp; a score without proven rules
// gets rule 1 only). Parents with a single observed state are never candidates (they change
// no score), so every added parent has arity >= 2, as rules 3 and 7 require. Each inequality must
// hold beyond the score tolerance (compare.hpp): rounding can only keep more sets.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "score/compare.hpp"

namespace bnsl::prune {

// Rule 1: best_subset = best score over proper subsets of the set.
inline bool subset_rule(double best_subset, double score, double eps) {
  return clearly_greater(best_subset, score + eps);
}

// Rule 2: penalty_set = pen(P') of the candidate, best_subset over its proper subsets,
// ll_ceiling = C (0: none).
inline bool bic_bound(double best_subset, double penalty_set, double ll_ceiling, double eps) {
  return clearly_greater(best_subset - ll_ceiling + penalty_set, eps, ll_ceiling);
}

// Rule 3: true when every proper superset of the set P is dropped. best = b(P), the best
// score of P and its subsets; penalty = pen(P).
inline bool size_bound(double best, double penalty, double ll_ceiling, double eps) {
  return clearly_greater(best - ll_ceiling + 2 * penalty, eps,
                         std::max(std::fabs(best), -ll_ceiling));
}

// Rule 4: ll = LL(P), n_h_y = N H(Y|P), penalty = pen(P), for P' = P + Y.
inline bool entropy_rule(double ll, double ll_ceiling, double n_h_y, int r_y, double penalty,
                         double eps) {
  return clearly_greater((r_y - 1) * penalty - eps, std::min(ll_ceiling - ll, n_h_y), ll_ceiling);
}

// Rule 6: cells = nonzero cells n_jk of P' (or a lower bound: the most of any subset).
inline bool bdeu_bound(double best_subset, std::size_t cells, int r_child, double eps) {
  return clearly_greater(best_subset + static_cast<double>(cells) * std::log(r_child), eps);
}

// Rule 7: the most parents a family of the K best networks (or classes) needs under BIC, for
// a child of arity >= 2 whose candidate parents have arity >= 2 (a single-state variable is
// never a parent); -1 when the rule gives no cap (k = 0 or fewer than 2 rows). The margin
// (ln N / 4) 2^(d + 1) - N ln 2 must clear the score tolerance by far, not just be positive.
inline int k_best_max_parents(std::size_t rows, std::size_t k) {
  if (k == 0 || rows < 2) return -1;
  const double n = static_cast<double>(rows);
  const auto margin_ok = [n](int d) {
    return std::ldexp(std::log(n) / 4, d + 1) > n * std::log(2.0) * (1 + 1e-6);
  };
  int d = std::max(0, static_cast<int>(std::floor(std::log2(4 * n / std::log2(n)))));
  while (!margin_ok(d) || (d < 62 && static_cast<double>(k) > std::ldexp(1.0, d + 1) - 1)) ++d;
  return d;
}

}  // namespace bnsl::prune
