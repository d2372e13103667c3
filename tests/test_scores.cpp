// LocalScorer against hand-computed counts and against the independent oracle in oracle.hpp:
// BIC and BDeu scores, the FamilyScore fields (ll, penalty, h_parents, q, r_plus, cells), constant
// columns, unseen parent configurations, wide (> 256 states) columns, network_score.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/score.hpp"
#include "oracle.hpp"
#include "score/scores.hpp"

namespace {

using bnsl::Dataset;
using bnsl::FamilyScore;
using bnsl::LocalScorer;
using bnsl::ScoreKind;
using bnsl::ScoreParams;

std::string family_str(int child, const std::vector<int>& parents) {
  std::ostringstream s;
  s << child << " <- {";
  for (std::size_t i = 0; i < parents.size(); ++i) s << (i ? "," : "") << parents[i];
  s << "}";
  return s.str();
}

// Every FamilyScore field against the oracle's counts.
void check_family(const LocalScorer& scorer, int child, const std::vector<int>& parents,
                  double tol = 1e-9) {
  const Dataset& d = scorer.data();
  const oracle::Counts c = oracle::count(d, child, parents);
  const FamilyScore f = scorer.score(child, parents);
  INFO("family " << family_str(child, parents) << ", score "
                 << bnsl::to_string(scorer.params().kind) << " ess " << scorer.params().ess);
  CHECK(oracle::close_rel(f.score, oracle::score(c, scorer.params()), tol));
  CHECK(oracle::close_rel(f.ll, oracle::log_likelihood(c), tol));
  CHECK(oracle::close_rel(f.penalty, oracle::bic_penalty(c), tol));
  CHECK(oracle::close_rel(f.bic(), oracle::bic(c), tol));
  CHECK(oracle::close_rel(f.h_parents, oracle::entropy_parents(c), tol));
  CHECK(oracle::close_rel(f.q, c.q, 1e-12));
  CHECK(f.r_plus == c.n_jk.size());
  std::size_t cells = 0;
  for (const auto& row : c.n_jk)
    for (long long n : row) cells += n != 0;
  CHECK(f.cells == cells);
  CHECK(oracle::close_rel(scorer.penalty(child, c.q), oracle::bic_penalty(c), tol));
}

// Hand table 1: 8 rows, binary child X (column 2), binary parents A (0), B (1).
//   A B X          configuration (A,B): n_j   n_j0 n_j1
//   0 0 0          (0,0)                 3     2    1
//   0 0 0          (0,1)                 2     0    2
//   0 0 1          (1,0)                 1     1    0
//   0 1 1          (1,1)                 2     1    1
//   0 1 1
//   1 0 0
//   1 1 1
//   1 1 0
// LL  = 2 ln(2/3) + 1 ln(1/3) + 2 ln(2/2) + 1 ln(1/1) + 1 ln(1/2) + 1 ln(1/2) = -3 ln 3
//     = -3.295836866004329
// pen = (ln 8 / 2)(2 - 1)(2 * 2) = 2 ln 8 = 6 ln 2 = 4.1588830833596715
// BIC = -3 ln 3 - 6 ln 2 = -7.454719949364001
// H(A,B) = -(3/8 ln 3/8 + 2 * 2/8 ln 2/8 + 1/8 ln 1/8) = (20 ln 2 - 3 ln 3) / 8
// = 1.3208883431493221 BDeu, alpha = 1: a/q = 1/4, a/(q r) = 1/8; lnG(x + n) - lnG(x) = ln[x (x+1)
// ... (x+n-1)]:
//   (0,0): -ln[(1/4)(5/4)(9/4)] + ln[(1/8)(9/8)] + ln(1/8)
//   (0,1): -ln[(1/4)(5/4)]      + ln[(1/8)(9/8)]
//   (1,0): -ln(1/4)             + ln(1/8)
//   (1,1): -ln[(1/4)(5/4)]      + ln(1/8) + ln(1/8)
//   total = -8.176266604445644
Dataset hand_table_1() {
  std::vector<std::vector<int>> cols = {
      {0, 0, 0, 0, 0, 1, 1, 1},  // A
      {0, 0, 0, 1, 1, 0, 1, 1},  // B
      {0, 0, 1, 1, 1, 0, 1, 0},  // X
  };
  return Dataset::from_codes(cols, {2, 2, 2}, {"A", "B", "X"});
}

// Hand table 2: 6 rows, ternary child X (2), ternary A (0), binary B (1): q = 6, but only
// 3 configurations are seen (unseen ones count in q).
//   A B X          (A,B): n_j  n_j0 n_j1 n_j2
//   0 0 0          (0,0)   2    1    1    0
//   0 0 1          (1,1)   2    0    0    2
//   1 1 2          (2,0)   2    2    0    0
//   1 1 2
//   2 0 0
//   2 0 0
// LL  = ln(1/2) + ln(1/2) = -2 ln 2 = -1.3862943611198906
// pen = (ln 6 / 2)(3 - 1)(3 * 2) = 6 ln 6 = 10.75055681536833
// BIC = -2 ln 2 - 6 ln 6 = -12.136851176488221
// H(A,B) = ln 3 (three configurations, 2 rows each)
// BDeu, alpha = 10: a/q = 10/6 = 5/3, a/(q r) = 5/9:
//   (0,0): -ln[(5/3)(8/3)] + ln(5/9) + ln(5/9)
//   (1,1): -ln[(5/3)(8/3)] + ln[(5/9)(14/9)]
//   (2,0): -ln[(5/3)(8/3)] + ln[(5/9)(14/9)]
//   total = -3 ln(40/9) + 2 ln(5/9) + 2 ln(70/81) = -5.942445785383549
//   (with q replaced by the 3 seen configurations it would differ: q must be 6)
Dataset hand_table_2() {
  std::vector<std::vector<int>> cols = {
      {0, 0, 1, 1, 2, 2},  // A
      {0, 0, 1, 1, 0, 0},  // B
      {0, 1, 2, 2, 0, 0},  // X
  };
  return Dataset::from_codes(cols, {3, 2, 3}, {"A", "B", "X"});
}

}  // namespace

