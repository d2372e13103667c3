// `bnsl generate --vars N --max-parents K [--arity A:B] [--alpha A] [--seed S] -o NET.bif`:
// a random network with random CPTs (bnsl/generate.hpp), written as BIF. With `bnsl sample`
// and `bnsl eval` it makes a synthetic benchmark whose true network is known:
//   bnsl generate --vars 2000 --max-parents 4 --seed 1 -o gen.bif
//   bnsl sample gen.bif -n 5000 --seed 1 -o gen.csv
//   bnsl learn gen.csv -o out/gen --time 120 && bnsl eval --truth gen.bif --learned
//   out/gen.pool.json --data gen.csv
#include <charconv>
#include <iostream>
#include <memory>

#include "bnsl/error.hpp"
#include "bnsl/generate.hpp"
#include "bnsl/network_io.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

int parse_int(const std::string& text, const std::string& what) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    throw InputError("--arity: expected A:B or A (integers), got '" + what + "'");
  return value;
}

struct GenerateCommand {
  GenerateOptions options;
  std::string arity = std::to_string(GenerateOptions{}.arity_min) + ":" +
                      std::to_string(GenerateOptions{}.arity_max),
              out_path;
  bool quiet = false;

  int execute() {
    const std::size_t colon = arity.find(':');
    options.arity_min = parse_int(arity.substr(0, colon), arity);
    options.arity_max =
        colon == std::string::npos ? options.arity_min : parse_int(arity.substr(colon + 1), arity);
    const BayesNet net = generate_network(options);
    write_network(out_path, net, format_by_extension(out_path).value_or(NetFormat::bif));
    if (!quiet) {
      std::size_t arcs = 0, params = 0;
      for (std::size_t v = 0; v < net.n_vars(); ++v) {
        arcs += net.parents[v].size();
        params += net.n_configs(v) * static_cast<std::size_t>(net.arity(v) - 1);
      }
      std::cerr << "bnsl: generate: " << net.n_vars() << " variables, " << arcs << " arcs, "
                << params << " free parameters (seed " << options.seed << "); wrote " << out_path
                << "\n";
    }
    return 0;
  }
};

}  // namespace

Action register_generate(CLI::App& app) {
  auto cmd = std::make_shared<GenerateCommand>();
  CLI::App* sub = app.add_subcommand(
      "generate",
      "Write a random Bayesian network (BIF): a random topological order, each node's parents "
      "a uniform random subset of the nodes before it (in-degree uniform in 0..K), each CPT "
      "row a Dirichlet draw. With 'bnsl sample' it makes synthetic data whose true network "
      "is known. The same options and seed give the same network.");
  sub->add_option("--vars", cmd->options.vars, "Number of variables (named V0..V(n-1))")
      ->required()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 24));
  sub->add_option("--max-parents", cmd->options.max_parents,
                  "In-degree limit K; each node's in-degree is uniform in 0..K")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  sub->add_option("--arity", cmd->arity,
                  "States per variable, uniform in A..B (A:B), or exactly A; states are "
                  "named 0..r-1")
      ->capture_default_str();
  sub->add_option("--alpha", cmd->options.alpha,
                  "Dirichlet concentration of each CPT row (1: uniform over distributions; "
                  "smaller: stronger dependences)")
      ->check(finite_range(0, 1e300, true))
      ->capture_default_str();
  sub->add_option("--seed", cmd->options.seed, "Random seed")
      ->check(seed_range())
      ->capture_default_str();
  sub->add_option("-o,--output", cmd->out_path,
                  "Network file to write, in the format of its extension (bnsl convert --help; "
                  "BIF when none matches)")
      ->required();
  sub->add_flag("-q,--quiet", cmd->quiet, "No summary on stderr");
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
