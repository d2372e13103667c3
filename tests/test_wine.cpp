// The bundled UCI Wine data (178 rows, 14 columns) against GOBNILP's BIC score file
// wine.BIC.3 and GOBNILP's optimal network: LocalScorer and the oracle must reproduce both.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/score.hpp"
#include "oracle.hpp"

namespace {

const std::string kDir = BNSL_DATASETS_DIR;

bnsl::Dataset read_wine() {
  return bnsl::read_csv(kDir + "/wine.csv", bnsl::CsvOptions{.header = false});
}

// GOBNILP's BIC optimum for wine.BIC.3 (datasets/README.md): -1258.445909.
const std::vector<std::vector<int>> kWineOptimum = {
    {7, 12}, {0}, {0}, {0}, {0, 3}, {0}, {7}, {12}, {4, 12}, {2, 7}, {0}, {0}, {}, {0}};

}  // namespace

TEST_CASE("wine: data set shape", "[wine]") {
  const bnsl::Dataset d = read_wine();
  REQUIRE(d.n_vars() == 14);
  REQUIRE(d.n_rows() == 178);
  CHECK(d.arity(0) == 3);
  for (std::size_t v = 1; v < 14; ++v) CHECK(d.arity(static_cast<int>(v)) == 2);
}

TEST_CASE("wine: GOBNILP's optimal network scores -1258.445909 (BIC)", "[wine]") {
  const bnsl::Dataset d = read_wine();
  bnsl::LocalScorer scorer(d, {bnsl::ScoreKind::bic, 1.0});
  CHECK(scorer.network_score(kWineOptimum) == Approx(-1258.445909).margin(1e-6));
  double sum = 0;
  for (int v = 0; v < 14; ++v)
    sum += oracle::bic(oracle::count(d, v, kWineOptimum[static_cast<std::size_t>(v)]));
  CHECK(sum == Approx(-1258.445909).margin(1e-6));
}

TEST_CASE("wine: every local score of wine.BIC.3 equals LocalScorer and the oracle", "[wine]") {
  const bnsl::Dataset d = read_wine();
  const bnsl::ScoreCache cache = bnsl::read_jkl(kDir + "/wine.BIC.3", d.names());
  REQUIRE(cache.n_vars() == 14);
  REQUIRE(cache.total_entries() == 592);
  bnsl::LocalScorer scorer(d, {bnsl::ScoreKind::bic, 1.0});
  std::size_t checked = 0;
  for (std::size_t v = 0; v < 14; ++v) {
    const bnsl::VarCache& vc = cache.var(v);
    for (std::size_t i = 0; i < vc.size(); ++i) {
      const auto span = vc.parents(i);
      const std::vector<int> pa(span.begin(), span.end());
      INFO("variable " << v << " entry " << i << " parents "
                       << oracle::mask_str(oracle::to_mask(pa)) << " file score " << vc.score(i));
      CHECK(scorer.score(static_cast<int>(v), pa).score == Approx(vc.score(i)).margin(1e-6));
      CHECK(oracle::bic(oracle::count(d, static_cast<int>(v), pa)) ==
            Approx(vc.score(i)).margin(1e-6));
      ++checked;
    }
  }
  CHECK(checked == 592);
  // The optimal network uses families of this file.
  for (int v = 0; v < 14; ++v) {
    const auto& pa = kWineOptimum[static_cast<std::size_t>(v)];
    INFO("variable " << v);
    CHECK(cache.var(v).find(pa) >= 0);
  }
}
