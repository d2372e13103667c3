// The tuning constants of the exploration, the search, the budget policy, the pool and exact
// mode, one table per part: each entry's type, name, default, range and why (the style of CaDiCaL's
// options.hpp). The defaults are the values the code was tuned with; `bnsl learn --set
// search.stall_share=0.5` (learn, search, score and exact) changes one for a run without a rebuild,
// so that a benchmark can vary it, and `bnsl learn --help-all` lists them all. Values travel with
// the options of their part (ExploreOptions::tune, SearchOptions::tune and pool_tune,
// LearnOptions::budget, ExactLearnOptions::budget and ExactOptions::tune), never through a global.
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
#define BNSL_EXPLORE_TUNABLES(X)                                                                   \
  X(std::size_t, auto_screen_vars, 300, 0, 1e9,                                                    \
    "above this many variables a timed exploration screens candidate parents by default")          \
  X(int, auto_screen_candidates, 32, 1, 1e6,                                                       \
    "candidate parents per variable when screening by default")                                    \
  X(std::size_t, narrow_screen_vars, 1000, 0, 1e9,                                                 \
    "... but up to this many variables (their exploration has half the time) ...")                 \
  X(int, narrow_screen_candidates, 16, 1, 1e6,                                                     \
    "... this many (c20ng, r52: 670-890 higher at --time 60 than with 32; link 57-95 lower)")      \
  X(std::size_t, draft_singles, 8, 1, 1e6,                                                         \
    "the draft cache (the first network): each variable's best single parents and their pairs")    \
  X(int, draft_unscreened, 1, 0, 1,                                                                \
    "a timed learn builds the draft without screening too (1; 0: the first network waits)")        \
  X(double, quick_share, 0.1, 0, 1,                                                                \
    "... and where learn's early rounds stop before their share, a quick pass explores every "     \
    "variable in at most this share of the exploration's time into it (0: none; 0.1: hailfinder's" \
    " final network by 3.5 s of 60)")                                                              \
  X(double, quick_min_var_seconds, 0.05, 0, 1e6,                                                   \
    "... if that gives each variable this many thread-seconds (plants: 0.033, 17 nats gained)")    \
  X(std::size_t, sweeps, 8, 0, 1e6,                                                                \
    "screening's conditional sweeps: the best singletons each extended by every variable")         \
  X(std::size_t, promote, 8, 0, 1e6, "... and the best partners they find join the candidates")    \
  X(std::size_t, sweep_pairs, 8, 0, 1e6, "the best pairs of each sweep scored into the list")      \
  X(double, lattice_share, 0.5, 0, 1,                                                              \
    "a lattice level of screening runs only if it fits in this share of the variable's time")      \
  X(std::size_t, lattice4, 14, 0, 64, "the lattice's sets of four: among this many best singles")  \
  X(std::size_t, lattice5, 8, 0, 64, "... and its sets of five among this many")                   \
  X(std::uint64_t, greedy_every, 32, 1, 1e9,                                                       \
    "hybrid: one pop in this many from greedy selection's open list, the rest from IS's")          \
  X(double, finish_seconds_per_set, 2e-6, 0, 1,                                                    \
    "seconds per recorded set kept before a variable's deadline for its last rule-1 pass")         \
  X(std::size_t, index_cache_bytes, 16777216, 0, 1e12,                                             \
    "bytes per thread for the row indexes of base sets kept for their extensions (4 to 256 sets)") \
  X(std::size_t, ll_ceiling_max_vars, 128, 0, 1e9,                                                 \
    "pruning's LL ceiling (and BDeu's atoms) is computed up to this many variables")               \
  X(double, group_rows_share, 0.75, 0, 1,                                                          \
    "identical rows are counted once, weighted, when at most this share of the rows is distinct")  \
  X(std::uint64_t, rule8_probe, 4096, 0, 1e18,                                                     \
    "BDeu rule 8 is tried on this many sets of each size of a variable, and on the rest only if "  \
    "it cut one of them")                                                                          \
  X(int, lattice_max_vars, 28, 0, 40,                                                              \
    "seq under BDeu without an in-degree limit walks the lattice of a child's candidates (12 "     \
    "bytes a subset) up to this many candidates (0: never)")                                       \
  X(double, lattice_max_work, 1e10, 0, 1e18,                                                       \
    "... and while 2^candidates x rows counted is at most this (the levels beyond)")               \
  X(int, propose_max_parents, 6, 1, 64,                                                            \
    "search-driven proposals: a grow step stops at this many parents")                             \
  X(int, propose_pairs, 12, 0, 64,                                                                 \
    "... where no single parent raises a family, pairs among this many candidates are tried "      \
    "(half the best alone, half at random)")                                                       \
  X(int, propose_extra, 16, 0, 1000000,                                                            \
    "... and each walk also tries this many variables at random that are not descendants")

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
  X(double, resume_min_seconds, 1.0, 0, 1e9,                                                     \
    "after the walk at the end the chains resume while this many of their seconds are left")     \
  X(double, plateau_seconds, 3.0, 0, 1e9,                                                        \
    "a search round's plateau (SearchOptions::plateau) is over at most this many seconds ...")   \
  X(double, plateau_climbs, 100, 0, 1e9, "... over this many climbs of one chain ...")           \
  X(double, plateau_min_seconds, 0.25, 0, 1e9, "... and over at least this many seconds")        \
  X(double, signal_report_seconds, 0.5, 0, 1e9,                                                  \
    "after SIGINT or SIGTERM the final report takes about this long (classes beyond are cut)")   \
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
    "the listed DAGs' measured cost counts this much more in the report's reserve")              \
  X(std::size_t, report_sample_cells, 50000, 1, 1e12,                                            \
    "cells (classes x variables) of a sample that measures the report's cost while searching")   \
  X(std::size_t, report_min_sample, 16, 1, 1e9,                                                  \
    "... fewer sampled classes measure their sizes only (fixed costs would count as theirs)")    \
  X(double, cost_interval, 1.0, 0, 1e9,                                                          \
    "seconds between two measurements of the report's cost while the pool is that small")        \
  X(std::size_t, walk_class_members, 1024, 1, 1e9,                                               \
    "the walk around the final best expands at most this many members of one class")             \
  X(double, exchange_seconds, 1.0, 0, 1e9,                                                       \
    "processes sharing a search send each other their best network at most this often (s)")

