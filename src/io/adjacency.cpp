// A network's structure as an adjacency matrix in CSV (bnsl/network_io.hpp), the layout
// Benchpress and R's write.csv(row.names = FALSE) exchange: a header row of the variables'
// names, then one row per variable in the same order, the cell in row i and column j 1 when
// there is an arc from variable i to variable j, else 0. The reader also takes R's default
// layout, where the header starts with an empty cell and every row with the variable's name.
// Fields may be double-quoted ("" for a quote). A 1 on the diagonal, both a[i][j] and a[j][i]
// (an undirected edge) or a cycle is refused.
#include "bnsl/error.hpp"
#include "io/net_formats.hpp"
#include "util/csv_field.hpp"

namespace bnsl {
namespace {

struct Cell {
  std::string text;
  std::size_t col = 1;
};

std::vector<Cell> split_line(const std::string& line, const std::string& file, std::size_t lineno) {
  std::vector<Cell> out;
  std::size_t i = 0, col = 1;
  for (;;) {
    Cell c{"", col};
    if (i < line.size() && line[i] == '"') {
      ++i;
      ++col;
      for (;;) {
        if (i >= line.size()) throw InputError(file, lineno, c.col, "unterminated quoted field");
        if (line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"') {
          c.text += '"';
          i += 2;
          col += 2;
        } else if (line[i] == '"') {
          ++i;
          ++col;
          break;
        } else {
          if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++col;
          c.text += line[i++];
        }
      }
      if (i < line.size() && line[i] != ',')
        throw InputError(file, lineno, col, "expected ',' after the closing quote");
    } else {
      while (i < line.size() && line[i] != ',') {
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++col;
        c.text += line[i++];
      }
    }
    out.push_back(std::move(c));
    if (i >= line.size()) return out;
    ++i;
    ++col;
  }
}

}  // namespace

BayesNet parse_adjacency(const std::string& text, const std::string& file) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) start = 3;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(start, nl - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = nl + 1;
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) throw InputError(file, 1, 1, "expected a header row of variable names");
  std::vector<Cell> header = split_line(lines[0], file, 1);
  const bool row_names = header.size() > 1 && header[0].text.empty();
  if (row_names) header.erase(header.begin());
  BayesNet net;
  for (const Cell& c : header) {
    if (c.text.empty()) throw InputError(file, 1, c.col, "expected a variable name");
    net.names.push_back(c.text);
    net.declared_at.emplace_back(1, c.col);
  }
  const std::size_t n = net.n_vars();
  apply_name_records(net, {}, file);  // names unique
  if (lines.size() != n + 1)
    throw InputError(file, lines.size(), 1,
                     "expected " + std::to_string(n) + " rows of 0/1 after the header, found " +
                         std::to_string(lines.size() - 1));
  net.states.assign(n, {});
  net.parents.assign(n, {});
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t lineno = i + 2;
    std::vector<Cell> row = split_line(lines[i + 1], file, lineno);
    if (row_names) {
      if (row.empty() || row[0].text != net.names[i])
        throw InputError(file, lineno, 1, "expected the row of '" + net.names[i] + "'");
      row.erase(row.begin());
    }
    if (row.size() != n)
      throw InputError(
          file, lineno, row.size() > n ? row[n].col : 1,
          "expected " + std::to_string(n) + " cells, found " + std::to_string(row.size()));
    for (std::size_t j = 0; j < n; ++j) {
      if (row[j].text != "0" && row[j].text != "1")
        throw InputError(file, lineno, row[j].col, "expected 0 or 1, got '" + row[j].text + "'");
      if (row[j].text == "0") continue;
      if (i == j) throw InputError(file, lineno, row[j].col, "expected 0 on the diagonal");
      net.parents[j].push_back(static_cast<int>(i));
    }
  }
  for (std::size_t j = 0; j < n; ++j)
    for (int i : net.parents[j])
      for (int back : net.parents[i])
        if (back == static_cast<int>(j))
          throw InputError(file, static_cast<std::size_t>(i) + 2, 1,
                           "an undirected edge between '" + net.names[i] + "' and '" +
                               net.names[j] + "' (1 both ways): a network's arcs are directed");
  return net;
}

std::string adjacency_text(const BayesNet& net, const NameMapping& m) {
  const std::size_t n = net.n_vars();
  std::string out;
  for (std::size_t v = 0; v < n; ++v) {
    if (v) out += ',';
    out += csv_field(m.names[v]);
  }
  out += '\n';
  std::vector<std::vector<int>> children(n);
  for (std::size_t v = 0; v < n; ++v)
    for (int p : net.parents[v]) children[p].push_back(static_cast<int>(v));
  std::string row(2 * n, ',');
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) row[2 * j] = '0';
    for (int c : children[i]) row[2 * static_cast<std::size_t>(c)] = '1';
    row.back() = '\n';
    out += row;
  }
  return out;
}

}  // namespace bnsl
