// The pool file (format 2) and the tables: a file written by hand from docs/design.md reads as
// described; random pools survive a write / read round trip whole; format 1 still reads; bad
// files are InputErrors naming the field; the CSV tables, read back by an RFC 4180 parser
// written here, hold the pool's probabilities exactly and the matrices agree with them; the
// consensus DOT of a large pool shows only its uncertain edges.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "io/report_io.hpp"
#include "pool/class_members.hpp"
#include "temp_dir.hpp"

namespace {

using bnsl_test::TempDir;
using Pairs = std::vector<std::pair<int, int>>;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string error_of(const std::string& text) {
  try {
    bnsl::parse_pool_json(text, "p.json");
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "";
}

// A chain a -> b -> c -> d and three classes around it, written as docs/design.md describes
// format 2 (the class DAGs, sizes and essential graphs worked out by hand; the file gives no
// essential graph, the reader computes each from its class's DAG).
const char* kHandWritten = R"({"format": 2, "score": "bic", "ess": null, "n": 4, "rows": 10,
 "variables": ["a", "b", "c", "d"], "epsilon": 5, "best_score": -10,
 "optimal": false, "complete": true, "listed_above": null, "dags_within": null,
 "dags_within_exact": false, "k_best": null, "prefer_arcs": null,
 "constraints": {"required": [["a", "b"]], "forbidden": [["d", "a"]], "tiers": null},
 "algorithm": "asobs", "seconds": 1.5, "class_count": 3, "dag_count": 10, "dags_listed": 4,
 "orientations": {"sampled_components": 0, "samples": 0, "sizes_estimated": 0},
 "classes": [
  {"score": -10, "size": 4, "dag": {"a": [], "b": ["a"], "c": ["b"], "d": ["c"]},
   "members": [[], [1], [1, 2]]},
  {"score": -11, "size": 4, "removed": [["b", "c"]]},
  {"score": -12.5, "size": 2, "reversed": [["c", "b"]],
   "members": [[3], {"score": -12.75, "reversed": []}]}
 ],
 "edges": [{"from": "a", "to": "b", "p": 1, "p_edge": 1}, {"from": "c", "to": "d", "p": 0.5, "p_edge": 1}]
})";

bnsl::ParentSets chain() {
  return {{}, {0}, {1}, {2}};
}

// Random DAGs of n variables (each variable's parents among those before it in a random
// order), distinct.
std::vector<bnsl::ParentSets> random_dags(int n, int count, std::mt19937& rng) {
  std::set<bnsl::ParentSets> seen;
  std::vector<bnsl::ParentSets> out;
  std::bernoulli_distribution arc(0.35);
  while (static_cast<int>(out.size()) < count) {
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) order[static_cast<std::size_t>(v)] = v;
    std::shuffle(order.begin(), order.end(), rng);
    bnsl::ParentSets g(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j)
        if (arc(rng))
          g[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])].push_back(
              order[static_cast<std::size_t>(j)]);
    for (auto& p : g) std::sort(p.begin(), p.end());
    if (seen.insert(g).second) out.push_back(std::move(g));
  }
  return out;
}

// RFC 4180 records: fields separated by commas, a field in double quotes may hold commas,
// line breaks and doubled double quotes; records end at LF (or CRLF) outside quotes.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, was_quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      REQUIRE(field.empty());  // a quote opens a field only at its start
      quoted = was_quoted = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      was_quoted = false;
    } else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
      if (c == '\r') ++i;
      row.push_back(field);
      rows.push_back(row);
      row.clear();
      field.clear();
      was_quoted = false;
    } else {
      REQUIRE_FALSE(was_quoted);  // nothing after a closing quote but a separator
      field += c;
    }
  }
  REQUIRE_FALSE(quoted);
  REQUIRE(field.empty());
  REQUIRE(row.empty());  // the last record ends with a line break
  return rows;
}