// The budget policy (src/pipeline/learn.cpp): how learn and exact cut --time.
#define BNSL_BUDGET_TUNABLES(X)                                                                 \
  X(double, explore_share, 0.5, 0, 1, "learn: the exploration's share of the budget")           \
  X(double, screened_explore_share, 0.85, 0, 1,                                                 \
    "... when it screens thousands of variables (the search converges in a small share)")       \
  X(std::size_t, screened_share_vars, 1000, 0, 1e9,                                             \
    "... more than this many (fewer: explore_share; the search needs its time there)")          \
  X(double, dp_explore_share, 0.8, 0, 1,                                                        \
    "... at most, when the search is the subset DP (it takes little; the cache decides)")       \
  X(double, exact_explore_share, 0.9, 0, 1, "exact: the exploration's share of the budget")     \
  X(std::size_t, propose_rounds, 10, 0, 1000,                                                   \
    "screened learn: searches before the last, each followed by proposals from its best")       \
  X(double, propose_round_share, 0.25, 0, 1, "... each at most this share of the time left")    \
  X(std::size_t, propose_rounds_unscreened, 10, 0, 1000,                                        \
    "learn without screening: such rounds when the exploration did not finish (0: none)")       \
  X(std::size_t, early_rounds, 20, 0, 1000,                                                     \
    "learn: such rounds on the draft cache, before the exploration ...")                        \
  X(double, early_share, 0.1, 0, 1, "... until this share of the budget (the exploration's)")   \
  X(double, early_share_unscreened, 0.1, 0, 1, "... or this share without screening (0: none)") \
  X(double, round_plateau, 1e-4, 0, 1,                                                          \
    "a round's search ends when its best rose by less than this share of |best| lately")

