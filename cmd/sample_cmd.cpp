// `bnsl sample NET -n N --seed S -o DATA.csv`: forward sampling of N rows from a network, in any
// format with parameters (bnsl/network_io.hpp: by --from or the extension, else BIF)
// (bnsl/sample.hpp); a header row of variable names, state names as values. The same network,
// N and seed give the same file. The CSV is written to DATA.csv.tmp, then renamed.
#include <iostream>
#include <memory>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "bnsl/network_io.hpp"
#include "bnsl/sample.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

struct SampleCommand {
  std::string net_path, out_path, from;
  std::size_t rows = 0;
  std::uint64_t seed = 1;
  bool quiet = false;

  int execute() const {
    const NetFormat format = from.empty() ? format_by_extension(net_path).value_or(NetFormat::bif)
                                          : resolve_format(net_path, from);
    const BayesNet net = read_network(net_path, format);
    if (!net.has_parameters())
      throw InputError(net_path, 0, 0,
                       "a " + name_of(kNetFormatNames, format) +
                           " file holds no parameters to sample from: bnsl convert it with "
                           "--data DATA.csv to estimate them");
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
      "Draw rows from a Bayesian network (BIF, XMLBIF, NET or UAI) by forward sampling and "
      "write them as CSV: a "
      "header of variable names, state names as values. The same seed gives the same file.");
  sub->add_option("network", cmd->net_path,
                  "Network with parameters: .bif, .xml, .net or .uai (else BIF, or --from)")
      ->required();
  sub->add_option("--from", cmd->from, "Format of the network (default: by its extension)")
      ->check(CLI::IsMember(names_of(kNetFormatNames)));
  sub->add_option("-n,--rows", cmd->rows, "Number of rows to draw")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
  sub->add_option("--seed", cmd->seed, "Random seed (std::mt19937_64)")
      ->check(seed_range())
      ->capture_default_str();
  sub->add_option("-o,--output", cmd->out_path, "CSV file to write")->required();
  sub->add_flag("-q,--quiet", cmd->quiet, "No summary on stderr");
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
