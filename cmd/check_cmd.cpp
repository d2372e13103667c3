// `bnsl check DATA.csv PREFIX.pool.json`: an independent checker of a pool file.
//
// Re-scores every pooled DAG from the data with LocalScorer (score kind and ess from the
// JSON; the jkl cache the search used plays no part) and checks: parent lists name no node
// twice and never the node itself; every DAG is acyclic (Kahn's algorithm, here, not the
// library's); dags are sorted best first and pairwise distinct; best_score is the first DAG's
// score; every DAG is within epsilon of it; every reported score equals the recomputation;
// and, when the file carries them, the class ids and edge probabilities agree with a fresh
// summarize(). Scores match when they differ by at most score_tolerance (src/score/compare.hpp:
// 1e-9 relative, the project's one definition of score equality) or, if given, --tolerance
// (relative; loosen it for pools built from caches printed with few digits). Prints one line
// per check on stdout; exit 0 when all hold, 1 on any mismatch, 2 on bad input.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "bnsl/score.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "score/compare.hpp"

namespace bnsl::cli {
namespace {

// Problems found by one check, printed as "check: ok" or the count and the first few.
struct Findings {
  std::vector<std::string> problems;
  void add(std::string what) { problems.push_back(std::move(what)); }
};

void report_check(const std::string& name, const Findings& f, const std::string& detail,
                  std::size_t& failures) {
  constexpr std::size_t kShown = 20;
  std::cout << name << ": " << (f.problems.empty() ? "ok" : "FAILED");
  if (!detail.empty()) std::cout << " (" << detail << ")";
  std::cout << "\n";
  for (std::size_t i = 0; i < f.problems.size() && i < kShown; ++i)
    std::cout << "  " << f.problems[i] << "\n";
  if (f.problems.size() > kShown)
    std::cout << "  ... and " << f.problems.size() - kShown << " more\n";
  failures += f.problems.size();
}

// Empty when the parent lists are a valid acyclic graph; otherwise what is wrong.
std::string graph_problem(const ParentSets& parents) {
  const std::size_t n = parents.size();
  std::vector<std::vector<int>> children(n);
  std::vector<std::size_t> missing(n);
  for (std::size_t v = 0; v < n; ++v) {
    std::set<int> seen;
    for (int p : parents[v]) {
      if (static_cast<std::size_t>(p) == v)
        return "node " + std::to_string(v) + " is its own parent";
      if (!seen.insert(p).second)
        return "node " + std::to_string(v) + " lists parent " + std::to_string(p) + " twice";
      children[p].push_back(static_cast<int>(v));
    }
    missing[v] = parents[v].size();
  }
  std::vector<int> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (missing[v] == 0) ready.push_back(static_cast<int>(v));
  std::size_t done = 0;
  while (!ready.empty()) {
    int v = ready.back();
    ready.pop_back();
    ++done;
    for (int c : children[v])
      if (--missing[c] == 0) ready.push_back(c);
  }
  return done == n ? "" : "directed cycle among " + std::to_string(n - done) + " nodes";
}

// Local scores already computed, by (child, sorted parents): pooled DAGs share most families.
using FamilyMemo = std::map<std::pair<int, std::vector<int>>, double>;

// The DAG's score from the data: the sum of its local scores, in variable order.
double rescore(const LocalScorer& scorer, const ParentSets& parents, FamilyMemo& memo) {
  double total = 0;
  for (std::size_t v = 0; v < parents.size(); ++v) {
    std::pair<int, std::vector<int>> key{static_cast<int>(v), parents[v]};
    std::sort(key.second.begin(), key.second.end());
    auto it = memo.find(key);
    if (it == memo.end()) {
      const double s = scorer.score(key.first, key.second).score;
      it = memo.emplace(std::move(key), s).first;
    }
    total += it->second;
  }
  return total;
}

struct CheckCommand {
  std::string data_path, pool_path;
  CsvArgs csv;
  double tolerance = 0;  // relative; 0: score_tolerance

