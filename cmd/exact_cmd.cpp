// `bnsl exact DATA.csv|CACHE.jkl -o PREFIX`: prove the optimal network and list every network
// within epsilon of it (ILP with CBC, or the subset DP), written as a pool like `learn`'s.
//
// From a CSV the cache is first built by exhaustive independence-selection exploration with
// the epsilon-relaxed pruning rules and no in-degree limit (only the rules' own size bounds):
// only an exploration that finished keeps every family a network within epsilon may use, so
// only then may the pool be "optimal"/"complete". With --time, the exploration may take
// kExploreShare of it: each variable first gets a fair share (so that early variables do not
// take the budget of later ones), then the variables cut at their share are explored again
// with what the others left; the solver keeps the rest, enough to return a network from a
// cut cache.
// A .jkl cache is taken as given; optimality and completeness are then relative to it.
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/report.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

constexpr double kExploreShare = 0.9;

struct ExactCommand {
  std::string input, prefix, data_path, method;
  std::size_t max_solutions = 1000000;
  CsvArgs csv;
  ScoreArgs score;
  EpsilonArgs eps;
  RunArgs run;
  MemoryArgs memory;

  std::unique_ptr<Dataset> data;
  ExploreStats explore_stats;
  bool cache_exhaustive = true;  // every family within epsilon is in the cache

  ScoreCache explore_cache(const StopToken& stop) {
    ExploreOptions o;
    o.score = score.resolve();
    o.epsilon = eps.resolve();
    o.method = ExploreMethod::is;  // best-first to exhaustion: no in-degree limit
    o.max_parents = -1;
    o.candidates = 0;  // never screened: the proof needs every family within epsilon
    o.prune = true;
    o.threads = run.threads;
    o.progress = !run.quiet;
    o.time = run.time * kExploreShare;  // 0: no limit
    o.retry_cut = true;
    o.memory_per_var = memory.resolve(run.threads);
    if (!run.quiet)
      std::cerr << "bnsl: exact: " << input << ": " << data->n_vars() << " variables, "
                << data->n_rows() << " rows; exhaustive exploration (" << to_string(o.score.kind)
                << ", " << o.epsilon.describe() << ")\n";
    ScoreCache cache = bnsl::explore(*data, o, stop, &explore_stats);
    cache_exhaustive = explore_stats.exhaustive() && !stop.stop_requested();
    if (!run.quiet) explore_stats.print(std::cerr);
    return cache;
  }

  ScoreCache load(const StopToken& stop, const ExactOptions& o) {
    if (input.ends_with(".jkl")) {
      if (!data_path.empty()) data = std::make_unique<Dataset>(read_csv(data_path, csv.resolve()));
      return read_jkl(input, data ? data->names() : std::vector<std::string>{});
    }
    data = std::make_unique<Dataset>(read_csv(input, csv.resolve()));
    check_exact_limits(data->n_vars(), o);  // fail before a long exploration
    return explore_cache(stop);
  }

  int execute() {
    ExactOptions o;
    if (!method.empty()) o.method = parse_exact_method(method);
    o.threads = run.threads;
    if (o.method == ExactMethod::ilp) check_exact_limits(0, o);  // before any exploration
    StopToken stop(run.time);
    ScoreCache cache = load(stop, o);
    o.epsilon = eps.resolve();
    o.max_solutions = max_solutions;
    o.progress = !run.quiet;
    ExactStats stats;
    PoolReport report = solve_exact(cache, o, stop, &stats);
    const ScoreParams sp = score.resolve();
    report.score = to_string(sp.kind);
    if (sp.kind == ScoreKind::bdeu) report.ess = sp.ess;
    report.rows = data ? data->n_rows() : 0;
    report.complete = report.complete && cache_exhaustive;
    report.optimal = report.optimal && cache_exhaustive;
    report.seconds = stop.elapsed();
    write_outputs(prefix, report, data.get());
    return finish(stats, report);
  }

  int finish(const ExactStats& stats, const PoolReport& report) {
    if (!run.stats_file.empty()) {
      nlohmann::json j = {{"exact", nlohmann::json::parse(stats.to_json())}};
      if (data && !input.ends_with(".jkl"))
        j["explore"] = nlohmann::json::parse(explore_stats.to_json());
      write_file_atomically(run.stats_file, j.dump(2) + "\n");
    }
    if (!run.quiet) {
      stats.print(std::cerr);
      if (!cache_exhaustive)
        std::cerr << "bnsl: exact: exploration did not finish: the cache may lack families, "
                     "so the result is neither proven optimal nor complete\n";
      std::cerr << "bnsl: exact: " << report.dags.size() << " DAGs in " << report.mec_count
                << " equivalence classes; wrote " << prefix << ".pool.json\n";
    }
    if (signal_received()) {
      std::cerr << "bnsl: exact: interrupted by signal " << received_signal()
                << "; wrote the networks found so far\n";
      return 128 + received_signal();
    }
    return 0;
  }
};

}  // namespace

Action register_exact(CLI::App& app) {
  auto cmd = std::make_shared<ExactCommand>();
  CLI::App* sub = app.add_subcommand(
      "exact",
      "Prove the optimal network and list every network within epsilon of it (default: "
      "Bayes factor 20), grouped into equivalence classes. Input: a CSV (explored "
      "exhaustively with the epsilon-relaxed pruning rules) or a jkl score cache.");
  sub->add_option("input", cmd->input, "CSV of categorical data, or a score cache ending in .jkl")
      ->required();
  sub->add_option("-o,--output", cmd->prefix, "Output prefix (PREFIX.pool.json, .best.bif, ...)")
      ->required();
  sub->add_option("--method", cmd->method,
                  "auto: dp up to 24 variables, else ilp; ilp: integer programming with "
                  "COIN-OR CBC; dp: subset dynamic programming, up to about 26 variables "
                  "(each method checks the other)")
      ->check(CLI::IsMember({"auto", "ilp", "dp"}))
      ->default_str("auto");
  sub->add_option("--max-solutions", cmd->max_solutions,
                  "Stop listing networks after this many (the pool is then incomplete)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->default_str("1000000");
  sub->add_option("--data", cmd->data_path,
                  "With a .jkl cache: the CSV it came from (parameters of PREFIX.best.bif)");
  add_csv_options(*sub, cmd->csv);
  add_score_options(*sub, cmd->score);
  add_epsilon_options(*sub, cmd->eps);
  add_run_options(*sub, cmd->run);
  add_memory_option(*sub, cmd->memory);
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