// A summarized pool of random classes of n variables with their members listed (each class's
// score below the previous one's), named by `names`.
bnsl::PoolReport random_pool(std::vector<std::string> names, int classes, std::mt19937& rng) {
  bnsl::PoolReport r;
  r.variables = std::move(names);
  r.rows = 100;
  r.epsilon = 3;
  double score = -500;
  std::set<std::pair<Pairs, Pairs>> cpdags;
  for (auto& dag : random_dags(static_cast<int>(r.variables.size()), classes * 3, rng)) {
    bnsl::PoolReport one;
    one.dags.push_back({0, dag, -1});
    bnsl::summarize(one);
    if (!cpdags.insert({one.classes[0].arcs, one.classes[0].edges}).second) continue;
    bnsl::PoolClass c;
    c.score = score;
    c.dag = dag;
    r.classes.push_back(c);
    score -= 0.25;
    if (static_cast<int>(r.classes.size()) == classes) break;
  }
  bnsl::list_members(r, 200);
  bnsl::summarize(r);
  return r;
}

void require_same(const bnsl::PoolReport& a, const bnsl::PoolReport& b) {
  REQUIRE(a.variables == b.variables);
  REQUIRE(a.classes.size() == b.classes.size());
  for (std::size_t c = 0; c < a.classes.size(); ++c) {
    CHECK(a.classes[c].score == b.classes[c].score);  // bit-exact
    CHECK(a.classes[c].size == b.classes[c].size);
    CHECK(a.classes[c].log10_size == Approx(b.classes[c].log10_size).epsilon(1e-12));
    CHECK(a.classes[c].dag == b.classes[c].dag);
    CHECK(a.classes[c].arcs == b.classes[c].arcs);
    CHECK(a.classes[c].edges == b.classes[c].edges);
    CHECK(a.classes[c].members == b.classes[c].members);
    CHECK(a.classes[c].first == b.classes[c].first);
  }
  REQUIRE(a.dags.size() == b.dags.size());
  for (std::size_t i = 0; i < a.dags.size(); ++i) {
    CHECK(a.dags[i].score == b.dags[i].score);
    CHECK(a.dags[i].parents == b.dags[i].parents);
    CHECK(a.dags[i].mec == b.dags[i].mec);
  }
  REQUIRE(a.edges.size() == b.edges.size());
  for (std::size_t i = 0; i < a.edges.size(); ++i) {
    CHECK(a.edges[i].from == b.edges[i].from);
    CHECK(a.edges[i].to == b.edges[i].to);
    CHECK(a.edges[i].p == b.edges[i].p);
    CHECK(a.edges[i].p_edge == b.edges[i].p_edge);
  }
}

}  // namespace

