// Domain knowledge: arcs a network may not hold. `--forbid FILE` lists arcs (bnlearn's
// blacklist), `--tiers FILE` puts variables in tiers, and no arc may go from a later tier into
// an earlier one (age and sex before exposure, exposure before outcome).
//
//   bnsl::Constraints c = bnsl::read_constraints("forbid.csv", "tiers.csv", data.names());
//   c.allowed(from, to);              // false for a forbidden arc or one against the tiers
//   c.violation(parents);             // the first arc of a DAG that breaks them, if any
//   std::size_t dropped = c.apply(cache);   // drops every cached set with a forbidden parent
//
// Files (CSV with a header line, names as in the data, optionally in double quotes; blank
// lines and lines starting with '#' skipped):
//   forbid: `from,to`, one arc per line;
//   tiers:  `variable,tier`, one variable per line, the tier an integer from 0 (earliest);
//           variables not listed belong to no tier and are free of this rule.
// Errors (an unknown name, a repeated line, a bad tier) throw InputError naming the file, the
// line and the column.
//
// Why filtering a cache is safe. Every pruning rule (src/prune/rules.hpp) drops a set P' only
// for a proper subset P that beats it by more than epsilon; a subset of an allowed set is
// allowed, so the cache less its forbidden sets still holds every family a network within
// epsilon of the constrained optimum may use. The exploration (ExploreOptions::constraints)
// never scores a forbidden parent at all.
//
// The classes of a constrained run are classes of the constrained space: the DAGs of a Markov
// equivalence class that hold no forbidden arc. Their sizes, listed members and orientation
// fractions count those DAGs only (src/pool/summarize.cpp), and the pool file says so.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bnsl {

class ScoreCache;

struct Constraints {
  std::vector<std::pair<int, int>> forbidden;  // (from, to), sorted, distinct
  std::vector<int> tiers;  // per variable: its tier (>= 0) or -1; empty: no tiers

  bool empty() const { return forbidden.empty() && tiers.empty(); }
  // Whether the arc from -> to may appear.
  bool allowed(int from, int to) const;
  // The first arc (from, to) of a DAG (parents[v]: v's parents) that is not allowed.
  std::optional<std::pair<int, int>> violation(const std::vector<std::vector<int>>& parents) const;
  // Removes every cache entry with a parent not allowed into its variable; returns how many.
  std::size_t apply(ScoreCache& cache) const;
  // "3 forbidden arcs, 4 tiers over 10 variables" (empty: "none").
  std::string describe() const;
  // "none", or a hash of the arcs and tiers (16 hex digits): a cache's provenance records it,
  // so that a resumed exploration or merged parts are checked to share the constraints.
  std::string fingerprint() const;
};

// The constraints of the files (empty path: none); names: the data's variables.
Constraints read_constraints(const std::string& forbid_file, const std::string& tiers_file,
                             const std::vector<std::string>& names);
// The tiers of a tiers file (read_tiers) or of its text (`file` names it in errors): one entry
// per name, -1 where the file does not list it.
std::vector<int> read_tiers(const std::string& path, const std::vector<std::string>& names);
std::vector<int> parse_tiers(const std::string& text, const std::string& file,
                             const std::vector<std::string>& names);

}  // namespace bnsl
