// Pool reports and their files: pool JSON round trip and errors, edge probabilities and
// classes on a hand-computed pool, DOT output, and BIF write / read round trips (learned
// parameters checked against counts taken here, and the bundled bnlearn networks).
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "io/report_io.hpp"

namespace fs = std::filesystem;

namespace {

bnsl::PoolReport three_dag_pool() {
  // A and B form one class (size 2, score -10: class weight 2 x 1), C's class holds 3 DAGs
  // (weight 3 x 1/4); total 11/4.
  bnsl::PoolReport r;
  r.variables = {"x", "y", "z"};
  r.rows = 100;
  r.epsilon = 2.0;
  r.dags.push_back({-10.0, {{}, {0}, {}}, -1});                   // A: 0 -> 1
  r.dags.push_back({-10.0, {{1}, {}, {}}, -1});                   // B: 1 -> 0
  r.dags.push_back({-10.0 - std::log(4.0), {{}, {0}, {1}}, -1});  // C: 0 -> 1 -> 2
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const std::string& text) {
  try {
    bnsl::parse_bif(text, "t.bif");
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "";
}

void require_same_net(const bnsl::BayesNet& a, const bnsl::BayesNet& b) {
  REQUIRE(a.names == b.names);
  REQUIRE(a.states == b.states);
  REQUIRE(a.parents == b.parents);
  REQUIRE(a.cpt_offset == b.cpt_offset);
  REQUIRE(a.cpt == b.cpt);  // exact: numbers are written in round-trip form
}

// Deterministic pseudo-random data (a small LCG): 3 variables, z depends on x and y.
bnsl::Dataset toy_data(std::size_t rows, std::vector<std::string> names) {
  std::vector<std::vector<int>> cols(3);
  std::uint64_t s = 12345;
  auto next = [&s](int m) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((s >> 33) % static_cast<std::uint64_t>(m));
  };
  for (std::size_t i = 0; i < rows; ++i) {
    int x = next(2), y = next(3);
    int z = next(4) == 0 ? next(2) : (x + y) % 2;
    cols[0].push_back(x);
    cols[1].push_back(y);
    cols[2].push_back(z);
  }
  return bnsl::Dataset::from_codes(cols, {2, 3, 2}, std::move(names));
}

}  // namespace

TEST_CASE("report: classes and edge probabilities of a hand-computed pool", "[report]") {
  bnsl::PoolReport r = three_dag_pool();
  bnsl::summarize(r);
  CHECK(r.mec_count == 2);  // A and B are Markov equivalent, C has another skeleton
  CHECK(r.dags[0].mec == 0);
  CHECK(r.dags[1].mec == 0);
  CHECK(r.dags[2].mec == 1);
  REQUIRE(r.classes.size() == 2);
  CHECK(r.classes[0].size == "2");  // x - y: either direction
  CHECK(r.classes[0].members == 2);
  CHECK(r.classes[0].first == 0);
  CHECK(r.classes[0].score == -10.0);
  CHECK(r.classes[0].arcs.empty());
  CHECK(r.classes[0].edges == std::vector<std::pair<int, int>>{{0, 1}});
  CHECK(r.classes[1].size == "3");  // x - y - z: no v-structure, 3 of 4 orientations
  CHECK(r.classes[1].log10_size == Approx(std::log10(3.0)).epsilon(1e-12));
  CHECK(r.classes[1].members == 1);
  CHECK(r.classes[1].first == 2);
  CHECK(r.classes[1].edges == std::vector<std::pair<int, int>>{{0, 1}, {1, 2}});
  CHECK(bnsl::class_dag_count(r) == "5");
  // Class weights 2 and 3/4 over 11/4; x - y is oriented either way by half of A's class and
  // by one of C's class's three DAGs (0 -> 1 -> 2) one way, two (0 <- 1 -> 2, 0 <- 1 <- 2) the
  // other; y -> z by two of three.
  REQUIRE(r.edges.size() == 4);
  CHECK(r.edges[0].from == 1);
  CHECK(r.edges[0].to == 0);
  CHECK(r.edges[0].p == Approx(6.0 / 11).epsilon(1e-12));  // (2/2 + 3/4 x 2/3) / (11/4)
  CHECK(r.edges[0].p_edge == Approx(1.0).epsilon(1e-12));
  CHECK(r.edges[1].from == 0);
  CHECK(r.edges[1].to == 1);
  CHECK(r.edges[1].p == Approx(5.0 / 11).epsilon(1e-12));  // (2/2 + 3/4 x 1/3) / (11/4)
  CHECK(r.edges[2].from == 1);
  CHECK(r.edges[2].to == 2);
  CHECK(r.edges[2].p == Approx(2.0 / 11).epsilon(1e-12));
  CHECK(r.edges[2].p_edge == Approx(3.0 / 11).epsilon(1e-12));
  CHECK(r.edges[3].from == 2);
  CHECK(r.edges[3].to == 1);
  CHECK(r.edges[3].p == Approx(1.0 / 11).epsilon(1e-12));

  const std::string dot = bnsl::consensus_dot_text(r);
  CHECK(dot.find("n1 -> n0 [label=\"0.55\"") != std::string::npos);
  CHECK(dot.find("n1 -> n2") == std::string::npos);  // p_edge = 3/11 <= 0.5
  const std::string best = bnsl::best_dot_text(r);
  CHECK(best.find("n0 -> n1;") != std::string::npos);
  CHECK(best.find("[label=\"x\"]") != std::string::npos);
}

