// Domain knowledge: arcs a network must or may not hold. `--require FILE` lists arcs every
// network holds (bnlearn's whitelist), `--forbid FILE` arcs none holds (its blacklist),
// `--tiers FILE` puts variables in tiers, and no arc may go from a later tier into an earlier
// one (age and sex before exposure, exposure before outcome). `exact --max-parents K` limits
// every variable's in-degree to K, required parents included (GOBNILP's parent limit): the
// proof and the list are then those of the networks with at most K parents per variable.
//
//   bnsl::Constraints c = bnsl::read_constraints({"require.csv", "forbid.csv", "tiers.csv"},
//                                                data.names());   // bnsl/arcs.hpp
//   c.allowed(from, to);        // false for a forbidden arc, one against the tiers, or the
//                               // reverse of a required one
//   c.required_parents(v);      // v's required parents, ascending
//   c.violation(parents);       // the first arc of a DAG that breaks them, if any
//   std::size_t dropped = cache.apply(c);   // drops every cached set that breaks them
//                                           // (bnsl/cache.hpp)
//
// Files (CSV with a header line, names as in the data, optionally in double quotes; blank
// lines and lines starting with '#' skipped):
//   require, forbid: `from,to`, one arc per line;
//   tiers:  `variable,tier`, one variable per line, the tier an integer from 0 (earliest);
//           variables not listed belong to no tier and are free of this rule.
// Errors (an unknown name, a repeated line, a bad tier, required arcs that close a cycle, a
// required arc that is forbidden or goes against the tiers) throw InputError naming the file,
// the line and the column.
//
// Why filtering a cache by forbidden arcs and tiers is safe. Every pruning rule
// (src/prune/rules.hpp) drops a set P' only for a proper subset P that beats it by more than
// epsilon; a subset of an allowed set is allowed, so the cache less its forbidden sets still
// holds every family a network within epsilon of the constrained optimum may use. The
// exploration (ExploreOptions::constraints) never scores a forbidden parent at all.
//
// Required arcs are different: a set holding v's required parents R may have been pruned for
// a subset without them, which a constrained network cannot use. So the exploration itself
// keeps R in every set of v it scores and applies the rules within the sets that contain R
// (explore/explorer.hpp): every rule compares a set with a proper subset that also contains
// R. A cache explored without them cannot be filtered for them: `search` and `exact` refuse it.
//
// The classes of a constrained run are classes of the constrained space: the DAGs of a Markov
// equivalence class that hold no forbidden arc. Their sizes, listed members and orientation
// fractions count those DAGs only (src/pool/summarize.cpp), and the pool file says so.
//
// The in-degree limit needs no such care: every DAG of a class has the same in-degrees, so a
// class is all in or all out. Reversing a covered arc u -> v (pa(v) = pa(u) + u) gives u the
// parents pa(u) + v and v the parents pa(u): u's in-degree becomes v's and v's becomes u's,
// and any two DAGs of a class are joined by covered-arc reversals (Chickering 1995), so the
// multiset of in-degrees is the class's (tests/test_constraints.cpp checks it on every DAG of
// up to 5 nodes). Filtering a cache by it is safe as filtering by forbidden arcs is: every
// subset of a set within the limit is within it. It is not part of the fingerprint: a cache
// explored with or without it may be filtered by it (its provenance records the limit it was
// explored with, CacheProvenance::max_parents).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/graph.hpp"

namespace bnsl {

struct Constraints {
  std::vector<std::pair<int, int>> required;   // (from, to), sorted, distinct, acyclic
  std::vector<std::pair<int, int>> forbidden;  // (from, to), sorted, distinct
  std::vector<int> tiers;  // per variable: its tier (>= 0) or -1; empty: no tiers
  int max_parents = -1;    // in-degree limit of every variable, required parents included
                           // (-1: none)

  bool empty() const { return arcs_empty() && max_parents < 0; }
  // No required or forbidden arc and no tiers (the in-degree limit aside).
  bool arcs_empty() const { return required.empty() && forbidden.empty() && tiers.empty(); }
  // The same required and forbidden arcs and tiers (the in-degree limit aside).
  bool same_arcs(const Constraints& o) const {
    return required == o.required && forbidden == o.forbidden && tiers == o.tiers;
  }
  bool operator==(const Constraints&) const = default;
  // Whether the arc from -> to may appear: not forbidden, not against the tiers, and not the
  // reverse of a required arc.
  bool allowed(int from, int to) const;
  // v's required parents, ascending.
  std::vector<int> required_parents(int v) const;
  // Every variable's required parents (n variables), ascending: one pass over the arcs.
  std::vector<std::vector<int>> required_by_child(std::size_t n) const;
  // The most required parents of any variable.
  std::size_t max_required_parents() const;
  struct Violation {
    int from = 0, to = 0;
    bool missing = false;    // a required arc the DAG lacks (else an arc it may not hold)
    bool in_degree = false;  // `to` has more than max_parents parents (`from` is one of them)
  };
  // The first arc of a DAG (parents[v]: v's parents) that breaks them: one it may not hold,
  // or a required one it lacks; else the first variable with more parents than the limit.
  std::optional<Violation> violation(const std::vector<std::vector<int>>& parents) const;
  // Throws InputError when a variable (names: every variable's) has more required parents
  // than `limit` (-1: none), the in-degree limit that applies: it would have no family.
  void check_required_within(int limit, const std::vector<std::string>& names) const;
  // "2 required arcs, 3 forbidden arcs, 4 tiers over 10 variables, at most 3 parents per
  // variable" (empty: "none").
  std::string describe() const;
  // "none", or a hash of the arcs and tiers (16 hex digits): a cache's provenance records it,
  // so that a resumed exploration or merged parts are checked to share the constraints. (Not
  // of the in-degree limit: see above.)
  std::string fingerprint() const;
};

// The files of the constraints (empty: none).
struct ConstraintFiles {
  std::string require, forbid, tiers;
};
// The constraints of arcs and tiers already read (tiers: one per name, -1 where none), with the
// checks of read_constraints: the required arcs close no cycle and are neither forbidden nor
// against the tiers. Errors name sources.require and the arc's NamedArc::line.
Constraints make_constraints(const std::vector<NamedArc>& required,
                             const std::vector<NamedArc>& forbidden, std::vector<int> tiers,
                             const ConstraintFiles& sources, const std::vector<std::string>& names);

// The same from variable names, as the Python and R packages take them: arcs (from, to) and
// tiers (variable, tier >= 0), each list's items numbered from 1 in place of lines. An unknown
// name or a negative tier is an InputError naming its list (sources.require, .forbid, .tiers).
using NamedArcs = std::vector<std::pair<std::string, std::string>>;
using NamedTiers = std::vector<std::pair<std::string, int>>;
Constraints constraints_by_name(const NamedArcs& required, const NamedArcs& forbidden,
                                const NamedTiers& tiers, const ConstraintFiles& sources,
                                const std::vector<std::string>& names);

}  // namespace bnsl