// The pool and its report (src/pool/).
#define BNSL_POOL_TUNABLES(X)                                                                   \
  X(std::size_t, bands, 16, 1, 64,                                                              \
    "a full pool keeps its classes in this many score bands across epsilon, the best of each")  \
  X(std::size_t, classified_max, 4194304, 1, 1e12,                                              \
    "offered DAGs the pool remembers as classified (no second encoding) before forgetting all") \
  X(std::size_t, member_visits, 100000, 1, 1e12,                                                \
    "with constraints, DAGs a walk over a class's members may visit at least ...")              \
  X(std::size_t, member_families, 8388608, 1, 1e12,                                             \
    "... unless they hold more parent lists than this in all")                                  \
  X(std::size_t, prefer_members, 2000, 1, 1e9,                                                  \
    "--prefer-arcs: members of a class walked for the one of most weight ...")                  \
  X(std::size_t, prefer_total, 2000000, 1, 1e12, "... and members walked per report")

// Exact mode (src/exact/; the ILP's are used with CBC only).
#define BNSL_EXACT_TUNABLES(X)                                                                 \
  X(int, ilp_first_above, 24, 0, 64,                                                           \
    "auto: above this many variables the ILP runs first, before the DP ...")                   \
  X(double, ilp_first_share, 0.1, 0, 1e3, "... for this share of the DP's estimated time")     \
  X(std::uint64_t, start_climbs, 8, 1, 1e6,                                                    \
    "ilp: climbs of the short ordering search that gives the first network (its cutoff) ...")  \
  X(double, start_share, 0.1, 0, 1, "... within this share of the time left ...")              \
  X(double, start_max_seconds, 60, 0, 1e9, "... and at most this many seconds")                \
  X(std::size_t, root_first_families, 16, 1, 1e9,                                              \
    "ilp: the root LP starts from each variable's best this many families ...")                \
  X(std::size_t, priced_per_var, 32, 1, 1e9,                                                   \
    "... and adds at most this many priced-in families per variable a round")                  \
  X(std::size_t, cuts_per_round, 32, 1, 1e9,                                                   \
    "ilp: cluster cuts a separation round adds at most (root LP, collector, CBC's root)")      \
  X(double, min_violation, 1e-4, 1e-9, 1, "ilp: a cluster cut is added when violated by more") \
  X(int, exhaustive_cut_vars, 20, 0, 24,                                                       \
    "ilp: up to this many variables, every cluster is tried when the heuristics find no cut")  \
  X(std::size_t, tree_cuts_per_round, 8, 0, 1e9,                                               \
    "ilp: below CBC's root, one round a node of at most this many cuts ...")                   \
  X(std::uint64_t, tree_cut_nonzeros, 4194304, 0, 1e15,                                        \
    "... and none at fractional points once the tree's cuts hold this many nonzeros")          \
  X(double, lp_grace_seconds, 1.0, 0, 1e9,                                                     \
    "ilp: after a stop, CBC's LP may run this many seconds before it is aborted")              \
  X(int, collector_cut_rounds, 25, 0, 1e6,                                                     \
    "ilp: cut rounds of the collection's LP at one node of its search")                        \
  X(int, collector_purge_above, 64, 0, 1e9,                                                    \
    "ilp: cluster rows the collection's LP adds before its slack ones are dropped")            \
  X(double, k_best_first_epsilon, 1.0, 1e-9, 1e9,                                              \
    "--k-best: the first epsilon tried (nats), widened until K DAGs are within it ...")        \
  X(int, k_best_rounds, 64, 1, 1e3, "... at most this many times")                             \
  X(double, dp_table_worth, 32, 0, 1e9,                                                        \
    "dp: a variable's best-parent table is built when its average scan passes this many sets") \
  X(int, dp_scan_samples, 4096, 1, 1e9,                                                        \
    "dp: random candidate sets each variable's scan cost is estimated on")

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
struct PoolTunables {
  BNSL_POOL_TUNABLES(BNSL_TUNABLE_FIELD)
};
struct ExactTunables {
  BNSL_EXACT_TUNABLES(BNSL_TUNABLE_FIELD)
};
#undef BNSL_TUNABLE_FIELD

// Every part's tunables (what `--set` fills before they are copied into the options).
struct Tunables {
  ExploreTunables explore;
  SearchTunables search;
  BudgetTunables budget;
  PoolTunables pool;
  ExactTunables exact;
};

struct TunableInfo {
  std::string_view name;  // "part.name", e.g. "search.stall_share"
  double value, lo, hi;   // the default and the range, both ends included
  bool integer;           // a count: whole values only
  std::string_view why;
};

// The tables of every part, in order: explore, search, budget, pool, exact.
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
