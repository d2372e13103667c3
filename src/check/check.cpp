// The pool checker (include/bnsl/check.hpp): independent of the search and the pool code it
// checks; it shares with them only LocalScorer (the scores) and summarize() (classes, their
// sizes and the arc probabilities, checked by recomputation), and with `bnsl merge` the
// re-scoring of check/rescore.hpp. The skeleton-edge probabilities are recomputed here from the
// classes alone (each weighs size x exp(score - best)), and the arc probabilities and class
// sizes once more by enumerating each class's members (check_members), both without
// summarize(). What the file says of itself (its header's counts, the form of its sizes and
// probabilities) is read from its JSON apart from the pool reader (check/pool_fields.hpp), and
// what no check reads is listed as skipped.
#include "bnsl/check.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "bnsl/score.hpp"
#include "check/pool_fields.hpp"
#include "check/rescore.hpp"
#include "score/compare.hpp"
#include "util/big_uint.hpp"

namespace bnsl {
namespace {

class Checker {
 public:
  Checker(const Dataset& data, std::string pool_path, const PoolCheckOptions& options)
      : data_(data), pool_path_(std::move(pool_path)), options_(options) {}

  PoolCheck run() {
    PoolReport pool = read_pool_json(pool_path_);  // InputError when the file is no pool
    check_data_matches(pool);
    json_ = raw_json();
    result_.score = pool.score;
    result_.dags = pool.dags.size();
    PoolCheckItem& rows = add("rows", "");
    if (pool.rows != data_.n_rows())
      rows.problems.push_back("pool says " + std::to_string(pool.rows) + " rows, the data has " +
                              std::to_string(data_.n_rows()));
    PoolFieldChecks fields = check_pool_fields(json_);
    for (PoolCheckItem& item : fields.items) result_.items.push_back(std::move(item));
    const bool valid = check_graphs_and_scores(pool);
    check_order(pool);
    if (valid) check_constraints(pool);
    if (valid)
      check_summary(pool);
    else
      result_.summary_skipped = true;
    if (!valid) skip("classes, edges, members: some DAG is not a valid graph");
    for (std::string& s : fields.skipped) skip(std::move(s));
    return std::move(result_);
  }

 private:
  const Dataset& data_;
  std::string pool_path_;
  PoolCheckOptions options_;
  PoolCheck result_;
  nlohmann::json json_;  // the file as JSON, apart from the pool reader (pool_fields.hpp)

  void skip(std::string what) { result_.skipped.push_back(std::move(what)); }

  // How messages name a variable, a listed DAG and a class (from 1, as a person counts).
  std::string var(int v) const { return "'" + data_.name(static_cast<std::size_t>(v)) + "'"; }
  static std::string dag_at(const PoolReport& pool, std::size_t i) {
    const int mec = pool.dags[i].mec;
    return "DAG " + std::to_string(i + 1) +
           (mec >= 0 ? " (class " + std::to_string(mec + 1) + ")" : std::string());
  }
  static std::string class_at(std::size_t c) { return "class " + std::to_string(c + 1); }

  PoolCheckItem& add(std::string name, std::string detail) {
    result_.items.push_back({std::move(name), std::move(detail), {}});
    return result_.items.back();
  }
  void add(std::string name, std::string detail, std::vector<std::string> problems) {
    result_.items.push_back({std::move(name), std::move(detail), std::move(problems)});
  }

  bool same(double a, double b) const {
    const double tol = options_.tolerance;
    return tol > 0 ? std::fabs(a - b) <= tol * std::max({1.0, std::fabs(a), std::fabs(b)})
                   : score_equal(a, b);
  }

  // a > b beyond the score tolerance in use.
  bool above(double a, double b) const { return a > b && !same(a, b); }

  nlohmann::json raw_json() const {
    std::ifstream in(pool_path_, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str(), nullptr, false);
  }

  // The raw best_score field (read_pool_json validates but does not keep it).
  std::optional<double> best_score_field() const {
    if (json_.is_object() && json_.contains("best_score") && json_["best_score"].is_number())
      return json_["best_score"].get<double>();
    return std::nullopt;
  }

