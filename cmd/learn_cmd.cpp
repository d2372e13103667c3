// `bnsl learn DATA.csv -o PREFIX`: explore parent sets, then search orders, in one --time
// budget (default 60 s), split as bnsl::learn() does (include/bnsl/learn.hpp). Writes the
// pool of networks within epsilon of the best found: the first network as soon as there is
// one, then every --checkpoint seconds, at the deadline and on SIGINT/SIGTERM.
#include <filesystem>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
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

// The file --resume PREFIX continues from: the journal of a run killed while exploring
// (PREFIX.cache.jkl.journal), else the cache of one whose exploration ended (PREFIX.cache.jkl).
std::string resume_source(const std::string& prefix) {
  const std::string cache = prefix + ".cache.jkl";
  if (std::filesystem::exists(journal_path(cache))) return journal_path(cache);
  if (std::filesystem::exists(cache)) return cache;
  throw InputError(journal_path(cache), 0, 0,
                   "--resume: no exploration journal here, nor a cache " + cache +
                       " (`bnsl learn -o " + prefix + "` writes them as it explores)");
}

// The earlier run at PREFIX (--resume): its journal's variables, which must come from the same
// data and options (`now`), and its pool's classes as the search's start networks when the
// pool is of the same data (a run killed before its first pool leaves an older run's there).
JournalContents resume_from(const std::string& prefix, const Dataset& data,
                            const CacheProvenance& now, LearnOptions& o, bool quiet) {
  const std::string path = resume_source(prefix);
  JournalContents earlier = read_cache_journal(path, data.names());
  std::string why;
  if (!earlier.provenance.same_run(now, why))
    throw InputError(path, 0, 0,
                     "--resume: not a run on the same data with the same options: " + why);
  const std::string pool_path = prefix + ".pool.json";
  if (std::filesystem::exists(pool_path)) {
    PoolReport pool = read_pool_json(pool_path);
    if (pool.variables != data.names() || pool.rows != now.rows || pool.score != now.score) {
      if (!quiet)
        std::cerr << "bnsl: learn: --resume: " << pool_path << " is another run's ("
                  << pool.variables.size() << " variables, " << pool.rows << " rows, " << pool.score
                  << "): the search starts afresh\n";
      return earlier;
    }
    for (PoolClass& c : pool.classes) o.search.start_networks.push_back(std::move(c.dag));
    if (pool.classes.empty())
      for (PoolDag& d : pool.dags) o.search.start_networks.push_back(std::move(d.parents));
  }
  return earlier;
}

struct LearnCommand : PoolArgs {
  std::string data_path, prefix, vars, trace, resume;
  LearnOptions o;  // the flags below are bound to it
  bool time_given = false;

