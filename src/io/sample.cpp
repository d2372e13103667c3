// Forward (logic) sampling of a Bayesian network and the CSV writer (bnsl/sample.hpp).
//
// Method: Henrion, "Propagating uncertainty in Bayesian networks by probabilistic logic
// sampling", UAI 1988. Variables are visited in a topological order (bnsl/graph.hpp: Kahn's
// algorithm, ties by variable index), and each is drawn from P(X | parents' drawn states) by
// inverting the cumulative CPT row with one uniform number u in [0, 1). Guarantee: every row is an
// independent exact draw from the network's joint distribution (up to the 53-bit resolution of
// u). CPT rows are normalised by their sum first (the reader accepts rows summing to 1 within
// 0.01), and a state with probability 0 is never drawn. Determinism: one std::mt19937_64
// seeded with the seed, draws consumed row by row in the fixed topological order, and u made
// from the generator's top 53 bits by arithmetic (not std::uniform_real_distribution, whose
// algorithm differs between standard libraries), so a seed gives the same rows everywhere.
#include "bnsl/sample.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "bnsl/error.hpp"
#include "bnsl/graph.hpp"
#include "util/atomic_file.hpp"
#include "util/csv_field.hpp"

namespace bnsl {
namespace {

// Cumulative, normalised CPT rows in the BayesNet layout: cum[offset + j r + k] = P(X <= k | j).
std::vector<double> cumulative_cpts(const BayesNet& net) {
  std::vector<double> cum(net.cpt.size());
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    const std::size_t r = net.states[v].size();
    for (std::size_t j = 0; j < net.n_configs(v); ++j) {
      const double* row = net.cpt.data() + net.cpt_offset[v] + j * r;
      double* out = cum.data() + net.cpt_offset[v] + j * r;
      double total = 0;
      for (std::size_t k = 0; k < r; ++k) total += row[k];
      if (!(total > 0)) throw RuntimeError("sample: a CPT row of " + net.names[v] + " sums to 0");
      double acc = 0;
      for (std::size_t k = 0; k < r; ++k) out[k] = (acc += row[k]) / total;
      out[r - 1] = 1.0;
    }
  }
  return cum;
}

// The state k with cum[k-1] <= u < cum[k], skipping states of probability 0.
int draw_state(const double* cum, std::size_t r, double u) {
  const double* it = std::upper_bound(cum, cum + r, u);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(it - cum), r - 1));
}

}  // namespace

Dataset sample(const BayesNet& net, std::size_t n, std::uint64_t seed) {
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    if (net.states[v].size() > Dataset::kMaxStates || net.states[v].empty())
      throw RuntimeError("sample: variable " + net.names[v] + " has " +
                         std::to_string(net.states[v].size()) + " states");
  const std::vector<int> order = topological_order(net.parents);
  if (order.size() != net.n_vars()) throw RuntimeError("sample: the network has a directed cycle");
  const std::vector<double> cum = cumulative_cpts(net);
  std::vector<std::vector<std::uint32_t>> columns(net.n_vars(), std::vector<std::uint32_t>(n));
  std::vector<int> row(net.n_vars());
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    for (int v : order) {
      std::size_t j = 0, mult = 1;
      for (int p : net.parents[v]) {
        j += static_cast<std::size_t>(row[p]) * mult;
        mult *= net.states[p].size();
      }
      const std::size_t r = net.states[v].size();
      const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
      row[v] = draw_state(cum.data() + net.cpt_offset[v] + j * r, r, u);
      columns[v][i] = static_cast<std::uint32_t>(row[v]);
    }
  }
  Dataset data;
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    data.add_column(net.names[v], net.states[v], columns[v]);
  return data;
}

void write_csv(const std::string& path, const Dataset& data) {
  write_file_atomically(path, [&data](std::ostream& out) {
    std::vector<std::vector<std::string>> fields(data.n_vars());  // quoted state names
    for (std::size_t v = 0; v < data.n_vars(); ++v) {
      out << (v ? "," : "") << csv_field(data.name(v));
      for (int k = 0; k < data.arity(v); ++k) fields[v].push_back(csv_field(data.state_name(v, k)));
    }
    out << "\n";
    std::string line;
    for (std::size_t i = 0; i < data.n_rows(); ++i) {
      line.clear();
      for (std::size_t v = 0; v < data.n_vars(); ++v) {
        if (v) line += ',';
        line += fields[v][data.code(v, i)];
      }
      line += '\n';
      out << line;
    }
  });
}

}  // namespace bnsl
