// Grouped rows (src/score/row_groups.hpp): the distinct rows and their multiplicities against
// a map built here row by row, and a Counter over grouped rows against the oracle's counts
// (oracle.hpp, row by row over the whole data) and against a Counter over every row, on every
// counting path (the fused extension, the raw and remapped indices, the grouped table).
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/score.hpp"
#include "oracle.hpp"
#include "score/counting.hpp"
#include "score/row_groups.hpp"

namespace {

using bnsl::Dataset;
using bnsl::FamilyScore;
using bnsl::ScoreKind;
using bnsl::ScoreParams;

std::vector<int> row_of(const Dataset& d, std::size_t i) {
  std::vector<int> row(d.n_vars());
  for (std::size_t v = 0; v < d.n_vars(); ++v) row[v] = d.code(v, i);
  return row;
}

// Every field of f against the oracle's counts of (child, parents) over all rows of d.
void check_against_oracle(const FamilyScore& f, const Dataset& d, int child,
                          const std::vector<int>& parents, const ScoreParams& p) {
  const oracle::Counts c = oracle::count(d, child, parents);
  CHECK(oracle::close_rel(f.score, oracle::score(c, p), 1e-9));
  CHECK(oracle::close_rel(f.ll, oracle::log_likelihood(c), 1e-9));
  CHECK(oracle::close_rel(f.penalty, oracle::bic_penalty(c), 1e-9));
  CHECK(oracle::close_rel(f.h_parents, oracle::entropy_parents(c), 1e-9));
  CHECK(f.q == c.q);
  CHECK(f.r_plus == c.n_jk.size());
  std::size_t cells = 0;
  for (const auto& row : c.n_jk)
    for (long long n : row) cells += n != 0;
  CHECK(f.cells == cells);
}

void check_same(const FamilyScore& a, const FamilyScore& b) {
  CHECK(oracle::close_rel(a.score, b.score, 1e-12));
  CHECK(oracle::close_rel(a.ll, b.ll, 1e-12));
  CHECK(oracle::close_rel(a.h_parents, b.h_parents, 1e-12));
  CHECK(a.penalty == b.penalty);
  CHECK(a.q == b.q);
  CHECK(a.r_plus == b.r_plus);
  CHECK(a.cells == b.cells);
}

// Rows of 5 columns: W (300 states, wide), V (260 states, mostly a function of W), A, B, C
// (small, dependent on W), so that 30,000 rows hold a few thousand distinct ones.
Dataset repetitive_data(std::size_t rows, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<int>> cols(5, std::vector<int>(rows));
  std::uniform_real_distribution<double> coin(0, 1);
  for (std::size_t i = 0; i < rows; ++i) {
    const int w = static_cast<int>(rng() % 300);
    cols[0][i] = w;
    cols[1][i] = coin(rng) < 0.97 ? (w * 7) % 260 : static_cast<int>(rng() % 260);
    cols[2][i] = coin(rng) < 0.8 ? w % 2 : static_cast<int>(rng() % 2);
    cols[3][i] = coin(rng) < 0.8 ? (w / 2) % 3 : static_cast<int>(rng() % 3);
    cols[4][i] = static_cast<int>(rng() % 2);
  }
  for (int k = 0; k < 300; ++k) cols[0][k] = k;  // every state of W and V occurs
  for (int k = 0; k < 260; ++k) cols[1][k] = k;
  return Dataset::from_codes(cols, {300, 260, 2, 3, 2}, {"W", "V", "A", "B", "C"});
}

}  // namespace