// A summary whose time is spent (SummaryLimit) keeps the best class, always, and cuts the
// rest with their listed DAGs; the edge probabilities are those of the class kept (x - y,
// either way by half of its 2 DAGs). A limit far away cuts nothing.
TEST_CASE("report: a summary out of time keeps the best classes it described", "[report]") {
  bnsl::PoolReport r = three_dag_pool();
  bnsl::SummaryLimit spent;
  spent.end = bnsl::Clock::now();
  spent.seconds_per_class = 1;
  CHECK(bnsl::summarize(r, 1, spent) == 1);
  CHECK(r.mec_count == 1);
  REQUIRE(r.classes.size() == 1);
  CHECK(r.classes[0].size == "2");
  CHECK(r.classes[0].members == 2);
  REQUIRE(r.dags.size() == 2);
  CHECK(r.dags[1].mec == 0);
  REQUIRE(r.edges.size() == 2);
  CHECK(r.edges[0].p == Approx(0.5).epsilon(1e-12));
  CHECK(r.edges[0].p_edge == Approx(1.0).epsilon(1e-12));

  bnsl::PoolReport whole = three_dag_pool(), limited = three_dag_pool();
  bnsl::summarize(whole);
  bnsl::SummaryLimit far;
  far.end = bnsl::Clock::now() + std::chrono::hours(1);
  far.seconds_per_class = 1;
  CHECK(bnsl::summarize(limited, 2, far) == 0);
  CHECK(limited.mec_count == 2);
  CHECK(limited.dags.size() == 3);
  REQUIRE(limited.edges.size() == whole.edges.size());
  for (std::size_t i = 0; i < whole.edges.size(); ++i)
    CHECK(limited.edges[i].p == whole.edges[i].p);
}

TEST_CASE("report: pool JSON round trip", "[report]") {
  bnsl::PoolReport r = three_dag_pool();
  r.score = "bdeu";
  r.ess = 10;
  r.variables = {"x", "name with \"quotes\" and \\", "z\xc3\xa9"};
  r.dags[0].score = -1234.5678901234567;
  r.dags[1].score = -1234.5678901234568 - 1e-9;
  r.dags[2].score = -1235.000000000001;
  r.optimal = true;
  r.listed_above = -1235.000000000001;
  r.algorithm = "asobs";
  r.seconds = 1.25;
  bnsl::summarize(r);
  const bnsl::PoolReport back = bnsl::parse_pool_json(bnsl::pool_json_text(r), "p.json");
  REQUIRE(back.listed_above);
  CHECK(*back.listed_above == *r.listed_above);  // bit-exact
  CHECK(back.score == "bdeu");
  REQUIRE(back.ess);
  CHECK(*back.ess == 10);
  CHECK(back.variables == r.variables);
  CHECK(back.rows == r.rows);
  CHECK(back.epsilon == r.epsilon);
  CHECK(back.optimal);
  CHECK_FALSE(back.complete);
  CHECK(back.algorithm == "asobs");
  CHECK(back.seconds == 1.25);
  CHECK(back.mec_count == r.mec_count);
  REQUIRE(back.dags.size() == r.dags.size());
  for (std::size_t i = 0; i < r.dags.size(); ++i) {
    CHECK(back.dags[i].score == r.dags[i].score);  // bit-exact
    CHECK(back.dags[i].parents == r.dags[i].parents);
    CHECK(back.dags[i].mec == r.dags[i].mec);
  }
  REQUIRE(back.classes.size() == r.classes.size());
  for (std::size_t i = 0; i < r.classes.size(); ++i) {
    CHECK(back.classes[i].score == r.classes[i].score);
    CHECK(back.classes[i].size == r.classes[i].size);
    CHECK(back.classes[i].log10_size == r.classes[i].log10_size);
    CHECK(back.classes[i].members == r.classes[i].members);
    CHECK(back.classes[i].first == r.classes[i].first);
    CHECK(back.classes[i].arcs == r.classes[i].arcs);
    CHECK(back.classes[i].edges == r.classes[i].edges);
  }
  REQUIRE(back.edges.size() == r.edges.size());
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    CHECK(back.edges[i].from == r.edges[i].from);
    CHECK(back.edges[i].to == r.edges[i].to);
    CHECK(back.edges[i].p == r.edges[i].p);
    CHECK(back.edges[i].p_edge == r.edges[i].p_edge);
  }
}

