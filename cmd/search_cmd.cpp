// `bnsl search CACHE.jkl -o PREFIX`: ordering search (ASOBS or OBS) over a score cache; writes
// the pool of networks within epsilon of the best one found. With --data the variables are
// named from the CSV header and the best network's BIF gets parameters from the data.
#include <memory>

#include <nlohmann/json.hpp>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/results.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "help.hpp"
#include "options.hpp"
#include "outputs.hpp"
#include "pipeline_frame.hpp"
#include "summary.hpp"

namespace bnsl::cli {
namespace {

struct SearchCommand : PoolArgs {
  std::string cache_path, prefix, data_path, trace;
  ScoreParams score;
  SearchOptions o;  // the flags below are bound to it
  bool time_given = false;

  int execute(Comm& comm) {
    PipelineFrame frame("search", comm, run, time_given ? run.time : kDefaultLearnTime, prefix,
                        {trace}, output);
    const StopToken& stop = frame.stop();
    std::unique_ptr<Dataset> data;
    if (!data_path.empty()) data = std::make_unique<Dataset>(read_data(data_path, csv, run));
    const NetworkFiles files = networks.resolve(data != nullptr);
    if (data) {
      std::vector<NetFormat> written = files.formats;
      written.push_back(NetFormat::bif);
      check_legal_names(*data, written);
    }
    ScoreCache cache = read_jkl(cache_path, data ? data->names() : std::vector<std::string>{});
    o.epsilon = eps.resolve();
    o.constraints = constraints.resolve_for_cache(cache_path, cache.names_or_defaults());
    o.threads = run.threads;
    o.tune = run.tunables.search;
    o.pool_tune = run.tunables.pool;
    o.progress = !run.quiet;
    o.comm = &comm;
    frame.announce(cache_path,
                   std::to_string(cache.n_vars()) + " variables, " +
                       std::to_string(cache.total_entries()) + " cache entries",
                   to_string(o.algo) + ", " + o.epsilon.describe(), o.constraints);
    ReportWriter out =
        frame.report_writer(prefix, data.get(), *this, files,
                            read_preferences(prefer_file, cache.names_or_defaults()), trace);
    if (comm.root()) o.on_improvement = out.improvement();
    SearchRunResult r = search_cache(cache, o, ReportContext{score, data.get(), true}, stop,
                                     comm.root() ? out.writer() : ReportFn{});
    nlohmann::json stats = {{"search", nlohmann::json::parse(r.stats.to_json())},
                            {"outputs", {{"final_write_seconds", out.final_write_seconds()}}}};
    return frame.leave(frame.finish_pool(stats, r.stats, r.report, prefix, data != nullptr));
  }
};

}  // namespace

Action register_search(CLI::App& app, Comm& comm) {
  auto cmd = std::make_shared<SearchCommand>();
  CLI::App* sub = app.add_subcommand(
      "search",
      "Search over variable orders (ASOBS or OBS, with swaps, insertions and restarts) for the "
      "best network a score cache allows, and pool every network met within epsilon of it.");
  sub->add_option("cache", cmd->cache_path, "Score cache (jkl)")
      ->type_name("CACHE.jkl")
      ->required();
  sub->add_option("-o,--output", cmd->prefix, "Output prefix: PREFIX.pool.json, .best.bif, ...")
      ->type_name("PREFIX")
      ->required();
  sub->add_option("--data", cmd->data_path,
                  "The CSV the cache was scored from: variable names and BIF parameters")
      ->type_name("DATA.csv")
      ->group(kInputGroup);
  add_pool_options(*sub, *cmd, cmd->score);
  add_search_options(*sub, cmd->o, cmd->trace);
  sub->get_option("--time")
      ->default_str(number_text(kDefaultLearnTime))
      ->description("Wall-clock budget in seconds (0: until interrupted)");
  return [sub, cmd, &comm]() {
    if (!sub->parsed()) return -1;
    cmd->time_given = sub->count("--time") > 0;
    return cmd->execute(comm);
  };
}

}  // namespace bnsl::cli
