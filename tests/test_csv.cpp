// Tests of the data layer: Dataset storage and read_csv, including every input error with the
// line and column it must report. Expected codes are written by hand from the file contents.
#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

using bnsl_test::TempDir;

std::vector<int> column(const bnsl::Dataset& d, std::size_t v) {
  std::vector<int> out;
  for (std::size_t i = 0; i < d.n_rows(); ++i) out.push_back(d.code(v, i));
  return out;
}

// The message of the InputError that reading `path` throws, or "" when it succeeds.
std::string error_of(const std::string& path, const bnsl::CsvOptions& opt = {}) {
  try {
    bnsl::read_csv(path, opt);
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "";
}

// Writes `content` to bad.csv and returns the error it raises.
std::string csv_error(const std::string& content, const bnsl::CsvOptions& opt = {}) {
  TempDir dir;
  return error_of(dir.write("bad.csv", content), opt);
}

// "F:1:1: ..." -> "1:1: ..." so messages can be checked independently of the temp path.
std::string located(const std::string& message) {
  auto pos = message.find("bad.csv:");
  return pos == std::string::npos ? message : message.substr(pos + 8);
}

}  // namespace

TEST_CASE("InputError formats FILE:LINE:COL", "[csv][error]") {
  CHECK(std::string(bnsl::InputError("f.csv", 3, 7, "bad").what()) == "f.csv:3:7: bad");
  CHECK(std::string(bnsl::InputError("f.csv", 3, 0, "bad").what()) == "f.csv:3: bad");
  CHECK(std::string(bnsl::InputError("f.csv", 0, 0, "bad").what()) == "f.csv: bad");
  CHECK(std::string(bnsl::InputError("plain").what()) == "plain");
}

TEST_CASE("read_csv maps values to codes in order of first appearance", "[csv]") {
  TempDir dir;
  auto path = dir.write("a.csv", "A,B,C\nx,1,c\ny,1,c\nx,2,c\nz,1,c\n");
  bnsl::Dataset d = bnsl::read_csv(path, {});
  REQUIRE(d.n_vars() == 3);
  REQUIRE(d.n_rows() == 4);
  CHECK(d.names() == std::vector<std::string>{"A", "B", "C"});
  CHECK(d.arity(0) == 3);
  CHECK(d.arity(1) == 2);
  CHECK(d.arity(2) == 1);  // constant columns are legal
  CHECK(column(d, 0) == std::vector<int>{0, 1, 0, 2});
  CHECK(column(d, 1) == std::vector<int>{0, 0, 1, 0});
  CHECK(column(d, 2) == std::vector<int>{0, 0, 0, 0});
  CHECK(d.state_name(0, 0) == "x");
  CHECK(d.state_name(0, 2) == "z");
  CHECK(d.state_name(1, 1) == "2");
  CHECK_FALSE(d.wide(0));
  CHECK(d.codes8(0)[3] == 2);
}

TEST_CASE("read_csv without a header names columns V0..", "[csv]") {
  TempDir dir;
  auto path = dir.write("a.csv", "0,1\n1,1\n0,0");  // no final newline
  bnsl::CsvOptions opt;
  opt.header = false;
  bnsl::Dataset d = bnsl::read_csv(path, opt);
  REQUIRE(d.n_rows() == 3);
  CHECK(d.names() == std::vector<std::string>{"V0", "V1"});
  CHECK(column(d, 0) == std::vector<int>{0, 1, 0});
  CHECK(column(d, 1) == std::vector<int>{0, 0, 1});
  CHECK(d.state_name(1, 1) == "0");
}

TEST_CASE("read_csv honours the delimiter and takes other characters literally", "[csv]") {
  TempDir dir;
  bnsl::CsvOptions opt;
  opt.delimiter = ';';
  bnsl::Dataset d = bnsl::read_csv(dir.write("a.csv", "A;B\n1,5;x y\n2,5; x y\n1,5;x y\n"), opt);
  REQUIRE(d.n_vars() == 2);
  CHECK(column(d, 0) == std::vector<int>{0, 1, 0});
  CHECK(d.state_name(0, 0) == "1,5");
  CHECK(column(d, 1) == std::vector<int>{0, 1, 0});  // " x y" differs from "x y"
  opt.delimiter = '\t';
  bnsl::Dataset t = bnsl::read_csv(dir.write("b.tsv", "A\tB\na\tb\n"), opt);
  CHECK(t.names() == std::vector<std::string>{"A", "B"});
  CHECK(t.state_name(1, 0) == "b");
}