TEST_CASE("pool file: a format-2 file written by hand reads as described", "[pool_file]") {
  const bnsl::PoolReport r = bnsl::parse_pool_json(kHandWritten, "hand.json");
  REQUIRE(r.variables == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(r.complete);
  CHECK(r.constraints.required == Pairs{{0, 1}});
  CHECK(r.constraints.forbidden == Pairs{{3, 0}});
  REQUIRE(r.classes.size() == 3);
  // The chain: every edge reversible, 4 DAGs.
  CHECK(r.classes[0].dag == chain());
  CHECK(r.classes[0].size == "4");
  CHECK(r.classes[0].log10_size == Approx(std::log10(4.0)));
  CHECK(r.classes[0].arcs.empty());
  CHECK(r.classes[0].edges == Pairs{{0, 1}, {1, 2}, {2, 3}});
  // b -> c removed: a -> b and c -> d, both reversible (no v-structure).
  CHECK(r.classes[1].dag == bnsl::ParentSets{{}, {0}, {}, {2}});
  CHECK(r.classes[1].edges == Pairs{{0, 1}, {2, 3}});
  CHECK(r.classes[1].arcs.empty());
  CHECK(r.classes[1].members == 0);
  // b -> c reversed: the collider a -> b <- c, compelled; c - d stays reversible.
  CHECK(r.classes[2].dag == bnsl::ParentSets{{}, {0, 2}, {}, {2}});
  CHECK(r.classes[2].arcs == Pairs{{0, 1}, {2, 1}});
  CHECK(r.classes[2].edges == Pairs{{2, 3}});
  CHECK(r.classes[2].size == "2");
  // Members: arcs numbered by child (b's a: 1, c's b: 2, d's c: 3 in the chain).
  REQUIRE(r.dags.size() == 5);
  CHECK(r.dags[0].parents == chain());
  CHECK(r.dags[1].parents == bnsl::ParentSets{{1}, {}, {1}, {2}});    // b -> a
  CHECK(r.dags[2].parents == bnsl::ParentSets{{1}, {2}, {}, {2}});    // b -> a, c -> b
  CHECK(r.dags[3].parents == bnsl::ParentSets{{}, {0, 2}, {3}, {}});  // class 3, d -> c
  CHECK(r.dags[3].score == -12.5);
  CHECK(r.dags[4].parents == r.classes[2].dag);
  CHECK(r.dags[4].score == -12.75);
  for (std::size_t i = 0; i < r.dags.size(); ++i) CHECK(r.dags[i].mec == (i < 3 ? 0 : 2));
  CHECK(r.classes[0].members == 3);
  CHECK(r.classes[2].first == 3);
  REQUIRE(r.edges.size() == 2);
  CHECK(r.edges[1].from == 2);
  CHECK(r.edges[1].p == 0.5);
}

TEST_CASE("pool file: a class written against an earlier class than the first", "[pool_file]") {
  // The hand-written pool and a fourth class: the third's collider a -> b <- c with a -> c
  // added, written against the third ("base": its rank). The triangle shields the collider, so
  // no arc stays compelled: a -> b, c -> b, a -> c and c -> d are all reversible.
  std::string text = kHandWritten;
  const std::string last = "{\"score\": -12.75, \"reversed\": []}]}";
  REQUIRE(text.find(last) != std::string::npos);
  text.replace(
      text.find(last), last.size(),
      last + ",\n  {\"score\": -13, \"size\": 8, \"base\": 3, \"added\": [[\"a\", \"c\"]]}");
  text.replace(text.find("\"class_count\": 3"), 16, "\"class_count\": 4");
  const bnsl::PoolReport r = bnsl::parse_pool_json(text, "base.json");
  REQUIRE(r.classes.size() == 4);
  CHECK(r.classes[3].dag == bnsl::ParentSets{{}, {0, 2}, {0}, {2}});
  CHECK(r.classes[3].edges == Pairs{{0, 1}, {0, 2}, {1, 2}, {2, 3}});
  CHECK(r.classes[3].arcs.empty());
  // Against the first class (the chain) instead: a -> c added to it.
  std::string first = text;
  first.replace(first.find("\"base\": 3, "), 11, "");
  CHECK(bnsl::parse_pool_json(first, "first.json").classes[3].dag ==
        bnsl::ParentSets{{}, {0}, {0, 1}, {2}});
  std::string later = text;
  later.replace(later.find("\"base\": 3"), 9, "\"base\": 4");
  CHECK(error_of(later).find("'classes[3].base'") != std::string::npos);
}

TEST_CASE("pool file: essential graphs listed by earlier writers are ignored", "[pool_file]") {
  // Files written while format 2 was unreleased listed each class's essential graph; a reader
  // computes it from the DAG whatever they say (here all wrong: the chain's arcs compelled,
  // the collider's reversible).
  std::string text = kHandWritten;
  const auto insert_after = [&](const std::string& at, const std::string& what) {
    REQUIRE(text.find(at) != std::string::npos);
    text.insert(text.find(at) + at.size(), what);
  };
  insert_after("\"d\": [\"c\"]},", " \"reversible\": [],");
  insert_after("\"removed\": [[\"b\", \"c\"]]", ", \"became_compelled\": [[\"c\", \"d\"]]");
  insert_after("\"reversed\": [[\"c\", \"b\"]],", " \"became_reversible\": [[\"a\", \"b\"]],");
  const bnsl::PoolReport r = bnsl::parse_pool_json(text, "old.json");
  const bnsl::PoolReport now = bnsl::parse_pool_json(kHandWritten, "hand.json");
  REQUIRE(r.classes.size() == 3);
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(r.classes[c].arcs == now.classes[c].arcs);
    CHECK(r.classes[c].edges == now.classes[c].edges);
  }
  CHECK(r.classes[0].edges == Pairs{{0, 1}, {1, 2}, {2, 3}});
  CHECK(r.classes[2].arcs == Pairs{{0, 1}, {2, 1}});
}