TEST_CASE("scores: hand table 1 (8 rows, two binary parents)", "[score]") {
  const Dataset d = hand_table_1();
  REQUIRE(d.n_rows() == 8);
  REQUIRE(d.arity(0) == 2);
  REQUIRE(d.arity(2) == 2);
  const std::vector<int> pa = {0, 1};
  const double ln2 = std::log(2.0), ln3 = std::log(3.0);

  LocalScorer bic(d, {ScoreKind::bic, 1.0});
  const FamilyScore f = bic.score(2, pa);
  CHECK(f.ll == Approx(-3 * ln3).epsilon(1e-12));
  CHECK(f.penalty == Approx(6 * ln2).epsilon(1e-12));
  CHECK(f.score == Approx(-3 * ln3 - 6 * ln2).epsilon(1e-12));
  CHECK(f.score == Approx(-7.454719949364001).epsilon(1e-12));
  CHECK(f.bic() == Approx(f.score).epsilon(1e-12));
  CHECK(f.h_parents == Approx((20 * ln2 - 3 * ln3) / 8).epsilon(1e-12));
  CHECK(f.q == 4);
  CHECK(f.r_plus == 4);
  // Parent order does not matter.
  const std::vector<int> pa_rev = {1, 0};
  CHECK(bic.score(2, pa_rev).score == Approx(f.score).epsilon(1e-12));
  CHECK(bic.penalty(2, 4) == Approx(6 * ln2).epsilon(1e-12));

  LocalScorer bdeu(d, {ScoreKind::bdeu, 1.0});
  const double expected =
      (-std::log(0.25 * 1.25 * 2.25) + std::log(0.125 * 1.125) + std::log(0.125)) +
      (-std::log(0.25 * 1.25) + std::log(0.125 * 1.125)) + (-std::log(0.25) + std::log(0.125)) +
      (-std::log(0.25 * 1.25) + 2 * std::log(0.125));
  REQUIRE(expected == Approx(-8.176266604445644).epsilon(1e-12));
  const FamilyScore g = bdeu.score(2, pa);
  CHECK(g.score == Approx(expected).epsilon(1e-12));
  // ll / penalty are reported for BDeu too.
  CHECK(g.ll == Approx(-3 * ln3).epsilon(1e-12));
  CHECK(g.penalty == Approx(6 * ln2).epsilon(1e-12));

  // And the oracle reproduces the hand values (a test of the oracle itself).
  const oracle::Counts c = oracle::count(d, 2, pa);
  CHECK(oracle::bic(c) == Approx(-3 * ln3 - 6 * ln2).epsilon(1e-12));
  CHECK(oracle::bdeu(c, 1.0) == Approx(expected).epsilon(1e-12));
  CHECK(oracle::entropy_parents(c) == Approx((20 * ln2 - 3 * ln3) / 8).epsilon(1e-12));

  // Every family of this table, both scores, ESS 1 and 10.
  for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0},
                        ScoreParams{ScoreKind::bdeu, 10.0}}) {
    LocalScorer s(d, p);
    for (int v = 0; v < 3; ++v)
      for (oracle::Mask m = 0; m < 8; ++m)
        if (!(m & (1u << v))) check_family(s, v, oracle::from_mask(m));
  }
}

