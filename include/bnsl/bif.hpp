// Discrete Bayesian networks with parameters, and the BIF text format (bnlearn, pgmpy).
//
//   bnsl::BayesNet net = bnsl::read_bif("asia.bif");
//   int v = net.index_of("either");                       // -1 when absent
//   std::vector<int> pa_states(net.parents[v].size(), 0);  // first state of every parent
//   double p = net.prob(v, net.config_index(v, pa_states), 1);
//
//   bnsl::BayesNet learned = bnsl::estimate_parameters(data, parents);  // pseudo-count 0.5
//   bnsl::write_bif("out.best.bif", learned);
//
// CPT layout: variable v with r = arity(v) states and parents P1..Pm (in the order of the
// BIF header) has q = r(P1)...r(Pm) parent configurations; configuration j numbers the parent
// states s1..sm with the FIRST parent varying fastest (j = s1 + r(P1) (s2 + r(P2) (...)), the
// order bnlearn writes), and P(v = k | config j) = cpt[cpt_offset[v] + j r + k].
//
// Format written (that of bnlearn's write.bif and the shared networks): "network unknown {}",
// then every "variable NAME { type discrete [ k ] { s1, s2 }; }", then every
// "probability ( CHILD | P1, P2 ) { (ps1, ps2) p1, p2; ... }", or "table p1, p2;" for a root.
// Names are written as-is when they are BIF words (no blank and none of , ; ( ) { } [ ] | "
// and no // or /*); other names are written in double quotes with \" and \\ escaped, which this
// reader reads back exactly (bnlearn and pgmpy have no quoting; they read only the first kind).
//
// Read: the same format plus the BIF 0.15 variants that tools write: quoted words, // and /* */
// comments, "property" lines (ignored), a "table" for a conditional CPT (child state slowest,
// LAST parent fastest, as JavaBayes and pgmpy write it), and separators ',' and '|' optional.
// Errors: InputError "FILE:LINE:COL: what was expected".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bnsl/dataset.hpp"

namespace bnsl {

struct BayesNet {
  std::vector<std::string> names;                // variable names, unique
  std::vector<std::vector<std::string>> states;  // states[v]: state names of v
  std::vector<std::vector<int>> parents;         // parents[v]: in CPT order (see above)
  std::vector<std::size_t> cpt_offset;           // start of v's CPT in cpt
  std::vector<double> cpt;                       // all CPTs, flat (layout above)

  std::size_t n_vars() const { return names.size(); }
  int arity(std::size_t v) const { return static_cast<int>(states[v].size()); }
  // Number of parent configurations of v.
  std::size_t n_configs(std::size_t v) const;
  // Configuration index of parent states (one per parent, in parents[v] order).
  std::size_t config_index(std::size_t v, const std::vector<int>& parent_states) const;
  double prob(std::size_t v, std::size_t config, int state) const {
    return cpt[cpt_offset[v] + config * states[v].size() + state];
  }
  int index_of(const std::string& name) const;  // -1 when absent
  // Sets cpt_offset from the arities and parents and sizes cpt (zeros).
  void allocate_cpts();
};

BayesNet read_bif(const std::string& path);
// Parses BIF text; `file` names it in error messages.
BayesNet parse_bif(const std::string& text, const std::string& file);

std::string bif_text(const BayesNet& net);
// Writes atomically (PATH.tmp, then rename). Throws RuntimeError.
void write_bif(const std::string& path, const BayesNet& net);

// Parameters of the DAG parents[v] (sorted parent indices) from the data's counts with a
// pseudo-count per cell (0.5 by default, the Krichevsky-Trofimov / Jeffreys estimate):
// P(k | j) = (n_jk + a) / (n_j + r a); configurations never seen get the uniform
// distribution. Names and state names come from the data set.
BayesNet estimate_parameters(const Dataset& data, const std::vector<std::vector<int>>& parents,
                             double pseudo_count = 0.5);

}  // namespace bnsl
