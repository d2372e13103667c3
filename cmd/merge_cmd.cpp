// `bnsl merge PART.jkl ... -o ALL.jkl` joins score caches computed in parts (job arrays of
// `bnsl score --vars A:B`); `bnsl merge --data DATA.csv A.pool.json ... -o PREFIX` merges pools
// of independent runs. The checks and the merging are bnsl::merge_caches / merge_pools
// (include/bnsl/merge.hpp).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/merge.hpp"
#include "bnsl/results.hpp"
#include "commands.hpp"
#include "help.hpp"
#include "options.hpp"
#include "outputs.hpp"

namespace bnsl::cli {
namespace {

struct MergeCommand {
  std::vector<std::string> inputs;
  std::string out, data_path;
  CsvArgs csv;
  EpsilonArgs eps;
  PoolMergeOptions pool;
  OutputOptions output;
  NetworkArgs networks;
  bool quiet = false;

  int execute() {
    std::size_t pools = 0;  // .json files; anything else is read as a jkl cache
    for (const auto& path : inputs) pools += path.ends_with(".json");
    if (pools == 0) return merge_caches_to_file();
    if (pools == inputs.size()) return merge_pools_to_files();
    throw InputError("merge: give score caches (jkl) or pools (.pool.json), all of one kind");
  }

  int merge_caches_to_file() const {
    if (!data_path.empty()) throw InputError("merge: --data is for pools, not for caches");
    const CacheMerge m = merge_caches(inputs);
    JklWriteOptions w;
    w.provenance = &m.provenance;
    write_jkl(out, m.cache, w);
    if (!quiet)
      std::cerr << "bnsl: merge: " << inputs.size() << " parts, " << m.cache.n_vars()
                << " variables, " << m.cache.total_entries() << " entries"
                << (m.provenance.exhaustive ? " (every variable explored to the end)" : "")
                << "; wrote " << out << "\n";
    return 0;
  }

  int merge_pools_to_files() {
    if (data_path.empty())
      throw InputError("merge: pools are re-scored from their data: give --data DATA.csv");
    if (eps.epsilon >= 0 || eps.bayes_factor >= 0 || eps.factor >= 0) pool.epsilon = eps.resolve();
    Dataset data = read_data(data_path, csv, quiet);
    const NetworkFiles files = networks.resolve(true);
    std::vector<NetFormat> written = files.formats;
    written.push_back(NetFormat::bif);
    check_legal_names(data, written);
    PoolReport r = merge_pools(data, inputs, pool);
    write_outputs(out, r, &data, files, output);
    if (!quiet)
      std::cerr << "bnsl: merge: " << inputs.size() << " pools; "
                << (r.dags.empty()
                        ? std::string("no DAG")
                        : "best " + score_text(r.dags.front().score) + "; " + classes_text(r))
                << "; wrote " << out
                << ".pool.json, .edges.csv, .classes.csv, .best.bif, .best.dot, .consensus.dot\n";
    return 0;
  }
};

}  // namespace

Action register_merge(CLI::App& app) {
  auto cmd = std::make_shared<MergeCommand>();
  CLI::App* sub = app.add_subcommand(
      "merge",
      "Join score caches computed in parts (bnsl score --vars A:B, e.g. one per job-array "
      "task) into one cache, after checking that they come from the same data, score and "
      "pruning and cover every variable once; or merge the pools of independent runs "
      "(re-scored from --data, deduplicated, within epsilon of the merged best).");
  sub->add_option("inputs", cmd->inputs, "PART.jkl files, or PREFIX.pool.json files")
      ->type_name("FILE")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("-o,--output", cmd->out,
                  "The merged cache (a .jkl path), or the prefix of the merged pool's files")
      ->type_name("OUT")
      ->required();
  sub->add_option("--data", cmd->data_path, "Pools only: the CSV the pools were learned from")
      ->type_name("DATA.csv")
      ->group(kInputGroup);
  add_csv_options(*sub, cmd->csv);
  add_epsilon_options(*sub, cmd->eps);
  sub->get_option("--bayes-factor")
      ->default_str("")
      ->description(
          "Pools only: keep the DAGs within this Bayes factor of the merged best, epsilon = ln "
          "BF (default: the pools' epsilon, which must then agree)");
  sub->add_option("--pool-max", cmd->pool.pool_max,
                  "Pools only: most equivalence classes kept (the best)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->type_name("N")
      ->capture_default_str()
      ->group(kPoolGroup);
  sub->add_option("--max-dags", cmd->pool.max_dags,
                  "Pools only: most DAGs of those classes listed, best classes first")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->type_name("N")
      ->capture_default_str()
      ->group(kPoolGroup);
  sub->add_option("--threads", cmd->pool.threads, "Threads for the classes (0: all cores)")
      ->check(CLI::Range(0, 4096))
      ->type_name("N")
      ->capture_default_str()
      ->group(kBudgetGroup);
  add_output_options(*sub, cmd->output);
  add_network_options(*sub, cmd->networks);
  sub->add_flag("-q,--quiet", cmd->quiet, "No summary on stderr")->group(kOutputGroup);
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
