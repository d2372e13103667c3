// `bnsl score DATA.csv -o CACHE.jkl`: explore parent sets and write the pruned score cache.
#include <algorithm>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "pipeline_frame.hpp"
#include "summary.hpp"

namespace bnsl::cli {
namespace {

struct ScoreCommand {
  std::string data_path, out_path, vars;
  bool time_given = false;  // --time on the command line (0: no limit)
  CsvArgs csv;
  EpsilonArgs eps;
  ConstraintArgs constraints;
  RunArgs run;
  ExploreOptions explore;

  int execute(Comm& comm) {
    // --time counts from the start, reading the data and writing the cache included (as
    // learn's): the exploration gets what is left less learn's reserve for the outputs.
    PipelineFrame frame("score", comm, run, run.time, "", {out_path});
    const StopToken& stop = frame.stop();
    Dataset data = read_data(data_path, csv, run);
    explore.comm = &comm;
    explore.epsilon = eps.resolve();
    explore.constraints = constraints.resolve(data.names());
    explore.time =
        run.time > 0 ? std::max(0.05, run.time - stop.elapsed() - output_reserve(run.time)) : 0;
    explore.threads = run.threads;
    explore.tune = run.tunables.explore;
    explore.progress = !run.quiet;
    parse_vars(vars, data.n_vars(), explore);
    apply_default_budget(explore, time_given);
    ExploreOptions described = explore;  // the budget as given, not the exploration's share
    described.time = run.time;
    frame.announce(data_path, size_text(data),
                   to_string(explore.score.kind) + ", " + to_string(explore.method) +
                       " exploration, " + explore.epsilon.describe(),
                   explore.constraints, describe_budget(described).substr(2));
    ExploreStats stats;
    ScoreCache cache = bnsl::explore(data, explore, stop, &stats);
    const CacheProvenance provenance = cache_provenance(data, explore, stats);
    JklWriteOptions w;
    w.var_begin = explore.var_begin;
    w.var_end = explore.var_end;
    w.provenance = &provenance;
    if (comm.root()) write_jkl(out_path, cache, w);
    return frame.finish(
        nlohmann::json::parse(stats.to_json()),
        phase_summary(stats, frame.verbose()) + "bnsl: score: wrote " + out_path + "\n",
        "the cache holds what was explored");
  }
};

}  // namespace

Action register_score(CLI::App& app, Comm& comm) {
  auto cmd = std::make_shared<ScoreCommand>();
  CLI::App* sub = app.add_subcommand(
      "score",
      "Explore candidate parent sets of every variable and write their local scores as a "
      "jkl score cache (GOBNILP/BLIP format), pruned only by rules that keep every parent set "
      "a network within epsilon of the optimum may use.");
  sub->add_option("data", cmd->data_path,
                  "CSV of categorical data (one column per variable; - reads standard input)")
      ->type_name("DATA.csv")
      ->required();
  sub->add_option("-o,--output", cmd->out_path, "Score cache to write (jkl)")
      ->type_name("CACHE.jkl")
      ->required();
  add_csv_options(*sub, cmd->csv);
  add_run_options(*sub, cmd->run);
  add_score_options(*sub, cmd->explore.score);
  add_epsilon_options(*sub, cmd->eps);
  add_explore_options(*sub, cmd->explore, cmd->vars);
  add_memory_option(*sub, cmd->explore.memory_per_var);
  add_constraint_options(*sub, cmd->constraints);
  auto* time_opt = sub->get_option("--time");
  time_opt->default_str("")->description(
      "Wall-clock budget in seconds, shared by all variables (0: no limit, every variable "
      "explored to the end; default: --time-per-var)");
  time_opt->excludes(sub->get_option("--time-per-var"));
  sub->get_option("--time-per-var")
      ->description(
          "Budget per variable in seconds, instead of one shared --time (default for is, "
          "greedy and hybrid when --time is not given: " +
          std::to_string(static_cast<int>(kDefaultTimePerVar)) + ")");
  return [sub, cmd, time_opt, &comm]() {
    if (!sub->parsed()) return -1;
    cmd->time_given = time_opt->count() > 0;
    return cmd->execute(comm);
  };
}

}  // namespace bnsl::cli
