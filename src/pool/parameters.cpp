// Parameters of a learned DAG from data counts (bnsl/bif.hpp, estimate_parameters).
//
// For variable X with r states and parent configuration j: P(X = k | j) = (n_jk + a) /
// (n_j + r a), the posterior mean under a symmetric Dirichlet(a) prior on every CPT row;
// a = 0.5 is the Krichevsky-Trofimov (Jeffreys) estimate, which never gives a probability of
// exactly 0 or 1, so held-out log-likelihoods stay finite. Configurations never seen in the
// data get the uniform distribution (n_j = 0). Parent configurations are numbered with the
// first parent varying fastest, the BayesNet CPT layout.
#include <string>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"

namespace bnsl {
namespace {

int code_at(const Dataset& data, std::size_t v, std::size_t i) {
  return data.wide(v) ? data.codes16(v)[i] : data.codes8(v)[i];
}

void estimate_family(const Dataset& data, BayesNet& net, std::size_t v, double a) {
  const std::size_t r = net.states[v].size(), q = net.n_configs(v);
  const auto& pa = net.parents[v];
  double* cpt = net.cpt.data() + net.cpt_offset[v];
  for (std::size_t i = 0; i < data.n_rows(); ++i) {
    std::size_t j = 0, mult = 1;
    for (int p : pa) {
      j += static_cast<std::size_t>(code_at(data, p, i)) * mult;
      mult *= net.states[p].size();
    }
    cpt[j * r + code_at(data, v, i)] += 1;
  }
  for (std::size_t j = 0; j < q; ++j) {
    double n_j = 0;
    for (std::size_t k = 0; k < r; ++k) n_j += cpt[j * r + k];
    for (std::size_t k = 0; k < r; ++k) cpt[j * r + k] = (cpt[j * r + k] + a) / (n_j + r * a);
  }
}

}  // namespace

BayesNet estimate_parameters(const Dataset& data, const std::vector<std::vector<int>>& parents,
                             double pseudo_count) {
  if (!(pseudo_count > 0)) throw RuntimeError("estimate_parameters: pseudo-count must be > 0");
  if (parents.size() != data.n_vars())
    throw RuntimeError("estimate_parameters: " + std::to_string(parents.size()) +
                       " parent lists for " + std::to_string(data.n_vars()) + " variables");
  BayesNet net;
  net.names = data.names();
  for (std::size_t v = 0; v < data.n_vars(); ++v) {
    auto& s = net.states.emplace_back();
    for (int k = 0; k < data.arity(v); ++k) s.push_back(data.state_name(v, k));
  }
  net.parents = parents;
  constexpr double kMaxCells = 1e9;  // a CPT this large cannot be written usefully
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    double cells = static_cast<double>(net.states[v].size());
    for (int p : parents[v]) {
      if (p < 0 || static_cast<std::size_t>(p) >= net.n_vars())
        throw RuntimeError("estimate_parameters: parent index out of range");
      cells *= static_cast<double>(net.states[p].size());
    }
    if (cells > kMaxCells)
      throw RuntimeError("estimate_parameters: the CPT of " + net.names[v] + " has " +
                         std::to_string(cells) + " cells");
  }
  net.allocate_cpts();
  for (std::size_t v = 0; v < net.n_vars(); ++v) estimate_family(data, net, v, pseudo_count);
  return net;
}

}  // namespace bnsl