TEST_CASE("pool file: a class DAG with a cycle reads, without an essential graph", "[pool_file]") {
  // The second class with d -> a added to the chain instead of b -> c removed: a -> b -> c ->
  // d -> a, a cycle, for `bnsl check` to report (the reader neither throws nor makes up an
  // essential graph).
  std::string text = kHandWritten;
  const std::string removed = "\"removed\": [[\"b\", \"c\"]]";
  text.replace(text.find(removed), removed.size(), "\"added\": [[\"d\", \"a\"]]");
  const bnsl::PoolReport r = bnsl::parse_pool_json(text, "cycle.json");
  REQUIRE(r.classes.size() == 3);
  CHECK(r.classes[1].dag == bnsl::ParentSets{{3}, {0}, {1}, {2}});
  CHECK(r.classes[1].arcs.empty());
  CHECK(r.classes[1].edges.empty());
  CHECK(r.classes[2].arcs == Pairs{{0, 1}, {2, 1}});  // the next class is unaffected
}

TEST_CASE("pool file: random pools survive a write / read round trip", "[pool_file]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::vector<std::string> names;
    const int n = 3 + round % 6;
    for (int v = 0; v < n; ++v) names.push_back("v" + std::to_string(v) + (v % 2 ? " x" : ""));
    bnsl::PoolReport r = random_pool(names, 1 + round % 7, rng);
    if (round % 3 == 0) r.dags[r.dags.size() - 1].score -= 1e-11;  // a member of its own score
    const std::string text = bnsl::pool_json_text(r);
    const bnsl::PoolReport back = bnsl::parse_pool_json(text, "r.json");
    require_same(r, back);
    // Names, never indices: no class but the first gives a whole DAG.
    const nlohmann::json j = nlohmann::json::parse(text);
    CHECK(j["format"] == 2);
    for (std::size_t c = 1; c < j["classes"].size(); ++c)
      CHECK_FALSE(j["classes"][c].contains("dag"));
    for (const auto& e : j["edges"]) CHECK(e["from"].is_string());
  }
}

TEST_CASE("pool file: names that are not UTF-8 read back byte for byte", "[pool_file]") {
  // Latin-1 bytes (E9, E8, FF) are not UTF-8; "caf\xEF\xBF\xBD" is, and is what U+FFFD makes
  // of the first two: they are written "caf<U+FFFD>~2" and "~3" (docs/design.md, "Outputs").
  const std::vector<std::string> names = {"caf\xE9",      "caf\xE8", "caf\xEF\xBF\xBD",
                                          "na\xC3\xAFve", "\xFF",    "ok"};
  std::mt19937 rng(5);
  const bnsl::PoolReport r = random_pool(names, 4, rng);
  const std::string text = bnsl::pool_json_text(r);
  const nlohmann::json j = nlohmann::json::parse(text);  // throws on text that is not UTF-8
  CHECK(j["variables"] == nlohmann::json::parse(R"(["caf\ufffd~2", "caf\ufffd~3", "caf\ufffd",
                                                    "na\u00efve", "\ufffd", "ok"])"));
  CHECK(j["variable_bytes"] ==
        nlohmann::json::parse(
            R"({"caf\ufffd~2": "636166e9", "caf\ufffd~3": "636166e8", "\ufffd": "ff"})"));
  require_same(r, bnsl::parse_pool_json(text, "bytes.json"));
  // A file of UTF-8 names has no such field.
  CHECK_FALSE(nlohmann::json::parse(bnsl::pool_json_text(random_pool({"a", "b"}, 1, rng)))
                  .contains("variable_bytes"));

  const auto error_with = [&](const std::string& from, const std::string& to) {
    std::string bad = text;
    REQUIRE(bad.find(from) != std::string::npos);
    return error_of(bad.replace(bad.find(from), from.size(), to));
  };
  CHECK(error_with("\"636166e9\"", "\"636166e\"")
            .find("'variable_bytes.caf\xEF\xBF\xBD~2': expected the name's bytes as hexadecimal "
                  "digits") != std::string::npos);
  CHECK(error_with("\"636166e9\"", "\"63616g\"").find("hexadecimal") != std::string::npos);
  CHECK(
      error_with("\"ff\"}", "\"ff\", \"nobody\": \"ff\"}").find("no variable is named 'nobody'") !=
      std::string::npos);
  CHECK(error_with("\"636166e8\"", "\"636166e9\"")
            .find("'variable_bytes': variables 1 and 2 have the same bytes") != std::string::npos);
}

