// Command-line options, each declared once (name, range, help) and shared by the subcommands
// that take it. Flags are bound to the library's own option structs, whose initial values are
// the defaults --help prints; enumerations are parsed and listed from their name tables
// (include/bnsl/names.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "bnsl/arcs.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "bnsl/search.hpp"
#include "bnsl/tunables.hpp"
#include "util/atomic_file.hpp"
#include "util/number_text.hpp"  // number_text: defaults and ranges in --help

namespace bnsl::cli {

// Options every long-running subcommand takes.
struct RunArgs {
  double time = 0;         // wall-clock budget, s (0: none)
  int threads = 0;         // 0: all cores
  bool quiet = false;      // no progress or summary on stderr
  bool verbose = false;    // the summary with every counter (summary.hpp)
  std::string stats_file;  // statistics as JSON (empty: none)
  Tunables tunables;       // --set NAME=VALUE (bnsl/tunables.hpp), copied into the options
};

struct EpsilonArgs {
  double epsilon = -1, bayes_factor = -1, factor = -1;  // at most one is set
  Epsilon resolve() const;
};

struct CsvArgs {
  CsvOptions csv;
  std::string delimiter = ",";
  std::vector<std::string> discretize;  // --discretize specs, as given
  CsvOptions resolve() const;
};

// read_csv with the CSV options, printing the reader's warnings to stderr unless quiet.
Dataset read_data(const std::string& path, const CsvArgs& args, bool quiet);
// The same for a command with a budget: a pipe or FIFO as the data file waits at most --time
// for its data.
Dataset read_data(const std::string& path, const CsvArgs& args, const RunArgs& run);

// --params, --state-order and --format (learn, search, exact, merge): the best network's
// parameters and the formats it is written in besides BIF (bnsl/results.hpp, NetworkFiles).
struct NetworkArgs {
  NetworkFiles files;
  std::vector<std::string> formats;  // --format, as given ("net,xmlbif" or repeated)
  // Parses --format; InputError for an unknown one, or one that needs parameters without data.
  NetworkFiles resolve(bool have_data) const;
};
void add_network_options(CLI::App& app, NetworkArgs& args);
// --params and --state-order alone (convert).
void add_params_options(CLI::App& app, ParamOptions& params);

// A real-valued option's check: a finite number in [lo, hi] (in (lo, hi] when lo_open), with
// a message that names both ends in number_text's form. NaN and infinities are refused (CLI11's
// Range lets NaN through: every comparison with it is false).
CLI::Validator finite_range(double lo, double hi, bool lo_open = false);
// A seed's check: a decimal integer from 0 to 2^64 - 1 (CLI11 reads "-1" into an unsigned
// option as 2^64 - 1).
CLI::Validator seed_range();

void add_csv_options(CLI::App& app, CsvArgs& args);
void add_score_options(CLI::App& app, ScoreParams& params);
void add_epsilon_options(CLI::App& app, EpsilonArgs& args);
void add_run_options(CLI::App& app, RunArgs& args);
// --require FILE, --forbid FILE and --tiers FILE (bnsl/constraints.hpp): learn, score, search,
// exact, check.
struct ConstraintArgs {
  ConstraintFiles files;
  bool given() const {
    return !files.require.empty() || !files.forbid.empty() || !files.tiers.empty();
  }
  Constraints resolve(const std::vector<std::string>& names) const {
    return read_constraints(files, names);
  }
  // The same for a search over the jkl cache at `path`. When its provenance header says it was
  // explored under constraints, these must be the same (InputError otherwise), or the classes
  // would count DAGs that break them; required arcs need a cache explored with them, since a
  // set holding them may have been pruned for a subset without them.
  Constraints resolve_for_cache(const std::string& path,
                                const std::vector<std::string>& names) const;
};
void add_constraint_options(CLI::App& app, ConstraintArgs& args);

// What the commands that write a pool (learn, search, exact) share: reading the CSV, epsilon,
// budget and threads, the outputs, preferred arcs and constraints.
struct PoolArgs {
  CsvArgs csv;
  EpsilonArgs eps;
  RunArgs run;
  OutputOptions output;
  NetworkArgs networks;
  ConstraintArgs constraints;
  std::string prefer_file;  // --prefer-arcs
};
// Their options, and the score's (bound to `score`).
void add_pool_options(CLI::App& app, PoolArgs& args, ScoreParams& score);

// --matrices: learn, search, exact, merge (bnsl::OutputOptions).
void add_output_options(CLI::App& app, OutputOptions& options);
// --prefer-arcs FILE: learn, search, exact (bnsl::prefer_arcs).
void add_prefer_option(CLI::App& app, std::string& file);
void add_explore_options(CLI::App& app, ExploreOptions& opt, std::string& vars);
// --explore-memory (MiB) into ExploreOptions::memory_per_var (bytes): score, learn, exact.
void add_memory_option(CLI::App& app, std::size_t& bytes);

// Parses "A:B", "A:" or ":B" (0-based, B exclusive), or "K/N" (slice K of N equal slices of
// the n_vars variables) into opt.var_begin / var_end.
void parse_vars(const std::string& text, std::size_t n_vars, ExploreOptions& opt);

// Options of the ordering search (search, learn): algorithm, seed, pool caps, checkpoint
// interval, --exact-max-vars (dp_max_n); and --trace, the anytime curve's file.
void add_search_options(CLI::App& app, SearchOptions& options, std::string& trace);

// Options of exact mode: --method and --max-solutions.
void add_exact_options(CLI::App& app, ExactOptions& options);
// learn: the share of --time given to exploration (the rest goes to the search).
void add_explore_share_option(CLI::App& app, std::optional<double>& share);

}  // namespace bnsl::cli
