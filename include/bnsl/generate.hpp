// Random Bayesian networks with random parameters, for synthetic benchmarks: with
// bnsl::sample and bnsl::compare_structures they give data whose true network is known, at
// any number of variables (Scanagatta et al. 2015 used BNGenerator's random networks of up to
// 10,000 variables the same way).
//
//   bnsl::GenerateOptions opt;
//   opt.vars = 2000;
//   opt.max_parents = 4;        // in-degree of each node: uniform in 0..4
//   opt.arity_min = 2;          // arities: uniform in 2..4
//   opt.arity_max = 4;
//   opt.seed = 1;
//   bnsl::BayesNet net = bnsl::generate_network(opt);
//   bnsl::write_bif("gen2000.bif", net);
//
// The structure: a uniformly random permutation of the variables is the topological order
// (so no variable index says where a node sits: a learner gets no hint from column order);
// the node at position i takes d parents, d uniform in 0..min(max_parents, i), chosen
// uniformly without replacement among the i nodes before it. The expected number of arcs is
// about n * max_parents / 2. Each CPT row is an independent draw from a symmetric
// Dirichlet(alpha) (alpha = 1: uniform over the simplex). Variables are named V0..V(n-1) and
// their states 0..r-1. The network depends only on the options (std::mt19937_64 seeded with
// `seed`; the same build gives the same network).
#pragma once

#include <cstddef>
#include <cstdint>

#include "bnsl/bif.hpp"

namespace bnsl {

struct GenerateOptions {
  std::size_t vars = 0;    // number of variables (>= 1)
  int max_parents = 3;     // in-degree limit (>= 0)
  int arity_min = 2;       // each variable's number of states: uniform in [arity_min,
  int arity_max = 4;       //   arity_max], 2 <= arity_min <= arity_max <= 65,535
  double alpha = 1.0;      // Dirichlet concentration of every CPT row (> 0)
  std::uint64_t seed = 1;  // random stream
};

// Throws InputError when an option is out of range (the message names the option), and
// RuntimeError when one CPT would exceed 2^31 cells (max_parents and arity_max too large).
BayesNet generate_network(const GenerateOptions& options);

}  // namespace bnsl
