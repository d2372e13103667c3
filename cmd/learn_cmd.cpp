// `bnsl learn DATA.csv -o PREFIX`: explore parent sets, then search orders, in one --time
// budget (default 60 s; --explore-share of it for exploration, default half; the search gets
// what exploration leaves, less a small reserve for writing the outputs). Writes the pool of
// networks within epsilon of the best found, refreshed every --checkpoint seconds, at the
// deadline and on SIGINT/SIGTERM.
#include <algorithm>
#include <iostream>
#include <memory>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "search_run.hpp"

namespace bnsl::cli {
namespace {

struct LearnCommand {
  std::string data_path, prefix, vars;
  CsvArgs csv;
  ScoreArgs score;
  EpsilonArgs eps;
  RunArgs run;
  SearchArgs search;
  ExploreOptions explore;
  MemoryArgs memory;
  double explore_share = 0.5;
  bool time_given = false;

  int execute() {
    const double budget = time_given ? run.time : kDefaultTime;
    StopToken stop(budget);
    Dataset data = read_csv(data_path, csv.resolve());
    explore.score = score.resolve();
    explore.epsilon = eps.resolve();
    explore.threads = run.threads;
    explore.memory_per_var = memory.resolve(run.threads);
    explore.progress = !run.quiet;
    if (budget > 0 && explore.time_per_var <= 0) explore.time = explore_share * budget;
    if (!run.quiet)
      std::cerr << "bnsl: learn: " << data_path << ": " << data.n_vars() << " variables, "
                << data.n_rows() << " rows; " << to_string(explore.score.kind) << ", "
                << explore.epsilon.describe() << ", "
                << (budget > 0 ? std::to_string(budget) + " s" : std::string("no time limit"))
                << "\n";
    ExploreStats explore_stats;
    ScoreCache cache = bnsl::explore(data, explore, stop, &explore_stats);
    if (!run.quiet) explore_stats.print(std::cerr);
    SearchOptions o;
    search.apply(o);
    o.epsilon = explore.epsilon;
    o.threads = run.threads;
    o.progress = !run.quiet;
    if (budget > 0) o.time = std::max(0.05, budget - stop.elapsed() - output_reserve(budget));
    nlohmann::json stats = {{"explore", nlohmann::json::parse(explore_stats.to_json())}};
    SearchRun r{"learn", prefix, &data, explore.score, run.quiet, run.stats_file, search.trace};
    r.cache_exhaustive = explore_stats.exhaustive();
    return r.execute(cache, o, stop, stats);
  }
};

}  // namespace

Action register_learn(CLI::App& app) {
  auto cmd = std::make_shared<LearnCommand>();
  CLI::App* sub = app.add_subcommand(
      "learn",
      "Learn networks from data: explore parent sets, then search orders, in one time budget; "
      "writes the best network found and every network within epsilon of it.");
  sub->add_option("data", cmd->data_path, "CSV of categorical data (one column per variable)")
      ->required();
  sub->add_option("-o,--output", cmd->prefix, "Output prefix: PREFIX.pool.json, .best.bif, ...")
      ->required();
  add_csv_options(*sub, cmd->csv);
  add_score_options(*sub, cmd->score);
  add_epsilon_options(*sub, cmd->eps);
  add_explore_options(*sub, cmd->explore, cmd->vars);
  add_memory_option(*sub, cmd->memory);
  add_explore_share_option(*sub, cmd->explore_share);
  add_search_options(*sub, cmd->search);
  add_run_options(*sub, cmd->run);
  sub->get_option("--time")->default_str("60")->description(
      "Wall-clock budget in seconds for exploration and search together (default 60; 0: "
      "until interrupted)");
  return [sub, cmd]() {
    if (!sub->parsed()) return -1;
    cmd->time_given = sub->count("--time") > 0;
    if (!cmd->vars.empty())
      throw InputError("--vars is for `bnsl score` (job-array slices), not `bnsl learn`");
    return cmd->execute();
  };
}

}  // namespace bnsl::cli