TEST_CASE("read_csv accepts CRLF line breaks, a BOM and trailing line breaks", "[csv]") {
  TempDir dir;
  std::string bom = "\xEF\xBB\xBF";
  bnsl::Dataset d = bnsl::read_csv(dir.write("a.csv", bom + "A,B\r\na,b\r\nc,b\r\n\r\n"), {});
  CHECK(d.names() == std::vector<std::string>{"A", "B"});
  REQUIRE(d.n_rows() == 2);
  CHECK(d.state_name(1, 0) == "b");  // no '\r' left in the last field
  CHECK(d.arity(1) == 1);
}

TEST_CASE("read_csv strips enclosing double quotes", "[csv]") {
  TempDir dir;
  auto path = dir.write("a.csv", "\"A\",B\n\"x,1\",\"say \"\"hi\"\"\"\nx,\"\"\"\"\n\"x\",b\n");
  bnsl::Dataset d = bnsl::read_csv(path, {});
  CHECK(d.names() == std::vector<std::string>{"A", "B"});
  CHECK(column(d, 0) == std::vector<int>{0, 1, 1});
  CHECK(d.state_name(0, 0) == "x,1");
  CHECK(d.state_name(1, 0) == "say \"hi\"");
  CHECK(d.state_name(1, 1) == "\"");
}

TEST_CASE("read_csv stores columns of more than 256 states as 16-bit codes", "[csv]") {
  TempDir dir;
  std::string text = "W,N,E\n";
  for (int i = 0; i < 300; ++i) {
    text += "w" + std::to_string(i) + "," + std::to_string(i % 256) + "," +
            std::to_string(i % 257) + "\n";
  }
  bnsl::Dataset d = bnsl::read_csv(dir.write("wide.csv", text), {});
  REQUIRE(d.n_rows() == 300);
  CHECK(d.arity(0) == 300);
  CHECK(d.wide(0));
  CHECK(d.codes16(0)[299] == 299);
  CHECK(d.code(0, 299) == 299);
  CHECK(d.state_name(0, 299) == "w299");
  CHECK(d.arity(1) == 256);  // the largest narrow column
  CHECK_FALSE(d.wide(1));
  CHECK(d.codes8(1)[299] == 43);
  CHECK(d.arity(2) == 257);
  CHECK(d.wide(2));
  CHECK(d.code(2, 257) == 0);
}

TEST_CASE("read_csv treats missing values as states on request", "[csv]") {
  TempDir dir;
  bnsl::CsvOptions opt;
  opt.missing_as_state = true;
  bnsl::Dataset d = bnsl::read_csv(dir.write("m.csv", "A,B\nNA,1\n?,\na,1\nNA,\n"), opt);
  CHECK(d.arity(0) == 3);
  CHECK(column(d, 0) == std::vector<int>{0, 1, 2, 0});
  CHECK(d.state_name(0, 0) == "NA");
  CHECK(d.state_name(0, 1) == "?");
  CHECK(column(d, 1) == std::vector<int>{0, 1, 0, 1});
  CHECK(d.state_name(1, 1).empty());
}

TEST_CASE("read_csv reports file-level errors", "[csv][error]") {
  TempDir dir;
  std::string missing = (fs::path(dir.write("x", "")).parent_path() / "nope.csv").string();
  std::string msg = error_of(missing);
  CHECK(msg.rfind(missing + ": cannot open: ", 0) == 0);
  CHECK(msg.find("No such file") != std::string::npos);
  CHECK(located(csv_error("")) == "1:1: empty file");
  CHECK(located(csv_error("\n\r\n")) == "1:1: empty file");
  CHECK(located(csv_error("A,B\n")) == "2:1: no data rows after the header");
  CHECK(located(csv_error("A,B")) == "2:1: no data rows after the header");
}

TEST_CASE("read_csv reports ragged rows and blank lines", "[csv][error]") {
  CHECK(located(csv_error("A,B\n1,2\n1,2,3\n")) == "3:5: expected 2 fields, found 3");
  CHECK(located(csv_error("A,B,C\n1,2,3\n10,2\n")) == "3:5: expected 3 fields, found 2");
  CHECK(located(csv_error("A,B\n1,2\n\n1,2\n")) == "3:1: empty line; expected 2 fields");
  CHECK(located(csv_error("A,B\r\n1,2\r\n\r\n1,2\r\n")) == "3:1: empty line; expected 2 fields");
  bnsl::CsvOptions no_header;
  no_header.header = false;
  CHECK(located(csv_error("1,2\n1\n", no_header)) == "2:2: expected 2 fields, found 1");
}

