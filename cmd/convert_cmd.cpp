// `bnsl convert IN OUT [--from F] [--to F] [--data DATA.csv [--params M] [--state-order O]]`:
// reads a network in one format and writes it in another (bnsl/network_io.hpp), each chosen
// by its extension unless named. With --data the parameters are estimated from the data on the
// network's structure (the data must hold every variable of the network, by name); without it
// they are the input's, and a structure-only input cannot be written in a format with
// parameters. The output is written atomically, after everything was read and checked.
#include <iostream>
#include <map>
#include <memory>

#include "bnsl/error.hpp"
#include "bnsl/network_io.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

// The network's structure with parameters estimated from `data` (its columns matched by
// name; other columns are left out).
BayesNet fit(const BayesNet& net, const Dataset& data, const ParamOptions& params,
             const std::string& in, const std::string& data_path) {
  std::map<std::string, std::size_t> column;
  for (std::size_t c = 0; c < data.n_vars(); ++c) column.emplace(data.name(c), c);
  Dataset sub;
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    auto it = column.find(net.names[v]);
    if (it == column.end()) {
      const auto [line, col] =
          v < net.declared_at.size() ? net.declared_at[v] : std::pair<std::size_t, std::size_t>{};
      throw InputError(in, line, col,
                       "variable '" + net.names[v] + "' is not a column of " + data_path);
    }
    const std::size_t c = it->second;
    std::vector<std::string> states;
    for (int k = 0; k < data.arity(c); ++k) states.push_back(data.state_name(c, k));
    std::vector<std::uint32_t> codes(data.n_rows());
    for (std::size_t i = 0; i < data.n_rows(); ++i) codes[i] = data.code(c, i);
    sub.add_column(net.names[v], std::move(states), codes);
  }
  std::vector<Discretization> cuts;
  for (Discretization d : data.discretized())
    for (std::size_t v = 0; v < net.n_vars(); ++v)
      if (net.names[v] == data.name(d.column)) {
        d.column = v;
        cuts.push_back(d);
      }
  sub.set_discretized(std::move(cuts));
  std::vector<std::vector<int>> parents = net.parents;
  for (auto& p : parents) std::sort(p.begin(), p.end());
  BayesNet fitted = estimate_parameters(sub, parents, params);
  fitted.source = net.source;
  fitted.declared_at = net.declared_at;
  return fitted;
}

struct ConvertCommand {
  std::string in, out, from, to, data_path;
  CsvArgs csv;
  ParamOptions params;
  bool quiet = false;

  int execute() {
    const NetFormat in_format = resolve_format(in, from);
    const NetFormat out_format = resolve_format(out, to);
    BayesNet net = read_network(in, in_format);
    if (!data_path.empty()) {
      net = fit(net, read_data(data_path, csv, quiet), params, in, data_path);
    } else if (has_parameters(out_format) && !net.has_parameters()) {
      throw InputError(in, 0, 0,
                       "a " + name_of(kNetFormatNames, in_format) +
                           " file holds no parameters, and " +
                           name_of(kNetFormatNames, out_format) +
                           " needs them: give --data DATA.csv to estimate them");
    }
    write_network(out, net, out_format);
    if (!quiet) {
      std::size_t arcs = 0;
      for (const auto& p : net.parents) arcs += p.size();
      std::cerr << "bnsl: convert: " << in << " (" << name_of(kNetFormatNames, in_format) << ", "
                << net.n_vars() << " variables, " << arcs << " arcs) -> " << out << " ("
                << name_of(kNetFormatNames, out_format)
                << (data_path.empty() ? ""
                                      : ", parameters " + describe(params) + " from " + data_path)
                << ")\n";
    }
    return 0;
  }
};

}  // namespace

Action register_convert(CLI::App& app) {
  auto cmd = std::make_shared<ConvertCommand>();
  CLI::App* sub = app.add_subcommand(
      "convert",
      "Convert a network between formats, chosen by extension or --from/--to: bif (.bif), "
      "xmlbif (.xml, .xmlbif), net (Hugin, .net), uai (.uai), modelstring (bnlearn's "
      "\"[A][B|A]\", .modelstring), graphml (.graphml), dot (.dot, .gv), adjacency (0/1 "
      "matrix CSV with a header of names, row = parent, column = child, .csv). The last four "
      "hold no parameters: writing one of the first four from them needs --data. Names a "
      "format cannot hold are written with '_' for each character it cannot hold, and the "
      "originals are recorded in the file where it has room and in OUT.names.csv.");
  sub->add_option("input", cmd->in, "The network to read")->required();
  sub->add_option("output", cmd->out, "The file to write")->required();
  sub->add_option("--from", cmd->from, "Format of the input (default: by its extension)")
      ->check(CLI::IsMember(names_of(kNetFormatNames)));
  sub->add_option("--to", cmd->to, "Format of the output (default: by its extension)")
      ->check(CLI::IsMember(names_of(kNetFormatNames)));
  sub->add_option("--data", cmd->data_path,
                  "CSV to estimate the parameters from, on the input's structure (its columns "
                  "named as the network's variables)");
  add_params_options(*sub, cmd->params);
  add_csv_options(*sub, cmd->csv);
  sub->add_flag("-q,--quiet", cmd->quiet, "No summary on stderr");
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