TEST_CASE("scores: hand table 2 (unseen parent configurations count in q)", "[score]") {
  const Dataset d = hand_table_2();
  const std::vector<int> pa = {0, 1};
  const double ln2 = std::log(2.0), ln6 = std::log(6.0);

  LocalScorer bic(d, {ScoreKind::bic, 1.0});
  const FamilyScore f = bic.score(2, pa);
  CHECK(f.ll == Approx(-2 * ln2).epsilon(1e-12));
  CHECK(f.penalty == Approx(6 * ln6).epsilon(1e-12));
  CHECK(f.score == Approx(-12.136851176488221).epsilon(1e-12));
  CHECK(f.h_parents == Approx(std::log(3.0)).epsilon(1e-12));
  CHECK(f.q == 6);
  CHECK(f.r_plus == 3);

  LocalScorer bdeu(d, {ScoreKind::bdeu, 10.0});
  const double expected = -3 * std::log(40.0 / 9) + 2 * std::log(5.0 / 9) + 2 * std::log(70.0 / 81);
  REQUIRE(expected == Approx(-5.942445785383549).epsilon(1e-12));
  CHECK(bdeu.score(2, pa).score == Approx(expected).epsilon(1e-12));
  CHECK(oracle::bdeu(oracle::count(d, 2, pa), 10.0) == Approx(expected).epsilon(1e-12));

  for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0},
                        ScoreParams{ScoreKind::bdeu, 10.0}}) {
    LocalScorer s(d, p);
    for (int v = 0; v < 3; ++v)
      for (oracle::Mask m = 0; m < 8; ++m)
        if (!(m & (1u << v))) check_family(s, v, oracle::from_mask(m));
  }
}

TEST_CASE("scores: empty parent set by hand", "[score]") {
  // X of hand table 1 has 4 zeros and 4 ones: LL = 8 ln(1/2), pen = (ln 8 / 2) * 1 * 1.
  const Dataset d = hand_table_1();
  LocalScorer bic(d, {ScoreKind::bic, 1.0});
  const FamilyScore f = bic.score(2, {});
  CHECK(f.ll == Approx(-8 * std::log(2.0)).epsilon(1e-12));
  CHECK(f.penalty == Approx(std::log(8.0) / 2).epsilon(1e-12));
  CHECK(f.h_parents == Approx(0).margin(1e-15));
  CHECK(f.q == 1);
  CHECK(f.r_plus == 1);
  // BDeu alpha = 1, q = 1, r = 2: lnG(1) - lnG(9) + 2 [lnG(1/2 + 4) - lnG(1/2)]
  //   = -ln 8! + 2 ln[(1/2)(3/2)(5/2)(7/2)]
  LocalScorer bdeu(d, {ScoreKind::bdeu, 1.0});
  CHECK(bdeu.score(2, {}).score ==
        Approx(-std::log(40320.0) + 2 * std::log(0.5 * 1.5 * 2.5 * 3.5)).epsilon(1e-12));
}