TEST_CASE("row groups: each distinct row once, in order of first appearance, with its count",
          "[score][rows]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 12; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 6)(rng);
    std::vector<int> arities(n);
    for (auto& r : arities) r = std::uniform_int_distribution<int>(1, 3)(rng);
    const std::size_t rows = std::uniform_int_distribution<std::size_t>(50, 3000)(rng);
    const Dataset d = oracle::random_dataset(rows, arities, rng());
    std::map<std::vector<int>, std::uint32_t> count;
    std::vector<std::vector<int>> order;
    for (std::size_t i = 0; i < rows; ++i)
      if (count[row_of(d, i)]++ == 0) order.push_back(row_of(d, i));
    INFO("trial " << trial << ", " << rows << " rows, " << order.size() << " distinct");
    const auto g = bnsl::group_rows(d, 1.0);
    REQUIRE(g);
    REQUIRE(g->rows.n_rows() == order.size());
    REQUIRE(g->weight.size() == order.size());
    REQUIRE(g->rows.n_vars() == d.n_vars());
    for (std::size_t v = 0; v < d.n_vars(); ++v) {
      CHECK(g->rows.arity(v) == d.arity(v));
      CHECK(g->rows.name(v) == d.name(v));
      for (int k = 0; k < d.arity(v); ++k) CHECK(g->rows.state_name(v, k) == d.state_name(v, k));
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
      CHECK(row_of(g->rows, i) == order[i]);
      CHECK(g->weight[i] == count[order[i]]);
    }
    // The share: grouped only when at most that share of the rows are distinct.
    const double share = static_cast<double>(order.size()) / static_cast<double>(rows);
    CHECK(bnsl::group_rows(d, share + 1e-9).has_value());
    if (order.size() > 1) CHECK_FALSE(bnsl::group_rows(d, share - 1.0 / rows).has_value());
  }
  // All rows distinct: nothing to group. One row: nothing either.
  std::vector<std::vector<int>> ids(1, std::vector<int>(100));
  for (int i = 0; i < 100; ++i) ids[0][i] = i;
  CHECK_FALSE(bnsl::group_rows(Dataset::from_codes(ids, {100})).has_value());
  CHECK(bnsl::group_rows(Dataset::from_codes(ids, {100}), 1.0)->weight ==
        std::vector<std::uint32_t>(100, 1));
  CHECK_FALSE(bnsl::group_rows(Dataset::from_codes({{0}}, {1})).has_value());
}

TEST_CASE("row groups: a Counter over grouped rows counts every row", "[score][rows]") {
  const Dataset d = repetitive_data(30000, 7);
  const auto g = bnsl::group_rows(d);
  REQUIRE(g);
  REQUIRE(g->rows.n_rows() < d.n_rows() / 4);
  // Families over every path (parents in the order given): small tables (the fused
  // extension), raw indices, remapped ones (W then V: 78,000 keys; V, C then W: 156,000, hashed),
  // and the grouped table (child W, 300 states, over V x A's 520 configurations).
  const std::vector<std::pair<int, std::vector<int>>> families = {
      {2, {}},        {2, {3}},       {3, {2, 4}},       {4, {2, 3}},    {0, {}},
      {0, {2}},       {0, {1}},       {0, {1, 2}},       {0, {1, 3, 4}}, {1, {0}},
      {1, {0, 2, 3}}, {2, {0, 1}},    {2, {1, 3, 4}},    {3, {0, 1, 2}}, {4, {0, 1, 2, 3}},
      {2, {1, 4, 0}}, {3, {4, 1, 0}}, {0, {4, 2, 3, 1}},
  };
  for (const ScoreParams& p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0},
                               ScoreParams{ScoreKind::bdeu, 7.5}}) {
    bnsl::Counter grouped(d, p, &*g), plain(d, p);
    CHECK(grouped.rows_counted() == g->rows.n_rows());
    CHECK(plain.rows_counted() == d.n_rows());
    for (const auto& [child, parents] : families) {
      INFO("score " << bnsl::to_string(p.kind) << " ess " << p.ess << ", child " << child << ", "
                    << parents.size() << " parents");
      bnsl::ConfigIndex gi, pi;
      grouped.build(parents, gi);
      plain.build(parents, pi);
      const FamilyScore f = grouped.score(gi, child);
      check_against_oracle(f, d, child, parents, p);
      check_same(f, plain.score(pi, child));
      if (!parents.empty()) {  // the explorers' pattern: base + one variable
        const std::vector<int> base(parents.begin(), parents.end() - 1);
        grouped.build(base, gi);
        check_same(grouped.score_extension(gi, parents.back(), child), f);
      }
    }
  }
}