TEST_CASE("read_csv reports missing values with line and column", "[csv][error]") {
  CHECK(located(csv_error("A,B\n1,2\n1,\n")) ==
        "3:3: missing value '' in column 'B' (use --missing-as-state to treat it as a state)");
  CHECK(located(csv_error("A,B\n1,2\nNA,2\n")).rfind("3:1: missing value 'NA' in column 'A'", 0) ==
        0);
  CHECK(located(csv_error("A,B,C\n1,2,3\n1,22,?\n")).rfind("3:6: missing value '?'", 0) == 0);
  CHECK(located(csv_error("A,B\n,2\n")).rfind("2:1: missing value ''", 0) == 0);
  CHECK(located(csv_error("A,B\n1,\"\"\n")).rfind("2:3: missing value ''", 0) == 0);
  // Columns count characters, not bytes: "é" is two bytes in UTF-8.
  CHECK(located(csv_error("A,B\né,NA\n")).rfind("2:3: missing value 'NA'", 0) == 0);
}

TEST_CASE("read_csv reports malformed quotes", "[csv][error]") {
  CHECK(located(csv_error("A,B\n1,\"abc\n")) == "2:3: unterminated quoted field");
  CHECK(located(csv_error("A,B\n\"a\"b,1\n")) ==
        "2:4: unexpected character after the closing quote of a field");
}

TEST_CASE("read_csv reports duplicate and empty column names", "[csv][error]") {
  CHECK(located(csv_error("A,B,AB,B\n1,2,3,4\n")) ==
        "1:8: duplicate column name 'B' (also field 2)");
  CHECK(located(csv_error("A,,C\n1,2,3\n")) == "1:3: empty column name");
}

TEST_CASE("read_csv allows 65,535 states in a column and rejects 65,536", "[csv][error]") {
  std::string text = "A,B\n";
  for (int i = 0; i < 65535; ++i) text += "0," + std::to_string(i) + "\n";
  TempDir dir;
  bnsl::Dataset d = bnsl::read_csv(dir.write("ok.csv", text), {});
  CHECK(d.arity(1) == 65535);
  CHECK(d.wide(1));
  CHECK(d.code(1, 65534) == 65534);
  text += "0,65535\n";  // line 65,537
  CHECK(located(csv_error(text)) == "65537:3: column 'B' has more than 65,535 distinct values");
}

TEST_CASE("Dataset::from_codes and add_column", "[csv][dataset]") {
  bnsl::Dataset d = bnsl::Dataset::from_codes({{0, 1, 2}, {1, 1, 0}}, {3, 2});
  CHECK(d.names() == std::vector<std::string>{"V0", "V1"});
  CHECK(d.n_rows() == 3);
  CHECK(d.arity(0) == 3);
  CHECK(d.state_name(0, 2) == "2");
  CHECK(column(d, 1) == std::vector<int>{1, 1, 0});
  // Arity is taken as given, even when some states never occur.
  bnsl::Dataset w = bnsl::Dataset::from_codes({{299, 0}}, {300}, {"W"});
  CHECK(w.name(0) == "W");
  CHECK(w.wide(0));
  CHECK(w.code(0, 0) == 299);
  d.add_column("X", {"a", "b"}, {1, 0, 1});
  CHECK(d.n_vars() == 3);
  CHECK(column(d, 2) == std::vector<int>{1, 0, 1});
  CHECK_THROWS(d.add_column("Y", {"a"}, {0, 0}));     // wrong number of rows
  CHECK_THROWS(d.add_column("Z", {"a"}, {0, 1, 0}));  // code out of range
  CHECK_THROWS(bnsl::Dataset::from_codes({{0, 3}}, {3}));
}

TEST_CASE("bundled data sets read as documented", "[csv][datasets]") {
  std::string dir = BNSL_DATASETS_DIR;
  bnsl::Dataset alarm = bnsl::read_csv(dir + "/alarm-5000.csv", {});
  CHECK(alarm.n_vars() == 37);
  CHECK(alarm.n_rows() == 5000);
  CHECK(alarm.name(0) == "HISTORY");
  CHECK(alarm.state_name(0, alarm.code(0, 0)) == "FALSE");
  bnsl::CsvOptions no_header;
  no_header.header = false;
  bnsl::Dataset wine = bnsl::read_csv(dir + "/wine.csv", no_header);
  CHECK(wine.n_vars() == 14);
  CHECK(wine.n_rows() == 178);
  CHECK(wine.arity(0) == 3);  // per-column distinct counts: 3 then thirteen 2s
  for (std::size_t v = 1; v < 14; ++v) CHECK(wine.arity(v) == 2);
}