TEST_CASE("scores: constant column as child and as parent", "[score]") {
  // C (column 1) has a single value: arity 1.
  std::vector<std::vector<int>> cols = {
      {0, 1, 2, 0, 1, 2, 0, 0, 1, 2},  // A, ternary
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},  // C, constant
      {0, 1, 1, 0, 1, 1, 0, 0, 0, 1},  // X, binary
  };
  const Dataset d = Dataset::from_codes(cols, {3, 1, 2});
  REQUIRE(d.arity(1) == 1);
  for (ScoreParams p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0},
                        ScoreParams{ScoreKind::bdeu, 10.0}}) {
    INFO("score " << bnsl::to_string(p.kind) << " ess " << p.ess);
    LocalScorer s(d, p);
    // As child: every parent set scores 0 (one state: LL = 0, (r - 1) = 0, BDeu terms cancel).
    for (const std::vector<int>& pa : std::vector<std::vector<int>>{{}, {0}, {2}, {0, 2}}) {
      const FamilyScore f = s.score(1, pa);
      CHECK(f.score == Approx(0).margin(1e-12));
      CHECK(f.ll == Approx(0).margin(1e-12));
      CHECK(f.penalty == Approx(0).margin(1e-12));
      check_family(s, 1, pa);
    }
    // As parent: q unchanged, every count unchanged, so the score is that without it.
    const std::vector<int> c = {1}, a = {0}, ac = {0, 1};
    CHECK(s.score(2, c).score == Approx(s.score(2, {}).score).epsilon(1e-12));
    CHECK(s.score(2, c).q == 1);
    CHECK(s.score(2, c).r_plus == 1);
    CHECK(s.score(2, ac).score == Approx(s.score(2, a).score).epsilon(1e-12));
    CHECK(s.score(2, ac).q == 3);
    CHECK(s.score(2, ac).h_parents == Approx(s.score(2, a).h_parents).epsilon(1e-12));
    check_family(s, 2, c);
    check_family(s, 2, ac);
    check_family(s, 0, {1, 2});
  }
}

TEST_CASE("scores: random families on random data equal the oracle", "[score][random]") {
  std::mt19937_64 rng(20240601);
  const std::vector<std::size_t> row_counts = {1, 2, 7, 30, 100, 500, 2000};
  int checked = 0;
  for (int trial = 0; trial < 24; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 8)(rng);
    std::vector<int> arities(n);
    for (auto& r : arities) r = std::uniform_int_distribution<int>(1, 5)(rng);
    const std::size_t rows = row_counts[trial % row_counts.size()];
    const Dataset d = oracle::random_dataset(rows, arities, rng(), 0.3, 3);
    const double ess = trial % 3 == 0 ? 1.0 : (trial % 3 == 1 ? 10.0 : 0.5 + trial * 0.25);
    const ScoreParams params[] = {{ScoreKind::bic, 1.0}, {ScoreKind::bdeu, ess}};
    for (const ScoreParams& p : params) {
      LocalScorer s(d, p);
      for (int f = 0; f < 25; ++f) {
        const int child = std::uniform_int_distribution<int>(0, n - 1)(rng);
        std::vector<int> others;
        for (int u = 0; u < n; ++u)
          if (u != child) others.push_back(u);
        std::shuffle(others.begin(), others.end(), rng);
        const int k = std::uniform_int_distribution<int>(
            0, std::min<int>(4, static_cast<int>(others.size())))(rng);
        others.resize(k);  // unsorted on purpose
        INFO("trial " << trial << ", rows " << rows << ", n " << n);
        check_family(s, child, others);
        ++checked;
      }
    }
  }
  CHECK(checked == 24 * 2 * 25);
}

