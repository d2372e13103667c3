// `bnsl learn DATA.csv -o PREFIX`: explore parent sets, then search orders, in one --time
// budget (default 60 s), split as bnsl::learn() does (include/bnsl/learn.hpp). Writes the
// pool of networks within epsilon of the best found: the first network as soon as there is
// one, then every --checkpoint seconds, at the deadline and on SIGINT/SIGTERM.
#include <iostream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "outputs.hpp"

namespace bnsl::cli {
namespace {

struct LearnCommand {
  std::string data_path, prefix, vars, trace;
  CsvArgs csv;
  EpsilonArgs eps;
  RunArgs run;
  LearnOptions o;  // the flags below are bound to it
  bool time_given = false;

  int execute() {
    const double budget = time_given ? run.time : kDefaultLearnTime;
    StopToken stop(budget);
    Dataset data = read_csv(data_path, csv.resolve());
    o.explore.epsilon = eps.resolve();
    o.threads = run.threads;
    o.progress = !run.quiet;
    if (!run.quiet)
      std::cerr << "bnsl: learn: " << data_path << ": " << data.n_vars() << " variables, "
                << data.n_rows() << " rows; " << to_string(o.explore.score.kind) << ", "
                << o.explore.epsilon.describe() << ", "
                << (budget > 0 ? std::to_string(budget) + " s" : std::string("no time limit"))
                << "\n";
    ReportWriter out("learn", prefix, &data, run.quiet, trace);
    o.on_improvement = out.improvement();
    LearnResult r = bnsl::learn(data, o, stop, out.writer());
    nlohmann::json stats = {{"explore", nlohmann::json::parse(r.explore.to_json())},
                            {"search", nlohmann::json::parse(r.search.to_json())}};
    std::ostringstream summary;
    r.search.print(summary);
    summary << pool_summary("learn", r.report, prefix, true, stop.elapsed());
    return finish("learn", run, stats.dump(2), summary.str(), "wrote the networks found so far");
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
  add_score_options(*sub, cmd->o.explore.score);
  add_epsilon_options(*sub, cmd->eps);
  add_explore_options(*sub, cmd->o.explore, cmd->vars);
  add_memory_option(*sub, cmd->o.explore.memory_per_var);
  add_explore_share_option(*sub, cmd->o.explore_share);
  add_search_options(*sub, cmd->o.search, cmd->trace);
  add_run_options(*sub, cmd->run);
  sub->get_option("--time")
      ->default_str(number_text(kDefaultLearnTime))
      ->description(
          "Wall-clock budget in seconds for exploration and search together (0: until "
          "interrupted)");
  return [sub, cmd]() {
    if (!sub->parsed()) return -1;
    cmd->time_given = sub->count("--time") > 0;
    if (!cmd->vars.empty())
      throw InputError("--vars is for `bnsl score` (job-array slices), not `bnsl learn`");
    return cmd->execute();
  };
}

}  // namespace bnsl::cli
