// Merging (bnsl/merge.hpp) against independent oracles: caches explored in slices and merged
// equal the cache of one exhaustive run (the same file, byte for byte); pools that split exact
// mode's complete list of wine's DAGs within epsilon merge back into that list; and every
// mismatch (other data, epsilon, overlapping or missing variables, no provenance) is an
// InputError naming the file.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/check.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/merge.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "bnsl/search.hpp"
#include "score/compare.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kDir = BNSL_DATASETS_DIR;

using bnsl_test::TempDir;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bnsl::Dataset wine() {
  return bnsl::read_csv(kDir + "/wine.csv", bnsl::CsvOptions{.header = false});
}

// Exploration of variables [begin, end) to the end: no budget, no in-degree limit.
bnsl::ExploreOptions exhaustive(double eps, std::size_t begin = 0,
                                std::size_t end = static_cast<std::size_t>(-1)) {
  bnsl::ExploreOptions o;
  o.method = bnsl::ExploreMethod::is;
  o.epsilon = bnsl::Epsilon::epsilon(eps);
  o.threads = 1;
  o.var_begin = begin;
  o.var_end = end;
  return o;
}

// Explores variables [begin, end) of `data` to the end and writes them with their provenance
// header, as `bnsl score --time 0 --vars A:B` does.
void score_slice(const bnsl::Dataset& data, std::size_t begin, std::size_t end, double eps,
                 const std::string& path) {
  const bnsl::ExploreOptions o = exhaustive(eps, begin, end);
  bnsl::ExploreStats stats;
  const bnsl::ScoreCache cache = bnsl::explore(data, o, bnsl::StopToken(), &stats);
  const bnsl::CacheProvenance p = bnsl::cache_provenance(data, o, stats);
  bnsl::JklWriteOptions w;
  w.var_begin = begin;
  w.var_end = end;
  w.provenance = &p;
  bnsl::write_jkl(path, cache, w);
}