TEST_CASE("scores: network_score is the sum of the oracle's local scores", "[score][random]") {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 10; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 9)(rng);
    std::vector<int> arities(n);
    for (auto& r : arities) r = std::uniform_int_distribution<int>(2, 5)(rng);
    const Dataset d = oracle::random_dataset(300 + 50 * trial, arities, rng());
    // A random DAG: random order, each node takes a few random predecessors.
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::vector<int>> parents(n);
    for (int i = 0; i < n; ++i) {
      std::vector<int> pred(order.begin(), order.begin() + i);
      std::shuffle(pred.begin(), pred.end(), rng);
      pred.resize(std::min<std::size_t>(pred.size(),
                                        std::uniform_int_distribution<std::size_t>(0, 3)(rng)));
      parents[order[i]] = pred;
    }
    for (const ScoreParams& p :
         {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0},
          ScoreParams{ScoreKind::bdeu, 10.0}}) {
      LocalScorer s(d, p);
      double expected = 0;
      for (int v = 0; v < n; ++v) expected += oracle::score(d, v, parents[v], p);
      INFO("trial " << trial << " score " << bnsl::to_string(p.kind) << " ess " << p.ess);
      CHECK(oracle::close_rel(s.network_score(parents), expected, 1e-9));
    }
  }
}

TEST_CASE("scores: wide columns (more than 256 states)", "[score][wide]") {
  std::mt19937_64 rng(5);
  const std::size_t rows = 1500;
  const int wide_r = 300;
  std::vector<std::vector<int>> cols(4, std::vector<int>(rows));
  for (std::size_t i = 0; i < rows; ++i) {
    cols[0][i] = static_cast<int>(i % wide_r);                   // W, 300 states
    cols[1][i] = std::uniform_int_distribution<int>(0, 2)(rng);  // A
    cols[2][i] = (cols[0][i] / 100 + cols[1][i]) % 3;            // X, depends on W
    cols[3][i] = static_cast<int>((i * 7 + cols[1][i]) % 260);   // V, 260 states
  }
  std::shuffle(cols[0].begin(), cols[0].end(), rng);  // still all 300 states present
  const Dataset d = Dataset::from_codes(cols, {wide_r, 3, 3, 260});
  REQUIRE(d.arity(0) == wide_r);
  REQUIRE(d.wide(0));
  REQUIRE(d.wide(3));
  REQUIRE_FALSE(d.wide(1));
  for (std::size_t i = 0; i < rows; i += 37) {
    CHECK(d.code(0, i) == cols[0][i]);
    CHECK(d.code(3, i) == cols[3][i]);
  }
  for (const ScoreParams& p : {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0},
                               ScoreParams{ScoreKind::bdeu, 10.0}}) {
    LocalScorer s(d, p);
    check_family(s, 0, {});
    check_family(s, 0, {1});
    check_family(s, 0, {2, 1});
    check_family(s, 2, {0});
    check_family(s, 2, {0, 1});
    check_family(s, 1, {0, 3});     // q = 78,000 > N: sparse configurations
    check_family(s, 3, {0, 1, 2});  // wide child and wide parent
  }
}