// The search's account of its pool (PoolAccount) is written as "pool_account": null without
// one (exact mode, merges), its fields with one, the note null when empty; the file still
// reads back.
TEST_CASE("report: the pool JSON states the search's account of its pool", "[report]") {
  bnsl::PoolReport r = three_dag_pool();
  bnsl::summarize(r);
  CHECK(nlohmann::json::parse(bnsl::pool_json_text(r))["pool_account"].is_null());
  bnsl::PoolAccount a;
  a.within = 2;
  a.spread = 0.5;
  a.admitted = 63718;
  a.left_epsilon = 63716;
  a.for_room = 7;
  a.walk_seconds = 3.25;
  a.walk_finished = false;
  r.account = a;
  nlohmann::json j = nlohmann::json::parse(bnsl::pool_json_text(r))["pool_account"];
  CHECK(j["classes_within_epsilon"] == 2);
  CHECK(j["spread"] == 0.5);
  CHECK(j["classes_admitted"] == 63718);
  CHECK(j["left_epsilon"] == 63716);
  CHECK(j["for_room"] == 7);
  CHECK(j["cut"] == 0);
  CHECK(j["walk_seconds"] == 3.25);
  CHECK(j["walk_finished"] == false);
  CHECK(j["note"].is_null());
  r.account->note = "2 classes within epsilon of 63718 admitted";
  j = nlohmann::json::parse(bnsl::pool_json_text(r))["pool_account"];
  CHECK(j["note"] == r.account->note);
  CHECK(bnsl::parse_pool_json(bnsl::pool_json_text(r), "a.json").classes.size() ==
        r.classes.size());
}

