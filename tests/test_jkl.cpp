// Tests of the score cache (VarCache, ScoreCache) and the jkl reader and writer. Expected
// values come from hand-written files and from the bundled GOBNILP / eBNSL score files, read
// independently of the writer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/error.hpp"

namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::vector<int> to_vector(std::span<const std::int32_t> parents) {
  return {parents.begin(), parents.end()};
}

bnsl::ScoreCache read_text(const std::string& text, const std::vector<std::string>& names = {}) {
  std::istringstream in(text);
  return bnsl::read_jkl(in, "t.jkl", names);
}

std::string write_text(const bnsl::ScoreCache& cache, const bnsl::JklWriteOptions& options = {}) {
  std::ostringstream out;
  bnsl::write_jkl(out, cache, options);
  return out.str();
}

// The InputError message reading `text`, or "no error".
std::string error_of(const std::string& text, const std::vector<std::string>& names = {}) {
  try {
    read_text(text, names);
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "no error";
}

// A cache of n variables with distinct random parent sets of size <= 3 and random scores,
// sorted best first.
bnsl::ScoreCache random_cache(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> score(-1e4, -1e-3);
  std::uniform_int_distribution<int> size(0, 3);
  std::uniform_int_distribution<int> var(0, static_cast<int>(n) - 1);
  bnsl::ScoreCache cache(n);
  for (std::size_t v = 0; v < n; ++v) {
    for (int k = 0; k < 30; ++k) {
      std::vector<int> parents;
      const int want = std::min(size(rng), static_cast<int>(n) - 1);
      while (static_cast<int>(parents.size()) < want) {
        const int p = var(rng);
        if (p != static_cast<int>(v) &&
            std::find(parents.begin(), parents.end(), p) == parents.end()) {
          parents.push_back(p);
        }
      }
      if (cache.var(v).find(parents) < 0) cache.var(v).add(score(rng), parents);
    }
    cache.var(v).sort_best_first();
  }
  return cache;
}

void check_same(const bnsl::ScoreCache& a, const bnsl::ScoreCache& b) {
  REQUIRE(a.n_vars() == b.n_vars());
  for (std::size_t v = 0; v < a.n_vars(); ++v) {
    REQUIRE(a.var(v).size() == b.var(v).size());
    for (std::size_t i = 0; i < a.var(v).size(); ++i) {
      const double x = a.var(v).score(i);
      const double y = b.var(v).score(i);
      CHECK(std::fabs(x - y) <= 1e-9 * std::fabs(x));
      CHECK(to_vector(a.var(v).parents(i)) == to_vector(b.var(v).parents(i)));
    }
  }
}

std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("bnsl_test_jkl_" + name + "_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("VarCache stores parents sorted and sorts entries deterministically", "[cache]") {
  bnsl::VarCache var;
  const int a[] = {7, 1};
  const int b[] = {3};
  const int c[] = {2, 0};
  const int d[] = {0, 5};
  var.add(-10.0, a);
  var.add(-10.0, b);
  var.add(-5.0, {});
  var.add(-10.0, c);
  var.add(-10.0, d);
  CHECK(to_vector(var.parents(0)) == std::vector<int>{1, 7});

  var.sort_best_first();
  REQUIRE(var.size() == 5);
  CHECK(var.score(0) == -5.0);
  CHECK(var.parents(0).empty());
  CHECK(to_vector(var.parents(1)) == std::vector<int>{3});     // fewer parents first
  CHECK(to_vector(var.parents(2)) == std::vector<int>{0, 2});  // then lexicographic
  CHECK(to_vector(var.parents(3)) == std::vector<int>{0, 5});
  CHECK(to_vector(var.parents(4)) == std::vector<int>{1, 7});

  const int query[] = {7, 1};
  CHECK(var.find(query) == 4);
  const int missing[] = {1};
  CHECK(var.find(missing) == -1);
  CHECK(var.find({}) == 0);

  var.filter({true, false, true, false, true});
  REQUIRE(var.size() == 3);
  CHECK(var.parents(0).empty());
  CHECK(to_vector(var.parents(1)) == std::vector<int>{0, 2});
  CHECK(to_vector(var.parents(2)) == std::vector<int>{1, 7});
  CHECK(var.score(2) == -10.0);
  CHECK(var.find(query) == 2);
  CHECK_THROWS_AS(var.filter({true}), std::invalid_argument);

  var.reserve(100, 300);
  CHECK(var.bytes() >= 100 * sizeof(double) + 300 * sizeof(std::int32_t));
}

TEST_CASE("ScoreCache counts entries and checks names", "[cache]") {
  bnsl::ScoreCache cache(3, {"A", "B", "C"});
  const int p[] = {2};
  cache.var(0).add(-1.0, p);
  cache.var(0).add(-2.0, {});
  cache.var(2).add(-3.0, {});
  CHECK(cache.n_vars() == 3);
  CHECK(cache.total_entries() == 3);
  CHECK(cache.names()[1] == "B");
  CHECK(cache.bytes() > cache.var(0).bytes());
  CHECK_THROWS_AS(bnsl::ScoreCache(3, {"A"}), std::invalid_argument);
}

TEST_CASE("jkl round trip keeps scores and parents", "[jkl]") {
  const bnsl::ScoreCache cache = random_cache(12, 42);
  const std::string text = write_text(cache);
  CHECK_THAT(text, StartsWith("12\n0 "));
  check_same(cache, read_text(text));

  SECTION("fewer than 10 digits are never written") {
    bnsl::JklWriteOptions options;
    options.precision = 3;
    check_same(cache, read_text(write_text(cache, options)));
  }
  SECTION("through a file, atomically") {
    const auto dir = scratch_dir("roundtrip");
    const std::string path = (dir / "cache.jkl").string();
    bnsl::write_jkl(path, cache);
    CHECK(std::filesystem::exists(path));
    CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
    check_same(cache, bnsl::read_jkl(path));
    bnsl::write_jkl(path, random_cache(3, 7));  // replaces the old file
    CHECK(bnsl::read_jkl(path).n_vars() == 3);
    std::filesystem::remove_all(dir);
  }
  SECTION("missing directories are created; an unwritable path is a RuntimeError") {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("bnsl-jkl-dirs-" + std::to_string(std::random_device{}()));
    const std::string nested = (dir / "a" / "b" / "cache.jkl").string();
    bnsl::write_jkl(nested, cache);
    check_same(cache, bnsl::read_jkl(nested));
    // A regular file where a directory should be: unwritable even for root.
    CHECK_THROWS_AS(bnsl::write_jkl(nested + "/x.jkl", cache), bnsl::RuntimeError);
    CHECK_FALSE(std::filesystem::exists(nested + "/x.jkl.tmp"));
    std::filesystem::remove_all(dir);
  }
}

TEST_CASE("jkl writes the exact text format", "[jkl]") {
  bnsl::ScoreCache cache(3);
  const int p[] = {2, 1};
  cache.var(0).add(-89.09382988, p);
  cache.var(0).add(-104.30100571, {});
  cache.var(2).add(-1000.0, {});
  CHECK(write_text(cache) == "3\n0 2\n-89.09382988 2 1 2\n-104.30100571 0\n1 0\n2 1\n-1000 0\n");
}

TEST_CASE("jkl slices hold only their variables", "[jkl]") {
  const bnsl::ScoreCache cache = random_cache(6, 5);
  bnsl::JklWriteOptions options;
  options.var_begin = 2;
  options.var_end = 4;
  const std::string text = write_text(cache, options);
  CHECK_THAT(text, StartsWith("6\n2 "));
  const bnsl::ScoreCache slice = read_text(text);
  REQUIRE(slice.n_vars() == 6);
  for (std::size_t v = 0; v < 6; ++v) {
    CHECK(slice.var(v).size() == (v == 2 || v == 3 ? cache.var(v).size() : 0));
  }
  CHECK(slice.total_entries() == cache.var(2).size() + cache.var(3).size());

  options.var_begin = 4;
  options.var_end = 100;  // clipped to n
  const bnsl::ScoreCache tail = read_text(write_text(cache, options));
  CHECK(tail.total_entries() == cache.var(4).size() + cache.var(5).size());
}

TEST_CASE("jkl reads comments, blank lines, CRLF and number forms", "[jkl]") {
  const std::string text =
      "# a comment\r\n\r\n3\r\n  # indented comment\n0 3\n-1.0e+03 1 2\n"
      "\t-89.09382988\t2\t2 1\n+5 0\n\n2 1\n-7 1 0   \n";
  const bnsl::ScoreCache cache = read_text(text);
  REQUIRE(cache.var(0).size() == 3);
  CHECK(cache.var(0).score(0) == 5.0);
  CHECK(cache.var(0).score(1) == -89.09382988);
  CHECK(to_vector(cache.var(0).parents(1)) == std::vector<int>{1, 2});
  CHECK(cache.var(0).score(2) == -1000.0);
  CHECK(cache.var(1).empty());
  REQUIRE(cache.var(2).size() == 1);
  CHECK(cache.names().empty());
}

TEST_CASE("jkl variables as names or indices", "[jkl]") {
  const std::vector<std::string> names = {"A", "B", "C"};

  SECTION("given names resolve names and indices alike") {
    const bnsl::ScoreCache cache = read_text("3\nC 2\n-1 2 A 1\n-2 1 B\n0 1\n-3 0\n", names);
    CHECK(cache.names() == names);
    REQUIRE(cache.var(2).size() == 2);
    CHECK(to_vector(cache.var(2).parents(0)) == std::vector<int>{0, 1});
    CHECK(to_vector(cache.var(2).parents(1)) == std::vector<int>{1});
    CHECK(cache.var(0).size() == 1);
    CHECK(cache.var(1).empty());
  }
  SECTION("a token equal to a given name is that name, even if it is an integer") {
    const std::vector<std::string> odd = {"x", "0", "y"};  // variable 1 is named "0"
    const bnsl::ScoreCache cache = read_text("3\n0 1\n-1 1 2\n", odd);
    CHECK(cache.var(0).empty());
    REQUIRE(cache.var(1).size() == 1);
    CHECK(to_vector(cache.var(1).parents(0)) == std::vector<int>{2});
  }
  SECTION("without names, block headers name variables in file order") {
    // B's parents refer to C before C's block; indices may be mixed in.
    const bnsl::ScoreCache cache = read_text("3\nA 1\n-1 0\nB 2\n-2 1 C\n-3 2 0 C\nC 1\n-4 1 A\n");
    CHECK(cache.names() == names);
    REQUIRE(cache.var(1).size() == 2);
    CHECK(to_vector(cache.var(1).parents(0)) == std::vector<int>{2});
    CHECK(to_vector(cache.var(1).parents(1)) == std::vector<int>{0, 2});
    CHECK(to_vector(cache.var(2).parents(0)) == std::vector<int>{0});
  }
  SECTION("without names, index headers give no names") {
    CHECK(read_text("2\n1 1\n-1 1 0\n").names().empty());
  }
}

TEST_CASE("jkl reports malformed input with its line", "[jkl]") {
  struct Case {
    const char* text;
    const char* where;  // expected "t.jkl:LINE:COL" prefix
    const char* what;   // expected part of the message
  };
  const Case cases[] = {
      {"", "t.jkl:1", "empty file"},
      {"# only a comment\n", "t.jkl:1", "empty file"},
      {"x\n", "t.jkl:1:1", "number of variables"},
      {"0\n", "t.jkl:1:1", "number of variables"},
      {"-3\n", "t.jkl:1:1", "number of variables"},
      {"3 4\n", "t.jkl:1:3", "trailing garbage"},
      {"2\n0 x\n", "t.jkl:2:3", "bad entry count"},
      {"2\n0 -1\n", "t.jkl:2:3", "bad entry count"},
      {"2\n0 1 x\n", "t.jkl:2:5", "expected a block header"},
      {"2\n0 2\n-1 0\n", "t.jkl:2:1", "ends after 1"},
      {"2\n0 2\n-1 0\n1 1\n-2 0\n", "t.jkl:4:1", "has only 1"},
      {"2\n0 2\n-1 0\n\nB 1\n-2 0\n", "t.jkl:5:1", "has only 1"},
      {"2\n0 1\n-1 0\n-2 1 1\n", "t.jkl:4:", "expected a block header"},
      {"3\n0 1\n-1 2 1\n", "t.jkl:3:4", "SIZE is 2 but 1 parents follow"},
      {"3\n0 1\n-1 1 1 2\n", "t.jkl:3:8", "trailing garbage"},
      {"3\n0 1\n-1 x 1\n", "t.jkl:3:4", "SIZE"},
      {"3\n0 1\n-1\n", "t.jkl:3:3", "SIZE"},
      {"3\n0 1\n-1 1 foo\n", "t.jkl:3:6", "unknown variable 'foo'"},
      {"3\n1 1\n-1 1 1\n", "t.jkl:3:6", "its own parent"},
      {"3\n0 1\n-1 2 1 1\n", "t.jkl:3:8", "duplicate parent '1'"},
      {"3\n0 1\n-1 0\n0 1\n-2 0\n", "t.jkl:4:1",
       "second block for variable '0' (the first is at line 2)"},
      {"3\n0 1\n-1 1 3\n", "t.jkl:3:6", "out of range"},
      {"3\n0 1\n-1 1 -1\n", "t.jkl:3:6", "out of range"},
      {"3\n3 0\n", "t.jkl:2:1", "out of range"},
      {"3\n0 1\nabc 0\n", "t.jkl:3:1", "non-numeric score 'abc'"},
      {"3\n0 1\n-1.5x 0\n", "t.jkl:3:1", "non-numeric score"},
      {"3\n0 1\ninf 0\n", "t.jkl:3:1", "finite"},
      {"# c\n\n3\n\n0 1\n# c\n-1 1 x\n", "t.jkl:7:6", "unknown variable"},
  };
  for (const Case& c : cases) {
    INFO("input: " << c.text);
    CHECK_THAT(error_of(c.text), StartsWith(std::string(c.where)) && Contains(c.what));
  }
}

TEST_CASE("jkl reports malformed names with their line", "[jkl]") {
  CHECK_THAT(error_of("2\nA 1\n-1 0\nA 1\n-2 0\n"),
             StartsWith("t.jkl:4:1:") && Contains("second block for variable 'A'"));
  CHECK_THAT(error_of("1\nA 0\nB 0\n"), StartsWith("t.jkl:3:1:") && Contains("only 1 variables"));
  CHECK_THAT(error_of("2\nA 1\n-1 1 B\n"), StartsWith("t.jkl:3:6:") && Contains("unknown"));
  CHECK_THAT(error_of("2\n0 0\n", {"A", "B", "C"}),
             StartsWith("t.jkl:1:1:") && Contains("3 names were given"));
  CHECK_THAT(error_of("3\nfoo 1\n-1 0\n", {"A", "B", "C"}),
             StartsWith("t.jkl:2:1:") && Contains("unknown variable 'foo'"));
  CHECK_THROWS_AS(bnsl::read_jkl("/nonexistent-dir/none.jkl"), bnsl::InputError);
}

TEST_CASE("jkl reads the bundled wine.BIC.3", "[jkl][data]") {
  const bnsl::ScoreCache cache = bnsl::read_jkl(BNSL_DATASETS_DIR "/wine.BIC.3");
  REQUIRE(cache.n_vars() == 14);
  CHECK(cache.names().empty());
  CHECK(cache.total_entries() == 607 - 1 - 14);  // lines minus n and the 14 block headers
  const bnsl::VarCache& var = cache.var(0);
  REQUIRE(var.size() == 96);
  CHECK(var.score(0) == Approx(-89.09382988).epsilon(1e-12));
  CHECK(to_vector(var.parents(0)) == std::vector<int>{1, 7});
  CHECK(var.find({}) >= 0);
  const std::size_t sizes[] = {96, 37, 50, 14, 46, 13, 57, 71, 33, 26, 35, 19, 52, 43};
  for (std::size_t v = 0; v < 14; ++v) {
    CHECK(cache.var(v).size() == sizes[v]);
    for (std::size_t i = 1; i < cache.var(v).size(); ++i) {
      CHECK(cache.var(v).score(i - 1) >= cache.var(v).score(i));
    }
  }
}

TEST_CASE("jkl reads the bundled asia file with variable names", "[jkl][data]") {
  const std::string path = BNSL_DATASETS_DIR "/asia_10000.dat.3.jkl";
  const std::vector<std::string> names = {"One",  "Two", "Three", "Four",
                                          "Five", "Six", "Seven", "Eight"};
  const bnsl::ScoreCache cache = bnsl::read_jkl(path);
  REQUIRE(cache.n_vars() == 8);
  CHECK(cache.names() == names);
  for (std::size_t v = 0; v < 8; ++v) CHECK(cache.var(v).size() == 64);
  CHECK(cache.var(0).score(0) == Approx(-6227.61575999).epsilon(1e-12));
  CHECK(to_vector(cache.var(0).parents(0)) == std::vector<int>{1, 2});  // Two, Three

  // The same file read against the names in another order.
  const std::vector<std::string> reversed(names.rbegin(), names.rend());
  const bnsl::ScoreCache other = bnsl::read_jkl(path, reversed);
  REQUIRE(other.var(7).size() == 64);
  CHECK(other.var(7).score(0) == cache.var(0).score(0));
  CHECK(to_vector(other.var(7).parents(0)) == std::vector<int>{5, 6});  // Three, Two

  // Written back with indices, it reads the same.
  check_same(cache, read_text(write_text(cache)));
}

// The reader must handle a cache of tens of megabytes quickly: it parses the text in memory
// with string_view and from_chars. No timing is asserted; this checks it reads such a file
// correctly, and a run of this case shows the cost (well under a second in a release build).
TEST_CASE("jkl reads a 50 MB cache", "[jkl][large]") {
  constexpr std::size_t kVars = 500;
  constexpr std::size_t kPerVar = 5000;  // about 20 bytes a line: ~ 50 MB
  std::string text = std::to_string(kVars) + "\n";
  text.reserve(55u << 20);
  std::mt19937 rng(1);
  char line[96];
  for (std::size_t v = 0; v < kVars; ++v) {
    text += std::to_string(v) + ' ' + std::to_string(kPerVar) + '\n';
    for (std::size_t i = 0; i < kPerVar; ++i) {
      const int a = static_cast<int>((v + 1 + i % 97) % kVars);
      const int b = static_cast<int>((v + 100 + i / 97) % kVars);
      const double score = -1000.0 - static_cast<double>(rng() % 100000000) / 1e4;
      const int length = std::snprintf(line, sizeof line, "%.12g 2 %d %d\n", score, a, b);
      text.append(line, static_cast<std::size_t>(length));
    }
  }
  CHECK(text.size() > (45u << 20));
  const bnsl::ScoreCache cache = read_text(text);
  CHECK(cache.total_entries() == kVars * kPerVar);
  CHECK(cache.var(kVars - 1).size() == kPerVar);
}
