// Discrete Bayesian networks with parameters, and the BIF text format (bnlearn, pgmpy).
//
//   bnsl::BayesNet net = bnsl::read_bif("asia.bif");
//   int v = net.index_of("either");                       // -1 when absent
//   std::vector<int> pa_states(net.parents[v].size(), 0);  // first state of every parent
//   double p = net.prob(v, net.config_index(v, pa_states), 1);
//
//   bnsl::BayesNet learned = bnsl::estimate_parameters(data, parents);  // bayes, iss 1
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
// Only names bnlearn's read.bif and pgmpy's BIF reader both parse are written: variable names
// of ASCII letters, digits and '_', states of printable ASCII without blanks and without
// " , ; ( ) { } [ ] | # % \ // /*; others are mapped (bnsl/network_io.hpp, legal_names) and
// the originals recorded in "property bnsl_name = ...;" and "property bnsl_states = ...;"
// lines (percent-encoded), which this reader restores and the others skip.
//
// Read: the same format plus the BIF 0.15 variants that tools write: quoted words, // and /* */
// comments, "property" lines (ignored), a "table" for a conditional CPT (child state slowest,
// LAST parent fastest, as JavaBayes and pgmpy write it), and separators ',' and '|' optional.
// Errors: InputError "FILE:LINE:COL: what was expected".
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/names.hpp"

namespace bnsl {

struct BayesNet {
  std::vector<std::string> names;                // variable names, unique
  std::vector<std::vector<std::string>> states;  // states[v]: state names of v
  std::vector<std::vector<int>> parents;         // parents[v]: in CPT order (see above)
  std::vector<std::size_t> cpt_offset;           // start of v's CPT in cpt
  std::vector<double> cpt;                       // all CPTs, flat (layout above)
  // Where the variables come from, for messages: the file, and each variable's 1-based line
  // and column there (empty when unknown, e.g. a network built in memory).
  std::string source;
  std::vector<std::pair<std::size_t, std::size_t>> declared_at;

  // False for a structure read from a format without parameters: no states, no CPTs.
  bool has_parameters() const { return !cpt.empty(); }

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

// How parameters are estimated from data: bnlearn's bn.fit methods. For variable X with r
// states and q parent configurations, counts n_jk and n_j = sum_k n_jk:
//   mle:   P(k | j) = n_jk / n_j;
//   bayes: P(k | j) = (n_jk + iss / (r q)) / (n_j + iss / q), the posterior mean under the
//          uniform prior of the BDeu score with equivalent sample size iss (no probability 0).
// A parent configuration never seen gets the uniform distribution (bnlearn's mle leaves it
// NaN, and its write.bif writes it uniform). States are listed sorted (numbers numerically,
// before other names, which sort bytewise), or in order of first appearance in the data with
// appearance_order; a column discretized on reading keeps its intervals in order.
enum class ParamMethod { mle, bayes };
inline constexpr std::array<Named<ParamMethod>, 2> kParamMethodNames{
    {{ParamMethod::mle, "mle"}, {ParamMethod::bayes, "bayes"}}};
struct ParamOptions {
  ParamMethod method = ParamMethod::bayes;
  double iss = 1;                 // bayes: imaginary sample size (bnlearn's default)
  bool appearance_order = false;  // states in order of first appearance instead of sorted
};
// "mle", "bayes" or "bayes:ISS" (ISS > 0); InputError otherwise.
ParamOptions parse_params(const std::string& text);
std::string describe(const ParamOptions& options);  // "bayes:1", "mle"

// Parameters of the DAG parents[v] (sorted parent indices) from the data's counts. Names and
// state names come from the data set.
BayesNet estimate_parameters(const Dataset& data, const std::vector<std::vector<int>>& parents,
                             const ParamOptions& options = {});
// The same with a fixed pseudo-count per cell: P(k | j) = (n_jk + a) / (n_j + r a), states in
// the data's order (what `bnsl eval --train` estimates held-out likelihoods with).
BayesNet estimate_parameters_per_cell(const Dataset& data,
                                      const std::vector<std::vector<int>>& parents,
                                      double pseudo_count);

// The order states are presented in: sorted as above. `order[k]` is the index in `states` of
// the k-th state shown.
std::vector<int> sorted_state_order(const std::vector<std::string>& states);

}  // namespace bnsl
