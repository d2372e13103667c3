// Random networks for synthetic benchmarks (bnsl/generate.hpp).
//
// The structure is drawn in a random topological order: node at position i takes
// d ~ uniform{0..min(K, i)} parents, a uniform d-subset of the nodes before it (rejection of
// repeats; d <= K is small). This is the usual "random order, bounded in-degree" model; it
// gives acyclic graphs by construction, every in-degree <= K, and arcs spread over the whole
// order (a node's parents are anywhere before it, not only nearby). Each CPT row is a
// symmetric Dirichlet(alpha) draw, normalised gamma variates (Devroye 1986, ch. IX.4).
// Integers come from the generator's bits by rejection (portable); the gamma variates from
// std::gamma_distribution (the same standard library gives the same network).
#include "bnsl/generate.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"

namespace bnsl {
namespace {

// Uniform in [0, m), m >= 1, without modulo bias.
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t m) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % m;
  for (;;) {
    const std::uint64_t x = rng();
    if (x < limit) return x % m;
  }
}

void validate(const GenerateOptions& o) {
  if (o.vars < 1) throw InputError("--vars must be at least 1");
  if (o.max_parents < 0) throw InputError("--max-parents must be >= 0");
  if (o.arity_min < 2 || o.arity_max < o.arity_min ||
      o.arity_max > static_cast<int>(Dataset::kMaxStates))
    throw InputError("--arity A:B needs 2 <= A <= B <= 65535, got " + std::to_string(o.arity_min) +
                     ":" + std::to_string(o.arity_max));
  if (!(o.alpha > 0) || !std::isfinite(o.alpha)) throw InputError("--alpha must be > 0");
}

// Draws a uniform d-subset of positions [0, i) of `order`: the parents of the node at i.
std::vector<int> draw_parents(std::mt19937_64& rng, const std::vector<int>& order, std::size_t i,
                              int max_parents) {
  const std::size_t d =
      uniform_below(rng, std::min<std::size_t>(static_cast<std::size_t>(max_parents), i) + 1);
  std::vector<int> parents;
  while (parents.size() < d) {
    const int p = order[uniform_below(rng, i)];
    if (std::find(parents.begin(), parents.end(), p) == parents.end()) parents.push_back(p);
  }
  std::sort(parents.begin(), parents.end());
  return parents;
}

}  // namespace

BayesNet generate_network(const GenerateOptions& o) {
  validate(o);
  std::mt19937_64 rng(o.seed);
  const std::size_t n = o.vars;
  BayesNet net;
  net.names.resize(n);
  net.states.resize(n);
  net.parents.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    net.names[v] = default_variable_name(v);
    const int r =
        o.arity_min + static_cast<int>(uniform_below(
                          rng, static_cast<std::uint64_t>(o.arity_max - o.arity_min + 1)));
    for (int k = 0; k < r; ++k) net.states[v].push_back(std::to_string(k));
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[uniform_below(rng, i)]);
  for (std::size_t i = 0; i < n; ++i)
    net.parents[order[i]] = draw_parents(rng, order, i, o.max_parents);
  for (std::size_t v = 0; v < n; ++v)
    if (static_cast<double>(net.n_configs(v)) * net.arity(v) > 2147483647.0)
      throw RuntimeError("generate: a CPT of " + net.names[v] +
                         " would exceed 2^31 cells; lower --max-parents or --arity");
  net.allocate_cpts();
  std::gamma_distribution<double> gamma(o.alpha, 1.0);
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t r = net.states[v].size();
    double* cpt = net.cpt.data() + net.cpt_offset[v];
    for (std::size_t j = 0; j < net.n_configs(v); ++j) {
      double* row = cpt + j * r;
      double sum = 0;
      // A row whose draws all underflow (tiny alpha) is drawn again.
      while (!(sum > 0)) {
        sum = 0;
        for (std::size_t k = 0; k < r; ++k) sum += row[k] = gamma(rng);
      }
      for (std::size_t k = 0; k < r; ++k) row[k] /= sum;
    }
  }
  return net;
}

}  // namespace bnsl
