// `bnsl exact DATA.csv|CACHE.jkl -o PREFIX`: prove the optimal network and list every network
// within epsilon of it (ILP with CBC, or the subset DP), written as a pool like `learn`'s.
//
// From a CSV, bnsl::learn_exact() (include/bnsl/learn.hpp) first explores exhaustively, within
// a share of --time; only an exploration that finished keeps every family a network within
// epsilon may use, so only then may the pool be "optimal"/"complete". A .jkl cache is taken
// as given (bnsl::solve_exact_cache); optimality and completeness are then relative to it.
// --max-parents K is a constraint (bnsl/constraints.hpp): the exploration stops at K parents
// and a cache is filtered to them, so OPT and the list are those of that smaller space.
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "help.hpp"
#include "options.hpp"
#include "outputs.hpp"
#include "pipeline_frame.hpp"
#include "summary.hpp"
#include "util/memory.hpp"

namespace bnsl::cli {
namespace {

// The names of the best network's files can be written (before the run starts).
void check_names(const Dataset* data, const NetworkFiles& files) {
  if (!data) return;
  std::vector<NetFormat> written = files.formats;
  written.push_back(NetFormat::bif);
  check_legal_names(*data, written);
}

struct ExactCommand : PoolArgs {
  std::string input, prefix, data_path;
  int max_parents = -1;
  ExactLearnOptions o;  // the flags below are bound to it

  int execute(Comm& comm) {
    o.exact.threads = run.threads;
    if (o.exact.method == ExactMethod::ilp) check_exact_limits(0, o.exact);  // before anything
    PipelineFrame frame("exact", comm, run, run.time, prefix, {}, output);
    const StopToken& stop = frame.stop();
    o.exact.epsilon = eps.resolve();
    o.threads = run.threads;
    o.budget = run.tunables.budget;
    o.exact.tune = run.tunables.exact;
    o.explore_tune = run.tunables.explore;
    o.progress = !run.quiet;
    if (!run.quiet)
      o.on_explored = [&frame](const ExploreStats& s) {
        std::cerr << phase_summary(s, frame.verbose());
      };
    std::unique_ptr<Dataset> data;
    const bool from_cache = input.ends_with(".jkl");
    ExactLearnResult r;
    std::vector<NamedArc> prefer;
    NetworkFiles files;
    if (from_cache) {
      if (!data_path.empty()) data = std::make_unique<Dataset>(read_data(data_path, csv, run));
      files = networks.resolve(data != nullptr);
      check_names(data.get(), files);
      ScoreCache cache = read_jkl(input, data ? data->names() : std::vector<std::string>{});
      prefer = read_preferences(prefer_file, cache.names_or_defaults());
      o.constraints = constraints.resolve_for_cache(input, cache.names_or_defaults());
      o.constraints.max_parents = max_parents;
      r = solve_exact_cache(cache, o, data.get(), stop);
    } else {
      data = std::make_unique<Dataset>(read_data(input, csv, run));
      files = networks.resolve(true);
      check_names(data.get(), files);
      prefer = read_preferences(prefer_file, data->names());
      o.constraints = constraints.resolve(data->names());
      o.constraints.max_parents = max_parents;
      check_exact_limits(data->n_vars(), o.exact);  // before saying what will run
      frame.announce(input, size_text(*data),
                     "exhaustive exploration (" + to_string(o.score.kind) + ", " +
                         o.exact.epsilon.describe() + ")",
                     o.constraints);
      r = learn_exact(*data, o, stop);
    }
    ReportWriter out = frame.report_writer(prefix, data.get(), *this, files, std::move(prefer));
    out.write(r.report);
    nlohmann::json stats = {{"exact", nlohmann::json::parse(r.exact.to_json())}};
    if (!from_cache) stats["explore"] = nlohmann::json::parse(r.explore.to_json());
    return frame.finish(stats, phase_summary(r.exact, frame.verbose()) + summary(r),
                        "wrote the networks found so far");
  }

  // What the pool proves, and the files written.
  std::string summary(const ExactLearnResult& r) const {
    std::ostringstream summary;
    if (!r.cache_exhaustive)
      summary << "bnsl: exact: exploration did not finish: the cache may lack families, so the "
                 "result is neither proven optimal nor complete"
              << (max_parents < 0 ? " (--max-parents 2 or 3 proves and lists among the networks "
                                    "with at most that many parents per variable)"
                                  : "")
              << "\n";
    if (r.exact.memory_short)
      summary << "bnsl: exact: the list stopped at " << r.exact.solutions
              << (r.exact.classes ? " classes" : " DAGs") << " while it fit in memory as a pool ("
              << bytes_text(r.exact.memory_left)
              << " available): the pool holds the optimum and those listed, with "
                 "\"memory_short\": true; a smaller --bayes-factor (or --max-solutions, "
                 "--k-best) lists fewer\n";
    if (max_parents >= 0)
      summary << "bnsl: exact: among the networks with at most " << max_parents
              << " parents per variable (--max-parents)\n";
    summary << "bnsl: exact: " << classes_text(r.report) << "; wrote " << prefix << ".pool.json\n";
    return summary.str();
  }
};

}  // namespace

Action register_exact(CLI::App& app, Comm& comm) {
  auto cmd = std::make_shared<ExactCommand>();
  CLI::App* sub = app.add_subcommand(
      "exact",
      "Prove the optimal network and list every network within epsilon of it (default: "
      "Bayes factor 20), grouped into equivalence classes. Input: a CSV (explored "
      "exhaustively with the epsilon-relaxed pruning rules) or a jkl score cache.");
  sub->add_option(
         "input", cmd->input,
         "CSV of categorical data (- reads standard input), or a score cache ending in .jkl")
      ->type_name("DATA.csv|CACHE.jkl")
      ->required();
  sub->add_option("-o,--output", cmd->prefix, "Output prefix (PREFIX.pool.json, .best.bif, ...)")
      ->type_name("PREFIX")
      ->required();
  sub->add_option("--data", cmd->data_path,
                  "With a .jkl cache: the CSV it came from (parameters of PREFIX.best.bif)")
      ->type_name("DATA.csv")
      ->group(kInputGroup);
  add_pool_options(*sub, *cmd, cmd->o.score);
  add_exact_options(*sub, cmd->o.exact);
  sub->add_option("--max-parents", cmd->max_parents,
                  "Prove and list among the networks with at most this many parents per "
                  "variable, required ones included (GOBNILP's parent limit; default: none). "
                  "Where the unlimited exploration does not finish (BDeu above about 20 "
                  "variables) a limit of 2 or 3 often does; an equivalence class is wholly "
                  "within a limit or wholly beyond it")
      ->check(CLI::Range(0, 64))
      ->type_name("K")
      ->group(kScoreGroup);
  add_memory_option(*sub, cmd->o.memory_per_var);
  return [sub, cmd, &comm]() { return sub->parsed() ? cmd->execute(comm) : -1; };
}

}  // namespace bnsl::cli
