// `bnsl score DATA.csv -o CACHE.jkl`: explore parent sets and write the pruned score cache.
#include <cstdio>
#include <iostream>
#include <memory>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

// Best-first explorers are anytime: without a budget they would run to exhaustion, which on
// hundreds of variables takes hours. Default to one second per variable (as the paper).
std::string budget_text(const ExploreOptions& o) {
  char buf[64] = "";
  if (o.time > 0) std::snprintf(buf, sizeof buf, ", budget %g s", o.time);
  if (o.time_per_var > 0) std::snprintf(buf, sizeof buf, ", %g s per variable", o.time_per_var);
  return buf;
}

void apply_default_budget(ExploreOptions& o) {
  if (o.method != ExploreMethod::seq && o.time <= 0 && o.time_per_var <= 0) o.time_per_var = 1;
}

struct ScoreCommand {
  std::string data_path, out_path, vars;
  CsvArgs csv;
  ScoreArgs score;
  EpsilonArgs eps;
  RunArgs run;
  ExploreOptions explore;
  MemoryArgs memory;

  int execute() {
    Dataset data = read_csv(data_path, csv.resolve());
    explore.score = score.resolve();
    explore.epsilon = eps.resolve();
    explore.time = run.time;
    explore.threads = run.threads;
    explore.memory_per_var = memory.resolve(run.threads);
    explore.progress = !run.quiet;
    parse_vars(vars, explore);
    apply_default_budget(explore);
    if (!run.quiet)
      std::cerr << "bnsl: score: " << data_path << ": " << data.n_vars() << " variables, "
                << data.n_rows() << " rows; " << to_string(explore.score.kind) << ", " << to_string(explore.method)
                << " exploration, " << explore.epsilon.describe() << budget_text(explore)
                << "\n";
    ExploreStats stats;
    StopToken stop;
    ScoreCache cache = bnsl::explore(data, explore, stop, &stats);
    JklWriteOptions w;
    w.var_begin = explore.var_begin;
    w.var_end = explore.var_end;
    write_jkl(out_path, cache, w);
    if (!run.stats_file.empty()) write_file_atomically(run.stats_file, stats.to_json() + "\n");
    if (!run.quiet) {
      stats.print(std::cerr);
      std::cerr << "bnsl: score: wrote " << out_path << "\n";
    }
    if (signal_received()) {
      std::cerr << "bnsl: score: interrupted by signal " << received_signal()
                << "; the cache holds what was explored\n";
      return 128 + received_signal();
    }
    return 0;
  }
};

}  // namespace

Action register_score(CLI::App& app) {
  auto cmd = std::make_shared<ScoreCommand>();
  CLI::App* sub = app.add_subcommand(
      "score",
      "Explore candidate parent sets of every variable and write their local scores as a "
      "jkl score cache (GOBNILP/BLIP format), pruned only by rules that keep every parent set "
      "a network within epsilon of the optimum may use.");
  sub->add_option("data", cmd->data_path, "CSV of categorical data (one column per variable)")
      ->required();
  sub->add_option("-o,--output", cmd->out_path, "Score cache to write (jkl)")->required();
  add_csv_options(*sub, cmd->csv);
  add_score_options(*sub, cmd->score);
  add_epsilon_options(*sub, cmd->eps);
  add_explore_options(*sub, cmd->explore, cmd->vars);
  add_memory_option(*sub, cmd->memory);
  add_run_options(*sub, cmd->run);
  auto* time_opt = sub->get_option("--time");
  time_opt->excludes(sub->get_option("--time-per-var"));
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
