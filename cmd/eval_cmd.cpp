// `bnsl eval [--truth NET.bif] --learned X [--test DATA.csv] [--train DATA.csv] [--data
// DATA.csv] [--json]`: parses the flags into an EvalRequest, runs bnsl::evaluate
// (src/eval/eval.cpp: what is compared, scored and estimated, and from which files; the
// definitions, edge Brier included, are in bnsl/eval.hpp) and prints the report as a table or
// as JSON on stdout.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "bnsl/eval.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

std::string text(double x, const char* format = "%.4f") {
  if (std::isnan(x)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

struct EvalCommand {
  EvalRequest request;
  CsvArgs csv;
  bool json = false;

  void print_table(const nlohmann::json& j) const {
    auto row = [](const std::string& what, const std::string& value) {
      std::printf("  %-26s %s\n", what.c_str(), value.c_str());
    };
    auto num = [](const nlohmann::json& x) {
      return x.is_null() ? std::string("n/a") : text(x.get<double>());
    };
    if (!j.contains("truth")) {
      std::printf("eval: %s (%s, %zu variables, %zu arcs), no true network\n",
                  request.learned_path.c_str(), j["learned_kind"].get<std::string>().c_str(),
                  j["variables"].get<std::size_t>(), j["learned_arcs"].get<std::size_t>());
      if (j.contains("data")) print_data(j["data"], row);
      if (j.contains("test")) print_test(j["test"], row);
      return;
    }
    std::printf("eval: %s against %s (%s, %zu variables)\n", request.learned_path.c_str(),
                request.truth_path.c_str(), j["learned_kind"].get<std::string>().c_str(),
                j["variables"].get<std::size_t>());
    const auto& a = j["arcs"];
    const auto& e = j["edges"];
    row("arcs true / learned", j["true_arcs"].dump() + " / " + j["learned_arcs"].dump());
    row("arcs found", a["found"].dump());
    row("arcs reversed", a["reversed"].dump());
    row("arcs missed / extra", a["missed"].dump() + " / " + a["extra"].dump());
    row("arc precision / recall", num(a["precision"]) + " / " + num(a["recall"]));
    row("edges found", e["found"].dump());
    row("edges missed / extra", e["missed"].dump() + " / " + e["extra"].dump());
    row("edge precision / recall", num(e["precision"]) + " / " + num(e["recall"]));
    row("SHD (DAG)", j["shd"].dump());
    row("SHD (CPDAG)", j["shd_cpdag"].dump());
    if (j.contains("edge_brier")) print_brier(j["edge_brier"], row);
    if (j.contains("data")) print_data(j["data"], row);
    if (j.contains("test")) print_test(j["test"], row);
  }

  template <class Row>
  static void print_brier(const nlohmann::json& b, Row row) {
    auto sci = [](const nlohmann::json& x) {
      return x.is_null() ? std::string("n/a") : text(x.get<double>(), "%.2e");
    };
    row("edge Brier", "pool " + sci(b["pool"]) + ", best network alone " + sci(b["best"]) +
                          " (over " + b["pairs"].dump() + " pairs)");
  }

  template <class Row>
  static void print_data(const nlohmann::json& d, Row row) {
    const std::string kind = d["score"].get<std::string>() == "bic" ? "BIC" : "BDeu";
    row("scored on", d["file"].get<std::string>());
    if (!d["truth"].is_null()) row(kind + ", truth", text(d["truth"].get<double>()));
    row(kind + ", learned", text(d["learned"].get<double>()));
  }

  template <class Row>
  static void print_test(const nlohmann::json& t, Row row) {
    auto ll = [&](const nlohmann::json& x) {
      if (x.is_null()) return std::string("n/a");
      return (x["mean"].is_null() ? std::string("-inf") : text(x["mean"].get<double>(), "%.6f")) +
             (x["zero_rows"].get<std::size_t>() ? " (" + x["zero_rows"].dump() + " rows of p = 0)"
                                                : "");
    };
    row("test rows", t["rows"].dump());
    if (!t["truth"].is_null()) row("test LL/row, truth", ll(t["truth"]));
    row("test LL/row, learned", ll(t["learned"]) + " [" + t["parameters"].get<std::string>() + "]");
  }

  int execute() {
    request.csv = csv.resolve();
    const EvalReport report = evaluate(request);
    for (const std::string& note : report.notes) std::cerr << "bnsl: eval: " << note << "\n";
    if (json)
      std::cout << report.to_json() << "\n";
    else
      print_table(nlohmann::json::parse(report.to_json()));
    return 0;
  }
};
}  // namespace

Action register_eval(CLI::App& app) {
  auto cmd = std::make_shared<EvalCommand>();
  CLI::App* sub = app.add_subcommand(
      "eval",
      "Compare a learned network with the true one: arcs and edges found, missed, extra, "
      "reversed, precision, recall, SHD of DAGs and CPDAGs; with --test, the mean "
      "log-likelihood per held-out row. For a pool, also the Brier score of its edge "
      "probabilities (p_edge) against the true skeleton over all pairs, next to that of its "
      "best network alone.");
  sub->add_option("--truth", cmd->request.truth_path,
                  "The true network (BIF); without it only the --test log-likelihood is given");
  sub->add_option("--learned", cmd->request.learned_path,
                  "Learned network: .bif, .pool.json (its best DAG) or a file of "
                  "'child: parent1 parent2' lines")
      ->required();
  sub->add_option("--test", cmd->request.test_path, "Held-out CSV: mean log-likelihood per row");
  sub->add_option("--train", cmd->request.train_path,
                  "CSV to estimate the learned structure's parameters from (instead of the "
                  "learned BIF's); needed for a pool or structure file");
  sub->add_option("--pseudo-count", cmd->request.pseudo_count,
                  "Pseudo-count per CPT cell when estimating from --train")
      ->check(finite_range(0, 1e300, true))
      ->capture_default_str();
  sub->add_option("--data", cmd->request.data_path,
                  "CSV to score both structures on (the true network's score is the mark a "
                  "learner on this data should reach)");
  add_csv_options(*sub, cmd->csv);
  add_score_options(*sub, cmd->request.score);
  sub->add_flag("--json", cmd->json, "One JSON object on stdout instead of a table");
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
