// Network formats (bnsl/network_io.hpp), parameter estimation (bnsl/bif.hpp) and numbers in
// data columns (--discretize). Oracles: files written by hand from each format's published
// description (Hugin's chest clinic potentials, the UAI format page's example, XMLBIF 0.3's
// table order), counts taken by hand, R's type-7 quantiles worked out by hand; round trips
// compare with the network before writing, not with saved output.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "bnsl/generate.hpp"
#include "bnsl/network_io.hpp"
#include "data/discretize.hpp"
#include "temp_dir.hpp"

namespace {

const std::string kDatasets = BNSL_DATASETS_DIR;
constexpr bnsl::NetFormat kAll[] = {bnsl::NetFormat::bif,         bnsl::NetFormat::xmlbif,
                                    bnsl::NetFormat::net,         bnsl::NetFormat::uai,
                                    bnsl::NetFormat::modelstring, bnsl::NetFormat::graphml,
                                    bnsl::NetFormat::dot,         bnsl::NetFormat::adjacency};

std::vector<std::set<int>> parent_sets(const bnsl::BayesNet& net) {
  std::vector<std::set<int>> out;
  for (const auto& p : net.parents) out.emplace_back(p.begin(), p.end());
  return out;
}

// P(v = state | parents' states by name), whatever the parents' order in the file.
double prob_by_name(const bnsl::BayesNet& net, const std::string& child,
                    const std::vector<std::pair<std::string, std::string>>& given,
                    const std::string& state) {
  const int v = net.index_of(child);
  REQUIRE(v >= 0);
  std::vector<int> s;
  for (int p : net.parents[v])
    for (const auto& [name, value] : given)
      if (net.names[p] == name) {
        const auto& st = net.states[p];
        s.push_back(static_cast<int>(std::find(st.begin(), st.end(), value) - st.begin()));
      }
  REQUIRE(s.size() == net.parents[v].size());
  const auto& st = net.states[v];
  return net.prob(v, net.config_index(v, s),
                  static_cast<int>(std::find(st.begin(), st.end(), state) - st.begin()));
}

// Same variables, states, parent sets, and every probability by names (1e-12).
void require_same(const bnsl::BayesNet& a, const bnsl::BayesNet& b, bool params) {
  REQUIRE(a.names == b.names);
  REQUIRE(parent_sets(a) == parent_sets(b));
  if (!params) return;
  REQUIRE(a.states == b.states);
  for (std::size_t v = 0; v < a.n_vars(); ++v) {
    const auto& pa = a.parents[v];
    for (std::size_t j = 0; j < a.n_configs(v); ++j) {
      std::vector<std::pair<std::string, std::string>> given;
      std::size_t rest = j;
      for (int p : pa) {
        given.emplace_back(a.names[p], a.states[p][rest % a.states[p].size()]);
        rest /= a.states[p].size();
      }
      for (int k = 0; k < a.arity(v); ++k)
        REQUIRE(std::abs(prob_by_name(b, a.names[v], given, a.states[v][k]) - a.prob(v, j, k)) <=
                1e-12);
    }
  }
}

bnsl::BayesNet through(const bnsl::BayesNet& net, bnsl::NetFormat f) {
  return bnsl::parse_network(bnsl::network_text(net, f), "x", f);
}

std::string error_of(const std::string& text, bnsl::NetFormat f) {
  try {
    bnsl::parse_network(text, "bad.x", f);
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("formats: each format reads back what it wrote, on the bundled networks", "[formats]") {
  for (const char* file : {"/asia.bif", "/child.bif", "/alarm.bif"}) {
    const bnsl::BayesNet net = bnsl::read_bif(kDatasets + file);
    for (bnsl::NetFormat f : kAll) {
      INFO(file << " as " << bnsl::name_of(bnsl::kNetFormatNames, f));
      const bnsl::BayesNet back = through(net, f);
      // UAI has no names: by position, V0.. and 0..r-1 (FILE.names.csv restores them).
      if (f == bnsl::NetFormat::uai) {
        REQUIRE(back.names[0] == "V0");
        REQUIRE(parent_sets(back) == parent_sets(net));
        for (std::size_t v = 0; v < net.n_vars(); ++v)
          for (std::size_t c = 0; c < net.n_configs(v) * net.states[v].size(); ++c)
            REQUIRE(back.cpt[back.cpt_offset[v] + c] == net.cpt[net.cpt_offset[v] + c]);
        continue;
      }
      require_same(net, back, bnsl::has_parameters(f));
    }
  }
}

TEST_CASE("formats: a generated network of 50 variables survives every chain of two", "[formats]") {
  bnsl::GenerateOptions o;
  o.vars = 50;
  o.max_parents = 3;
  o.seed = 11;
  const bnsl::BayesNet net = bnsl::generate_network(o);
  for (bnsl::NetFormat a : kAll)
    for (bnsl::NetFormat b : kAll) {
      INFO(bnsl::name_of(bnsl::kNetFormatNames, a)
           << " then " << bnsl::name_of(bnsl::kNetFormatNames, b));
      const bnsl::BayesNet once = through(net, a);
      if (bnsl::has_parameters(b) && !once.has_parameters()) {
        CHECK_THROWS_AS(bnsl::network_text(once, b), bnsl::RuntimeError);
        continue;
      }
      // The generator names variables V0.. and states 0..r-1, which UAI keeps.
      require_same(net, through(once, b), bnsl::has_parameters(a) && bnsl::has_parameters(b));
    }
}

TEST_CASE("formats: files written by hand from each format's description", "[formats]") {
  // Hugin NET, the chest clinic's E = T or L: data nested with T outermost, E innermost.
  const bnsl::BayesNet net = bnsl::parse_network(
      "net { name = \"chest\"; } % a comment\n"
      "node T { states = (\"yes\" \"no\"); label = \"Has tuberculosis?\"; position = (25 275); }\n"
      "node L { states = (\"yes\" \"no\"); }\n"
      "discrete node E { states = (\"yes\" \"no\"); }\n"
      "potential (T) { data = (0.01 0.99); }\n"
      "potential (L) { data = (0.1 0.9); }\n"
      "potential (E | T L) { data = (((1 0) (1 0)) ((1 0) (0 1))); }\n",
      "chest.net", bnsl::NetFormat::net);
  CHECK(prob_by_name(net, "E", {{"T", "no"}, {"L", "no"}}, "no") == 1.0);
  CHECK(prob_by_name(net, "E", {{"T", "no"}, {"L", "yes"}}, "yes") == 1.0);
  CHECK(prob_by_name(net, "E", {{"T", "yes"}, {"L", "no"}}, "yes") == 1.0);
  CHECK(prob_by_name(net, "T", {}, "yes") == 0.01);
  // UAI: the format page's example, X(2) Y(2) Z(3), P(Z | Y) with Z last and fastest.
  const bnsl::BayesNet uai = bnsl::parse_network(
      "BAYES\n3\n2 2 3\n3\n1 0\n2 0 1\n2 1 2\n\n2\n 0.436 0.564\n\n4\n 0.128 0.872\n 0.920 0.080\n"
      "\n6\n 0.210 0.333 0.457\n 0.811 0.000 0.189\n",
      "x.uai", bnsl::NetFormat::uai);
  CHECK(uai.parents[2] == std::vector<int>{1});
  CHECK(prob_by_name(uai, "V1", {{"V0", "1"}}, "0") == 0.920);
  CHECK(prob_by_name(uai, "V2", {{"V1", "1"}}, "2") == 0.189);
  // XMLBIF 0.3: the dog problem's dog-out | bowel-problem, family-out, last GIVEN fastest.
  const bnsl::BayesNet xml = bnsl::parse_network(
      "<?xml version=\"1.0\"?><BIF VERSION=\"0.3\"><NETWORK><NAME>Dog</NAME>"
      "<VARIABLE TYPE=\"nature\"><NAME>bowel</NAME><OUTCOME>true</OUTCOME><OUTCOME>false</OUTCOME>"
      "<PROPERTY>position = (1, 2)</PROPERTY></VARIABLE>"
      "<VARIABLE TYPE=\"nature\"><NAME>family</NAME><OUTCOME>true</OUTCOME><OUTCOME>false</OUTCOME>"
      "</VARIABLE><VARIABLE TYPE=\"nature\"><NAME>dog</NAME><OUTCOME>true</OUTCOME>"
      "<OUTCOME>false</OUTCOME></VARIABLE>"
      "<DEFINITION><FOR>bowel</FOR><TABLE>0.01 0.99</TABLE></DEFINITION>"
      "<DEFINITION><FOR>family</FOR><TABLE>0.15 0.85</TABLE></DEFINITION>"
      "<DEFINITION><FOR>dog</FOR><GIVEN>bowel</GIVEN><GIVEN>family</GIVEN>"
      "<TABLE>0.99 0.01 0.97 0.03 0.9 0.1 0.3 0.7</TABLE></DEFINITION></NETWORK></BIF>",
      "dog.xml", bnsl::NetFormat::xmlbif);
  CHECK(prob_by_name(xml, "dog", {{"bowel", "true"}, {"family", "false"}}, "true") == 0.97);
  CHECK(prob_by_name(xml, "dog", {{"bowel", "false"}, {"family", "true"}}, "true") == 0.9);
  // bnlearn's model string, DOT (labels name nodes; dir=back reverses), GraphML, adjacency.
  const bnsl::BayesNet ms =
      bnsl::parse_network("[A][C|A:B][B|A]\n", "m", bnsl::NetFormat::modelstring);
  CHECK(ms.names == std::vector<std::string>{"A", "C", "B"});
  CHECK(parent_sets(ms)[1] == std::set<int>{0, 2});
  const bnsl::BayesNet dot = bnsl::parse_network(
      "/* c */ strict digraph G { node [shape=box]; n0 [label=\"x y\"]; n1 [label=b];\n"
      "# a cpp line\n n0 -> n1 [label=\"0.9\"]; c -> { n0 n1 } [dir=back] }",
      "d", bnsl::NetFormat::dot);
  CHECK(dot.names == std::vector<std::string>{"x y", "b", "c"});
  CHECK(parent_sets(dot)[2] == std::set<int>{0, 1});
  CHECK(parent_sets(dot)[1] == std::set<int>{0});
  const bnsl::BayesNet gml = bnsl::parse_network(
      "<graphml><key id=\"k\" for=\"node\" attr.name=\"label\"/><graph edgedefault=\"directed\">"
      "<node id=\"a\"><data key=\"k\">A</data></node><node id=\"b\"/>"
      "<edge source=\"a\" target=\"b\"/></graph></graphml>",
      "g", bnsl::NetFormat::graphml);
  CHECK(gml.names == std::vector<std::string>{"A", "b"});
  CHECK(gml.parents[1] == std::vector<int>{0});
  const bnsl::BayesNet adj =
      bnsl::parse_network(",a,b\na,0,1\nb,0,0\n", "m.csv", bnsl::NetFormat::adjacency);
  CHECK(adj.parents[1] == std::vector<int>{0});
}

TEST_CASE("formats: malformed files are errors at their line and column", "[formats]") {
  using bnsl::NetFormat;
  CHECK_THAT(error_of("BAYES\n2\n2 2\n2\n1 0\n2 0 1\n2\n0.5 0.5\n3\n0.5 0.5 0.5\n", NetFormat::uai),
             Catch::Contains("bad.x:9:1: expected 4 values"));
  CHECK_THAT(error_of("MARKOV\n1\n2\n1\n1 0\n2\n1 1\n", NetFormat::uai),
             Catch::Contains("bad.x:1:1: expected BAYES"));
  CHECK_THAT(error_of("BAYES\n2\n2 2\n2\n2 1 0\n2 0 1\n", NetFormat::uai),
             Catch::Contains("directed cycle"));
  CHECK_THAT(error_of("<BIF VERSION=\"0.3\"><NETWORK>\n  <VARIABLE>", NetFormat::xmlbif),
             Catch::Contains("bad.x:2:"));
  CHECK_THAT(error_of("<BIF><NETWORK><VARIABLE TYPE=\"decision\"><NAME>a</NAME></VARIABLE>"
                      "</NETWORK></BIF>",
                      NetFormat::xmlbif),
             Catch::Contains("bad.x:1:15: expected a chance variable"));
  CHECK_THAT(
      error_of(
          "net {}\nnode a { states = (\"y\" \"n\"); }\npotential (a) { data = (0.5 0.6 0.7); }",
          NetFormat::net),
      Catch::Contains("bad.x:3:11: expected 2 numbers"));
  CHECK_THAT(error_of("net {}\ncontinuous node a { }", NetFormat::net),
             Catch::Contains("bad.x:2:1: expected a discrete chance node"));
  CHECK_THAT(error_of("[a][b|c]", NetFormat::modelstring),
             Catch::Contains("bad.x:1:7: parent 'c' has no block"));
  CHECK_THAT(
      error_of("net {}\nnode a { states = (\"\" \"y\"); }\npotential (a) { data = (0.5 0.5); }",
               NetFormat::net),
      Catch::Contains("bad.x:2:6: expected state names of a, not an empty one"));
  CHECK_THAT(error_of("[a][b|a", NetFormat::modelstring),
             Catch::Contains("bad.x:1:8: expected ']'"));
  CHECK_THAT(error_of("digraph { a -> b; b -> a; }", NetFormat::dot),
             Catch::Contains("directed cycle"));
  CHECK_THAT(error_of("graph { a -- b }", NetFormat::dot),
             Catch::Contains("bad.x:1:1: expected 'digraph'"));
  CHECK_THAT(error_of("digraph {\n a -> b [dir=none]; }", NetFormat::dot),
             Catch::Contains("bad.x:2:4: expected a directed edge"));
  CHECK_THAT(error_of("<graphml><graph edgedefault=\"undirected\"><node id=\"a\"/><node id=\"b\"/>"
                      "<edge source=\"a\" target=\"b\"/></graph></graphml>",
                      NetFormat::graphml),
             Catch::Contains("expected a directed edge"));
  CHECK_THAT(error_of("a,b\n0,1\n1,0\n", NetFormat::adjacency),
             Catch::Contains("an undirected edge"));
  CHECK_THAT(error_of("a,b\n0,1\n0,2\n", NetFormat::adjacency),
             Catch::Contains("bad.x:3:3: expected 0 or 1"));
}

// Nesting is recursion (DOT's subgraphs in the parser, XML's elements in the tree): a file
// nested a million deep is refused at the first level past 100, not a stack overflow (the
// networks fuzzer's finding: 5,048 nested braces in a DOT file).
TEST_CASE("formats: deep nesting is an error, not a stack overflow", "[formats]") {
  using bnsl::NetFormat;
  const std::size_t deep = 1000000;
  std::string dot = "digraph {\n";
  for (std::size_t i = 0; i < deep; ++i) dot += '{';
  CHECK_THAT(error_of(dot, NetFormat::dot),
             Catch::Contains("bad.x:2:101: subgraphs nested more than 100 deep"));
  std::string nested = "digraph { a; ";
  for (int i = 0; i < 100; ++i) nested += "subgraph { ";
  nested += "b -> a; ";
  for (int i = 0; i < 100; ++i) nested += "} ";
  nested += "}";
  CHECK(bnsl::parse_network(nested, "ok.dot", NetFormat::dot).n_vars() == 2);  // 100 is allowed
  std::string xml = "<graphml>\n";
  for (std::size_t i = 0; i < deep; ++i) xml += "<g>";
  CHECK_THAT(error_of(xml, NetFormat::graphml),
             Catch::Contains("bad.x:2:298: XML: elements nested more than 100 deep"));
  CHECK_THAT(error_of(xml, NetFormat::xmlbif), Catch::Contains("nested more than 100 deep"));
}

TEST_CASE("formats: a BIF read by read_bif or parse_bif is checked as every format is",
          "[formats]") {
  // a <- b and b <- a: a cycle through both; a is declared on line 2, column 10.
  const std::string cyclic =
      "network x {\n}variable a { type discrete [ 2 ] { y, n }; }\n"
      "variable b { type discrete [ 2 ] { y, n }; }\n"
      "probability ( a | b ) { (y) 0.5, 0.5; (n) 0.5, 0.5; }\n"
      "probability ( b | a ) { (y) 0.5, 0.5; (n) 0.5, 0.5; }\n";
  CHECK_THROWS_WITH(bnsl::parse_bif(cyclic, "c.bif"),
                    "c.bif:2:11: the network has a directed cycle through a");
  bnsl_test::TempDir dir("bif");
  const std::string folder = dir.file("net.bif");
  std::filesystem::create_directory(folder);
  CHECK_THROWS_WITH(bnsl::read_bif(folder),
                    folder + ": cannot read the network file: is a directory");
  CHECK_THROWS_WITH(bnsl::read_bif(dir.write("c.bif", cyclic)),
                    Catch::Contains("c.bif:2:11: the network has a directed cycle through a"));
}

TEST_CASE("formats: names a format cannot hold are mapped the same way, and collisions fail",
          "[formats]") {
  bnsl::BayesNet net;
  net.names = {"col one", "Größe", "9lives", "a:b"};
  net.states = {{"x y", "(1,2]"}, {"naïve", "ok"}, {"1", "2"}, {"//", "/"}};
  net.parents = {{}, {0}, {}, {1, 2}};
  net.allocate_cpts();
  std::fill(net.cpt.begin(), net.cpt.end(), 0.5);
  const auto bif = bnsl::legal_names(net, bnsl::NetFormat::bif);
  CHECK(bif.names == std::vector<std::string>{"col_one", "Gr__e", "9lives", "a_b"});
  CHECK(bif.states[0] == std::vector<std::string>{"x_y", "_1_2_"});
  CHECK(bif.states[3] == std::vector<std::string>{"_/", "/"});
  CHECK(bnsl::legal_names(net, bnsl::NetFormat::net).names[2] == "_9lives");
  CHECK(bnsl::legal_names(net, bnsl::NetFormat::modelstring).names[3] == "a_b");
  CHECK_FALSE(bnsl::legal_names(net, bnsl::NetFormat::xmlbif).changed);
  for (bnsl::NetFormat f : {bnsl::NetFormat::bif, bnsl::NetFormat::net, bnsl::NetFormat::xmlbif})
    require_same(net, through(net, f), true);  // the originals come back
  net.names[3] = "col_one";
  net.source = "data.csv";
  net.declared_at = {{1, 1}, {1, 9}, {1, 15}, {1, 22}};
  CHECK_THROWS_WITH(bnsl::network_text(net, bnsl::NetFormat::bif),
                    Catch::Contains("data.csv:1:22: variables 'col one' and 'col_one' are both "
                                    "written 'col_one' in bif"));
  CHECK_NOTHROW(bnsl::network_text(net, bnsl::NetFormat::graphml));
}

TEST_CASE("formats: bytes that are not UTF-8 become '_' one by one, and XML still parses",
          "[formats]") {
  // UTF-8 (RFC 3629): F5-FF and C0-C1 never start a character, a continuation byte never
  // does, and a lead byte needs its continuations; "\xC3\xA9" is U+00E9, kept.
  bnsl::BayesNet net;
  net.names = {"a\xFF\xB4\xB4z", "\xC0\x80", "\xE0\x41", "caf\xC3\xA9", "\xF5\x80\x80\x80"};
  net.parents = {{}, {0}, {}, {2}, {}};
  const auto xml = bnsl::legal_names(net, bnsl::NetFormat::xmlbif);
  CHECK(xml.names == std::vector<std::string>{"a___z", "__", "_A", "caf\xC3\xA9", "____"});
  // A name opening the adjacency CSV with U+FEFF would read as a byte-order mark.
  net.names[0] = "\xEF\xBB\xBFx";
  CHECK(bnsl::legal_names(net, bnsl::NetFormat::adjacency).names[0] == "_x");
  for (bnsl::NetFormat f :
       {bnsl::NetFormat::graphml, bnsl::NetFormat::dot, bnsl::NetFormat::adjacency}) {
    const bnsl::BayesNet back = bnsl::parse_network(bnsl::network_text(net, f), "again", f);
    CHECK(back.names == bnsl::legal_names(net, f).names);
  }
}

TEST_CASE("parameters: mle and bayes match counts taken by hand; states sorted", "[formats]") {
  // x: 10, 9, 10, 9, x; y: b a a a b (codes in order of appearance: x = 10 9 x; y = b a).
  bnsl::Dataset d;
  d.add_column("x", {"10", "9", "x"}, std::vector<std::uint32_t>{0, 1, 0, 1, 2});
  d.add_column("y", {"b", "a"}, std::vector<std::uint32_t>{0, 1, 1, 1, 0});
  const std::vector<std::vector<int>> parents = {{}, {0}};
  bnsl::ParamOptions mle;
  mle.method = bnsl::ParamMethod::mle;
  const bnsl::BayesNet m = bnsl::estimate_parameters(d, parents, mle);
  CHECK(m.states[0] == std::vector<std::string>{"9", "10", "x"});  // numbers numerically
  CHECK(m.states[1] == std::vector<std::string>{"a", "b"});
  CHECK(prob_by_name(m, "x", {}, "10") == Approx(2.0 / 5));
  CHECK(prob_by_name(m, "y", {{"x", "10"}}, "a") == Approx(1.0 / 2));  // rows 1, 3
  CHECK(prob_by_name(m, "y", {{"x", "9"}}, "a") == 1.0);
  // bayes, iss 2: each cell of y's CPT (r = 2, q = 3) gets 2 / 6.
  const bnsl::BayesNet b = bnsl::estimate_parameters(d, parents, bnsl::parse_params("bayes:2"));
  CHECK(prob_by_name(b, "y", {{"x", "9"}}, "a") == Approx((2 + 1.0 / 3) / (2 + 2.0 / 3)));
  CHECK(prob_by_name(b, "x", {}, "x") == Approx((1 + 2.0 / 3) / (5 + 2.0)));
  bnsl::ParamOptions keep;
  keep.appearance_order = true;
  CHECK(bnsl::estimate_parameters(d, parents, keep).states[0] ==
        std::vector<std::string>{"10", "9", "x"});
  CHECK(bnsl::describe(bnsl::ParamOptions{}) == "bayes:1");
  CHECK_THROWS_AS(bnsl::parse_params("bayes:0"), bnsl::InputError);
  CHECK_THROWS_AS(bnsl::parse_params("em"), bnsl::InputError);
  CHECK(bnsl::sorted_state_order({"b", "-1", "2.5", "10", "a", "2"}) ==
        std::vector<int>{1, 5, 2, 3, 4, 0});
}

TEST_CASE("discretize: cut points by hand (R's type-7 quantiles, equal widths)", "[formats]") {
  // Values 1..10 once each: quantiles at ranks 9k/4 = 0, 2.25, 4.5, 6.75, 9 of the sorted list.
  std::vector<double> v;
  for (int i = 1; i <= 10; ++i) v.push_back(i);
  const std::vector<std::size_t> once(10, 1);
  CHECK(bnsl::cut_points(v, once, bnsl::DiscretizeSpec::quantile, 4) ==
        std::vector<double>{1, 3.25, 5.5, 7.75, 10});
  CHECK(bnsl::cut_points(v, once, bnsl::DiscretizeSpec::interval, 3) ==
        std::vector<double>{1, 4, 7, 10});
  CHECK(bnsl::cut_points({1, 2}, {9, 1}, bnsl::DiscretizeSpec::quantile, 3).empty());  // ties
  const std::vector<double> breaks{1, 4, 7, 10};
  CHECK(bnsl::interval_of(1, breaks) == 0);
  CHECK(bnsl::interval_of(4, breaks) == 0);
  CHECK(bnsl::interval_of(4.5, breaks) == 1);
  CHECK(bnsl::interval_labels(breaks) == std::vector<std::string>{"[1,4]", "(4,7]", "(7,10]"});
}

TEST_CASE("csv: numbers read as categories, warnings, and --discretize", "[formats][csv]") {
  std::string text = "k,f,g\n";
  for (int i = 0; i < 30; ++i)
    text += std::to_string(i) + "," + std::to_string(i) + ".5," + std::to_string(i % 3) + "\n";
  bnsl::CsvOptions o;
  CHECK_THROWS_WITH(bnsl::parse_csv(text, "n.csv", o),
                    Catch::Contains("n.csv:1:3: column 'f' holds 30 distinct numbers") &&
                        Catch::Contains("--discretize"));
  o.discretize = {bnsl::parse_discretize("f=interval:3")};
  std::vector<std::string> warnings;
  const bnsl::Dataset d = bnsl::parse_csv(text, "n.csv", o, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("n.csv:1:1: column 'k' holds 30 distinct integers"));
  CHECK(d.arity(0) == 30);
  CHECK(d.arity(1) == 3);  // [0.5, 29.5] in three widths of 29/3
  CHECK(d.state_name(1, 0) == "[0.5,10.1667]");
  CHECK(d.code(1, 10) == 1);  // 10.5 > 10.1667
  CHECK(d.arity(2) == 3);     // a few integers stay categories
  REQUIRE(d.discretized().size() == 1);
  CHECK(d.discretized()[0].column == 1);
  o.discretize = {bnsl::parse_discretize("quantile:2")};  // every column of many numbers
  const bnsl::Dataset all = bnsl::parse_csv(text, "n.csv", o);
  CHECK(all.arity(0) == 2);
  CHECK(all.arity(1) == 2);
  CHECK(all.arity(2) == 3);
  o.discretize = {bnsl::parse_discretize("f=none")};
  CHECK(bnsl::parse_csv(text, "n.csv", o).arity(1) == 30);
  o.discretize = {bnsl::parse_discretize("g=quantile:3")};  // ties: a zero-length interval
  CHECK_THROWS_WITH(
      bnsl::parse_csv("g\n0\n0\n0\n0\n1\n", "n.csv", o),
      Catch::Contains("n.csv:1:1: column 'g': quantile:3 gives an interval of length zero"));
  CHECK_THROWS_AS(bnsl::parse_discretize("quantile:1"), bnsl::InputError);
  CHECK_THROWS_AS(bnsl::parse_discretize("median:3"), bnsl::InputError);
}