std::string merge_error(const std::vector<std::string>& paths) {
  try {
    bnsl::merge_caches(paths);
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("merge: caches explored in slices equal one exhaustive run's cache", "[merge]") {
  const bnsl::Dataset d = wine();
  TempDir dir;
  const double eps = std::log(20.0);
  score_slice(d, 0, 14, eps, dir.file("whole.jkl"));
  score_slice(d, 0, 5, eps, dir.file("a.jkl"));
  score_slice(d, 5, 9, eps, dir.file("b.jkl"));
  score_slice(d, 9, 14, eps, dir.file("c.jkl"));

  const auto whole = bnsl::read_jkl_provenance(dir.file("whole.jkl"));
  REQUIRE(whole);
  CHECK(whole->data == bnsl::data_fingerprint(d));
  CHECK(whole->data.size() == 16);
  CHECK(whole->rows == 178);
  CHECK(whole->score == "bic");
  CHECK(whole->epsilon == eps);  // written to round trip
  CHECK(whole->var_begin == 0);
  CHECK(whole->var_end == 14);
  CHECK(whole->exhaustive);

  // Any order of the parts; the merged file is the whole run's, byte for byte, once both have
  // been through the text (a score is read back from its 12 digits, which can reorder ties).
  const bnsl::CacheMerge m =
      bnsl::merge_caches({dir.file("c.jkl"), dir.file("a.jkl"), dir.file("b.jkl")});
  CHECK(m.provenance.var_begin == 0);
  CHECK(m.provenance.var_end == 14);
  CHECK(m.provenance.exhaustive);
  bnsl::JklWriteOptions w;
  w.provenance = &m.provenance;
  bnsl::write_jkl(dir.file("merged.jkl"), m.cache, w);
  const bnsl::CacheMerge one = bnsl::merge_caches({dir.file("whole.jkl")});
  w.provenance = &one.provenance;
  bnsl::write_jkl(dir.file("whole_back.jkl"), one.cache, w);
  CHECK(slurp(dir.file("merged.jkl")) == slurp(dir.file("whole_back.jkl")));

  // The merged cache reads back as any jkl (the header lines are comments).
  CHECK(bnsl::read_jkl(dir.file("merged.jkl")).total_entries() == m.cache.total_entries());
}

TEST_CASE("merge: parts that do not belong together are refused, naming the file", "[merge]") {
  const bnsl::Dataset d = wine();
  TempDir dir;
  const double eps = std::log(20.0);
  score_slice(d, 0, 7, eps, dir.file("a.jkl"));
  score_slice(d, 7, 14, eps, dir.file("b.jkl"));
  score_slice(d, 5, 14, eps, dir.file("overlap.jkl"));
  score_slice(d, 8, 14, eps, dir.file("gap.jkl"));
  score_slice(d, 7, 14, std::log(3.0), dir.file("eps3.jkl"));
  CHECK(merge_error({dir.file("a.jkl"), dir.file("b.jkl")}).empty());

  CHECK_THAT(merge_error({dir.file("a.jkl"), dir.file("overlap.jkl")}),
             Catch::Contains("overlap.jkl") && Catch::Contains("overlap"));
  CHECK_THAT(merge_error({dir.file("a.jkl"), dir.file("gap.jkl")}),
             Catch::Contains("gap.jkl") && Catch::Contains("no part covers variables 7:8"));
  CHECK_THAT(merge_error({dir.file("a.jkl")}), Catch::Contains("no part covers variables 7:14"));
  CHECK_THAT(merge_error({dir.file("a.jkl"), dir.file("eps3.jkl")}),
             Catch::Contains("eps3.jkl") && Catch::Contains("epsilon"));

  // Other data: the same shape, one value changed.
  std::vector<std::vector<int>> cols(d.n_vars());
  std::vector<int> arities;
  for (std::size_t v = 0; v < d.n_vars(); ++v) {
    for (std::size_t i = 0; i < d.n_rows(); ++i) cols[v].push_back(d.code(v, i));
    arities.push_back(d.arity(v));
  }
  cols[3][0] = 1 - cols[3][0];
  const bnsl::Dataset other = bnsl::Dataset::from_codes(cols, arities, d.names());
  CHECK(bnsl::data_fingerprint(other) != bnsl::data_fingerprint(d));
  score_slice(other, 7, 14, eps, dir.file("other.jkl"));
  CHECK_THAT(merge_error({dir.file("a.jkl"), dir.file("other.jkl")}),
             Catch::Contains("other.jkl") && Catch::Contains("data fingerprint"));

  // A cache without provenance (GOBNILP's, or any other tool's).
  CHECK_THAT(merge_error({kDir + "/wine.BIC.3"}), Catch::Contains("no provenance header"));

  // A malformed header line names its line and column.
  std::ofstream(dir.file("bad.jkl")) << "# bnsl data 00\n# bnsl rows many\n14\n";
  CHECK_THAT(merge_error({dir.file("bad.jkl")}),
             Catch::Contains("bad.jkl:2:13") && Catch::Contains("'rows'"));
}

TEST_CASE("merge: pools splitting exact mode's complete list merge back into it", "[merge]") {
  const bnsl::Dataset d = wine();
  const double eps = std::log(20.0);
  const bnsl::ScoreCache cache = bnsl::explore(d, exhaustive(eps), bnsl::StopToken());
  bnsl::ExactOptions xo;
  xo.start = bnsl::ilp_start();  // as the pipeline does
  xo.method = bnsl::ExactMethod::dp;
  xo.epsilon = bnsl::Epsilon::epsilon(eps);
  xo.threads = 1;
  bnsl::PoolReport all = bnsl::solve_exact(cache, xo, bnsl::StopToken());
  REQUIRE(all.complete);
  REQUIRE(all.optimal);
  REQUIRE(all.dags.size() > 100);
  all.variables = d.names();
  all.rows = d.n_rows();

  // Two pools: the even and the odd positions of the list, both with its first 10 DAGs.
  bnsl::PoolReport even = all, odd = all;
  even.dags.clear();
  odd.dags.clear();
  for (std::size_t i = 0; i < all.dags.size(); ++i) {
    if (i % 2 == 0 || i < 10) even.dags.push_back(all.dags[i]);
    if (i % 2 == 1 || i < 10) odd.dags.push_back(all.dags[i]);
  }
  odd.optimal = false;  // only one input holds the proof
  TempDir dir;
  bnsl::write_outputs(dir.file("even"), even, &d);
  bnsl::write_outputs(dir.file("odd"), odd, &d);

  const std::vector<std::string> paths = {dir.file("even.pool.json"), dir.file("odd.pool.json")};
  const bnsl::PoolReport m = bnsl::merge_pools(d, paths, {});
  REQUIRE(m.dags.size() == all.dags.size());
  std::set<bnsl::ParentSets> want, got;
  for (const auto& g : all.dags) want.insert(g.parents);
  for (const auto& g : m.dags) got.insert(g.parents);
  CHECK(got == want);
  for (std::size_t i = 0; i < m.dags.size(); ++i) {
    CHECK(m.dags[i].score == Approx(all.dags[i].score).epsilon(1e-12));  // re-scored
    if (i > 0) CHECK(m.dags[i].score <= m.dags[i - 1].score);
  }
  CHECK(m.optimal);
  CHECK_FALSE(m.complete);
  CHECK(m.epsilon == all.epsilon);
  bnsl::PoolReport grouped = all;
  bnsl::summarize(grouped);
  CHECK(m.mec_count == grouped.mec_count);
  bnsl::PoolReport written = m;
  bnsl::write_outputs(dir.file("merged"), written, &d);
  CHECK(bnsl::check_pool_file(d, dir.file("merged.pool.json"), {}).failures() == 0);

  // A narrower epsilon keeps only what lies within it of the merged best.
  bnsl::PoolMergeOptions narrow;
  narrow.epsilon = bnsl::Epsilon::epsilon(1.0);
  const bnsl::PoolReport n = bnsl::merge_pools(d, paths, narrow);
  std::size_t within = 0;
  for (const auto& g : all.dags) within += !bnsl::clearly_greater(m.dags[0].score - 1.0, g.score);
  CHECK(n.dags.size() == within);

  // Pools of different epsilon need one given; a pool of other variables is refused.
  odd.epsilon = 1.0;
  bnsl::write_outputs(dir.file("odd1"), odd, &d);
  CHECK_THROWS_WITH(bnsl::merge_pools(d, {paths[0], dir.file("odd1.pool.json")}, {}),
                    Catch::Contains("odd1.pool.json") && Catch::Contains("epsilon"));
  CHECK(bnsl::merge_pools(d, {paths[0], dir.file("odd1.pool.json")}, narrow).dags.size() == within);
  bnsl::PoolReport renamed = even;
  renamed.variables[0] = "renamed";
  bnsl::write_outputs(dir.file("renamed"), renamed, nullptr);
  CHECK_THROWS_WITH(bnsl::merge_pools(d, {dir.file("renamed.pool.json")}, {}),
                    Catch::Contains("renamed.pool.json"));
}
