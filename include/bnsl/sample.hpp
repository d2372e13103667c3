// Forward sampling of data from a Bayesian network, and writing a data set as CSV.
//
//   bnsl::BayesNet net = bnsl::read_bif("asia.bif");
//   bnsl::Dataset d = bnsl::sample(net, 10000, 42);   // same seed, same rows
//   bnsl::write_csv("asia-10000.csv", d);              // header row, state names as values
//
// Rows are drawn independently: each variable in a topological order of the network, its
// state drawn from its CPT row given the states already drawn for its parents (Henrion 1988,
// "probabilistic logic sampling"), so each row is an exact draw from the joint distribution.
// Columns are in the network's variable order; column v's states are the network's state
// list of v (Dataset::state_name gives the BIF names, including states never drawn).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bnsl/bif.hpp"
#include "bnsl/dataset.hpp"

namespace bnsl {

// n rows from std::mt19937_64 seeded with `seed`; the rows depend only on (net, n, seed), and
// the first m rows of a larger sample equal a sample of m rows. Throws RuntimeError when the
// network has a directed cycle or more than 65,535 states in a variable.
Dataset sample(const BayesNet& net, std::size_t n, std::uint64_t seed);

// Writes the data as CSV (header of variable names, then one line per row of state names,
// comma-separated; a field is double-quoted, with " doubled, when it contains a comma, a
// quote, a line break or leading or trailing blanks, or is empty), to PATH.tmp, then renamed
// over PATH. Throws RuntimeError.
void write_csv(const std::string& path, const Dataset& data);

}  // namespace bnsl