  bool same(double a, double b) const {
    return tolerance > 0
               ? std::fabs(a - b) <= tolerance * std::max({1.0, std::fabs(a), std::fabs(b)})
               : score_equal(a, b);
  }

  // a > b beyond the score tolerance in use.
  bool above(double a, double b) const { return a > b && !same(a, b); }

  // The raw best_score field (read_pool_json validates but does not keep it).
  std::optional<double> best_score_field() const {
    std::ifstream in(pool_path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (j.is_object() && j.contains("best_score") && j["best_score"].is_number())
      return j["best_score"].get<double>();
    return std::nullopt;
  }

  ScoreParams score_params(const PoolReport& pool) const {
    ScoreParams p;
    p.kind = parse_score_kind(pool.score);
    if (p.kind == ScoreKind::bdeu) {
      if (!pool.ess || !(*pool.ess > 0))
        throw InputError(pool_path, 0, 0,
                         "pool JSON: 'ess': a positive number is required "
                         "with the bdeu score");
      p.ess = *pool.ess;
    }
    return p;
  }

  void check_data_matches(const PoolReport& pool, const Dataset& data) const {
    if (pool.variables == data.names()) return;
    std::string what = std::to_string(pool.variables.size()) + " variables, the data " +
                       std::to_string(data.n_vars()) + " columns";
    for (std::size_t v = 0; v < std::min(pool.variables.size(), data.n_vars()); ++v)
      if (pool.variables[v] != data.name(v)) {
        what = "variable " + std::to_string(v) + " is '" + pool.variables[v] + "', column " +
               std::to_string(v) + " of the data is '" + data.name(v) + "'";
        break;
      }
    throw InputError(pool_path, 0, 0,
                     "pool JSON: 'variables' do not match " + data_path + " (" + what +
                         "); give the data the pool was learned from (--no-header if it has "
                         "no header row)");
  }

  // Graph validity and re-scoring; returns whether every DAG is a valid acyclic graph.
  bool check_graphs_and_scores(const PoolReport& pool, const Dataset& data,
                               std::size_t& failures) const {
    LocalScorer scorer(data, score_params(pool));
    Findings graphs, scores;
    FamilyMemo memo;
    double worst = 0;
    for (std::size_t i = 0; i < pool.dags.size(); ++i) {
      const auto& d = pool.dags[i];
      if (auto why = graph_problem(d.parents); !why.empty()) {
        graphs.add("dags[" + std::to_string(i) + "]: " + why);
        continue;
      }
      const double s = rescore(scorer, d.parents, memo);
      worst = std::max(worst, std::fabs(s - d.score));
      if (!same(s, d.score)) {
        std::ostringstream msg;
        msg.precision(17);
        msg << "dags[" << i << "]: reported " << d.score << ", recomputed " << s;
        scores.add(msg.str());
      }
    }
    report_check("acyclic", graphs, std::to_string(pool.dags.size()) + " DAGs", failures);
    std::ostringstream detail;
    detail << "largest difference " << worst;
    report_check("scores", scores, detail.str(), failures);
    return graphs.problems.empty();
  }

  void check_order(const PoolReport& pool, std::size_t& failures) const {
    Findings order, distinct, within, best;
    std::set<ParentSets> seen;
    const double top = pool.dags.empty() ? 0 : pool.dags[0].score;
    for (std::size_t i = 0; i < pool.dags.size(); ++i) {
      const auto& d = pool.dags[i];
      const std::string at = "dags[" + std::to_string(i) + "]";
      if (i > 0 && above(d.score, pool.dags[i - 1].score))
        order.add(at + " scores above dags[" + std::to_string(i - 1) + "]");
      ParentSets key = d.parents;
      for (auto& p : key) std::sort(p.begin(), p.end());
      if (!seen.insert(std::move(key)).second) distinct.add(at + " repeats an earlier DAG");
      if (above(top - pool.epsilon, d.score))
        within.add(at + " is " + std::to_string(top - d.score) + " below the best");
    }
    if (auto field = best_score_field(); !pool.dags.empty() && (!field || !same(*field, top)))
      best.add("best_score differs from dags[0].score");
    report_check("sorted", order, "best first", failures);
    report_check("distinct", distinct, "", failures);
    std::ostringstream eps;
    eps << "epsilon " << pool.epsilon;
    report_check("epsilon", within, eps.str(), failures);
    report_check("best_score", best, "", failures);
  }

  void check_summary(const PoolReport& pool, std::size_t& failures) const {
    if (pool.dags.empty() || pool.mec_count == 0) return;  // no summary in the file
    PoolReport fresh = pool;
    summarize(fresh);
    Findings classes, edges;
    if (fresh.mec_count != pool.mec_count)
      classes.add("mec_count " + std::to_string(pool.mec_count) + ", recomputed " +
                  std::to_string(fresh.mec_count));
    for (std::size_t i = 0; i < pool.dags.size(); ++i)
      if (pool.dags[i].mec != fresh.dags[i].mec)
        classes.add("dags[" + std::to_string(i) + "].mec " + std::to_string(pool.dags[i].mec) +
                    ", recomputed " + std::to_string(fresh.dags[i].mec));
    std::map<std::pair<int, int>, double> p;
    for (const auto& e : fresh.edges) p[{e.from, e.to}] = e.p;
    for (const auto& e : pool.edges)
      if (std::fabs(p[{e.from, e.to}] - e.p) > 1e-6)
        edges.add("p(" + std::to_string(e.from) + " -> " + std::to_string(e.to) + ") = " +
                  std::to_string(e.p) + ", recomputed " + std::to_string(p[{e.from, e.to}]));
    if (pool.edges.size() != fresh.edges.size())
      edges.add(std::to_string(pool.edges.size()) + " arcs listed, " +
                std::to_string(fresh.edges.size()) + " with p > 0 recomputed");
    report_check("classes", classes, std::to_string(fresh.mec_count) + " classes", failures);
    report_check("edges", edges, std::to_string(fresh.edges.size()) + " arcs", failures);
  }

  int execute() {
    Dataset data = read_csv(data_path, csv.resolve());
    PoolReport pool = read_pool_json(pool_path);
    check_data_matches(pool, data);
    std::cout << "check: " << pool_path << " against " << data_path << " (" << pool.score << ", "
              << data.n_vars() << " variables, " << data.n_rows() << " rows, " << pool.dags.size()
              << " DAGs)\n";
    std::size_t failures = 0;
    Findings rows;
    if (pool.rows != data.n_rows())
      rows.add("pool says " + std::to_string(pool.rows) + " rows, the data has " +
               std::to_string(data.n_rows()));
    report_check("rows", rows, "", failures);
    const bool valid = check_graphs_and_scores(pool, data, failures);
    check_order(pool, failures);
    if (valid)
      check_summary(pool, failures);
    else
      std::cout << "classes, edges: not checked (invalid DAGs)\n";
    std::cout << (failures == 0 ? "result: OK\n"
                                : "result: FAILED (" + std::to_string(failures) + " problems)\n");
    return failures == 0 ? 0 : 1;
  }
};

}  // namespace

Action register_check(CLI::App& app) {
  auto cmd = std::make_shared<CheckCommand>();
  CLI::App* sub = app.add_subcommand(
      "check",
      "Re-score every DAG of a pool file from the data and check acyclicity, order, "
      "distinctness, epsilon, scores, classes and edge probabilities. Exit 0 when all hold, "
      "1 on any mismatch, 2 on bad input.");
  sub->add_option("data", cmd->data_path, "CSV the pool was learned from")->required();
  sub->add_option("pool", cmd->pool_path, "PREFIX.pool.json to check")->required();
  add_csv_options(*sub, cmd->csv);
  sub->add_option("--tolerance", cmd->tolerance,
                  "Relative tolerance for score equality (default: 1e-9, the project's)")
      ->check(CLI::Range(0.0, 1.0));
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