TEST_CASE("pool file: the cut points of --discretize read back", "[pool_file]") {
  bnsl::PoolReport r;
  r.variables = {"a", "col \"x\""};
  r.classes.push_back({-1, "2", std::log10(2.0), {{}, {0}}, 0, 0, {}, {{0, 1}}});
  r.discretized.push_back({1, "quantile", {0.1, 2.0 / 3.0, 7.25}});
  const std::string text = bnsl::pool_json_text(r);
  const nlohmann::json j = nlohmann::json::parse(text)["discretized"];
  CHECK(
      j ==
      nlohmann::json::parse(
          R"([{"variable": "col \"x\"", "method": "quantile", "breaks": [0.1, 0.6666666666666666, 7.25]}])"));
  const bnsl::PoolReport back = bnsl::parse_pool_json(text, "d.json");
  REQUIRE(back.discretized.size() == 1);
  CHECK(back.discretized[0].column == 1);
  CHECK(back.discretized[0].method == "quantile");
  CHECK(back.discretized[0].breaks == r.discretized[0].breaks);  // exactly
  std::string bad = text;
  bad.replace(bad.find("7.25"), 4, "0.01");
  CHECK(error_of(bad).find("'discretized[0].breaks[2]': expected cut points in increasing order") !=
        std::string::npos);
}

TEST_CASE("pool file: sizes past 2^53 carry their exact decimal", "[pool_file]") {
  bnsl::PoolReport r;
  r.variables = {"a", "b"};
  r.classes.push_back({-1, "123456789012345678901234567890", 29.09, {{}, {0}}, 0, 0, {}, {{0, 1}}});
  const std::string text = bnsl::pool_json_text(r);
  CHECK(text.find("\"size_exact\":\"123456789012345678901234567890\"") != std::string::npos);
  const bnsl::PoolReport back = bnsl::parse_pool_json(text, "big.json");
  CHECK(back.classes[0].size == "123456789012345678901234567890");
  CHECK(back.classes[0].log10_size == Approx(29.0915).epsilon(1e-5));
  std::string off = text;
  off.replace(off.find("\"size\":") + 7, 1, "2");  // 2.23e29: not the exact decimal
  CHECK(error_of(off).find("'classes[0].size': differs from size_exact") != std::string::npos);
}

TEST_CASE("pool file: format 1 files still read", "[pool_file]") {
  const char* v1 = R"({"score": "bic", "ess": null, "n": 3, "rows": 100,
    "variables": ["x", "y", "z"], "epsilon": 2.0, "best_score": -10.0, "optimal": false,
    "complete": false, "constraints": {"forbidden": [[2, 0]], "tiers": null},
    "classes": [{"score": -10.0, "size": "2", "log10_size": 0.3010299956639812, "members": 2, "first": 0,
                 "arcs": [], "edges": [[0, 1]], "dag": [[], [0], []]}],
    "dags": [{"score": -10.0, "mec": 0, "parents": [[], [0], []]},
             {"score": -10.0, "mec": 0, "parents": [[1], [], []]}],
    "edges": [{"from": 0, "to": 1, "p": 0.5, "p_edge": 1.0}, {"from": 1, "to": 0, "p": 0.5, "p_edge": 1.0}]})";
  const bnsl::PoolReport r = bnsl::parse_pool_json(v1, "old.json");
  CHECK(r.constraints.forbidden == Pairs{{2, 0}});
  REQUIRE(r.dags.size() == 2);
  CHECK(r.dags[1].parents == bnsl::ParentSets{{1}, {}, {}});
  CHECK(r.classes[0].edges == Pairs{{0, 1}});
  // Written again, it is format 2 and reads back the same.
  require_same(r, bnsl::parse_pool_json(bnsl::pool_json_text(r), "new.json"));
}

