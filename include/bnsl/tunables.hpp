// The tuning constants of the exploration, the search and the budget policy, one table per
// part: each entry's type, name, default, range and why (the style of CaDiCaL's options.hpp).
// The defaults are the values the code was tuned with; `bnsl learn --set search.stall_share=0.5`
// (learn, search, score and exact) changes one for a run without a rebuild, so that a benchmark
// can vary it, and `bnsl learn --help-all` lists them all. Values travel with the options of
// their part (ExploreOptions::tune, SearchOptions::tune, LearnOptions::budget and
// ExactLearnOptions::budget), never through a global.
//
//   bnsl::Tunables t;                                   // every default
//   bnsl::set_tunable(t, "search.stall_share", 0.5);    // InputError: unknown name, out of range
//   search_options.tune = t.search;
//   for (const bnsl::TunableInfo& i : bnsl::tunable_table()) ...   // name, default, range, why
//
// What stays a constant (a constexpr beside its code): sizes of arrays and formats, hashing and
// encoding parameters, limits a test or a proof relies on, and the texts of the help. The
// counts here are kept as doubles in the table (every default is exact in a double).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// X(type, name, default, lo, hi, why): one tunable of the part.

// The exploration (src/explore/).
#define BNSL_EXPLORE_TUNABLES(X)                                                                  \
  X(std::size_t, auto_screen_vars, 1000, 0, 1e9,                                                  \
    "above this many variables a timed exploration screens candidate parents by default")         \
  X(int, auto_screen_candidates, 32, 1, 1e6,                                                      \
    "candidate parents per variable when screening by default")                                   \
  X(std::size_t, draft_singles, 8, 1, 1e6,                                                        \
    "the draft cache (the first network): each variable's best single parents and their pairs")   \
  X(std::size_t, sweeps, 8, 0, 1e6,                                                               \
    "screening's conditional sweeps: the best singletons each extended by every variable")        \
  X(std::size_t, promote, 8, 0, 1e6, "... and the best partners they find join the candidates")   \
  X(std::size_t, sweep_pairs, 8, 0, 1e6, "the best pairs of each sweep scored into the list")     \
  X(double, lattice_share, 0.5, 0, 1,                                                             \
    "a lattice level of screening runs only if it fits in this share of the variable's time")     \
  X(std::size_t, lattice4, 14, 0, 64, "the lattice's sets of four: among this many best singles") \
  X(std::size_t, lattice5, 8, 0, 64, "... and its sets of five among this many")                  \
  X(std::uint64_t, greedy_every, 32, 1, 1e9,                                                      \
    "hybrid: one pop in this many from greedy selection's open list, the rest from IS's")         \
  X(double, finish_seconds_per_set, 2e-6, 0, 1,                                                   \
    "seconds per recorded set kept before a variable's deadline for its last rule-1 pass")        \
  X(std::uint64_t, rule8_probe, 4096, 0, 1e18,                                                    \
    "BDeu rule 8 is tried on this many sets of each size of a variable, and on the rest only if " \
    "it cut one of them")

// The search (src/search/).
#define BNSL_SEARCH_TUNABLES(X)                                                                  \
  X(double, completion_share, 0.05, 0, 1,                                                        \
    "share of the search's time kept for the walk around the final best")                        \
  X(double, stall_growth, 0.01, 0, 1,                                                            \
    "a stall: the chains admitted fewer classes than this share of the pool's size ...")         \
  X(double, stall_share, 0.25, 0, 1, "... over this share of their time ...")                    \
  X(double, stall_min_seconds, 1.0, 0, 1e9, "... and over at least this many seconds")           \
  X(double, stall_completion_share, 0.25, 0, 1,                                                  \
    "the walk after a stall takes at most this share of the time left")                          \
  X(double, checkpoint_room, 2.0, 0, 1e9,                                                        \
    "a checkpoint is written while the chains have this many times its cost left")               \
  X(std::size_t, neighbour_expansions, 2, 0, 1e6,                                                \
    "the walk expands at most this many pool capacities of DAGs (each held as a copy)")          \
  X(std::size_t, dp_overfill, 4, 1, 1e6,                                                         \
    "the DP's list within epsilon is enumerated in full up to this many pool capacities")        \
  X(std::size_t, flood_orders, 64, 0, 1e9,                                                       \
    "orders enumerated around a local optimum: this many plus 4 n ...")                          \
  X(std::size_t, flood_max, 256, 0, 1e9, "... but at most this many")                            \
  X(std::uint32_t, pull_entries, 4, 0, 1e6,                                                      \
    "parent pulls: a node's best entries tried by moving their parents in front of it")          \
  X(std::size_t, asobs_sweep_max_n, 3000, 0, 1e9,                                                \
    "ASOBS re-decides earlier nodes after each swap (O(n^2) a sweep) up to this many variables") \
  X(double, merge_rate, 2.5e-7, 0, 1,                                                            \
    "seconds per class and variable rank 0 takes to pool another process's class")               \
  X(double, listing_at_scale, 1.75, 1, 1e3,                                                      \
    "the listed DAGs' measured cost counts this much more in the report's reserve")

// The budget policy (src/pipeline/learn.cpp): how learn and exact cut --time.
#define BNSL_BUDGET_TUNABLES(X)                                                            \
  X(double, explore_share, 0.5, 0, 1, "learn: the exploration's share of the budget")      \
  X(double, screened_explore_share, 0.75, 0, 1,                                            \
    "... when it screens (thousands of variables: the search converges in a small share)") \
  X(double, dp_explore_share, 0.8, 0, 1,                                                   \
    "... at most, when the search is the subset DP (it takes little; the cache decides)")  \
  X(double, exact_explore_share, 0.9, 0, 1, "exact: the exploration's share of the budget")

namespace bnsl {

#define BNSL_TUNABLE_FIELD(type, name, value, lo, hi, why) type name = value;
struct ExploreTunables {
  BNSL_EXPLORE_TUNABLES(BNSL_TUNABLE_FIELD)
};
struct SearchTunables {
  BNSL_SEARCH_TUNABLES(BNSL_TUNABLE_FIELD)
};
struct BudgetTunables {
  BNSL_BUDGET_TUNABLES(BNSL_TUNABLE_FIELD)
};
#undef BNSL_TUNABLE_FIELD

// Every part's tunables (what `--set` fills before they are copied into the options).
struct Tunables {
  ExploreTunables explore;
  SearchTunables search;
  BudgetTunables budget;
};

struct TunableInfo {
  std::string_view name;  // "part.name", e.g. "search.stall_share"
  double value, lo, hi;   // the default and the range, both ends included
  bool integer;           // a count: whole values only
  std::string_view why;
};

// The tables of every part, in order: explore, search, budget.
std::span<const TunableInfo> tunable_table();

// Sets tunable `name` ("part.name") of `t`. InputError for an unknown name (with the nearest
// known one), a value outside its range, NaN, or a fraction where a count is due.
void set_tunable(Tunables& t, std::string_view name, double value);

// "NAME=VALUE" (--set's argument) into `t`; InputError as above, or when it has no '=' or the
// value is no number.
void set_tunable(Tunables& t, std::string_view assignment);

// The tunables of `t` that differ from their default, as "name=value".
std::vector<std::string> changed_tunables(const Tunables& t);

}  // namespace bnsl
