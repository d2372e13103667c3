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

#include "bnsl/constraints.hpp"
#include "bnsl/graph.hpp"

namespace bnsl {

std::vector<NamedArc> read_arcs(const std::string& path, const std::vector<std::string>& names,
                                bool weighted);
// The same from text; `file` names it in errors.
std::vector<NamedArc> parse_arcs(const std::string& text, const std::string& file,
                                 const std::vector<std::string>& names, bool weighted);

// The constraints of the files (bnsl/constraints.hpp); names: the data's variables.
Constraints read_constraints(const ConstraintFiles& files, const std::vector<std::string>& names);
// The tiers of a tiers file (read_tiers) or of its text (`file` names it in errors): one entry
// per name, -1 where the file does not list it.
std::vector<int> read_tiers(const std::string& path, const std::vector<std::string>& names);
std::vector<int> parse_tiers(const std::string& text, const std::string& file,
                             const std::vector<std::string>& names);

}  // namespace bnsl