TEST_CASE("scores: parent arity product beyond 64 bits", "[score][wide]") {
  // Eight 300-state parents: q = 300^8 ~ 6.6e19 > 2^64; only r_plus <= N configurations exist.
  std::mt19937_64 rng(11);
  const std::size_t rows = 600;
  std::vector<std::vector<int>> cols(9, std::vector<int>(rows));
  std::vector<int> arities(9, 300);
  for (int v = 0; v < 8; ++v) {
    for (std::size_t i = 0; i < rows; ++i) cols[v][i] = static_cast<int>(i % 300);
    std::shuffle(cols[v].begin(), cols[v].end(), rng);
  }
  for (std::size_t i = 0; i < rows; ++i) cols[8][i] = (cols[0][i] + (i % 5 == 0)) % 2;
  arities[8] = 2;
  const Dataset d = Dataset::from_codes(cols, arities);
  const std::vector<int> pa = {0, 1, 2, 3, 4, 5, 6, 7};
  for (const ScoreParams& p :
       {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 1.0}}) {
    LocalScorer s(d, p);
    const FamilyScore f = s.score(8, pa);
    CHECK(f.q == Approx(std::pow(300.0, 8)).epsilon(1e-12));
    check_family(s, 8, pa);
    check_family(s, 8, {0, 1, 2});
  }
}

TEST_CASE("scores: concurrent calls on one LocalScorer agree with the oracle", "[score][threads]") {
  const Dataset d = oracle::random_dataset(3000, {3, 4, 2, 5, 3, 2, 4, 3}, 4242, 0.2, 3);
  for (const ScoreParams& p :
       {ScoreParams{ScoreKind::bic, 1.0}, ScoreParams{ScoreKind::bdeu, 10.0}}) {
    // Families: every child with every parent set of size <= 2.
    std::vector<std::pair<int, std::vector<int>>> fams;
    for (int v = 0; v < 8; ++v)
      for (oracle::Mask m = 0; m < 256; ++m)
        if (!(m & (1u << v)) && std::popcount(m) <= 2) fams.emplace_back(v, oracle::from_mask(m));
    std::vector<double> expected(fams.size());
    for (std::size_t i = 0; i < fams.size(); ++i)
      expected[i] = oracle::score(d, fams[i].first, fams[i].second, p);
    LocalScorer s(d, p);
    const int kThreads = 4;
    std::vector<int> wrong(kThreads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < kThreads; ++t)
      pool.emplace_back([&, t] {
        for (int rep = 0; rep < 3; ++rep)
          for (std::size_t i = t; i < fams.size(); i += (rep == 1 ? 1 : kThreads))
            if (!oracle::close_rel(s.score(fams[i].first, fams[i].second).score, expected[i]))
              ++wrong[t];
      });
    for (auto& th : pool) th.join();
    INFO("score " << bnsl::to_string(p.kind));
    for (int t = 0; t < kThreads; ++t) CHECK(wrong[t] == 0);
  }
}

// BdeuMemo (the Counter's tables of BDeu's log-gamma differences) must give BdeuTraits'
// config_term bit for bit: same operations, same order. Counts below and above its table's
// reach, several q, r and ESS, and tables switched back and forth.
TEST_CASE("scores: the BDeu memo equals config_term bit for bit", "[score]") {
  bnsl::BdeuMemo memo;
  std::mt19937_64 rng(7);
  std::size_t compared = 0;
  for (int round = 0; round < 3; ++round)
    for (double ess : {0.1, 1.0, 10.0})
      for (int r : {2, 3, 5})
        for (double q : {1.0, 2.0, 6.0, 4096.0, 1e15}) {
          std::vector<std::uint32_t> counts(static_cast<std::size_t>(r));
          for (int trial = 0; trial < 20; ++trial) {
            std::uint32_t n_j = 0;
            for (auto& c : counts) {
              const int kind = static_cast<int>(rng() % 4);
              c = kind == 0   ? 0
                  : kind == 1 ? static_cast<std::uint32_t>(1 + rng() % 3)
                  : kind == 2 ? static_cast<std::uint32_t>(rng() % 1000)
                              : static_cast<std::uint32_t>(1000 + rng() % 5000);
              n_j += c;
            }
            if (n_j == 0) continue;
            const double want = bnsl::BdeuTraits::config_term(counts.data(), r, n_j, q, ess);
            const double got = memo.term(counts.data(), r, n_j, q, ess);
            INFO("ess " << ess << " r " << r << " q " << q << " n_j " << n_j);
            REQUIRE(got == want);
            ++compared;
          }
        }
  CHECK(compared > 1000);
}
