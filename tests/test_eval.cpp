// Evaluation (bnsl/eval.hpp): SHD of DAGs and of essential graphs on hand-computed cases
// (a reversed arc inside a class, a v-structure lost or reversed, an extra edge, a Meek-rule
// orientation), arc and edge counts with precision and recall, the true network against
// itself, structure files (names, errors with line and column), and the test
// log-likelihood against the asia CPTs written out here and multiplied by hand; evaluate(), the
// whole of `bnsl eval`, on asia against itself; the Brier score of edge probabilities on a
// 4-variable example worked out by hand, directly and through a pool JSON file.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "bnsl/eval.hpp"
#include "bnsl/sample.hpp"
#include "temp_dir.hpp"

namespace {

const std::string kDatasets = BNSL_DATASETS_DIR;

struct ShdCase {
  const char* what;
  bnsl::ParentSets truth, learned;
  std::size_t shd, shd_cpdag;
};

std::string error_of(const std::string& text, const std::vector<std::string>& names) {
  try {
    bnsl::parse_structure(text, "s.txt", names);
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("eval: SHD of DAGs and CPDAGs on hand-computed cases", "[eval]") {
  const std::vector<ShdCase> cases = {
      // 0 -> 1 -> 2 and 0 <- 1 -> 2: same class (both undirected 0 - 1 - 2).
      {"reversed arc inside an undirected component", {{}, {0}, {1}}, {{1}, {}, {1}}, 1, 0},
      // 0 -> 2 <- 1 against 0 -> 2 -> 1: the collider's marks are compelled, the chain's
      // undirected; both pairs differ in the CPDAGs.
      {"collider learned as a chain", {{}, {}, {0, 1}}, {{}, {2}, {0}}, 1, 2},
      // 0 -> 2 <- 1 against 0 -> 2 alone: pair (1,2) missing; 0 -> 2 loses its compelled
      // mark (0 - 2 undirected), so 2 in the CPDAGs.
      {"missing arc of a v-structure", {{}, {}, {0, 1}}, {{}, {}, {0}}, 1, 2},
      // 0 -> 1 -> 2 plus 0 -> 2: the triangle is undirected; one extra edge.
      {"extra edge", {{}, {0}, {1}}, {{}, {0}, {0, 1}}, 1, 1},
      // 0 -> 2 <- 1, 2 -> 3 (compelled by Meek R1) against 3 -> 2 (a third collider arc):
      // only pair (2,3) differs, in both.
      {"Meek-rule orientation reversed", {{}, {}, {0, 1}, {2}}, {{}, {}, {0, 1, 3}, {}}, 1, 1},
      // Reversing 0 -> 1 in 0 -> 1 -> 2 <- 3 (v-structure 1 -> 2 <- 3, 0 - 1 undirected).
      {"reversed reversible arc next to a collider",
       {{}, {0}, {1, 3}, {}},
       {{1}, {}, {1, 3}, {}},
       1,
       0},
      // Empty learned graph against 0 -> 2 <- 1: two missing edges.
      {"empty learned graph", {{}, {}, {0, 1}}, {{}, {}, {}}, 2, 2},
      {"identical", {{}, {0}, {0, 1}}, {{}, {0}, {0, 1}}, 0, 0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(bnsl::dag_shd(c.truth, c.learned) == c.shd);
    CHECK(bnsl::cpdag_shd(c.truth, c.learned) == c.shd_cpdag);
    CHECK(bnsl::dag_shd(c.learned, c.truth) == c.shd);  // symmetric
    const auto s = bnsl::compare_structures(c.truth, c.learned);
    CHECK(s.shd == c.shd);
    CHECK(s.shd_cpdag == c.shd_cpdag);
  }
}

TEST_CASE("eval: arc and edge counts, precision and recall", "[eval]") {
  // Truth 0 -> 1 -> 2 -> 3; learned 0 -> 1, 2 -> 1, 0 -> 3.
  const bnsl::ParentSets truth = {{}, {0}, {1}, {2}}, learned = {{}, {0, 2}, {}, {0}};
  const auto c = bnsl::compare_structures(truth, learned);
  CHECK(c.true_arcs == 3);
  CHECK(c.learned_arcs == 3);
  CHECK(c.arcs_found == 1);     // 0 -> 1
  CHECK(c.arcs_reversed == 1);  // 2 -> 1 against 1 -> 2
  CHECK(c.arcs_missed == 1);    // 2 -> 3
  CHECK(c.arcs_extra == 1);     // 0 -> 3
  CHECK(c.arc_precision() == Approx(1.0 / 3));
  CHECK(c.arc_recall() == Approx(1.0 / 3));
  CHECK(c.edges_found == 2);
  CHECK(c.edges_missed == 1);
  CHECK(c.edges_extra == 1);
  CHECK(c.edge_precision() == Approx(2.0 / 3));
  CHECK(c.edge_recall() == Approx(2.0 / 3));
  CHECK(c.shd == 3);
  const auto empty = bnsl::compare_structures({{}, {}}, {{}, {}});
  CHECK(std::isnan(empty.arc_precision()));
  CHECK(empty.shd == 0);
}

TEST_CASE("eval: the true network against itself", "[eval]") {
  for (const char* name : {"asia.bif", "child.bif"}) {
    INFO(name);
    const bnsl::BayesNet net = bnsl::read_bif(kDatasets + "/" + name);
    const auto l = bnsl::read_learned(kDatasets + "/" + name, net.names);
    CHECK(l.kind == "bif");
    const auto c = bnsl::compare_structures(net.parents, l.parents);
    CHECK(c.shd == 0);
    CHECK(c.shd_cpdag == 0);
    CHECK(c.arcs_found == c.true_arcs);
    CHECK(c.arc_precision() == 1.0);
    CHECK(c.edge_recall() == 1.0);
  }
}

TEST_CASE("eval: structure files by name", "[eval]") {
  const bnsl::BayesNet asia = bnsl::read_bif(kDatasets + "/asia.bif");
  // Asia's arcs as published (Lauritzen & Spiegelhalter 1988), children in another order.
  const std::string text =
      "# asia\n"
      "dysp: either, bronc\n"
      "either: tub lung\n\n"
      "xray: either\n"
      "tub: asia\n"
      "lung: smoke   # smoking\n"
      "bronc: smoke\n";
  const auto l = bnsl::parse_structure(text, "asia.txt", asia.names);
  CHECK(bnsl::compare_structures(asia.parents, l.parents).shd == 0);
  const std::vector<std::string> names = {"a", "b", "c"};
  CHECK(error_of("a: b\nc: d\n", names) == "s.txt:2:4: 'd' is not a variable of the true network");
  CHECK(error_of("a b\n", names).rfind("s.txt:1:1: expected", 0) == 0);
  CHECK(error_of("a: b\nb: a\n", names) == "s.txt: the learned graph has a directed cycle");
  CHECK(error_of("a: b\na: c\n", names).rfind("s.txt:2:1: 'a' listed twice", 0) == 0);
}

namespace {

// ln P(row) for asia, the CPTs of asia.bif written out (state 0 = yes, 1 = no).
double asia_log_prob(const std::map<std::string, int>& x) {
  auto yes = [&](const char* v) { return x.at(v) == 0; };
  auto pick = [](bool is_yes, double p_yes) { return is_yes ? p_yes : 1 - p_yes; };
  double p = pick(yes("asia"), 0.01);
  p *= pick(yes("tub"), yes("asia") ? 0.05 : 0.01);
  p *= pick(yes("smoke"), 0.5);
  p *= pick(yes("lung"), yes("smoke") ? 0.1 : 0.01);
  p *= pick(yes("bronc"), yes("smoke") ? 0.6 : 0.3);
  p *= pick(yes("either"), yes("lung") || yes("tub") ? 1.0 : 0.0);
  p *= pick(yes("xray"), yes("either") ? 0.98 : 0.05);
  const double dysp[2][2] = {{0.9, 0.8}, {0.7, 0.1}};  // [bronc no?][either no?]
  p *= pick(yes("dysp"), dysp[yes("bronc") ? 0 : 1][yes("either") ? 0 : 1]);
  return std::log(p);
}

}  // namespace

TEST_CASE("eval: test log-likelihood equals the sum of hand CPT lookups", "[eval]") {
  const bnsl::BayesNet asia = bnsl::read_bif(kDatasets + "/asia.bif");
  const bnsl::Dataset rows = bnsl::sample(asia, 400, 11);
  // The same rows with the columns in reverse order: matching is by name.
  bnsl::Dataset test;
  for (std::size_t c = rows.n_vars(); c-- > 0;) {
    std::vector<std::uint32_t> codes(rows.n_rows());
    for (std::size_t i = 0; i < rows.n_rows(); ++i) codes[i] = rows.code(c, i);
    test.add_column(rows.name(c), asia.states[c], codes);
  }
  double expected = 0;
  for (std::size_t i = 0; i < rows.n_rows(); ++i) {
    std::map<std::string, int> x;
    for (std::size_t v = 0; v < rows.n_vars(); ++v) x[rows.name(v)] = rows.code(v, i);
    expected += asia_log_prob(x);
  }
  const bnsl::TestLikelihood t = bnsl::log_likelihood(asia, test, "test.csv");
  CHECK(t.rows == 400);
  CHECK(t.zero_rows == 0);
  CHECK(t.total == Approx(expected).epsilon(1e-12));
  CHECK(t.mean() == Approx(expected / 400).epsilon(1e-12));
}

TEST_CASE("eval: unknown states, zero-probability rows, parameters from training rows", "[eval]") {
  const bnsl::BayesNet asia = bnsl::read_bif(kDatasets + "/asia.bif");
  std::vector<std::vector<std::string>> states(8, {"yes", "no"});
  auto make = [&](const std::vector<std::vector<std::uint32_t>>& cols,
                  const std::vector<std::vector<std::string>>& st) {
    bnsl::Dataset d;
    for (std::size_t v = 0; v < 8; ++v) d.add_column(asia.names[v], st[v], cols[v]);
    return d;
  };
  std::vector<std::vector<std::uint32_t>> cols(8, std::vector<std::uint32_t>(3, 1));  // all "no"
  auto odd = states;
  odd[1] = {"no", "maybe"};  // tub
  cols[1] = {0, 0, 1};
  try {
    bnsl::log_likelihood(asia, make(cols, odd), "t.csv");
    FAIL("no error");
  } catch (const bnsl::InputError& e) {
    CHECK(std::string(e.what()) == "t.csv: row 3: 'maybe' is not a state of tub in the network");
  }
  cols[1] = {1, 1, 1};
  cols[5] = {1, 0, 1};  // either = yes with tub = lung = no: probability 0
  const auto t = bnsl::log_likelihood(asia, make(cols, states), "t.csv");
  CHECK(t.zero_rows == 1);
  CHECK(std::isinf(t.total));

  // Training rows where asia is always "no" (code 0 of a one-state column): with the true
  // network's states, P(asia = yes) = 0.5 / (3 + 2 * 0.5).
  std::vector<std::vector<std::uint32_t>> train_cols(8, std::vector<std::uint32_t>(3, 1));
  auto train_states = states;
  train_states[0] = {"no"};
  train_cols[0] = {0, 0, 0};
  const auto train = make(train_cols, train_states);
  const auto p = bnsl::estimate_on_domain(asia, asia.parents, train, "train.csv", 0.5);
  CHECK(p.states[0] == asia.states[0]);
  CHECK(p.prob(0, 0, 0) == Approx(0.5 / 4));
  CHECK(p.prob(0, 0, 1) == Approx(3.5 / 4));
}

TEST_CASE("eval: evaluate() runs what bnsl eval runs, and refuses what it cannot do", "[eval]") {
  const std::string asia_bif = kDatasets + "/asia.bif";
  const bnsl::BayesNet asia = bnsl::read_bif(asia_bif);
  const std::string csv = std::filesystem::temp_directory_path() / "bnsl_test_eval_asia.csv";
  bnsl::write_csv(csv, bnsl::sample(asia, 500, 3));

  bnsl::EvalRequest request;
  request.truth_path = asia_bif;
  request.learned_path = asia_bif;  // the truth against itself
  request.test_path = csv;
  request.data_path = csv;
  const bnsl::EvalReport r = bnsl::evaluate(request);
  REQUIRE(r.structure);
  CHECK(r.structure->shd == 0);
  CHECK(r.variables == 8);
  CHECK(r.learned_arcs == 8);
  CHECK(r.learned_kind == "bif");
  REQUIRE(r.data);
  REQUIRE(r.data->truth);
  CHECK(*r.data->truth == r.data->learned);
  REQUIRE(r.test);
  CHECK(r.test->parameters == "learned-bif");
  REQUIRE(r.test->truth);
  REQUIRE(r.test->learned);
  CHECK(r.test->truth->total == r.test->learned->total);
  CHECK(r.test->rows == 500);
  const std::string json = r.to_json();
  CHECK(json.find("\"shd_cpdag\": 0") != std::string::npos);
  CHECK(json.find("\"parameters\": \"learned-bif\"") != std::string::npos);

  bnsl::EvalRequest alone;  // no truth: the learned network's score on --data only
  alone.learned_path = asia_bif;
  alone.data_path = csv;
  const bnsl::EvalReport a = bnsl::evaluate(alone);
  CHECK_FALSE(a.structure);
  CHECK_FALSE(a.test);
  REQUIRE(a.data);
  CHECK(a.data->learned == r.data->learned);
  CHECK(a.to_json().find("\"truth\": null") != std::string::npos);

  alone.data_path.clear();  // nothing left to do
  CHECK_THROWS_AS(bnsl::evaluate(alone), bnsl::InputError);
  request.test_path.clear();
  request.train_path = csv;  // --train without --test
  CHECK_THROWS_AS(bnsl::evaluate(request), bnsl::InputError);
  std::filesystem::remove(csv);
}

namespace {

// The 4-variable example of the edge Brier tests, variables a b c d = 0 1 2 3.
//   truth  a -> b, b -> c, d -> c          true pairs {a,b} {b,c} {c,d}
//   best   a -> b, c -> b, a -> c          pairs {a,b} {b,c} {a,c}
//   pool   a -> b 0.9 and b -> a 0.9       one pair listed twice, true:  (0.9 - 1)^2 = 0.01
//          c -> b 0.6                      listed, true:                 (0.6 - 1)^2 = 0.16
//          a -> c 0.3                      listed, not true:             (0.3 - 0)^2 = 0.09
//          d -> b 0.2                      listed, not true:             (0.2 - 0)^2 = 0.04
//          {c,d} not listed                true, p = 0:                  (0 - 1)^2   = 1
//          {a,d} neither listed nor true:                                              0
//   pool_sum = 0.01 + 0.16 + 0.09 + 0.04 + 1 = 1.30 over 4 * 3 / 2 = 6 pairs: 1.30 / 6
//   best alone: {a,c} extra, {c,d} missed, {a,b} {b,c} right: best_sum = 2, 2 / 6
const bnsl::ParentSets kBrierTruth = {{}, {0}, {1, 3}, {}};
const bnsl::ParentSets kBrierBest = {{}, {0, 2}, {0}, {}};
const std::vector<bnsl::PairProbability> kBrierPool = {
    {0, 1, 0.9}, {2, 1, 0.6}, {1, 0, 0.9}, {0, 2, 0.3}, {3, 1, 0.2}};
constexpr double kBrierPoolSum = 1.30, kBrierBestSum = 2;

// The example's truth as a BIF (parameters arbitrary), variables in the order a b c d.
const char* kBrierBif = R"(network t {
}
variable a {
  type discrete [ 2 ] { y, n };
}
variable b {
  type discrete [ 2 ] { y, n };
}
variable c {
  type discrete [ 2 ] { y, n };
}
variable d {
  type discrete [ 2 ] { y, n };
}
probability ( a ) {
  table 0.5, 0.5;
}
probability ( b | a ) {
  (y) 0.9, 0.1;
  (n) 0.2, 0.8;
}
probability ( c | b, d ) {
  (y, y) 0.9, 0.1;
  (n, y) 0.6, 0.4;
  (y, n) 0.3, 0.7;
  (n, n) 0.1, 0.9;
}
probability ( d ) {
  table 0.3, 0.7;
}
)";

// The example's pool as written by bnsl learn, with its variables in the order d c b a (pool
// index i is variable 3 - i of the truth): best DAG d: -, c: a, b: a c, a: -; edges as in the
// example, with `back` the p_edge of the entry b -> a (0.9 when well formed) and `p_edge`
// false for a file written without p_edge fields.
std::string brier_pool_json(double back = 0.9, bool p_edge = true) {
  auto edge = [&](int from, int to, double p, double pe) {
    return "{\"from\": " + std::to_string(from) + ", \"to\": " + std::to_string(to) +
           ", \"p\": " + std::to_string(p) +
           (p_edge ? ", \"p_edge\": " + std::to_string(pe) : std::string()) + "}";
  };
  return "{\"score\": \"bic\", \"ess\": null, \"n\": 4, \"rows\": 100,\n"
         " \"variables\": [\"d\", \"c\", \"b\", \"a\"],\n"
         " \"epsilon\": 3, \"best_score\": -10.5, \"optimal\": false, \"complete\": false,\n"
         " \"dags\": [{\"score\": -10.5, \"parents\": [[], [3], [1, 3], []]}],\n"
         " \"edges\": [" +
         edge(3, 2, 0.5, 0.9) + ",\n  " + edge(1, 2, 0.6, 0.6) + ",\n  " + edge(2, 3, 0.4, back) +
         ",\n  " + edge(3, 1, 0.3, 0.3) + ",\n  " + edge(0, 2, 0.2, 0.2) + "]}\n";
}

}  // namespace

TEST_CASE("eval: edge Brier score on a hand-computed example", "[eval][brier]") {
  const bnsl::EdgeBrier b = bnsl::edge_brier(kBrierTruth, kBrierPool, kBrierBest, "p.json");
  CHECK(b.pairs == 6);
  CHECK(b.pool_sum == Approx(kBrierPoolSum).epsilon(1e-12));
  CHECK(b.brier_pool == Approx(kBrierPoolSum / 6).epsilon(1e-12));
  CHECK(b.best_sum == kBrierBestSum);
  CHECK(b.brier_best == Approx(kBrierBestSum / 6).epsilon(1e-12));
  // The best network alone is the count of skeleton pairs it gets wrong.
  const auto c = bnsl::compare_structures(kBrierTruth, kBrierBest);
  CHECK(b.best_sum == static_cast<double>(c.edges_missed + c.edges_extra));

  // The order of the list does not matter, nor which of a pair's entries comes first.
  std::vector<bnsl::PairProbability> reversed(kBrierPool.rbegin(), kBrierPool.rend());
  CHECK(bnsl::edge_brier(kBrierTruth, reversed, kBrierBest, "p.json").pool_sum == b.pool_sum);

  // Certainty on the true skeleton scores 0; nothing listed scores the true pairs, 3.
  CHECK(bnsl::edge_brier(kBrierTruth, {{0, 1, 1.0}, {1, 2, 1.0}, {3, 2, 1.0}}, kBrierTruth, "p")
            .pool_sum == 0);
  CHECK(bnsl::edge_brier(kBrierTruth, {}, kBrierBest, "p").pool_sum == 3);
  CHECK(std::isnan(bnsl::edge_brier({{}}, {}, {{}}, "p").brier_pool));  // no pairs
}

TEST_CASE("eval: edge Brier refuses malformed edge probabilities", "[eval][brier]") {
  const std::vector<std::string> names = {"a", "b", "c", "d"};
  auto error = [&](const std::vector<bnsl::PairProbability>& pool) -> std::string {
    try {
      bnsl::edge_brier(kBrierTruth, pool, kBrierBest, "p.json", names);
    } catch (const bnsl::InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(error({{0, 1, 0.9}, {1, 0, 0.8}}) ==
        "p.json: two entries of the edge 'a' - 'b' give different p_edge: 0.9 and 0.8");
  CHECK(error({{0, 1, 0.9}, {1, 0, 0.9 + 1e-12}}).empty());  // rounding, not a disagreement
  CHECK(error({{2, 2, 0.5}}).rfind("p.json: edge probability of 'c' - 'c': not a pair", 0) == 0);
  CHECK(error({{0, 4, 0.5}}).rfind("p.json: edge probability of 'a' - 4: not a pair", 0) == 0);
  CHECK(error({{0, 1, 1.5}}) == "p.json: edge probability 1.5 of 'a' - 'b' is not in [0, 1]");
  CHECK_THROWS_AS(bnsl::edge_brier(kBrierTruth, {}, {{}, {}}, "p"), bnsl::RuntimeError);
}

TEST_CASE("eval: edge Brier of a pool JSON through read_learned and evaluate()", "[eval][brier]") {
  bnsl_test::TempDir dir("eval_brier");
  bnsl::EvalRequest request;
  request.truth_path = dir.write("t.bif", kBrierBif);
  request.learned_path = dir.write("p.pool.json", brier_pool_json());
  const bnsl::BayesNet truth = bnsl::read_bif(request.truth_path);
  REQUIRE(truth.parents == kBrierTruth);

  // The reader maps the pool's indices to the truth's and keeps both entries of a - b.
  const bnsl::LearnedNetwork l = bnsl::read_learned(request.learned_path, truth.names);
  CHECK(l.parents == kBrierBest);
  REQUIRE(l.edge_probabilities);
  REQUIRE(l.edge_probabilities->size() == 5);
  CHECK((*l.edge_probabilities)[0].u == 0);  // pool's a -> b: 3 -> 2
  CHECK((*l.edge_probabilities)[0].v == 1);
  CHECK((*l.edge_probabilities)[0].p == 0.9);

  const bnsl::EvalReport r = bnsl::evaluate(request);
  REQUIRE(r.edge_brier);
  CHECK(r.edge_brier->pairs == 6);
  CHECK(r.edge_brier->pool_sum == Approx(kBrierPoolSum).epsilon(1e-12));
  CHECK(r.edge_brier->best_sum == kBrierBestSum);
  const nlohmann::json j = nlohmann::json::parse(r.to_json());
  CHECK(j["edge_brier"]["pairs"] == 6);
  CHECK(j["edge_brier"]["pool"].get<double>() == Approx(kBrierPoolSum / 6).epsilon(1e-12));
  CHECK(j["edge_brier"]["best"].get<double>() == Approx(kBrierBestSum / 6).epsilon(1e-12));
  CHECK(j["edge_brier"]["pool_sum"].get<double>() == Approx(kBrierPoolSum).epsilon(1e-12));
  CHECK(j["edge_brier"]["best_sum"].get<double>() == kBrierBestSum);

  // A pool written without p_edge fields has no edge probabilities, and no Brier score.
  request.learned_path = dir.write("old.pool.json", brier_pool_json(0.9, false));
  CHECK_FALSE(bnsl::read_learned(request.learned_path, truth.names).edge_probabilities);
  const bnsl::EvalReport old = bnsl::evaluate(request);
  CHECK(old.structure);
  CHECK_FALSE(old.edge_brier);
  CHECK(old.to_json().find("edge_brier") == std::string::npos);
  // p_edge on some entries only: the reader refuses the file, naming the entry.
  std::string partial = brier_pool_json();
  partial.erase(partial.find(", \"p_edge\": 0.600000"),
                std::string(", \"p_edge\": 0.600000").size());
  request.learned_path = dir.write("partial.pool.json", partial);
  CHECK_THROWS_WITH(bnsl::read_learned(request.learned_path, truth.names),
                    Catch::Contains("partial.pool.json") && Catch::Contains("edges[1]") &&
                        Catch::Contains("p_edge"));

  // Both entries of a - b, disagreeing: a malformed pool, named in the error.
  request.learned_path = dir.write("bad.pool.json", brier_pool_json(0.8));
  CHECK_THROWS_WITH(bnsl::evaluate(request), Catch::Contains("bad.pool.json") &&
                                                 Catch::Contains("'a' - 'b'") &&
                                                 Catch::Contains("different p_edge"));
  CHECK_THROWS_AS(bnsl::evaluate(request), bnsl::InputError);
  // An entry whose p_edge is below its p (b -> a: p 0.4, p_edge 0.1).
  request.learned_path = dir.write("low.pool.json", brier_pool_json(0.1));
  CHECK_THROWS_WITH(bnsl::read_learned(request.learned_path, truth.names),
                    Catch::Contains("low.pool.json") && Catch::Contains("edges[2].p_edge"));
}