  ScoreParams score_params(const PoolReport& pool) const {
    ScoreParams p;
    p.kind = parse_score_kind(pool.score);
    if (p.kind == ScoreKind::bdeu) {
      if (!pool.ess || !(*pool.ess > 0))
        throw InputError(pool_path_, 0, 0,
                         "pool JSON: 'ess': a positive number is required "
                         "with the bdeu score");
      p.ess = *pool.ess;
    }
    return p;
  }

  void check_data_matches(const PoolReport& pool) const {
    if (pool.variables == data_.names()) return;
    std::string what = std::to_string(pool.variables.size()) + " variables, the data " +
                       std::to_string(data_.n_vars()) + " columns";
    for (std::size_t v = 0; v < std::min(pool.variables.size(), data_.n_vars()); ++v)
      if (pool.variables[v] != data_.name(v)) {
        what = "variable " + std::to_string(v) + " is '" + pool.variables[v] + "', column " +
               std::to_string(v) + " of the data is '" + data_.name(v) + "'";
        break;
      }
    const std::string data_name = options_.data_name.empty() ? "the data" : options_.data_name;
    throw InputError(pool_path_, 0, 0,
                     "pool JSON: 'variables' do not match " + data_name + " (" + what +
                         "); give the data the pool was learned from (--no-header if it has "
                         "no header row)");
  }

  // Graph validity and re-scoring; returns whether every DAG is a valid acyclic graph.
  bool check_graphs_and_scores(const PoolReport& pool) {
    LocalScorer scorer(data_, score_params(pool));
    std::vector<std::string> graphs, scores;
    FamilyMemo memo;
    double worst = 0;
    // A listed DAG or a class's DAG: `at` names it, `reported` is its score in the file.
    const auto check = [&](const std::string& at, const ParentSets& parents, double reported) {
      if (auto why = graph_problem(parents, data_.names()); !why.empty()) {
        graphs.push_back(at + ": " + why);
        return;
      }
      const double s = rescore(scorer, parents, memo);
      worst = std::max(worst, std::fabs(s - reported));
      if (!same(s, reported)) {
        std::ostringstream msg;
        msg.precision(17);
        msg << at << ": reported " << reported << ", recomputed " << s;
        scores.push_back(msg.str());
      }
    };
    for (std::size_t i = 0; i < pool.dags.size(); ++i)
      check(dag_at(pool, i), pool.dags[i].parents, pool.dags[i].score);
    for (std::size_t i = 0; i < pool.classes.size(); ++i)
      check(class_at(i) + "'s DAG", pool.classes[i].dag, pool.classes[i].score);
    const bool valid = graphs.empty();
    add("acyclic",
        std::to_string(pool.dags.size()) + " DAGs, " + std::to_string(pool.classes.size()) +
            " class DAGs",
        std::move(graphs));
    std::ostringstream detail;
    detail << "largest difference " << worst;
    add("scores", detail.str(), std::move(scores));
    return valid;
  }

  // Every DAG (listed, and each class's) satisfies the file's constraints and those given; the
  // given arcs and tiers must be the file's, since its classes count the DAGs that satisfy its
  // own (its in-degree limit, if any, takes whole classes: bnsl/constraints.hpp).
  void check_constraints(const PoolReport& pool) {
    const Constraints* given = options_.constraints;
    if (pool.constraints.empty() && (!given || given->empty())) return;
    std::vector<std::string> problems;
    if (given && !given->same_arcs(pool.constraints))
      problems.push_back("the pool was learned under " + pool.constraints.describe() +
                         ", not the " + given->describe() + " given");
    const auto name = [&](int v) { return var(v); };
    const auto check = [&](const std::string& at, const ParentSets& parents) {
      for (const Constraints* c : {&pool.constraints, given})
        if (c)
          if (const auto arc = c->violation(parents)) {
            const std::string whose = c == given ? "given" : "pool's";
            const std::string held = name(arc->from) + " -> " + name(arc->to);
            if (arc->in_degree)
              problems.push_back(at + " gives " + name(arc->to) + " " +
                                 std::to_string(parents[static_cast<std::size_t>(arc->to)].size()) +
                                 " parents, more than the " + whose + " limit of " +
                                 std::to_string(c->max_parents));
            else if (arc->missing)
              problems.push_back(at + " lacks the arc " + held + ", which the " + whose +
                                 " constraints require");
            else if (std::binary_search(c->required.begin(), c->required.end(),
                                        std::pair<int, int>(arc->to, arc->from)))
              problems.push_back(at + " holds the arc " + held + ", the reverse of one the " +
                                 whose + " constraints require");
            else
              problems.push_back(at + " holds the arc " + held + ", which the " + whose +
                                 " constraints forbid");
            return;
          }
    };
    for (std::size_t i = 0; i < pool.dags.size(); ++i) check(dag_at(pool, i), pool.dags[i].parents);
    for (std::size_t i = 0; i < pool.classes.size(); ++i)
      check(class_at(i) + "'s DAG", pool.classes[i].dag);
    add("constraints", given ? given->describe() : pool.constraints.describe(),
        std::move(problems));
  }