TEST_CASE("report: malformed pool JSON is an InputError naming the problem", "[report]") {
  auto message = [](const std::string& text) -> std::string {
    try {
      bnsl::parse_pool_json(text, "p.json");
    } catch (const bnsl::InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message("{\"score\": \"bic\",\n  oops}").find("p.json:2:") == 0);
  const std::string good = bnsl::pool_json_text(three_dag_pool());
  CHECK(message(good).empty());
  std::string missing = good;
  missing.replace(missing.find("\"rows\""), 6, "\"rowz\"");
  CHECK(message(missing).find("'rows': missing") != std::string::npos);
  std::string unknown = good;
  unknown.replace(unknown.find("\"y\":[\"x\"]"), 9, "\"y\":[\"w\"]");
  CHECK(message(unknown).find("'dags[0].dag.y[0]': no variable is named 'w'") != std::string::npos);
  bnsl::PoolReport summarized = three_dag_pool();
  bnsl::summarize(summarized);
  std::string size = bnsl::pool_json_text(summarized);
  size.replace(size.find("\"size\":3"), 8, "\"size\":\"3x\"");
  CHECK(message(size).find("'classes[1].size': expected a number") != std::string::npos);
  CHECK(message("[1, 2]").find("object") != std::string::npos);
  CHECK_THROWS_AS(bnsl::read_pool_json("/nonexistent/x.pool.json"), bnsl::InputError);
}

TEST_CASE("report: write_outputs writes its files atomically into a new directory", "[report]") {
  const fs::path dir = fs::temp_directory_path() / "bnsl_test_report" / "nested";
  fs::remove_all(dir.parent_path());
  const bnsl::Dataset data = toy_data(200, {"x", "y", "z"});
  bnsl::PoolReport r = three_dag_pool();
  const std::string prefix = (dir / "run").string();
  bnsl::write_outputs(prefix, r, &data);
  CHECK(r.mec_count == 2);
  for (const std::string& path : bnsl::output_paths(prefix)) CHECK(fs::exists(path));
  CHECK_FALSE(fs::exists(prefix + ".probabilities.csv"));  // on request only
  for (const auto& entry : fs::directory_iterator(dir)) CHECK(entry.path().extension() != ".tmp");
  const bnsl::PoolReport back = bnsl::read_pool_json(prefix + ".pool.json");
  CHECK(back.dags.size() == 3);
  const bnsl::BayesNet net = bnsl::read_bif(prefix + ".best.bif");
  CHECK(net.parents == std::vector<std::vector<int>>{{}, {0}, {}});
  fs::remove_all(dir.parent_path());
}

TEST_CASE("report: an empty pool writes and reads back", "[report]") {
  bnsl::PoolReport r;
  r.variables = {"a", "b"};
  bnsl::summarize(r);
  CHECK(r.mec_count == 0);
  const bnsl::PoolReport back = bnsl::parse_pool_json(bnsl::pool_json_text(r), "e.json");
  CHECK(back.dags.empty());
  CHECK(back.variables == r.variables);
  CHECK(bnsl::consensus_dot_text(r).find("->") == std::string::npos);
}

TEST_CASE("bif: learned parameters match counts and survive write / read", "[bif]") {
  const bnsl::Dataset data = toy_data(500, {"plain", "with space", "a,b{c}"});
  const std::vector<std::vector<int>> parents = {{}, {}, {0, 1}};
  const bnsl::BayesNet net = bnsl::estimate_parameters_per_cell(data, parents, 0.5);
  // Counts taken here: P(z = k | x = 1, y = 2) = (n + 0.5) / (n_j + 2 * 0.5).
  double n_j = 0, n_1 = 0, n_x0 = 0;
  for (std::size_t i = 0; i < data.n_rows(); ++i) {
    if (data.code(0, i) == 0) ++n_x0;
    if (data.code(0, i) != 1 || data.code(1, i) != 2) continue;
    ++n_j;
    if (data.code(2, i) == 1) ++n_1;
  }
  CHECK(net.prob(2, net.config_index(2, {1, 2}), 1) == Approx((n_1 + 0.5) / (n_j + 1.0)));
  CHECK(net.prob(0, 0, 0) == Approx((n_x0 + 0.5) / (500 + 1.0)));
  CHECK(net.config_index(2, {1, 2}) == 1 + 2 * 2);  // first parent fastest
  const std::string text = bnsl::bif_text(net);
  // Names bnlearn's and pgmpy's readers cannot parse are written mapped, the originals kept in
  // properties that bnsl's reader restores.
  CHECK(text.find("variable with_space {") != std::string::npos);
  CHECK(text.find("property bnsl_name = with%20space;") != std::string::npos);
  CHECK(text.find("variable plain {") != std::string::npos);
  CHECK(text.find("probability ( a_b_c_ | plain, with_space ) {") != std::string::npos);
  CHECK(text.find('"') == std::string::npos);
  require_same_net(bnsl::parse_bif(text, "learned.bif"), net);
}

TEST_CASE("bif: bundled networks read, with their structure and values", "[bif]") {
  const bnsl::BayesNet asia = bnsl::read_bif(BNSL_DATASETS_DIR "/asia.bif");
  REQUIRE(asia.n_vars() == 8);
  const int either = asia.index_of("either"), tub = asia.index_of("tub");
  REQUIRE(asia.parents[either] == std::vector<int>{asia.index_of("lung"), tub});
  CHECK(asia.prob(tub, 0, 0) == 0.05);  // P(tub = yes | asia = yes)
  CHECK(asia.prob(either, asia.config_index(either, {1, 1}), 1) == 1.0);  // (no, no) -> no
  CHECK(asia.prob(either, asia.config_index(either, {1, 0}), 0) == 1.0);  // (no, yes) -> yes
  const bnsl::BayesNet child = bnsl::read_bif(BNSL_DATASETS_DIR "/child.bif");
  REQUIRE(child.n_vars() == 20);
  const int age = child.index_of("Age");
  REQUIRE(age >= 0);
  CHECK(child.states[age] == std::vector<std::string>{"0-3_days", "4-10_days", "11-30_days"});
  for (const char* file : {"/asia.bif", "/child.bif"}) {
    const bnsl::BayesNet net = bnsl::read_bif(std::string(BNSL_DATASETS_DIR) + file);
    require_same_net(bnsl::parse_bif(bnsl::bif_text(net), file), net);
  }
  // The writer reproduces bnlearn's layout byte for byte on asia (values printed alike).
  CHECK(bnsl::bif_text(asia) == slurp(BNSL_DATASETS_DIR "/asia.bif"));
}

TEST_CASE("bif: every shared network reads, writes and reads back", "[bif][shared]") {
  const fs::path dir = BNSL_DATASETS_DIR "/../../shared/datasets/networks";
  if (!fs::exists(dir)) return;  // only on machines with the shared data beside the clone
  std::size_t count = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".bif") continue;
    INFO(entry.path().string());
    const bnsl::BayesNet net = bnsl::read_bif(entry.path().string());
    require_same_net(bnsl::parse_bif(bnsl::bif_text(net), "again.bif"), net);
    ++count;
  }
  CHECK(count >= 20);
}

