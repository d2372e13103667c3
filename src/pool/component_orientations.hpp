// One chain component's orientations (component_orientations.cpp): the exact recursion over
// rooted splits and the uniform sampler, memoized by vertex set, with or without constraints.
// Internal to pool/: orientations.cpp combines its blocks and components.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "util/big_uint.hpp"

namespace bnsl::orient {

using Graph = std::vector<std::vector<int>>;

// The subgraph of g induced by the sorted vertex set s, over indices 0..|s|-1.
Graph induced(const Graph& g, const std::vector<int>& s);

struct OverBudget : std::exception {};

using Fractions = std::map<std::pair<int, int>, double>;  // (u, v), u < v -> P(u -> v)
using Arcs = std::vector<std::pair<int, int>>;
// Whether the arc a -> b (indices of the graph at hand) may appear.
using Allowed = std::function<bool(int, int)>;

// One chain component: the exact recursion and the sampler, memoized by vertex set (indices
// of the component's graph).
class ComponentOrientations {
 public:
  using Key = std::vector<int>;

  // allowed: the constraints, for the allowed_* members (null: every arc allowed).
  ComponentOrientations(const Graph& g, std::size_t max_subproblems,
                        const Allowed* allowed = nullptr)
      : g_(g), max_subproblems_(max_subproblems), allowed_(allowed) {}

  const Fractions& exact(const Key& s);

  // P(u -> v) over the AMOs of s whose source is s[r] (throws OverBudget as exact does).
  Fractions rooted(const Key& s, std::size_t r);

  // The AMOs of s whose source is s[r]: the product of its pieces' counts.
  BigUint rooted_count(const Key& s, std::size_t r);

  const BigUint& count(const Key& s);

  // Whether no edge within s has a disallowed direction.
  bool unconstrained(const Key& s) const;

  bool allowed(const Arcs& arcs) const;

  // The AMOs of s that hold no disallowed arc, per source s[r]: 0 when r's forced arcs are not
  // all allowed, else the product of its pieces' allowed counts. Throws OverBudget beyond
  // max_subproblems vertex sets (counted with exact's).
  const std::vector<BigUint>& allowed_rooted_counts(const Key& s);

  BigUint allowed_count(const Key& s);

  // P(u -> v) over the AMOs of s that hold no disallowed arc (every edge at 0 when none does).
  const Fractions& allowed_exact(const Key& s);

  // The same over those whose source is s[r].
  Fractions allowed_rooted(const Key& s, std::size_t r);

  BigUint allowed_rooted_count(const Key& s, std::size_t r);

  // Draws an AMO of the vertex set s uniformly; appends its arcs.
  void sample(const Key& s, std::mt19937_64& rng, std::vector<std::pair<int, int>>& arcs);

  // Draws an AMO of s as sample() does, but each set's root only among those whose forced arcs
  // are all allowed, so that every AMO drawn holds no disallowed arc (sequential importance
  // sampling); appends its arcs. Returns the log of its weight, the product over the sets
  // split of the allowed roots' share of their AMOs, which is #AMO(s)^-1 over the probability
  // of the draw; -infinity when a set has no allowed root (the draw is abandoned).
  double sample_allowed(const Key& s, std::mt19937_64& rng, Arcs& arcs);

  // Draws an AMO of s with source s[r] uniformly; appends its arcs.
  void sample_rooted(const Key& s, std::size_t r, std::mt19937_64& rng,
                     std::vector<std::pair<int, int>>& arcs);

 private:
  void check_budget() const;

  // Every edge within s, at 0.
  Fractions zero_fractions(const Key& s) const;

  // Adds w * P(u -> v | source s[r]) over the allowed AMOs to f (r's forced arcs allowed).
  void add_allowed_rooted(const Key& s, std::size_t r, double w, Fractions& f);

  // Adds w * P(u -> v | source s[r]) to f for every edge of s.
  void add_rooted(const Key& s, std::size_t r, double w, Fractions& f);

  struct Split {                                         // per root r of the vertex set:
    std::vector<double> weight;                          // #AMO_r / #AMO
    std::vector<std::vector<std::pair<int, int>>> arcs;  // forced arcs (component indices)
    std::vector<std::vector<Key>> pieces;                // pieces (component indices)
    std::vector<char> ok;                                // its forced arcs all allowed
  };

  const Split& split(const Key& s);

  const Graph& g_;
  std::size_t max_subproblems_;
  const Allowed* allowed_;
  std::map<Key, BigUint> counts_;
  std::map<Key, Split> splits_;
  std::map<Key, Fractions> fractions_;
  std::map<Key, std::vector<BigUint>> allowed_counts_;  // constrained sets, per root
  std::map<Key, Fractions> allowed_fractions_;
};

}  // namespace bnsl::orient