  void check_order(const PoolReport& pool) {
    std::vector<std::string> order, distinct, within, best, listed;
    std::set<ParentSets> seen;
    const double top = !pool.dags.empty()      ? pool.dags[0].score
                       : !pool.classes.empty() ? pool.classes[0].score
                                               : 0;
    for (std::size_t i = 0; i < pool.dags.size(); ++i) {
      const auto& d = pool.dags[i];
      const std::string at = dag_at(pool, i);
      if (i > 0 && above(d.score, pool.dags[i - 1].score))
        order.push_back(at + " scores above " + dag_at(pool, i - 1));
      ParentSets key = d.parents;
      for (auto& p : key) std::sort(p.begin(), p.end());
      if (!seen.insert(std::move(key)).second) distinct.push_back(at + " repeats an earlier DAG");
      if (above(top - pool.epsilon, d.score))
        within.push_back(at + " is " + std::to_string(top - d.score) + " below the best");
      if (pool.listed_above && above(*pool.listed_above, d.score))
        listed.push_back(at + " scores below listed_above");
    }
    for (std::size_t i = 0; i < pool.classes.size(); ++i) {
      const PoolClass& c = pool.classes[i];
      const std::string at = class_at(i);
      if (i > 0 && above(c.score, pool.classes[i - 1].score))
        order.push_back(at + " scores above " + class_at(i - 1));
      if (above(top - pool.epsilon, c.score))
        within.push_back(at + " is " + std::to_string(top - c.score) + " below the best");
      if (above(c.score, top)) best.push_back(at + " scores above the first DAG");
      if (pool.listed_above && above(*pool.listed_above, c.score))
        listed.push_back(at + " scores below listed_above");
    }
    if (pool.listed_above && pool.complete) listed.push_back("a complete pool has no listed_above");
    if (auto field = best_score_field(); !pool.dags.empty() && (!field || !same(*field, top)))
      best.push_back("best_score differs from the first DAG's score");
    add("sorted", "best first", std::move(order));
    add("distinct", "", std::move(distinct));
    std::ostringstream eps;
    eps << "epsilon " << pool.epsilon;
    add("epsilon", eps.str(), std::move(within));
    add("best_score", "", std::move(best));
    if (pool.listed_above) {  // the list's floor: no DAG (class) below it
      std::ostringstream floor;
      floor << "listed_above " << *pool.listed_above;
      add("listed_above", floor.str(), std::move(listed));
    }
    if (pool.dags_within) {  // a count of the DAGs within epsilon holds those listed
      std::vector<std::string> count;
      if (*pool.dags_within < pool.dags.size()) count.push_back("below the DAGs listed");
      if (pool.complete && pool.dags_within_exact && *pool.dags_within != pool.dags.size())
        count.push_back("differs from the complete list's DAGs");
      add("dags_within", std::to_string(*pool.dags_within) + " DAGs", std::move(count));
    }
  }

