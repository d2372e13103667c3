// Held-out log-likelihood of a network's parameters (bnsl/eval.hpp, log_likelihood), and
// parameter estimation on the true network's state lists (estimate_on_domain).
//
// Method: data columns and values are matched to the network's variables and state names by
// name once, into per-column code maps; then for each row, ln P(row) = sum over variables v of
// ln P(x_v | x_pa(v)), looked up in v's CPT (first parent fastest, the BayesNet layout).
// Guarantee: the result is the exact sum of the logs of the CPT entries (no smoothing); a row
// through a zero CPT entry has probability 0, is counted in zero_rows and makes the total
// -inf. Values the network does not know are an error (with their row), never skipped, so
// every row contributes. Parameters estimated with estimate_on_domain give a positive
// probability to every state of the true network, so a test value that the training rows
// never showed costs a finite, pseudo-counted amount.
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "bnsl/error.hpp"
#include "bnsl/eval.hpp"

namespace bnsl {
namespace {

// For each of net's variables, the data column with its name; every column must be one.
std::vector<std::size_t> match_columns(const std::vector<std::string>& names, const Dataset& data,
                                       const std::string& file) {
  std::map<std::string, std::size_t> column;
  for (std::size_t c = 0; c < data.n_vars(); ++c) column.emplace(data.name(c), c);
  std::vector<std::size_t> col(names.size());
  for (std::size_t v = 0; v < names.size(); ++v) {
    auto it = column.find(names[v]);
    if (it == column.end())
      throw InputError(file, 0, 0, "no column '" + names[v] + "' (a variable of the network)");
    col[v] = it->second;
    column.erase(it);
  }
  if (!column.empty())
    throw InputError(file, 0, 0,
                     "column '" + column.begin()->first + "' is not a variable of the network");
  return col;
}

// First row (0-based) of column c with code k.
std::size_t first_row(const Dataset& data, std::size_t c, int k) {
  for (std::size_t i = 0; i < data.n_rows(); ++i)
    if (data.code(c, i) == k) return i;
  return data.n_rows();
}

// state[v][k]: the network's state of v for data code k of v's column (-1 when unknown and
// unused by any row).
std::vector<std::vector<int>> match_states(const BayesNet& net, const Dataset& data,
                                           const std::vector<std::size_t>& col,
                                           const std::string& file) {
  std::vector<std::vector<int>> state(net.n_vars());
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    std::map<std::string, int> known;
    for (int k = 0; k < net.arity(v); ++k) known.emplace(net.states[v][k], k);
    for (int k = 0; k < data.arity(col[v]); ++k) {
      auto it = known.find(data.state_name(col[v], k));
      if (it == known.end() && first_row(data, col[v], k) < data.n_rows())
        throw InputError(file, 0, 0,
                         "row " + std::to_string(first_row(data, col[v], k) + 1) + ": '" +
                             data.state_name(col[v], k) + "' is not a state of " + net.names[v] +
                             " in the network");
      state[v].push_back(it == known.end() ? -1 : it->second);
    }
  }
  return state;
}

}  // namespace

TestLikelihood log_likelihood(const BayesNet& net, const Dataset& data, const std::string& file) {
  const std::vector<std::size_t> col = match_columns(net.names, data, file);
  const std::vector<std::vector<int>> state = match_states(net, data, col, file);
  TestLikelihood r;
  r.rows = data.n_rows();
  std::vector<int> x(net.n_vars());
  for (std::size_t i = 0; i < data.n_rows(); ++i) {
    for (std::size_t v = 0; v < net.n_vars(); ++v) x[v] = state[v][data.code(col[v], i)];
    double lp = 0;
    for (std::size_t v = 0; v < net.n_vars(); ++v) {
      std::size_t j = 0, mult = 1;
      for (int p : net.parents[v]) {
        j += static_cast<std::size_t>(x[p]) * mult;
        mult *= net.states[p].size();
      }
      lp += std::log(net.prob(v, j, x[v]));
    }
    if (std::isinf(lp)) ++r.zero_rows;
    r.total += lp;
  }
  if (r.zero_rows > 0) r.total = -std::numeric_limits<double>::infinity();
  return r;
}

BayesNet estimate_on_domain(const BayesNet& domain, const ParentSets& parents, const Dataset& train,
                            const std::string& file, double pseudo_count) {
  const std::vector<std::size_t> col = match_columns(domain.names, train, file);
  Dataset mapped;
  for (std::size_t v = 0; v < domain.n_vars(); ++v) {
    std::vector<std::string> states = domain.states[v];
    std::map<std::string, std::uint32_t> known;
    for (std::size_t k = 0; k < states.size(); ++k)
      known.emplace(states[k], static_cast<std::uint32_t>(k));
    std::vector<std::uint32_t> to;  // train code -> code on the extended state list
    for (int k = 0; k < train.arity(col[v]); ++k) {
      const std::string& s = train.state_name(col[v], k);
      auto [it, added] = known.emplace(s, static_cast<std::uint32_t>(states.size()));
      if (added) states.push_back(s);
      to.push_back(it->second);
    }
    std::vector<std::uint32_t> codes(train.n_rows());
    for (std::size_t i = 0; i < train.n_rows(); ++i) codes[i] = to[train.code(col[v], i)];
    mapped.add_column(domain.names[v], std::move(states), codes);
  }
  return estimate_parameters_per_cell(mapped, parents, pseudo_count);
}

BayesNet data_domain(const Dataset& train, const Dataset& test, const std::string& test_file) {
  const std::vector<std::size_t> col = match_columns(train.names(), test, test_file);
  BayesNet domain;
  domain.names = train.names();
  domain.parents.assign(train.n_vars(), {});
  for (std::size_t v = 0; v < train.n_vars(); ++v) {
    std::vector<std::string> states;
    std::map<std::string, int> known;
    for (int k = 0; k < train.arity(v); ++k) {
      states.push_back(train.state_name(v, k));
      known.emplace(states.back(), k);
    }
    for (int k = 0; k < test.arity(col[v]); ++k)
      if (known.emplace(test.state_name(col[v], k), static_cast<int>(states.size())).second)
        states.push_back(test.state_name(col[v], k));
    domain.states.push_back(std::move(states));
  }
  domain.allocate_cpts();
  return domain;
}

}  // namespace bnsl
