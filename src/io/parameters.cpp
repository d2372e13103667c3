// Parameters of a learned DAG from data counts (bnsl/bif.hpp, estimate_parameters).
//
// bnlearn's bn.fit methods for discrete data: "mle" gives P(X = k | j) = n_jk / n_j, and
// "bayes" the posterior mean under the uniform Dirichlet prior of the BDeu score with
// equivalent sample size iss, P(X = k | j) = (n_jk + iss / (r q)) / (n_j + iss / q), which is
// never 0 or 1, so held-out log-likelihoods stay finite. A parent configuration never seen
// (n_j = 0) gets the uniform distribution under both. The data's codes number states in order
// of first appearance; the network lists them sorted (sorted_state_order) unless asked to keep
// that order, and a column cut into intervals keeps its intervals in order. Parent
// configurations are numbered with the first parent varying fastest, the BayesNet CPT layout.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <string>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "io/net_formats.hpp"

namespace bnsl {
namespace {

int code_at(const Dataset& data, std::size_t v, std::size_t i) {
  return data.wide(v) ? data.codes16(v)[i] : data.codes8(v)[i];
}

// Counts n_jk of v's family into its CPT cells; `position[v][code]` is the state's index in
// the network's state list.
void count_family(const Dataset& data, BayesNet& net, std::size_t v,
                  const std::vector<std::vector<int>>& position) {
  const std::size_t r = net.states[v].size();
  const auto& pa = net.parents[v];
  double* cpt = net.cpt.data() + net.cpt_offset[v];
  for (std::size_t i = 0; i < data.n_rows(); ++i) {
    std::size_t j = 0, mult = 1;
    for (int p : pa) {
      j += static_cast<std::size_t>(position[p][code_at(data, p, i)]) * mult;
      mult *= net.states[p].size();
    }
    cpt[j * r + position[v][code_at(data, v, i)]] += 1;
  }
}

// Turns the counts of v's CPT into probabilities with `cell` pseudo-counts per cell.
void normalize_family(BayesNet& net, std::size_t v, double cell) {
  const std::size_t r = net.states[v].size(), q = net.n_configs(v);
  double* cpt = net.cpt.data() + net.cpt_offset[v];
  for (std::size_t j = 0; j < q; ++j) {
    double n_j = 0;
    for (std::size_t k = 0; k < r; ++k) n_j += cpt[j * r + k];
    for (std::size_t k = 0; k < r; ++k)
      cpt[j * r + k] = n_j + r * cell > 0 ? (cpt[j * r + k] + cell) / (n_j + r * cell)
                                          : 1.0 / static_cast<double>(r);
  }
}

// The network over the data's variables with `parents`, CPTs allocated (zero), states in the
// order `order[v]` (indices into the data's codes).
BayesNet empty_network(const Dataset& data, const std::vector<std::vector<int>>& parents,
                       const std::vector<std::vector<int>>& order) {
  if (parents.size() != data.n_vars())
    throw RuntimeError("estimate_parameters: " + std::to_string(parents.size()) +
                       " parent lists for " + std::to_string(data.n_vars()) + " variables");
  BayesNet net;
  net.names = data.names();
  for (std::size_t v = 0; v < data.n_vars(); ++v) {
    auto& s = net.states.emplace_back();
    for (int code : order[v]) s.push_back(data.state_name(v, code));
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
  net.source = data.source();
  for (std::size_t v = 0; v < data.n_vars() && data.header_column(v) > 0; ++v)
    net.declared_at.emplace_back(1, data.header_column(v));
  return net;
}

std::vector<int> identity(int r) {
  std::vector<int> order(r);
  for (int k = 0; k < r; ++k) order[k] = k;
  return order;
}

// position[code] for a presentation order.
std::vector<int> inverse(const std::vector<int>& order) {
  std::vector<int> position(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = static_cast<int>(k);
  return position;
}

BayesNet estimate(const Dataset& data, const std::vector<std::vector<int>>& parents, bool sorted,
                  const std::function<double(const BayesNet&, std::size_t)>& cell) {
  std::vector<std::vector<int>> order(data.n_vars()), position(data.n_vars());
  for (std::size_t v = 0; v < data.n_vars(); ++v) {
    std::vector<std::string> names;
    for (int k = 0; k < data.arity(v); ++k) names.push_back(data.state_name(v, k));
    order[v] =
        sorted && !data.is_discretized(v) ? sorted_state_order(names) : identity(data.arity(v));
    position[v] = inverse(order[v]);
  }
  BayesNet net = empty_network(data, parents, order);
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    count_family(data, net, v, position);
    normalize_family(net, v, cell(net, v));
  }
  return net;
}

}  // namespace

std::vector<int> sorted_state_order(const std::vector<std::string>& states) {
  struct Key {
    bool number;
    double value;
  };
  std::vector<Key> keys(states.size());
  for (std::size_t k = 0; k < states.size(); ++k)
    keys[k].number = parse_number(states[k], keys[k].value);
  std::vector<int> order = identity(static_cast<int>(states.size()));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (keys[a].number != keys[b].number) return keys[a].number;
    if (keys[a].number && keys[a].value != keys[b].value) return keys[a].value < keys[b].value;
    return states[a] < states[b];
  });
  return order;
}

ParamOptions parse_params(const std::string& text) {
  ParamOptions o;
  const std::size_t colon = text.find(':');
  o.method = value_of(kParamMethodNames, text.substr(0, colon), "parameter method");
  if (colon == std::string::npos) return o;
  double iss = 0;
  if (o.method != ParamMethod::bayes || !parse_number(text.substr(colon + 1), iss) || !(iss > 0))
    throw InputError("--params '" + text +
                     "': expected mle, bayes or bayes:ISS with an imaginary sample size ISS > 0");
  o.iss = iss;
  return o;
}

std::string describe(const ParamOptions& o) {
  if (o.method == ParamMethod::mle) return "mle";
  std::string iss;
  append_number(iss, o.iss);
  if (iss.size() > 2 && iss.ends_with(".0")) iss.resize(iss.size() - 2);
  return "bayes:" + iss;
}

BayesNet estimate_parameters(const Dataset& data, const std::vector<std::vector<int>>& parents,
                             const ParamOptions& options) {
  if (options.method == ParamMethod::bayes && !(options.iss > 0))
    throw RuntimeError("estimate_parameters: the imaginary sample size must be > 0");
  const bool bayes = options.method == ParamMethod::bayes;
  return estimate(
      data, parents, !options.appearance_order, [&](const BayesNet& net, std::size_t v) {
        if (!bayes) return 0.0;
        return options.iss /
               (static_cast<double>(net.states[v].size()) * static_cast<double>(net.n_configs(v)));
      });
}

BayesNet estimate_parameters_per_cell(const Dataset& data,
                                      const std::vector<std::vector<int>>& parents,
                                      double pseudo_count) {
  if (!(pseudo_count > 0)) throw RuntimeError("estimate_parameters: pseudo-count must be > 0");
  return estimate(data, parents, false,
                  [pseudo_count](const BayesNet&, std::size_t) { return pseudo_count; });
}

}  // namespace bnsl