  // The file's class list against the recomputed one (sizes by mec_size and CPDAGs from the
  // checker's own essential graphs of each class's DAG); classes are distinct; a class never
  // lists more DAGs than it holds. (A format-2 file gives no CPDAG: the reader computes it from
  // the class's DAG, so only format 1's can differ; a format-2 class is checked through its
  // DAG, its score, its size and its members.)
  void check_classes(const PoolReport& pool, const PoolReport& fresh,
                     std::vector<std::string>& problems) const {
    std::map<std::pair<std::vector<std::pair<int, int>>, std::vector<std::pair<int, int>>>,
             std::size_t>
        seen;
    for (std::size_t c = 0; c < pool.classes.size(); ++c) {
      const PoolClass& a = pool.classes[c];
      const PoolClass& b = fresh.classes[c];
      const std::string at = class_at(c);
      if (auto [it, fresh_class] = seen.emplace(std::make_pair(b.arcs, b.edges), c); !fresh_class)
        problems.push_back(at + " is the class of " + class_at(it->second));
      if (a.size != b.size) problems.push_back(at + ": size " + a.size + ", recomputed " + b.size);
      if (std::fabs(a.log10_size - b.log10_size) > 1e-9)
        problems.push_back(at + ": log10_size differs from log10(size)");
      if (a.members != b.members || (b.members > 0 && a.first != b.first))
        problems.push_back(at + ": " + std::to_string(a.members) + " DAGs listed from DAG " +
                           std::to_string(a.first + 1) + ", recomputed " +
                           std::to_string(b.members) + " from DAG " + std::to_string(b.first + 1));
      if (a.arcs != b.arcs || a.edges != b.edges)
        problems.push_back(at + ": the CPDAG differs from the recomputed one");
      BigUint size;
      if (BigUint::parse(b.size, size) && size < BigUint(b.members))
        problems.push_back(at + " lists " + std::to_string(b.members) + " DAGs but holds " +
                           b.size);
    }
  }

  void check_summary(const PoolReport& pool) {
    if (pool.classes.empty()) {  // no summary in the file (a list of DAGs alone)
      if (!pool.dags.empty()) skip("classes, edges, members: the file lists DAGs without classes");
      return;
    }
    if (!pool.has_p_edge) skip("p_edge: the file has none (written before p_edge existed)");
    PoolReport fresh = pool;
    for (PoolDag& d : fresh.dags) d.mec = -1;
    for (PoolClass& c : fresh.classes) {
      c.size.clear();
      c.arcs.clear();
      c.edges.clear();
    }
    std::vector<std::string> classes, edges;
    try {
      summarize(fresh);
    } catch (const RuntimeError& e) {
      classes.push_back(e.what());
      add("classes", "", std::move(classes));
      return;
    }
    for (std::size_t i = 0; i < pool.dags.size(); ++i)
      if (pool.dags[i].mec != fresh.dags[i].mec)
        classes.push_back(dag_at(pool, i) + " lies in class " +
                          std::to_string(fresh.dags[i].mec + 1));
    std::map<std::pair<int, int>, double> p;
    for (const auto& e : fresh.edges) p[{e.from, e.to}] = e.p;
    for (const auto& e : pool.edges)
      if (std::fabs(p[{e.from, e.to}] - e.p) > 1e-6)
        edges.push_back("p(" + var(e.from) + " -> " + var(e.to) + ") = " + std::to_string(e.p) +
                        ", recomputed " + std::to_string(p[{e.from, e.to}]));
    if (pool.edges.size() != fresh.edges.size())
      edges.push_back(std::to_string(pool.edges.size()) + " arcs listed, " +
                      std::to_string(fresh.edges.size()) + " with p > 0 recomputed");
    check_classes(pool, fresh, classes);
    check_edge_probabilities(pool, edges);
    add("classes", std::to_string(fresh.classes.size()) + " classes", std::move(classes));
    add("edges", std::to_string(fresh.edges.size()) + " arcs", std::move(edges));
    check_members(pool);
  }

  // Classes and arc probabilities from the members of each class, without summarize(),
  // cpdag.cpp or mec_size.cpp: the members are reached from the class's DAG by reversing
  // covered arcs (u -> v with pa(v) = pa(u) + u), which by Chickering (1995) connects every
  // pair of Markov equivalent DAGs and never leaves the class. Classes are enumerated best
  // weight first while they hold at most kMaxClassMembers DAGs and kMaxMembers in all; each
  // enumerated class must hold as many DAGs as its `size`. An arc's p is the classes' weights
  // (size x exp(score - best)) times the fraction of their members with the arc, over the total
  // weight; a class left out may put none to all of its weight on either direction of an edge
  // it holds, so the file's p must lie in [mass enumerated, that + mass left out with the edge]
  // / total: exact when every class is enumerated.
  static constexpr std::size_t kMaxClassMembers = 5000, kMaxMembers = 500000;

