// Arc lists and tiers of named variables (bnsl/arcs.hpp, bnsl/constraints.hpp): a small line
// reader of their own, so that every error names the line and the column of the field at fault.
#include "bnsl/arcs.hpp"
#include "bnsl/constraints.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "bnsl/error.hpp"

namespace bnsl {
namespace {

struct ArcField {
  std::string text;
  std::size_t col = 1;  // 1-based column of its first character
};

std::string trim(const std::string& s, std::size_t* lead = nullptr) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  if (lead) *lead = b;
  return s.substr(b, e - b);
}

// Splits a line at commas; a field may be "quoted" (no commas or quotes inside).
std::vector<ArcField> split(const std::string& line, const std::string& file, std::size_t lineno) {
  std::vector<ArcField> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    const std::string raw =
        line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t lead = 0;
    ArcField f{trim(raw, &lead), start + lead + 1};
    if (f.text.size() >= 2 && f.text.front() == '"' && f.text.back() == '"')
      f.text = f.text.substr(1, f.text.size() - 2);
    else if (f.text.find('"') != std::string::npos)
      throw InputError(file, lineno, f.col, "unbalanced quote in a field");
    out.push_back(std::move(f));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string read_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, 0, 0, "cannot read: is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A list file's text as lines end in '\n': without a UTF-8 byte-order mark (spreadsheets write
// one), and with a classic Mac OS file's CR-only line ends made '\n' (CR LF lines keep their
// CR, which trim() drops).
std::string plain_lines(const std::string& text) {
  std::string out = text.starts_with("\xEF\xBB\xBF") ? text.substr(3) : text;
  if (out.find('\n') == std::string::npos) std::replace(out.begin(), out.end(), '\r', '\n');
  return out;
}

// The records of a list file: skips blank and '#' lines, checks the header line with
// header(fields) (else "expected the header line HEADER_TEXT"), then calls row(lineno, line,
// fields) for each record line.
template <class Header, class Row>
void read_records(const std::string& text, const std::string& file, const std::string& header_text,
                  Header header, Row row) {
  std::istringstream in(plain_lines(text));
  std::string line;
  bool seen_header = false;
  for (std::size_t lineno = 1; std::getline(in, line); ++lineno) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::vector<ArcField> f = split(line, file, lineno);
    if (seen_header) {
      row(lineno, line, f);
    } else if (header(f)) {
      seen_header = true;
    } else {
      throw InputError(file, lineno, 1, "expected the header line " + header_text);
    }
  }
  if (!seen_header)
    throw InputError(file, 1, 1, "empty file: expected the header line " + header_text);
}

// A variable's index by name; InputError at the field otherwise.
class NameIndex {
 public:
  explicit NameIndex(const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < names.size(); ++i) index_.emplace(names[i], static_cast<int>(i));
  }
  int at(const ArcField& f, const std::string& file, std::size_t lineno) const {
    const auto it = index_.find(f.text);
    if (it == index_.end())
      throw InputError(file, lineno, f.col, "unknown variable '" + f.text + "'");
    return it->second;
  }

 private:
  std::unordered_map<std::string, int> index_;
};

}  // namespace

std::vector<NamedArc> parse_arcs(const std::string& text, const std::string& file,
                                 const std::vector<std::string>& names, bool weighted) {
  const NameIndex index(names);
  const std::size_t columns = weighted ? 3 : 2;
  const std::string expected = weighted ? "from,to[,weight]" : "from,to";
  std::vector<NamedArc> out;
  std::set<std::pair<int, int>> seen;
  const auto header = [&](const std::vector<ArcField>& f) {
    return (f.size() == 2 || (weighted && f.size() == 3)) && f[0].text == "from" &&
           f[1].text == "to" && (f.size() == 2 || f[2].text == "weight");
  };
  const auto row = [&](std::size_t lineno, const std::string& line,
                       const std::vector<ArcField>& f) {
    if (f.size() < 2 || f.size() > columns)
      throw InputError(file, lineno, f.size() < 2 ? line.size() + 1 : f[columns].col,
                       "expected " + expected + " (" + std::to_string(f.size()) + " fields)");
    NamedArc a;
    a.line = lineno;
    a.from = index.at(f[0], file, lineno);
    a.to = index.at(f[1], file, lineno);
    if (a.from == a.to)
      throw InputError(file, lineno, f[1].col, "an arc from '" + f[0].text + "' to itself");
    if (f.size() == 3) {
      std::size_t used = 0;
      try {
        a.weight = std::stod(f[2].text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != f[2].text.size() || !std::isfinite(a.weight))
        throw InputError(file, lineno, f[2].col, "expected a finite number as the weight");
    }
    if (!seen.insert({a.from, a.to}).second)
      throw InputError(file, lineno, f[0].col,
                       "the arc " + f[0].text + " -> " + f[1].text + " is listed twice");
    out.push_back(a);
  };
  read_records(text, file, weighted ? "from,to or from,to,weight" : "from,to", header, row);
  return out;
}

std::vector<int> parse_tiers(const std::string& text, const std::string& file,
                             const std::vector<std::string>& names) {
  const NameIndex index(names);
  std::vector<int> tiers(names.size(), -1);
  std::vector<std::size_t> listed_at(names.size(), 0);
  const auto header = [](const std::vector<ArcField>& f) {
    return f.size() == 2 && f[0].text == "variable" && f[1].text == "tier";
  };
  const auto row = [&](std::size_t lineno, const std::string& line,
                       const std::vector<ArcField>& f) {
    if (f.size() != 2)
      throw InputError(file, lineno, f.size() < 2 ? line.size() + 1 : f[2].col,
                       "expected variable,tier (" + std::to_string(f.size()) + " fields)");
    const auto v = static_cast<std::size_t>(index.at(f[0], file, lineno));
    if (listed_at[v] != 0)
      throw InputError(
          file, lineno, f[0].col,
          "'" + f[0].text + "' is already listed on line " + std::to_string(listed_at[v]));
    const std::string& s = f[1].text;
    std::size_t used = 0;
    long tier = -1;
    try {
      tier = std::stol(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size() || tier < 0 || tier > 1'000'000)
      throw InputError(file, lineno, f[1].col,
                       "expected the tier as an integer from 0 to 1000000, got '" + s + "'");
    tiers[v] = static_cast<int>(tier);
    listed_at[v] = lineno;
  };
  read_records(text, file, "variable,tier", header, row);
  return tiers;
}

std::vector<NamedArc> read_arcs(const std::string& path, const std::vector<std::string>& names,
                                bool weighted) {
  return parse_arcs(read_text(path), path, names, weighted);
}

std::vector<int> read_tiers(const std::string& path, const std::vector<std::string>& names) {
  return parse_tiers(read_text(path), path, names);
}

Constraints read_constraints(const ConstraintFiles& files, const std::vector<std::string>& names) {
  std::vector<NamedArc> required, forbidden;
  std::vector<int> tiers;
  if (!files.forbid.empty()) forbidden = read_arcs(files.forbid, names, false);
  if (!files.tiers.empty()) tiers = read_tiers(files.tiers, names);
  if (!files.require.empty()) required = read_arcs(files.require, names, false);
  return make_constraints(required, forbidden, std::move(tiers), files, names);
}

}  // namespace bnsl