TEST_CASE("pool file: malformed format-2 files name the field", "[pool_file]") {
  const std::string good = kHandWritten;
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    REQUIRE(text.find(from) != std::string::npos);
    return text.replace(text.find(from), from.size(), to);
  };
  CHECK(error_of(good).empty());
  CHECK(error_of(with("\"format\": 2", "\"format\": 3")).find("newer") != std::string::npos);
  CHECK(error_of(with("\"removed\": [[\"b\", \"c\"]]", "\"removed\": [[\"b\", \"e\"]]"))
            .find("'classes[1].removed[0][1]': no variable is named 'e'") != std::string::npos);
  CHECK(error_of(with("\"removed\": [[\"b\", \"c\"]]", "\"removed\": [[\"c\", \"b\"]]"))
            .find("'classes[1].removed[0]': not an arc of the base class's DAG") !=
        std::string::npos);
  CHECK(error_of(with("\"reversed\": [[\"c\", \"b\"]]", "\"reversed\": [[\"b\", \"c\"]]"))
            .find("'classes[2].reversed[0]'") != std::string::npos);
  CHECK(
      error_of(with("\"members\": [[3]", "\"members\": [[4]")).find("'classes[2].members[0][0]'") !=
      std::string::npos);
  CHECK(error_of(with("\"size\": 4, \"dag\"", "\"size\": 4.5, \"dag\""))
            .find("'classes[0].size': expected a whole number") != std::string::npos);
  CHECK(error_of(with("\"members\": [[], [1]", "\"added\": [], \"members\": [[], [1]"))
            .find("'classes[0].added': the first class gives its DAG whole") != std::string::npos);
  CHECK(error_of(with("\"variables\": [\"a\", \"b\"", "\"variables\": [\"a\", \"a\""))
            .find("given twice") != std::string::npos);
  CHECK(error_of(with("{\"from\": \"a\"", "{\"from\": 0"))
            .find("'edges[0].from': expected a string") != std::string::npos);
}

TEST_CASE("tables: the CSVs hold the pool's numbers, quoted as RFC 4180 says", "[pool_file]") {
  std::mt19937 rng(11);
  const std::vector<std::string> names = {"plain",      "with,comma", "say \"hi\"",
                                          "two\nlines", " padded ",   "last"};
  bnsl::PoolReport r = random_pool(names, 6, rng);
  REQUIRE(r.classes.size() > 1);
  // The files a run writes (write_outputs with --matrices), and the pool file read back: the
  // tables must hold the file's numbers.
  TempDir dir;
  const std::string prefix = dir.file("run");
  bnsl::write_outputs(prefix, r, nullptr, {}, bnsl::OutputOptions{true});
  const bnsl::PoolReport file = bnsl::read_pool_json(prefix + ".pool.json");
  REQUIRE(file.edges.size() == r.edges.size());
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    CHECK(file.edges[i].from == r.edges[i].from);
    CHECK(file.edges[i].to == r.edges[i].to);
    CHECK(file.edges[i].p == r.edges[i].p);
    CHECK(file.edges[i].p_edge == r.edges[i].p_edge);
  }

  const auto edges = parse_csv(read_text(prefix + ".edges.csv"));
  REQUIRE(edges.size() == r.edges.size() + 1);
  CHECK(edges[0] == std::vector<std::string>{"from", "to", "p", "p_edge"});
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    CHECK(edges[i + 1][0] == names[static_cast<std::size_t>(r.edges[i].from)]);
    CHECK(edges[i + 1][1] == names[static_cast<std::size_t>(r.edges[i].to)]);
    CHECK(std::stod(edges[i + 1][2]) == file.edges[i].p);  // exactly the pool file's doubles
    CHECK(std::stod(edges[i + 1][3]) == file.edges[i].p_edge);
  }

  const auto classes = parse_csv(read_text(prefix + ".classes.csv"));
  REQUIRE(classes.size() == r.classes.size() + 1);
  CHECK(classes[0] == std::vector<std::string>{"rank", "score", "size", "log10_size", "differs",
                                               "added", "removed", "reversed"});
  CHECK(classes[1][4] == "0");
  for (std::size_t c = 0; c < r.classes.size(); ++c) {
    CHECK(classes[c + 1][0] == std::to_string(c + 1));
    CHECK(std::stod(classes[c + 1][1]) == r.classes[c].score);
    CHECK(classes[c + 1][2] == r.classes[c].size);
    // The differing arcs, counted by hand: arcs of either DAG not in the other as they are.
    std::size_t differ = 0;
    const auto& a = r.classes[0].dag;
    const auto& b = r.classes[c].dag;
    std::set<std::pair<int, int>> in_a, in_b;
    for (std::size_t v = 0; v < a.size(); ++v) {
      for (int u : a[v]) in_a.insert({u, static_cast<int>(v)});
      for (int u : b[v]) in_b.insert({u, static_cast<int>(v)});
    }
    for (const auto& [u, v] : in_b) differ += !in_a.contains({u, v});  // added or reversed
    for (const auto& [u, v] : in_a) differ += !in_b.contains({u, v}) && !in_b.contains({v, u});
    CHECK(classes[c + 1][4] == std::to_string(differ));
  }

  const auto adjacency = parse_csv(read_text(prefix + ".best.adjacency.csv"));
  const auto probabilities = parse_csv(read_text(prefix + ".probabilities.csv"));
  REQUIRE(adjacency.size() == names.size() + 1);
  REQUIRE(probabilities.size() == names.size() + 1);
  // The matrices' headers: the names, a line break mapped to '_' (the adjacency CSV's rule).
  std::vector<std::string> header = names;
  header[3] = "two_lines";
  CHECK(adjacency[0] == header);
  CHECK(probabilities[0] == header);
  const bnsl::ParentSets& best = bnsl::best_network(r);
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = 0; j < names.size(); ++j) {
      const bool arc = std::count(best[j].begin(), best[j].end(), static_cast<int>(i)) > 0;
      CHECK(adjacency[i + 1][j] == (arc ? "1" : "0"));
      const double p = std::stod(probabilities[i + 1][j]);
      nonzero += p > 0;
      const auto e =
          std::find_if(file.edges.begin(), file.edges.end(), [&](const bnsl::EdgeProb& x) {
            return x.from == static_cast<int>(i) && x.to == static_cast<int>(j);
          });
      CHECK(p == (e == file.edges.end() ? 0.0 : e->p));
      if (arc) CHECK(p > 0);  // the best network's arcs are in the pool's first class
    }
  CHECK(nonzero == r.edges.size());
}

