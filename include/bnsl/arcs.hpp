// Arcs between named variables read from a file: domain knowledge and preferences.
//
//   std::vector<bnsl::NamedArc> a = bnsl::read_arcs("prefer.csv", data.names(), true);
//   // a[0].from, a[0].to: variable indices; a[0].weight: 1 unless the file gives one
//
// The file is CSV with a header line naming its columns, `from,to` or `from,to,weight`
// (bnlearn's whitelist / blacklist shape), then one arc per line: two variable names as in the
// data (optionally in double quotes) and, with weights, a finite number. Blank lines and lines
// starting with '#' are skipped. An unknown name, an arc from a variable to itself, a repeated
// arc or a bad weight throws InputError naming the file, line and column.
#pragma once

#include <string>
#include <vector>

namespace bnsl {

struct NamedArc {
  int from = 0, to = 0;  // variable indices: from -> to
  double weight = 1;     // the third column, when the file has one
  std::size_t line = 0;  // the line of the file it was read from
};

std::vector<NamedArc> read_arcs(const std::string& path, const std::vector<std::string>& names,
                                bool weighted);
// The same from text; `file` names it in errors.
std::vector<NamedArc> parse_arcs(const std::string& text, const std::string& file,
                                 const std::vector<std::string>& names, bool weighted);

}  // namespace bnsl
