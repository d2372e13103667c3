// The checker's reading of what a pool file says of itself (src/check/pool_fields.hpp): a
// pool built by hand, whose counts and probabilities are worked out below, passes; each
// statement made false fails the item that covers it; and `bnsl check`'s library call fails a
// learned pool whose header contradicts its lists, and names what it did not check.
//
// The hand-built pool: variables A, B, C; class 1 the chain A -> B -> C (its class holds the
// three DAGs A -> B -> C, A <- B <- C and A <- B -> C), score s; class 2 the v-structure
// A -> B <- C (one DAG), score s - ln 3. Class weights size x exp(score - best): 3 and 1/3,
// so 0.9 and 0.1. Edge A - B is in every DAG: p_edge 1; A -> B in one of class 1's three DAGs
// and in class 2: p = 0.9 / 3 + 0.1 = 0.4, so B -> A 0.6. Edge B - C: B -> C in two of class
// 1's DAGs, p = 0.6; C -> B 0.3 + 0.1 = 0.4.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "bnsl/check.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/results.hpp"
#include "check/pool_fields.hpp"
#include "temp_dir.hpp"

namespace {

using json = nlohmann::json;

json hand_pool() {
  const double s = -10, s2 = -10 - std::log(3.0);
  return json{
      {"format", 2},
      {"score", "bic"},
      {"ess", nullptr},
      {"n", 3},
      {"rows", 10},
      {"variables", {"A", "B", "C"}},
      {"epsilon", 3},
      {"best_score", s},
      {"optimal", false},
      {"complete", false},
      {"memory_short", false},
      {"k_best", nullptr},
      {"pool_account", nullptr},
      {"class_count", 2},
      {"dag_count", 4},
      {"dags_listed", 4},
      {"classes",
       {{{"score", s},
         {"size", 3},
         {"dag", {{"A", json::array()}, {"B", {"A"}}, {"C", {"B"}}}},
         {"members", {json::array(), {1}, {1, 2}}}},
        {{"score", s2}, {"size", 1}, {"reversed", {{"C", "B"}}}, {"members", {json::array()}}}}},
      {"edges",
       {{{"from", "B"}, {"to", "A"}, {"p", 0.6}, {"p_edge", 1.0}},
        {{"from", "B"}, {"to", "C"}, {"p", 0.6}, {"p_edge", 1.0}},
        {{"from", "A"}, {"to", "B"}, {"p", 0.4}, {"p_edge", 1.0}},
        {{"from", "C"}, {"to", "B"}, {"p", 0.4}, {"p_edge", 1.0}}}}};
}

// The problems of item `name`, joined; "" when it holds.
std::string problems(const bnsl::PoolFieldChecks& f, const std::string& name) {
  for (const auto& item : f.items)
    if (item.name == name) {
      std::string all;
      for (const auto& p : item.problems) all += p + "\n";
      return all;
    }
  FAIL("no item " << name);
  return "";
}

bool skipped(const std::vector<std::string>& list, const std::string& field) {
  for (const auto& s : list)
    if (s.rfind(field + ":", 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("check: a pool's counts, sizes and probabilities as the file states them", "[check]") {
  json pool = hand_pool();
  const auto ok = bnsl::check_pool_fields(pool);
  for (const char* item : {"counts", "sizes", "probabilities"}) {
    INFO(item);
    CHECK(problems(ok, item).empty());
  }
  CHECK(skipped(ok.skipped, "algorithm, seconds"));
  CHECK_FALSE(skipped(ok.skipped, "optimal"));  // false claims nothing

  SECTION("an emptied class list under class_count 2") {
    pool["classes"] = json::array();
    const auto f = bnsl::check_pool_fields(pool);
    CHECK_THAT(problems(f, "counts"), Catch::Contains("class_count says 2, the file has 0"));
    CHECK_THAT(problems(f, "counts"), Catch::Contains("dags_listed says 4, the file has 0"));
    CHECK_THAT(problems(f, "counts"),
               Catch::Contains("dag_count says 4, the class sizes sum to 0"));
    CHECK_THAT(problems(f, "counts"), Catch::Contains("best_score is given for an empty pool"));
    CHECK_THAT(problems(f, "probabilities"), Catch::Contains("without networks"));
  }
  SECTION("dag_count that is no count, or not the sum of the sizes") {
    pool["dag_count"] = "abc";
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "counts"),
               Catch::Contains("dag_count \"abc\" is not a count"));
    pool["dag_count"] = 5;
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "counts"),
               Catch::Contains("dag_count says 5, the class sizes sum to 4"));
    pool["dag_count"] = -4;
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "counts"), Catch::Contains("not a count"));
  }
  SECTION("an exact dag_count beside its double") {
    pool["dag_count"] = 4.0;
    pool["dag_count_exact"] = "4";
    CHECK(problems(bnsl::check_pool_fields(pool), "counts").empty());
    pool["dag_count_exact"] = "4x";
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "counts"),
               Catch::Contains("dag_count_exact \"4x\" is not a decimal count"));
  }
  SECTION("n, dags_listed and k_best against the lists") {
    pool["n"] = 4;
    pool["dags_listed"] = 3;
    pool["k_best"] = {{"k", 2}, {"of", "dags"}, {"listed", 4}, {"tied", 1}};  // tied is 2
    const std::string p = problems(bnsl::check_pool_fields(pool), "counts");
    CHECK_THAT(p, Catch::Contains("n says 4, the file has 3 variables"));
    CHECK_THAT(p, Catch::Contains("dags_listed says 3, the file has 4 DAGs listed"));
    CHECK_THAT(p, Catch::Contains("k_best says 4 listed, 1 tied"));
    pool["k_best"]["tied"] = 2;
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "counts"), !Catch::Contains("k_best"));
  }
  SECTION("flags that contradict each other") {
    pool["complete"] = true;
    pool["memory_short"] = true;
    const auto f = bnsl::check_pool_fields(pool);
    CHECK_THAT(problems(f, "counts"), Catch::Contains("complete without optimal"));
    CHECK_THAT(problems(f, "counts"), Catch::Contains("memory_short says the listing stopped"));
    CHECK(skipped(f.skipped, "complete"));
  }
  SECTION("class sizes: a count of at least the DAGs listed") {
    pool["classes"][0]["size"] = 0;
    pool["classes"][1]["size"] = "x";
    std::string p = problems(bnsl::check_pool_fields(pool), "sizes");
    CHECK_THAT(p, Catch::Contains("class 1: size 0"));
    CHECK_THAT(p, Catch::Contains("class 1 lists 3 DAGs but holds 0"));
    CHECK_THAT(p, Catch::Contains("class 2: size \"x\" is not a count"));
    pool["classes"][0]["size"] = 3;
    pool["classes"][1]["size"] = 1;
    pool["classes"][0]["log10_size"] = 0.5;  // log10 3 = 0.477
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "sizes"),
               Catch::Contains("class 1: log10_size 0.5 is not log10 of its size"));
  }
  SECTION("p 2.0, p_edge -7 and a p given as text are refused") {
    pool["edges"][0]["p"] = 2.0;
    pool["edges"][1]["p_edge"] = -7;
    pool["edges"][2]["p"] = "0.4";
    const std::string p = problems(bnsl::check_pool_fields(pool), "probabilities");
    CHECK_THAT(p, Catch::Contains("edge 1 (\"B\" -> \"A\"): p 2.0 is not a probability"));
    CHECK_THAT(p, Catch::Contains("edge 2 (\"B\" -> \"C\"): p_edge -7 is not a probability"));
    CHECK_THAT(p, Catch::Contains("edge 3 (\"A\" -> \"B\"): p \"0.4\" is not a probability"));
  }
  SECTION("an edge's two arcs sum to its p_edge") {
    pool["edges"][2]["p"] = 0.5;  // A -> B 0.5 + B -> A 0.6
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "probabilities"),
               Catch::Contains("\"A\" - \"B\": p_edge 1, the arcs' p sum to 1.1"));
    pool["edges"][2]["p"] = 0.4;
    pool["edges"].erase(3);  // C -> B unlisted: p 0, so B - C sums to 0.6
    CHECK_THAT(problems(bnsl::check_pool_fields(pool), "probabilities"),
               Catch::Contains("p_edge 1, the arcs' p sum to 0.6"));
  }
  SECTION("an arc twice, a self-loop, p above p_edge") {
    pool["edges"].push_back(pool["edges"][0]);
    pool["edges"].push_back({{"from", "A"}, {"to", "A"}, {"p", 0.2}, {"p_edge", 0.1}});
    const std::string p = problems(bnsl::check_pool_fields(pool), "probabilities");
    CHECK_THAT(p, Catch::Contains("edge 5 (\"B\" -> \"A\"): the arc is listed twice"));
    CHECK_THAT(p, Catch::Contains("edge 6 (\"A\" -> \"A\"): p above p_edge"));
    CHECK_THAT(p, Catch::Contains("an arc from a variable to itself"));
  }
  SECTION("what no check reads is named") {
    pool["optimal"] = true;
    pool["pool_account"] = {{"classes_within_epsilon", 2}};
    pool["dags_within"] = 10;
    const auto f = bnsl::check_pool_fields(pool);
    CHECK(skipped(f.skipped, "optimal"));
    CHECK(skipped(f.skipped, "pool_account"));
    CHECK(skipped(f.skipped, "dags_within"));
  }
}