TEST_CASE("consensus DOT: small pools unlabelled where certain, large ones uncertain only",
          "[pool_file]") {
  // Small: the hand-computed three-DAG pool's x - y has p_edge 1 (unlabelled, undirected).
  bnsl::PoolReport small;
  small.variables = {"x", "y", "z"};
  small.dags.push_back({-10.0, {{}, {0}, {}}, -1});
  small.dags.push_back({-10.0, {{1}, {}, {}}, -1});
  small.dags.push_back({-10.0 - std::log(4.0), {{}, {0}, {1}}, -1});
  bnsl::summarize(small);
  const std::string s = bnsl::consensus_dot_text(small);
  CHECK(s.find("label=\"1.00\"") == std::string::npos);
  CHECK(s.find("sfdp") == std::string::npos);
  // Large: 150 variables, a chain 0 -> 1 -> ... in every class, and one class adding 0 -> 2.
  bnsl::PoolReport large;
  for (int v = 0; v < 150; ++v) large.variables.push_back("v" + std::to_string(v));
  bnsl::ParentSets dag(150);
  for (int v = 1; v < 150; ++v) dag[static_cast<std::size_t>(v)] = {v - 1};
  bnsl::ParentSets other = dag;
  other[2] = {0, 1};
  large.classes.push_back({-10, "", 0, dag, 0, 0, {}, {}});
  large.classes.push_back({-10.5, "", 0, other, 0, 0, {}, {}});
  bnsl::summarize(large);
  const std::string l = bnsl::consensus_dot_text(large);
  CHECK(l.find("layout=sfdp") != std::string::npos);
  CHECK(l.find("n0 -> n2 [label=") != std::string::npos);  // the one uncertain edge
  CHECK(std::count(l.begin(), l.end(), '>') == 1);         // and no other
  CHECK(l.find("n1 [label") == std::string::npos);         // nor the chain's other nodes
  CHECK(l.find("n0 [label") != std::string::npos);
  CHECK(l.find("n2 [label") != std::string::npos);
}
