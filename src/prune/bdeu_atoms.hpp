// Rule 8, the BDeu atom bound (docs/design.md, "Pruning"): an upper bound on the BDeu score
// of every proper superset of a parent set P, per configuration of P, tighter than rule 6's
// -c(P) ln r_X where rows repeat.
//
// An atom is a group of rows that agree on every variable but the child X. No parent set can
// separate an atom's rows, so every configuration of any superset of P is a union of atoms
// inside one configuration j of P. A configuration's BDeu term is a marginal likelihood, at
// most its maximum likelihood, and pooling atoms never raises a maximum likelihood: so the
// rows of j score at most A_j = the sum of the log-likelihoods (at their MLE) of j's atoms
// where X is not constant (mixed atoms; constant ones have 0). Rule 6's argument bounds the
// same rows by -c_j ln r_X. For proper supersets the prior per configuration is at most
// a_hi = ess / (2 q_P); the part holding one mixed atom M scores at most M's Dirichlet
// predictive probability, bounded row by row over a in (0, a_hi], times the maximum
// likelihood of the rest: that replaces M's term in A_j by a smaller one (delta_j <= 0, the
// best atom of j). The bound is the sum over the configurations j seen of
// min(A_j + delta_j, -c_j ln r_X). Where no row repeats on the other variables, it is rule 6.
#pragma once

#include <cstdint>
#include <vector>

#include "bnsl/tunables.hpp"
#include "score/counting.hpp"

namespace bnsl::prune {

// The mixed atoms of one child, on the rows a Counter visits.
struct BdeuAtoms {
  struct Atom {
    std::uint32_t row = 0;              // one visited row of the atom (its configuration)
    double ll = 0;                      // sum_k n_k ln(n_k / n) < 0
    std::vector<std::uint32_t> counts;  // n_k, the child's states in the atom (weighted)
  };
  std::vector<Atom> mixed;       // atoms where the child takes two or more states
  std::vector<std::uint16_t> x;  // the child's state in each visited row
  int r_child = 0;
  bool empty() const { return mixed.empty(); }
};

// The child's mixed atoms: one count of X against every other variable (as ll_ceiling), up to
// max_vars variables (above: none, and rule 8 is rule 6).
BdeuAtoms bdeu_atoms(Counter& counter, int child,
                     std::size_t max_vars = ExploreTunables{}.ll_ceiling_max_vars);

// Upper bound on the BDeu score of every proper superset of the parent set whose
// configuration index (on the counter's visited rows) is `index`, with q = its arity product.
struct BdeuBoundScratch {
  std::vector<std::uint8_t> seen;  // (configuration, state) present
  std::vector<double> a;           // A_j + delta_j, per configuration
  std::vector<double> delta;       // delta_j
};
double bdeu_superset_bound(const BdeuAtoms& atoms, const ConfigIndex& index, double q, double ess,
                           BdeuBoundScratch& scratch);

// Rule 8's test: true when that bound falls more than eps below `best`, the best score of the
// set and its subsets (beyond the score tolerance), so every proper superset may go.
bool bdeu_atom_cut(const BdeuAtoms& atoms, const ConfigIndex& index, double q, double ess,
                   double best, double eps, BdeuBoundScratch& scratch);

// Upper bound on ln of the Dirichlet-multinomial probability of the counts (symmetric prior
// a / r per state) over every a in (0, a_hi]: the rows taken state by state, each predictive
// factor bounded at its own supremum over a.
double dirichlet_sup(const std::vector<std::uint32_t>& counts, int r, double a_hi);

}  // namespace bnsl::prune
