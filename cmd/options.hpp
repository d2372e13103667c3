// Command-line options, each declared once (name, default, range, help) and shared by the
// subcommands that take it. Parsing fills the library's own option structs.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "bnsl/dataset.hpp"
#include "bnsl/epsilon.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/search.hpp"
#include "util/atomic_file.hpp"

namespace bnsl::cli {

// Options every long-running subcommand takes.
struct RunArgs {
  double time = 0;         // wall-clock budget, s (0: none)
  int threads = 0;         // 0: all cores
  bool quiet = false;      // no progress or summary on stderr
  std::string stats_file;  // statistics as JSON (empty: none)
};

struct EpsilonArgs {
  double epsilon = -1, bayes_factor = -1, factor = -1;  // at most one is set
  Epsilon resolve() const;
};

struct CsvArgs {
  CsvOptions csv;
  std::string delimiter = ",";
  CsvOptions resolve() const;
};

struct ScoreArgs {
  std::string kind = "bic";
  double ess = 1.0;
  ScoreParams resolve() const;
};

// Memory cap of one variable's parent-set explorer (score, learn, exact).
struct MemoryArgs {
  double mib = -1;                          // < 0: default_explore_memory; 0: none
  std::size_t resolve(int threads) const;   // bytes
};

void add_csv_options(CLI::App& app, CsvArgs& args);
void add_score_options(CLI::App& app, ScoreArgs& args);
void add_epsilon_options(CLI::App& app, EpsilonArgs& args);
void add_run_options(CLI::App& app, RunArgs& args);
void add_explore_options(CLI::App& app, ExploreOptions& opt, std::string& vars);
void add_memory_option(CLI::App& app, MemoryArgs& args);

// Parses "A:B", "A:" or ":B" (0-based, B exclusive) into opt.var_begin / var_end.
void parse_vars(const std::string& text, ExploreOptions& opt);

// Options of the ordering search (search, learn).
struct SearchArgs {
  std::string algo = "asobs";               // asobs | obs
  std::uint64_t seed = 1;                   // random streams of all chains derive from it
  std::size_t pool_max = 100000;            // pool capacity
  std::size_t pool_max_cells = 10'000'000;  // ... in DAG x variable cells (0: no cap)
  double checkpoint = 30;                   // seconds between output refreshes (0: none)
  std::string trace;                        // anytime trace file (empty: none)
  int exact_max_vars = 22;                  // SearchOptions::dp_max_n
  void apply(SearchOptions& o) const;       // fills algo, seed, pool caps, checkpoint, dp_max_n
};

void add_search_options(CLI::App& app, SearchArgs& args);
// learn: the share of --time given to exploration (the rest goes to the search).
void add_explore_share_option(CLI::App& app, double& share);

}  // namespace bnsl::cli