  void check_members(const PoolReport& pool) {
    if (pool.classes.empty()) return;
    if (!pool.has_p_edge) return skip("members: a file without p_edge is not enumerated");
    std::vector<std::string> problems;
    const double best = pool.classes.front().score;
    std::vector<double> log_w;
    for (const PoolClass& c : pool.classes)
      log_w.push_back(c.log10_size * std::log(10.0) + (c.score - best));
    const double top = *std::max_element(log_w.begin(), log_w.end());
    std::vector<std::size_t> by_weight(pool.classes.size());
    for (std::size_t c = 0; c < by_weight.size(); ++c) by_weight[c] = c;
    std::stable_sort(by_weight.begin(), by_weight.end(),
                     [&](std::size_t a, std::size_t b) { return log_w[a] > log_w[b]; });
    double total = 0;
    std::map<std::pair<int, int>, double> mass;   // arc (from, to) -> weight enumerated
    std::map<std::pair<int, int>, double> slack;  // pair (low, high) -> weight left out
    std::size_t visited = 0, enumerated = 0;
    for (const std::size_t c : by_weight) {
      const PoolClass& k = pool.classes[c];
      const double w = std::exp(log_w[c] - top);
      total += w;
      BigUint size;
      std::uint64_t small = 0;
      std::vector<ParentSets> members;
      if (BigUint::parse(k.size, size) && size.to_u64(small) && small <= kMaxClassMembers &&
          visited + small <= kMaxMembers) {
        members = class_members(k.dag, kMaxClassMembers);
        // A walk that passed the cap (a class of few members under the constraints, of many
        // without) costs as much as one that listed that many: counted, so such walks stop.
        if (members.empty()) visited += kMaxClassMembers;
        // Classes of the constrained space: the members that satisfy the constraints. (A
        // class whose full enumeration passes the cap is left out, as any other.)
        if (!pool.constraints.empty())
          std::erase_if(members, [&](const ParentSets& m) {
            return pool.constraints.violation(m).has_value();
          });
      }
      if (members.empty()) {
        for (std::size_t v = 0; v < k.dag.size(); ++v)
          for (const int u : k.dag[v])
            slack[{std::min(u, static_cast<int>(v)), std::max(u, static_cast<int>(v))}] += w;
        continue;
      }
      visited += members.size();
      ++enumerated;
      if (members.size() != small)
        problems.push_back(class_at(c) + " holds " + std::to_string(members.size()) +
                           " DAGs by covered-arc reversals, size says " + k.size);
      const double each = w / static_cast<double>(members.size());
      for (const ParentSets& m : members)
        for (std::size_t v = 0; v < m.size(); ++v)
          for (const int u : m[v]) mass[{u, static_cast<int>(v)}] += each;
    }
    std::set<std::pair<int, int>> listed;
    for (const EdgeProb& e : pool.edges) {
      listed.insert({e.from, e.to});
      const auto m = mass.find({e.from, e.to});
      const auto l = slack.find({std::min(e.from, e.to), std::max(e.from, e.to)});
      const double lo = (m == mass.end() ? 0 : m->second) / total;
      const double hi = lo + (l == slack.end() ? 0 : l->second) / total;
      if (e.p < lo - 1e-6 || e.p > hi + 1e-6)
        problems.push_back("p(" + var(e.from) + " -> " + var(e.to) + ") = " + std::to_string(e.p) +
                           ", from the members " +
                           (hi > lo ? "between " + std::to_string(lo) + " and " + std::to_string(hi)
                                    : std::to_string(lo)));
    }
    for (const auto& [arc, w] : mass)
      if (w / total > 1e-6 && !listed.contains(arc))
        problems.push_back("the arc " + var(arc.first) + " -> " + var(arc.second) + " has p " +
                           std::to_string(w / total) + " from the members but is not listed");
    add("members",
        std::to_string(enumerated) + " of " + std::to_string(pool.classes.size()) +
            " classes enumerated (" + std::to_string(visited) + " DAGs)",
        std::move(problems));
    if (enumerated < pool.classes.size())
      skip("members: " + std::to_string(pool.classes.size() - enumerated) +
           " classes not enumerated (over " + std::to_string(kMaxClassMembers) + " DAGs, or past " +
           std::to_string(kMaxMembers) +
           " in all): their sizes are recomputed, their arcs' p only bounded");
  }

