// The pipeline as a library call (include/bnsl/learn.hpp) against the command line: the same
// run through bnsl::learn and through `bnsl learn` writes the same files, and the reports the
// callback receives are labelled as the files say. Wine (14 variables) explores to the end
// without a budget and is solved by the subset DP, so both runs are deterministic.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "bnsl/check.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"

namespace {

const std::string kDir = BNSL_DATASETS_DIR;
namespace fs = std::filesystem;

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The pool JSON without its wall-clock field.
nlohmann::json pool_without_time(const fs::path& path) {
  nlohmann::json j = nlohmann::json::parse(slurp(path));
  j.erase("seconds");
  return j;
}

}  // namespace

TEST_CASE("learn: bnsl::learn writes what `bnsl learn` writes", "[learn]") {
  const fs::path dir = fs::temp_directory_path() / "bnsl_test_learn_api";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string csv = kDir + "/wine.csv";

  const std::string command = std::string(BNSL_BINARY) + " learn " + csv + " --no-header -o " +
                              (dir / "cli").string() + " --time 0 --threads 1 -q";
  REQUIRE(std::system(command.c_str()) == 0);

  const bnsl::Dataset data = bnsl::read_csv(csv, bnsl::CsvOptions{.header = false});
  bnsl::LearnOptions o;
  o.threads = 1;
  bnsl::StopToken stop(0);  // no budget, as --time 0
  int finals = 0;
  const std::string prefix = (dir / "lib").string();
  bnsl::LearnResult r =
      bnsl::learn(data, o, stop, [&](bnsl::PoolReport& report, bnsl::ReportStage stage) {
        CHECK(report.variables == data.names());
        CHECK(report.rows == data.n_rows());
        CHECK(report.score == "bic");
        CHECK(report.mec_count > 0);  // summarised
        if (stage == bnsl::ReportStage::final) ++finals;
        bnsl::write_outputs(prefix, report, &data);
      });
  CHECK(finals == 1);
  CHECK(r.explore.exhaustive());
  CHECK(r.report.optimal);  // the DP over an exhaustive cache
  CHECK(r.report.complete);

  CHECK(pool_without_time(dir / "lib.pool.json") == pool_without_time(dir / "cli.pool.json"));
  for (const char* ext : {".best.bif", ".best.dot", ".consensus.dot"})
    CHECK(slurp(dir / ("lib" + std::string(ext))) == slurp(dir / ("cli" + std::string(ext))));

  // The checker, as a library call, passes the library's pool.
  const bnsl::PoolCheck c = bnsl::check_pool_file(data, prefix + ".pool.json");
  for (const auto& item : c.items) {
    INFO(item.name << ": " << (item.problems.empty() ? "" : item.problems.front()));
    CHECK(item.problems.empty());
  }
  CHECK_FALSE(c.summary_skipped);
  fs::remove_all(dir);
}