TEST_CASE("check: a learned pool whose header contradicts its lists fails", "[check]") {
  bnsl_test::TempDir dir("check_fields");
  const bnsl::Dataset data = bnsl::read_csv(std::string(BNSL_DATASETS_DIR) + "/wine.csv",
                                            bnsl::CsvOptions{.header = false});
  bnsl::ExactLearnOptions o;
  o.threads = 1;
  bnsl::ExactLearnResult r = bnsl::learn_exact(data, o, bnsl::StopToken());
  const std::string prefix = dir.file("wine");
  bnsl::write_outputs(prefix, r.report, &data);
  const bnsl::PoolCheck good = bnsl::check_pool_file(data, prefix + ".pool.json");
  for (const auto& item : good.items) {
    INFO(item.name << ": " << (item.problems.empty() ? "" : item.problems.front()));
    CHECK(item.problems.empty());
  }
  CHECK(skipped(good.skipped, "optimal"));  // the DP proved it; the checker cannot
  CHECK(skipped(good.skipped, "complete"));

  std::ifstream in(prefix + ".pool.json");
  json pool = json::parse(in);
  pool["classes"] = json::array();  // class_count, dag_count and dags_listed still say 101 ...
  std::ofstream(dir.file("emptied.pool.json")) << pool.dump();
  const bnsl::PoolCheck bad = bnsl::check_pool_file(data, dir.file("emptied.pool.json"));
  CHECK_FALSE(bad.ok());
  bool counts_failed = false;
  for (const auto& item : bad.items)
    if (item.name == "counts") counts_failed = !item.problems.empty();
  CHECK(counts_failed);
}
