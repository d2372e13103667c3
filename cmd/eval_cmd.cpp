// `bnsl eval [--truth NET.bif] --learned X [--test DATA.csv] [--train DATA.csv] [--json]`:
// compares a learned network (BIF, pool JSON's best DAG, or "child: p1 p2" structure file)
// with the true one -- arcs and edges found / missed / extra / reversed, precision, recall,
// SHD of DAGs and of CPDAGs (definitions in bnsl/eval.hpp) -- and with --test gives the mean
// log-likelihood per test row under the true parameters and under the learned ones: those of
// the learned BIF, or, with --train, estimated from the training rows on the learned
// structure (pseudo-count --pseudo-count per cell, states of the true network). Without
// --truth (data with no known network, e.g. a train/test split) it gives only the learned
// network's test log-likelihood, states taken from the training and test data. With --data
// it also scores both structures on that data set (--score bic|bdeu, --ess; arities as
// observed in the data, as `learn` scores): the true network's BIC is the mark a learner on
// that data should reach. Writes one JSON object (--json) or a table to stdout.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "bnsl/eval.hpp"
#include "bnsl/score.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

// JSON number, or null for NaN and infinities.
nlohmann::json number(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json();
}

std::string text(double x, const char* format = "%.4f") {
  if (std::isnan(x)) return "n/a";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

// Parent sets over `names` re-indexed to the columns of `data`, matched by name. Throws
// InputError naming `file` when a name is not a column.
ParentSets to_columns(const ParentSets& parents, const std::vector<std::string>& names,
                      const Dataset& data, const std::string& file) {
  std::vector<int> column(names.size());
  for (std::size_t v = 0; v < names.size(); ++v) {
    const auto it = std::find(data.names().begin(), data.names().end(), names[v]);
    if (it == data.names().end())
      throw InputError(file + ": no column named '" + names[v] + "' (a variable of the network)");
    column[v] = static_cast<int>(it - data.names().begin());
  }
  ParentSets out(data.n_vars());
  for (std::size_t v = 0; v < parents.size(); ++v)
    for (int p : parents[v]) out[column[v]].push_back(column[p]);
  return out;
}

struct EvalCommand {
  std::string truth_path, learned_path, test_path, train_path, data_path;
  CsvArgs csv;
  ScoreParams score;
  double pseudo_count = 0.5;
  bool json = false;

  // Parameters of the learned network for the test rows, if it has any; `source` says whence.
  std::optional<BayesNet> learned_parameters(const BayesNet& truth, const LearnedNetwork& l,
                                             std::string& source) const {
    if (!train_path.empty()) {
      source = "train";
      const Dataset train = read_csv(train_path, csv.resolve());
      return estimate_on_domain(truth, l.parents, train, train_path, pseudo_count);
    }
    if (l.net) {
      source = "learned-bif";
      return l.net;
    }
    source = "none";
    std::cerr << "bnsl: eval: " << learned_path
              << " has no parameters; give --train to estimate them\n";
    return std::nullopt;
  }

  nlohmann::json structure_json(const StructureComparison& c, const LearnedNetwork& l) const {
    return {{"truth", truth_path},
            {"learned", learned_path},
            {"learned_kind", l.kind},
            {"variables", c.variables},
            {"true_arcs", c.true_arcs},
            {"learned_arcs", c.learned_arcs},
            {"arcs",
             {{"found", c.arcs_found},
              {"reversed", c.arcs_reversed},
              {"missed", c.arcs_missed},
              {"extra", c.arcs_extra},
              {"precision", number(c.arc_precision())},
              {"recall", number(c.arc_recall())}}},
            {"edges",
             {{"found", c.edges_found},
              {"missed", c.edges_missed},
              {"extra", c.edges_extra},
              {"precision", number(c.edge_precision())},
              {"recall", number(c.edge_recall())}}},
            {"shd", c.shd},
            {"shd_cpdag", c.shd_cpdag}};
  }

  static nlohmann::json ll_json(const std::optional<TestLikelihood>& t) {
    if (!t) return nullptr;
    return {{"mean", number(t->mean())}, {"total", number(t->total)}, {"zero_rows", t->zero_rows}};
  }

  void print_table(const nlohmann::json& j) const {
    auto row = [](const std::string& what, const std::string& value) {
      std::printf("  %-26s %s\n", what.c_str(), value.c_str());
    };
    auto num = [](const nlohmann::json& x) {
      return x.is_null() ? std::string("n/a") : text(x.get<double>());
    };
    if (truth_path.empty()) {
      std::printf("eval: %s (%s, %zu variables, %zu arcs), no true network\n", learned_path.c_str(),
                  j["learned_kind"].get<std::string>().c_str(), j["variables"].get<std::size_t>(),
                  j["learned_arcs"].get<std::size_t>());
      if (j.contains("data")) print_data(j["data"], row);
      if (j.contains("test")) print_test(j["test"], row);
      return;
    }
    std::printf("eval: %s against %s (%s, %zu variables)\n", learned_path.c_str(),
                truth_path.c_str(), j["learned_kind"].get<std::string>().c_str(),
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
    if (j.contains("data")) print_data(j["data"], row);
    if (j.contains("test")) print_test(j["test"], row);
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

  // Scores of the true (may be null) and learned structures on --data.
  nlohmann::json data_scores(const std::vector<std::string>& names, const ParentSets* truth,
                             const ParentSets& learned) const {
    const Dataset data = read_csv(data_path, csv.resolve());
    const ScoreParams params = score;
    const LocalScorer scorer(data, params);
    nlohmann::json j = {{"file", data_path},
                        {"rows", data.n_rows()},
                        {"score", to_string(params.kind)},
                        {"truth", nullptr}};
    if (score_uses_ess(params)) j["ess"] = params.ess;
    if (truth) j["truth"] = scorer.network_score(to_columns(*truth, names, data, data_path));
    j["learned"] = scorer.network_score(to_columns(learned, names, data, data_path));
    return j;
  }

  int execute() const {
    if (!train_path.empty() && test_path.empty())
      throw InputError("--train is used only with --test (it estimates parameters to score it)");
    if (truth_path.empty()) return execute_without_truth();
    const BayesNet truth = read_bif(truth_path);
    const LearnedNetwork learned = read_learned(learned_path, truth.names);
    const StructureComparison c = compare_structures(truth.parents, learned.parents);
    nlohmann::json j = structure_json(c, learned);
    if (!data_path.empty()) j["data"] = data_scores(truth.names, &truth.parents, learned.parents);
    if (!test_path.empty()) {
      const Dataset test = read_csv(test_path, csv.resolve());
      std::string source;
      const std::optional<BayesNet> params = learned_parameters(truth, learned, source);
      std::optional<TestLikelihood> l;
      if (params) l = log_likelihood(*params, test, test_path);
      j["test"] = {{"file", test_path},
                   {"rows", test.n_rows()},
                   {"truth", ll_json(log_likelihood(truth, test, test_path))},
                   {"learned", ll_json(l)},
                   {"parameters", source}};
    }
    emit(j);
    return 0;
  }

  // No true network: only the held-out log-likelihood, with the learned BIF's parameters or
  // parameters estimated from --train on the states of the training and test data.
  int execute_without_truth() const {
    if (test_path.empty() && data_path.empty())
      throw InputError(
          "without --truth there is nothing to compare: give --test DATA.csv or --data DATA.csv");
    if (test_path.empty()) {
      const Dataset data = read_csv(data_path, csv.resolve());
      const LearnedNetwork learned = read_learned(learned_path, data.names());
      nlohmann::json j = {{"learned", learned_path},
                          {"learned_kind", learned.kind},
                          {"variables", learned.parents.size()},
                          {"learned_arcs", arc_count(learned.parents)},
                          {"data", data_scores(data.names(), nullptr, learned.parents)}};
      emit(j);
      return 0;
    }
    const Dataset test = read_csv(test_path, csv.resolve());
    LearnedNetwork learned;
    std::string source;
    if (!train_path.empty()) {
      const Dataset train = read_csv(train_path, csv.resolve());
      const BayesNet domain = data_domain(train, test, test_path);
      learned = read_learned(learned_path, domain.names);
      learned.net = estimate_on_domain(domain, learned.parents, train, train_path, pseudo_count);
      source = "train";
    } else if (learned_path.ends_with(".bif")) {
      learned = read_learned(learned_path, read_bif(learned_path).names);
      source = "learned-bif";
    } else {
      throw InputError(learned_path +
                       " has no parameters: give --train DATA.csv to estimate "
                       "them (or --truth NET.bif to compare structures)");
    }
    nlohmann::json j = {{"learned", learned_path},
                        {"learned_kind", learned.kind},
                        {"variables", learned.parents.size()},
                        {"learned_arcs", arc_count(learned.parents)}};
    if (!data_path.empty()) j["data"] = data_scores(learned.net->names, nullptr, learned.parents);
    j["test"] = {{"file", test_path},
                 {"rows", test.n_rows()},
                 {"truth", nullptr},
                 {"learned", ll_json(log_likelihood(*learned.net, test, test_path))},
                 {"parameters", source}};
    emit(j);
    return 0;
  }

  static std::size_t arc_count(const ParentSets& parents) {
    std::size_t arcs = 0;
    for (const auto& p : parents) arcs += p.size();
    return arcs;
  }

  void emit(const nlohmann::json& j) const {
    if (json)
      std::cout << j.dump(2) << "\n";
    else
      print_table(j);
  }
};

}  // namespace

Action register_eval(CLI::App& app) {
  auto cmd = std::make_shared<EvalCommand>();
  CLI::App* sub = app.add_subcommand(
      "eval",
      "Compare a learned network with the true one: arcs and edges found, missed, extra, "
      "reversed, precision, recall, SHD of DAGs and CPDAGs; with --test, the mean "
      "log-likelihood per held-out row.");
  sub->add_option("--truth", cmd->truth_path,
                  "The true network (BIF); without it only the --test log-likelihood is given");
  sub->add_option("--learned", cmd->learned_path,
                  "Learned network: .bif, .pool.json (its best DAG) or a file of "
                  "'child: parent1 parent2' lines")
      ->required();
  sub->add_option("--test", cmd->test_path, "Held-out CSV: mean log-likelihood per row");
  sub->add_option("--train", cmd->train_path,
                  "CSV to estimate the learned structure's parameters from (instead of the "
                  "learned BIF's); needed for a pool or structure file");
  sub->add_option("--pseudo-count", cmd->pseudo_count,
                  "Pseudo-count per CPT cell when estimating from --train")
      ->check(CLI::PositiveNumber)
      ->default_str("0.5");
  sub->add_option("--data", cmd->data_path,
                  "CSV to score both structures on (the true network's score is the mark a "
                  "learner on this data should reach)");
  add_csv_options(*sub, cmd->csv);
  add_score_options(*sub, cmd->score);
  sub->add_flag("--json", cmd->json, "One JSON object on stdout instead of a table");
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