TEST_CASE("bif: JavaBayes / pgmpy variants", "[bif]") {
  // Quoted names, comments, properties, no '|', a conditional "table" (child slowest).
  const std::string text =
      "network \"Dog-Problem\" { //5 variables\n property \"credal-set constant-density\"; }\n"
      "variable \"light-on\" { type discrete[2] { \"true\" \"false\" }; property \"pos\"; }\n"
      "variable \"family-out\" { type discrete[2] { \"true\" \"false\" }; }\n"
      "/* a comment */ probability ( \"light-on\" \"family-out\" ) {\n"
      "  table 0.6 0.05 0.4 0.95 ; }\n"
      "probability ( \"family-out\" ) { table 0.15 0.85 ; }\n";
  const bnsl::BayesNet net = bnsl::parse_bif(text, "dog.bif");
  REQUIRE(net.n_vars() == 2);
  CHECK(net.parents[0] == std::vector<int>{1});
  CHECK(net.prob(0, 0, 0) == 0.6);   // P(light-on = true | family-out = true)
  CHECK(net.prob(0, 1, 0) == 0.05);  // P(light-on = true | family-out = false)
  CHECK(net.prob(0, 1, 1) == 0.95);
  CHECK(net.prob(1, 0, 1) == 0.85);
}

TEST_CASE("bif: malformed files give errors with line and column", "[bif]") {
  const std::string head =
      "network unknown {\n}\nvariable a {\n  type discrete [ 2 ] { y, n };\n}\n";
  CHECK(error_of(head + "probability ( a ) {\n  table 0.5, 0.5;\n}\n").empty());
  CHECK(error_of(head + "probability ( a ) {\n  table 0.5, x;\n}\n").find("t.bif:7:") == 0);
  CHECK(error_of(head + "probability ( a ) {\n  table 0.5, 0.6;\n}\n").find("sum to 1") !=
        std::string::npos);
  CHECK(error_of(head + "probability ( b ) {\n  table 0.5, 0.5;\n}\n").find("t.bif:6:15:") == 0);
  CHECK(error_of(head).find("t.bif:3:") == 0);  // a has no probability block
  CHECK(error_of("variable a {\n  type discrete [ 3 ] { y, n };\n}\n").find("t.bif:2:") == 0);
  CHECK(error_of(head + "probability ( a ) {\n  table 0.5, 0.5;\n").find("t.bif:8:") == 0);
  CHECK_THROWS_AS(bnsl::read_bif("/nonexistent.bif"), bnsl::InputError);
}

TEST_CASE("bif, pool JSON: every truncation is an InputError, never a crash", "[bif][report]") {
  const std::string bif = slurp(BNSL_DATASETS_DIR "/asia.bif");
  std::size_t errors = 0;
  for (std::size_t len = 0; len + 2 < bif.size(); ++len) {  // +2: "}\n" ends the last block
    try {
      bnsl::parse_bif(bif.substr(0, len), "cut.bif");
    } catch (const bnsl::InputError&) {
      ++errors;
    }
  }
  CHECK(errors == bif.size() - 2);
  bnsl::PoolReport r = three_dag_pool();
  bnsl::summarize(r);
  const std::string json = bnsl::pool_json_text(r);
  for (std::size_t len = 0; len + 2 < json.size(); ++len)
    CHECK_THROWS_AS(bnsl::parse_pool_json(json.substr(0, len), "cut.json"), bnsl::InputError);
}