  // The DAGs Markov equivalent to `dag` (parent lists sorted), by covered-arc reversals from
  // it; empty when there are more than `cap`.
  static std::vector<ParentSets> class_members(const ParentSets& dag, std::size_t cap) {
    ParentSets start = dag;
    for (auto& p : start) std::sort(p.begin(), p.end());
    std::set<ParentSets> seen{start};
    std::vector<ParentSets> out{start};
    for (std::size_t next = 0; next < out.size(); ++next) {
      const ParentSets g = out[next];  // a copy: out grows below
      for (std::size_t v = 0; v < g.size(); ++v)
        for (const int u : g[v]) {
          // u -> v is covered when pa(v) is pa(u) plus u.
          const auto& pu = g[static_cast<std::size_t>(u)];
          if (g[v].size() != pu.size() + 1) continue;
          std::vector<int> with_u = pu;
          with_u.insert(std::lower_bound(with_u.begin(), with_u.end(), u), u);
          if (with_u != g[v]) continue;
          ParentSets r = g;
          auto& rv = r[v];
          rv.erase(std::find(rv.begin(), rv.end(), u));
          auto& ru = r[static_cast<std::size_t>(u)];
          ru.insert(std::lower_bound(ru.begin(), ru.end(), static_cast<int>(v)),
                    static_cast<int>(v));
          if (!seen.insert(r).second) continue;
          if (out.size() == cap) return {};
          out.push_back(std::move(r));
        }
    }
    return out;
  }

  // p_edge of every pair: the classes' weights size x exp(score - best), in logs (sizes can
  // pass 10^308), summed over the classes whose DAG has the pair adjacent, over their total.
  // (Files written before p_edge existed have none: not checked.)
  void check_edge_probabilities(const PoolReport& pool, std::vector<std::string>& problems) const {
    if (!pool.has_p_edge) return;
    const double best = pool.classes.front().score;
    std::vector<double> log_w;
    for (const PoolClass& c : pool.classes)
      log_w.push_back(c.log10_size * std::log(10.0) + (c.score - best));
    const double top = *std::max_element(log_w.begin(), log_w.end());
    double total = 0;
    std::map<std::pair<int, int>, double> mass;  // pair (low, high) -> summed weight
    for (std::size_t c = 0; c < pool.classes.size(); ++c) {
      const double w = std::exp(log_w[c] - top);
      total += w;
      const ParentSets& dag = pool.classes[c].dag;
      for (std::size_t v = 0; v < dag.size(); ++v)
        for (const int u : dag[v])
          mass[{std::min(u, static_cast<int>(v)), std::max(u, static_cast<int>(v))}] += w;
    }
    std::set<std::pair<int, int>> listed;
    for (const auto& e : pool.edges) {
      const std::pair<int, int> pair{std::min(e.from, e.to), std::max(e.from, e.to)};
      listed.insert(pair);
      const auto it = mass.find(pair);
      const double p = it == mass.end() ? 0 : it->second / total;
      if (std::fabs(p - e.p_edge) > 1e-6)
        problems.push_back("p_edge(" + var(e.from) + " - " + var(e.to) +
                           ") = " + std::to_string(e.p_edge) + ", recomputed from the classes " +
                           std::to_string(p));
    }
    for (const auto& [pair, w] : mass)
      if (w / total > 1e-6 && !listed.contains(pair))
        problems.push_back("the pair " + var(pair.first) + " - " + var(pair.second) +
                           " has p_edge " + std::to_string(w / total) + " but is not listed");
  }
};

}  // namespace

std::size_t PoolCheck::failures() const {
  std::size_t n = 0;
  for (const auto& item : items) n += item.problems.size();
  return n;
}

PoolCheck check_pool_file(const Dataset& data, const std::string& pool_path,
                          const PoolCheckOptions& options) {
  return Checker(data, pool_path, options).run();
}

}  // namespace bnsl
