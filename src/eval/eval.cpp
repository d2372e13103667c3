// One evaluation (bnsl/eval.hpp, EvalRequest): which files are read, which parameters score the
// held-out rows (and, for a pool against a true network, the Brier score of its edge
// probabilities), and the JSON of the result. `bnsl eval` parses its flags into a request, calls
// evaluate() and prints the report as a table or as this JSON.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/eval.hpp"
#include "bnsl/network_io.hpp"

namespace bnsl {
namespace {

using nlohmann::json;

// A JSON number, or null for NaN and infinities.
json number(double x) {
  return std::isfinite(x) ? json(x) : json();
}

json likelihood_json(const std::optional<TestLikelihood>& t) {
  if (!t) return nullptr;
  return {{"mean", number(t->mean())}, {"total", number(t->total)}, {"zero_rows", t->zero_rows}};
}

std::size_t arc_count(const ParentSets& parents) {
  std::size_t arcs = 0;
  for (const auto& p : parents) arcs += p.size();
  return arcs;
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

// Scores of the true (may be null) and learned structures, over `names`, on request.data_path.
EvalReport::DataScores data_scores(const EvalRequest& request,
                                   const std::vector<std::string>& names, const ParentSets* truth,
                                   const ParentSets& learned) {
  const Dataset data = read_csv(request.data_path, request.csv);
  const LocalScorer scorer(data, request.score);
  EvalReport::DataScores d;
  d.file = request.data_path;
  d.rows = data.n_rows();
  d.score = request.score;
  if (truth) d.truth = scorer.network_score(to_columns(*truth, names, data, request.data_path));
  d.learned = scorer.network_score(to_columns(learned, names, data, request.data_path));
  return d;
}

// The true network: a network file of any format by its extension (BIF when none matches).
BayesNet read_truth(const std::string& path) {
  return read_network(path, format_by_extension(path).value_or(NetFormat::bif));
}

// With a true network: the structures compared, then --data and --test.
EvalReport evaluate_against_truth(const EvalRequest& request) {
  EvalReport r;
  r.truth_path = request.truth_path;
  r.learned_path = request.learned_path;
  const BayesNet truth = read_truth(request.truth_path);
  const LearnedNetwork learned = read_learned(request.learned_path, truth.names);
  r.learned_kind = learned.kind;
  r.structure = compare_structures(truth.parents, learned.parents);
  if (learned.edge_probabilities)
    r.edge_brier = edge_brier(truth.parents, *learned.edge_probabilities, learned.parents,
                              request.learned_path, truth.names);
  r.variables = r.structure->variables;
  r.learned_arcs = r.structure->learned_arcs;
  if (!request.data_path.empty())
    r.data = data_scores(request, truth.names, &truth.parents, learned.parents);
  if (request.test_path.empty()) return r;
  const Dataset test = read_csv(request.test_path, request.csv);
  EvalReport::TestScores t;
  t.file = request.test_path;
  t.rows = test.n_rows();
  if (truth.has_parameters())
    t.truth = log_likelihood(truth, test, request.test_path);
  else
    r.notes.push_back(request.truth_path + " has no parameters: no test log-likelihood for it");
  // The learned network's parameters: estimated from --train on its structure, else the
  // learned BIF's, else none.
  std::optional<BayesNet> params;
  if (!request.train_path.empty()) {
    t.parameters = "train";
    const Dataset train = read_csv(request.train_path, request.csv);
    params =
        estimate_on_domain(truth, learned.parents, train, request.train_path, request.pseudo_count);
  } else if (learned.net) {
    t.parameters = "learned-bif";
    params = learned.net;
  } else {
    t.parameters = "none";
    r.notes.push_back(request.learned_path + " has no parameters; give --train to estimate them");
  }
  if (params) t.learned = log_likelihood(*params, test, request.test_path);
  r.test = std::move(t);
  return r;
}

// Without a true network: the learned network's score on --data and its test log-likelihood,
// with parameters from --train (on the states of the training and test data) or its BIF's.
EvalReport evaluate_alone(const EvalRequest& request) {
  if (request.test_path.empty() && request.data_path.empty())
    throw InputError(
        "without --truth there is nothing to compare: give --test DATA.csv or --data DATA.csv");
  EvalReport r;
  r.learned_path = request.learned_path;
  if (request.test_path.empty()) {
    const Dataset data = read_csv(request.data_path, request.csv);
    const LearnedNetwork learned = read_learned(request.learned_path, data.names());
    r.learned_kind = learned.kind;
    r.variables = learned.parents.size();
    r.learned_arcs = arc_count(learned.parents);
    r.data = data_scores(request, data.names(), nullptr, learned.parents);
    return r;
  }
  const Dataset test = read_csv(request.test_path, request.csv);
  LearnedNetwork learned;
  EvalReport::TestScores t;
  if (!request.train_path.empty()) {
    const Dataset train = read_csv(request.train_path, request.csv);
    const BayesNet domain = data_domain(train, test, request.test_path);
    learned = read_learned(request.learned_path, domain.names);
    learned.net = estimate_on_domain(domain, learned.parents, train, request.train_path,
                                     request.pseudo_count);
    t.parameters = "train";
  } else if (const auto f = format_by_extension(request.learned_path); f && has_parameters(*f)) {
    learned = read_learned(request.learned_path, read_network(request.learned_path, *f).names);
    t.parameters = "learned-bif";
  } else {
    throw InputError(request.learned_path +
                     " has no parameters: give --train DATA.csv to estimate "
                     "them (or --truth NET.bif to compare structures)");
  }
  r.learned_kind = learned.kind;
  r.variables = learned.parents.size();
  r.learned_arcs = arc_count(learned.parents);
  if (!request.data_path.empty())
    r.data = data_scores(request, learned.net->names, nullptr, learned.parents);
  t.file = request.test_path;
  t.rows = test.n_rows();
  t.learned = log_likelihood(*learned.net, test, request.test_path);
  r.test = std::move(t);
  return r;
}

}  // namespace

EvalReport evaluate(const EvalRequest& request) {
  if (!request.train_path.empty() && request.test_path.empty())
    throw InputError("--train is used only with --test (it estimates parameters to score it)");
  return request.truth_path.empty() ? evaluate_alone(request) : evaluate_against_truth(request);
}

std::string EvalReport::to_json() const {
  json j = {{"learned", learned_path},
            {"learned_kind", learned_kind},
            {"variables", variables},
            {"learned_arcs", learned_arcs}};
  if (structure) {
    const StructureComparison& c = *structure;
    j["truth"] = truth_path;
    j["true_arcs"] = c.true_arcs;
    j["arcs"] = {{"found", c.arcs_found},
                 {"reversed", c.arcs_reversed},
                 {"missed", c.arcs_missed},
                 {"extra", c.arcs_extra},
                 {"precision", number(c.arc_precision())},
                 {"recall", number(c.arc_recall())}};
    j["edges"] = {{"found", c.edges_found},
                  {"missed", c.edges_missed},
                  {"extra", c.edges_extra},
                  {"precision", number(c.edge_precision())},
                  {"recall", number(c.edge_recall())}};
    j["shd"] = c.shd;
    j["shd_cpdag"] = c.shd_cpdag;
  }
  if (edge_brier)
    j["edge_brier"] = {{"pairs", edge_brier->pairs},
                       {"pool", number(edge_brier->brier_pool)},
                       {"best", number(edge_brier->brier_best)},
                       {"pool_sum", number(edge_brier->pool_sum)},
                       {"best_sum", number(edge_brier->best_sum)}};
  if (data) {
    j["data"] = {{"file", data->file},
                 {"rows", data->rows},
                 {"score", score_name(data->score)},
                 {"truth", data->truth ? json(*data->truth) : json()},
                 {"learned", data->learned}};
    if (score_uses_ess(data->score)) j["data"]["ess"] = data->score.ess;
  }
  if (test)
    j["test"] = {{"file", test->file},
                 {"rows", test->rows},
                 {"truth", likelihood_json(test->truth)},
                 {"learned", likelihood_json(test->learned)},
                 {"parameters", test->parameters}};
  return j.dump(2);
}

}  // namespace bnsl
