// `bnsl sample NET.bif -n N --seed S -o DATA.csv`: forward sampling of N rows from a network
// (bnsl/sample.hpp); a header row of variable names, state names as values. The same network,
// N and seed give the same file. The CSV is written to DATA.csv.tmp, then renamed.
#include <iostream>
#include <memory>

#include "bnsl/bif.hpp"
#include "bnsl/sample.hpp"
#include "commands.hpp"

namespace bnsl::cli {
namespace {

struct SampleCommand {
  std::string net_path, out_path;
  std::size_t rows = 0;
  std::uint64_t seed = 1;
  bool quiet = false;

  int execute() const {
    const BayesNet net = read_bif(net_path);
    const Dataset data = sample(net, rows, seed);
    write_csv(out_path, data);
    if (!quiet)
      std::cerr << "bnsl: sample: " << net_path << ": " << net.n_vars() << " variables; wrote "
                << rows << " rows to " << out_path << " (seed " << seed << ")\n";
    return 0;
  }
};

}  // namespace

Action register_sample(CLI::App& app) {
  auto cmd = std::make_shared<SampleCommand>();
  CLI::App* sub = app.add_subcommand(
      "sample",
      "Draw rows from a Bayesian network (BIF) by forward sampling and write them as CSV: a "
      "header of variable names, state names as values. The same seed gives the same file.");
  sub->add_option("network", cmd->net_path, "Network in BIF format")->required();
  sub->add_option("-n,--rows", cmd->rows, "Number of rows to draw")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  sub->add_option("--seed", cmd->seed, "Random seed (std::mt19937_64)")->capture_default_str();
  sub->add_option("-o,--output", cmd->out_path, "CSV file to write")->required();
  sub->add_flag("-q,--quiet", cmd->quiet, "No summary on stderr");
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
