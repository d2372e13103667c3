// `bnsl learn DATA.csv -o PREFIX`: explore parent sets, then search orders, in one --time
// budget (default 60 s; --explore-share of it for exploration, default half, more when the
// search is the subset DP or the exploration is screened, see explore_seconds; the search
// gets what exploration leaves, less a small reserve for writing the outputs). Writes the
// pool of networks within epsilon of the best found, refreshed every --checkpoint seconds, at
// the deadline and on SIGINT/SIGTERM.
#include <algorithm>
#include <iostream>
#include <memory>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/search.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "search_run.hpp"

namespace bnsl::cli {
namespace {

constexpr double kDefaultExploreShare = 0.5;
constexpr double kExactExploreShare = 0.8;
// With screening (thousands of variables) the search starts from the greedy network and its
// climbs converge within a small share of the budget, while the exploration keeps finding
// families the best networks use: gen2000 (2,000 variables, 5,000 rows), `learn --time 120`,
// 3,800 below the true network with 0.75, 7,000 with 0.5 (bench/README.md, issue 19).
constexpr double kScreenedExploreShare = 0.75;

// Exploration's part of the budget. Up to --exact-max-vars variables the search is the subset
// DP, which takes little time (dp_seconds_estimate: under a second up to 20 variables), while
// the exploration decides how good the result is (uci/letter, 17 variables, 20,000 rows: the
// exhaustive exploration takes about 50 s): unless --explore-share is given, it gets
// kExactExploreShare of the budget, less four times the DP's estimate, and never less than the
// default share.
double explore_seconds(double budget, std::size_t n, int exact_max_vars, bool share_given,
                       double share, bool screened) {
  if (share_given) return share * budget;
  if (screened) return kScreenedExploreShare * budget;
  if (n > static_cast<std::size_t>(exact_max_vars)) return share * budget;
  const double dp = dp_seconds_estimate(static_cast<int>(n));
  return std::max(kDefaultExploreShare * budget,
                  std::min(kExactExploreShare * budget, budget - 4 * dp));
}

struct LearnCommand {
  std::string data_path, prefix, vars;
  CsvArgs csv;
  ScoreArgs score;
  EpsilonArgs eps;
  RunArgs run;
  SearchArgs search;
  ExploreOptions explore;
  MemoryArgs memory;
  double explore_share = kDefaultExploreShare;
  bool time_given = false, share_given = false;

  int execute() {
    const double budget = time_given ? run.time : kDefaultTime;
    StopToken stop(budget);
    Dataset data = read_csv(data_path, csv.resolve());
    explore.score = score.resolve();
    explore.epsilon = eps.resolve();
    explore.threads = run.threads;
    explore.memory_per_var = memory.resolve(run.threads);
    explore.progress = !run.quiet;
    if (budget > 0 && explore.time_per_var <= 0) {
      ExploreOptions timed = explore;  // screening applies to explorations under a time limit
      timed.time = budget;
      explore.time =
          explore_seconds(budget, data.n_vars(), search.exact_max_vars, share_given, explore_share,
                          auto_candidates(timed, data) > 0);
    }
    if (!run.quiet)
      std::cerr << "bnsl: learn: " << data_path << ": " << data.n_vars() << " variables, "
                << data.n_rows() << " rows; " << to_string(explore.score.kind) << ", "
                << explore.epsilon.describe() << ", "
                << (budget > 0 ? std::to_string(budget) + " s" : std::string("no time limit"))
                << "\n";
    SearchRun r{"learn", prefix, &data, explore.score, run.quiet, run.stats_file, search.trace};
    // With screening (many variables), a first network on disk within seconds: the greedy
    // network over the draft cache, long before the exploration ends.
    explore.on_draft = [&](const ScoreCache& draft) {
      r.write_early(greedy_network(draft, stop), stop.elapsed(), run.threads);
    };
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
    cmd->share_given = sub->count("--explore-share") > 0;
    if (!cmd->vars.empty())
      throw InputError("--vars is for `bnsl score` (job-array slices), not `bnsl learn`");
    return cmd->execute();
  };
}

}  // namespace bnsl::cli
