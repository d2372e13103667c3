// Random networks (bnsl/generate.hpp): every generated network is acyclic, respects the
// in-degree limit and the arity range, has CPT rows that are distributions, and does not leak
// its topological order through the variable indices; the same seed gives the same network;
// and the rows sampled from a small one match its CPTs (a chi-square goodness-of-fit test per
// parent configuration, pooled, against a bound far in the tail).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "bnsl/error.hpp"
#include "bnsl/generate.hpp"
#include "bnsl/sample.hpp"

namespace {

// Kahn's algorithm; true if every node gets ordered.
bool acyclic(const bnsl::BayesNet& net) {
  const std::size_t n = net.n_vars();
  std::vector<std::vector<int>> children(n);
  std::vector<std::size_t> missing(n);
  for (std::size_t v = 0; v < n; ++v) {
    for (int p : net.parents[v]) children[p].push_back(static_cast<int>(v));
    missing[v] = net.parents[v].size();
  }
  std::vector<int> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (missing[v] == 0) ready.push_back(static_cast<int>(v));
  std::size_t done = 0;
  while (!ready.empty()) {
    const int v = ready.back();
    ready.pop_back();
    ++done;
    for (int c : children[v])
      if (--missing[c] == 0) ready.push_back(c);
  }
  return done == n;
}

}  // namespace

TEST_CASE("generate: acyclic, in-degree and arities within the limits, CPTs sum to 1",
          "[generate]") {
  for (std::uint64_t seed = 1; seed <= 5; ++seed)
    for (int k : {0, 1, 3, 6}) {
      bnsl::GenerateOptions o;
      o.vars = 300;
      o.max_parents = k;
      o.arity_min = 2;
      o.arity_max = 5;
      o.seed = seed;
      const bnsl::BayesNet net = bnsl::generate_network(o);
      INFO("seed " << seed << " max_parents " << k);
      REQUIRE(net.n_vars() == 300);
      REQUIRE(acyclic(net));
      std::size_t arcs = 0, backward = 0;
      std::map<std::size_t, int> indegrees;
      for (std::size_t v = 0; v < net.n_vars(); ++v) {
        const auto& pa = net.parents[v];
        REQUIRE(static_cast<int>(pa.size()) <= k);
        ++indegrees[pa.size()];
        for (std::size_t i = 0; i < pa.size(); ++i) {
          REQUIRE(pa[i] >= 0);
          REQUIRE(pa[i] < 300);
          REQUIRE(pa[i] != static_cast<int>(v));
          if (i > 0) REQUIRE(pa[i - 1] < pa[i]);  // sorted, no repeats
          backward += pa[i] > static_cast<int>(v);
        }
        arcs += pa.size();
        REQUIRE(net.arity(v) >= 2);
        REQUIRE(net.arity(v) <= 5);
        for (std::size_t j = 0; j < net.n_configs(v); ++j) {
          double sum = 0;
          for (int s = 0; s < net.arity(v); ++s) {
            const double p = net.prob(v, j, s);
            REQUIRE(p >= 0);
            sum += p;
          }
          REQUIRE(sum == Approx(1.0).epsilon(1e-12));
        }
      }
      if (k >= 1) {
        // In-degrees are uniform in 0..k: each value occurs, and arcs are about n k / 2.
        for (int d = 0; d <= k; ++d) CHECK(indegrees[static_cast<std::size_t>(d)] > 0);
        CHECK(std::fabs(static_cast<double>(arcs) - 300.0 * k / 2) < 0.25 * 300 * k / 2 + 10);
        // The topological order is a random permutation, not the index order: a good share of
        // the arcs point from a higher index to a lower one.
        CHECK(backward > arcs / 4);
      } else {
        CHECK(arcs == 0);
      }
    }
}

TEST_CASE("generate: the same seed gives the same network, another seed another", "[generate]") {
  bnsl::GenerateOptions o;
  o.vars = 60;
  o.max_parents = 3;
  const bnsl::BayesNet a = bnsl::generate_network(o), b = bnsl::generate_network(o);
  o.seed = 2;
  const bnsl::BayesNet c = bnsl::generate_network(o);
  CHECK(bnsl::bif_text(a) == bnsl::bif_text(b));
  CHECK(bnsl::bif_text(a) != bnsl::bif_text(c));
}

TEST_CASE("generate: options out of range are input errors", "[generate]") {
  bnsl::GenerateOptions o;
  o.vars = 0;
  CHECK_THROWS_AS(bnsl::generate_network(o), bnsl::InputError);
  o.vars = 5;
  o.arity_min = 1;
  CHECK_THROWS_AS(bnsl::generate_network(o), bnsl::InputError);
  o.arity_min = 4;
  o.arity_max = 3;
  CHECK_THROWS_AS(bnsl::generate_network(o), bnsl::InputError);
  o.arity_max = 4;
  o.alpha = 0;
  CHECK_THROWS_AS(bnsl::generate_network(o), bnsl::InputError);
}

// Pearson's statistic of the sampled child states against the CPT row, summed over every
// parent configuration seen at least 50 times; with df = sum of (r - 1) over them, it is
// chi-square(df) if the sampler draws from the CPTs. The bound df + 6 sqrt(2 df) lies beyond
// the 0.9999 quantile for these df (a fixed seed: the test is deterministic).
TEST_CASE("generate: sampled frequencies match the CPTs (chi-square)", "[generate]") {
  bnsl::GenerateOptions o;
  o.vars = 6;
  o.max_parents = 2;
  o.arity_min = 2;
  o.arity_max = 3;
  o.seed = 11;
  const bnsl::BayesNet net = bnsl::generate_network(o);
  const bnsl::Dataset d = bnsl::sample(net, 60000, 5);
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    const std::size_t q = net.n_configs(v);
    const int r = net.arity(v);
    std::vector<std::vector<double>> counts(q, std::vector<double>(r, 0));
    std::vector<int> states(net.parents[v].size());
    for (std::size_t i = 0; i < d.n_rows(); ++i) {
      for (std::size_t k = 0; k < states.size(); ++k) states[k] = d.code(net.parents[v][k], i);
      counts[net.config_index(v, states)][d.code(v, i)] += 1;
    }
    double chi2 = 0, df = 0;
    for (std::size_t j = 0; j < q; ++j) {
      double n_j = 0;
      for (double c : counts[j]) n_j += c;
      if (n_j < 50) continue;
      for (int s = 0; s < r; ++s) {
        const double e = n_j * net.prob(v, j, s);
        if (e > 0) chi2 += (counts[j][s] - e) * (counts[j][s] - e) / e;
      }
      df += r - 1;
    }
    INFO("variable " << net.names[v] << ": chi2 " << chi2 << " on " << df << " df");
    REQUIRE(df > 0);
    CHECK(chi2 < df + 6 * std::sqrt(2 * df));
  }
}
