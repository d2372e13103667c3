// Arc lists between named variables (bnsl/arcs.hpp): a small line reader of its own, so that
// every error names the line and the column of the field at fault.
#include "bnsl/arcs.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "bnsl/error.hpp"

namespace bnsl {
namespace {

struct Field {
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
std::vector<Field> split(const std::string& line, const std::string& file, std::size_t lineno) {
  std::vector<Field> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    const std::string raw =
        line.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    std::size_t lead = 0;
    Field f{trim(raw, &lead), start + lead + 1};
    if (f.text.size() >= 2 && f.text.front() == '"' && f.text.back() == '"')
      f.text = f.text.substr(1, f.text.size() - 2);
    else if (f.text.find('"') != std::string::npos)
      throw InputError(file, lineno, f.col, "unbalanced quote in a field");
    out.push_back(std::move(f));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

std::vector<NamedArc> parse_arcs(const std::string& text, const std::string& file,
                                 const std::vector<std::string>& names, bool weighted) {
  std::unordered_map<std::string, int> index;
  for (std::size_t i = 0; i < names.size(); ++i) index.emplace(names[i], static_cast<int>(i));
  const std::size_t columns = weighted ? 3 : 2;
  const std::string expected = weighted ? "from,to[,weight]" : "from,to";
  std::vector<NamedArc> out;
  std::set<std::pair<int, int>> seen;
  std::istringstream in(text);
  std::string line;
  bool header = false;
  for (std::size_t lineno = 1; std::getline(in, line); ++lineno) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const std::vector<Field> f = split(line, file, lineno);
    if (!header) {
      const bool ok = (f.size() == 2 || (weighted && f.size() == 3)) && f[0].text == "from" &&
                      f[1].text == "to" && (f.size() == 2 || f[2].text == "weight");
      if (!ok)
        throw InputError(file, lineno, 1,
                         "expected the header line " + std::string(weighted ? "from,to or "
                                                                              "from,to,weight"
                                                                            : "from,to"));
      header = true;
      continue;
    }
    if (f.size() < 2 || f.size() > columns)
      throw InputError(file, lineno, f.size() < 2 ? line.size() + 1 : f[columns].col,
                       "expected " + expected + " (" + std::to_string(f.size()) + " fields)");
    NamedArc a;
    for (int k = 0; k < 2; ++k) {
      const auto it = index.find(f[k].text);
      if (it == index.end())
        throw InputError(file, lineno, f[k].col, "unknown variable '" + f[k].text + "'");
      (k == 0 ? a.from : a.to) = it->second;
    }
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
  }
  if (!header) throw InputError(file, 1, 1, "empty file: expected the header line " + expected);
  return out;
}

std::vector<NamedArc> read_arcs(const std::string& path, const std::vector<std::string>& names,
                                bool weighted) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_arcs(text.str(), path, names, weighted);
}

}  // namespace bnsl