  int execute(Comm& comm) {
    PipelineFrame frame("learn", comm, run, time_given ? run.time : kDefaultLearnTime, prefix,
                        {trace}, output);
    const StopToken& stop = frame.stop();
    Dataset data = read_data(data_path, csv, run);
    const NetworkFiles files = networks.resolve(true);
    std::vector<NetFormat> written = files.formats;
    written.push_back(NetFormat::bif);
    check_legal_names(data, written);  // before the budget is spent
    o.comm = &comm;
    o.explore.epsilon = eps.resolve();
    o.explore.constraints = constraints.resolve(data.names());
    o.threads = run.threads;
    o.explore.tune = run.tunables.explore;
    o.search.tune = run.tunables.search;
    o.search.pool_tune = run.tunables.pool;
    o.budget = run.tunables.budget;
    // The exploration's journal (PREFIX.cache.jkl.journal, renamed PREFIX.cache.jkl once
    // whole), and what an earlier run left (--resume).
    ExploreOptions planned = o.explore;
    planned.time = stop.budget() > 0 && o.explore.time_per_var <= 0 ? stop.budget() : 0;
    planned.threads = run.threads;
    const CacheProvenance provenance = planned_provenance(data, planned);
    JournalContents earlier;
    const std::string cache_path = prefix + ".cache.jkl";
    bool in_place = false;  // continuing the journal of this prefix
    if (!resume.empty()) {
      earlier = resume_from(resume, data, provenance, o, run.quiet);
      o.explore.explored = &earlier.cache;
      in_place = resume == prefix && resume_source(resume) == journal_path(cache_path);
    }
    std::unique_ptr<CacheJournal> journal;
    if (comm.root()) {
      journal = std::make_unique<CacheJournal>(cache_path, data.n_vars(), provenance, in_place);
      if (!resume.empty() && !in_place)  // a new journal holds the earlier run's variables too
        for (std::size_t v = 0; v < earlier.cache.n_vars(); ++v)
          if (!earlier.cache.var(v).empty()) journal->append(v, earlier.cache.var(v));
      o.explore.on_variable = [&journal](std::size_t v, const VarCache& entries) {
        journal->append(v, entries);
      };
    }
    o.progress = !run.quiet;
    o.on_explored = [&, quiet = run.quiet](const ExploreStats& s) {
      if (!quiet) std::cerr << phase_summary(s, frame.verbose());
      if (!journal || journal->finish()) return;                   // whole: it replaced the cache
      if (const std::string why = journal->error(); !why.empty())  // said even with --quiet
        std::cerr << "bnsl: learn: warning: " << why << "; " << cache_path
                  << " is kept as it was, and the run goes on\n";
    };
    frame.announce(data_path, size_text(data),
                   to_string(o.explore.score.kind) + ", " + o.explore.epsilon.describe(),
                   o.explore.constraints);
    ReportWriter out = frame.report_writer(prefix, &data, *this, files,
                                           read_preferences(prefer_file, data.names()), trace);
    if (comm.root()) o.on_improvement = out.improvement();
    LearnResult r = bnsl::learn(data, o, stop, comm.root() ? out.writer() : ReportFn{});
    nlohmann::json stats = {{"explore", nlohmann::json::parse(r.explore.to_json())},
                            {"proposals", nlohmann::json::parse(r.proposals.to_json())},
                            {"search", nlohmann::json::parse(r.search.to_json())},
                            {"outputs", {{"final_write_seconds", out.final_write_seconds()}}}};
    const int status = frame.finish_pool(stats, r.search, r.report, prefix, true);
    if (journal && !journal->error().empty())  // the networks were written, not the journal
      throw RuntimeError(journal->error() + " (" + cache_path + " is kept as it was)");
    return frame.leave(status);
  }
};

}  // namespace

Action register_learn(CLI::App& app, Comm& comm) {
  auto cmd = std::make_shared<LearnCommand>();
  CLI::App* sub = app.add_subcommand(
      "learn",
      "Learn networks from data: explore parent sets, then search orders, in one time budget; "
      "writes the best network found and every network within epsilon of it.");
  sub->add_option("data", cmd->data_path,
                  "CSV of categorical data (one column per variable; - reads standard input)")
      ->type_name("DATA.csv")
      ->required();
  sub->add_option("-o,--output", cmd->prefix,
                  "Output prefix: PREFIX.pool.json, .best.bif, ...; PREFIX.cache.jkl.journal "
                  "is the exploration's journal, which --resume reads, renamed PREFIX.cache.jkl "
                  "once whole (default with --resume: its PREFIX)")
      ->type_name("PREFIX");
  sub->add_option("--resume", cmd->resume,
                  "Continue the run killed at PREFIX: the variables its journal "
                  "(PREFIX.cache.jkl.journal, or PREFIX.cache.jkl) holds are not explored "
                  "again, its pool's classes start the search, and --time is this run's "
                  "budget. Same data and options as that run.")
      ->type_name("PREFIX")
      ->group(kInputGroup);
  add_pool_options(*sub, *cmd, cmd->o.explore.score);
  add_explore_options(*sub, cmd->o.explore, cmd->vars);
  add_memory_option(*sub, cmd->o.explore.memory_per_var);
  add_explore_share_option(*sub, cmd->o.explore_share);
  add_search_options(*sub, cmd->o.search, cmd->trace);
  sub->get_option("--time")
      ->default_str(number_text(kDefaultLearnTime))
      ->description(
          "Wall-clock budget in seconds for exploration and search together (0: until "
          "interrupted)");
  sub->get_option("--time-per-var")->group(kAdvancedGroup);
  sub->get_option("--vars")->group("");  // refused below: for `bnsl score`
  return [sub, cmd, &comm]() {
    if (!sub->parsed()) return -1;
    cmd->time_given = sub->count("--time") > 0;
    if (!cmd->vars.empty())
      throw InputError("--vars is for `bnsl score` (job-array slices), not `bnsl learn`");
    if (cmd->prefix.empty()) cmd->prefix = cmd->resume;
    if (cmd->prefix.empty()) throw InputError("--output is required (or --resume PREFIX)");
    return cmd->execute(comm);
  };
}

}  // namespace bnsl::cli
