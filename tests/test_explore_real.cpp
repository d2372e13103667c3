// Exactness of explored caches on a real data set: a random sample of the entries that
// independence selection, greedy selection and sequential exploration put in the cache of
// the bundled ALARM sample is re-scored by the test's own counting (tests/oracle.hpp).
#include <catch2/catch.hpp>
#include <random>

#include "bnsl/dataset.hpp"
#include "bnsl/explore.hpp"
#include "oracle.hpp"

namespace {

const bnsl::Dataset& alarm() {
  static const bnsl::Dataset d =
      bnsl::read_csv(std::string(BNSL_DATASETS_DIR) + "/alarm-5000.csv", bnsl::CsvOptions{});
  return d;
}

}  // namespace

TEST_CASE("explore: sampled cache entries on alarm-5000 equal an independent re-count",
          "[explore][real]") {
  const bnsl::ExploreMethod method =
      GENERATE(bnsl::ExploreMethod::is, bnsl::ExploreMethod::greedy, bnsl::ExploreMethod::hybrid,
               bnsl::ExploreMethod::seq);
  const bnsl::ScoreKind kind = GENERATE(bnsl::ScoreKind::bic, bnsl::ScoreKind::bdeu);
  const bnsl::Dataset& d = alarm();
  bnsl::ExploreOptions opt;
  opt.method = method;
  opt.score.kind = kind;
  opt.score.ess = 1;
  opt.time_per_var = 0.02;
  opt.threads = 2;
  bnsl::ExploreStats stats;
  const bnsl::ScoreCache cache = bnsl::explore(d, opt, bnsl::StopToken(), &stats);
  REQUIRE(cache.n_vars() == d.n_vars());
  std::mt19937_64 rng(7);
  int checked = 0, largest = 0;
  for (std::size_t v = 0; v < d.n_vars(); ++v) {
    const bnsl::VarCache& vc = cache.var(v);
    REQUIRE(vc.find(std::vector<int>{}) >= 0);
    for (int t = 0; t < 8 && vc.size() > 0; ++t) {
      const std::size_t i = std::uniform_int_distribution<std::size_t>(0, vc.size() - 1)(rng);
      const auto span = vc.parents(i);
      const std::vector<int> pa(span.begin(), span.end());
      const double expected = oracle::score(d, static_cast<int>(v), pa, opt.score);
      INFO(bnsl::to_string(method) << " var " << v << " entry " << i << " size " << pa.size());
      CHECK(oracle::close_rel(vc.score(i), expected, 1e-9));
      largest = std::max(largest, static_cast<int>(pa.size()));
      ++checked;
    }
  }
  CHECK(checked > 100);
  CHECK(largest >= 2);  // the sample reaches beyond single parents
}
