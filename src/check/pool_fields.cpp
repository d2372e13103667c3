// A pool file's statements about itself (check/pool_fields.hpp), read from its JSON with
// nlohmann::json directly, not through the pool reader: the header's counts against the lists,
// the form of each class size, each probability's range, and per edge the sum of its two arcs'
// probabilities (an edge is in a DAG in exactly one direction, so p(u -> v) + p(v -> u) is
// p_edge, and an arc the file does not list has p 0).
#include "check/pool_fields.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "util/big_uint.hpp"

namespace bnsl {
namespace {

using json = nlohmann::json;

const json kNone;  // what a missing field reads as

const json& field(const json& j, const char* key) {
  if (!j.is_object()) return kNone;
  const auto it = j.find(key);
  return it == j.end() ? kNone : *it;
}

// A field's text as the messages quote it (cut when long).
std::string shown(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// A JSON integer >= 0, or nullopt (a string, a fraction, a negative number).
std::optional<std::uint64_t> count_of(const json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>();
  if (value.is_number_integer() && value.get<std::int64_t>() >= 0)
    return static_cast<std::uint64_t>(value.get<std::int64_t>());
  return std::nullopt;
}

// A size: a JSON integer, a decimal string (format 1), or with `exact_key` beside it the
// exact decimal there (format 2, above 2^53; the number is then its nearest double or null).
std::optional<BigUint> size_of(const json& holder, const char* key, const char* exact_key,
                               std::string& why) {
  const json& value = field(holder, key);
  const json& exact = field(holder, exact_key);
  BigUint n;
  if (!exact.is_null()) {
    if (!exact.is_string() || !BigUint::parse(exact.get<std::string>(), n)) {
      why = std::string(exact_key) + " " + shown(exact) + " is not a decimal count";
      return std::nullopt;
    }
    const double near = n.to_double();
    if (!value.is_null() && !(value.is_number() && std::isfinite(near) &&
                              std::fabs(value.get<double>() - near) <= 1e-12 * near)) {
      why = std::string(key) + " " + shown(value) + " is not " + exact_key + " as a number";
      return std::nullopt;
    }
    return n;
  }
  if (const auto small = count_of(value)) return BigUint(*small);
  if (value.is_string() && BigUint::parse(value.get<std::string>(), n)) return n;
  why = std::string(key) + " " + shown(value) + " is not a count";
  return std::nullopt;
}

class FieldChecker {
 public:
  explicit FieldChecker(const json& pool) : j_(pool) {}

  PoolFieldChecks run() {
    counts();
    sizes();
    probabilities();
    skipped();
    return std::move(out_);
  }

 private:
  const json& j_;
  PoolFieldChecks out_;

  const json& list(const char* key) const {
    const json& value = field(j_, key);
    return value.is_array() ? value : kEmpty;
  }
  static inline const json kEmpty = json::array();

  // The DAGs the file lists: `dags`, and in format 2 each class's `members` list.
  std::uint64_t dags_listed() const {
    std::uint64_t n = list("dags").size();
    for (const json& c : list("classes"))
      if (const json& m = field(c, "members"); m.is_array()) n += m.size();
    return n;
  }

  // The header's counts against the lists, and its flags against each other.
  void counts() {
    std::vector<std::string> problems;
    const auto expect = [&](const char* key, std::uint64_t actual, const std::string& of) {
      const json& value = field(j_, key);
      if (value.is_null()) return;
      const auto n = count_of(value);
      if (!n)
        problems.push_back(std::string(key) + " " + shown(value) + " is not a count");
      else if (*n != actual)
        problems.push_back(std::string(key) + " says " + std::to_string(*n) + ", the file has " +
                           std::to_string(actual) + " " + of);
    };
    const std::size_t classes = list("classes").size();
    const std::uint64_t listed = dags_listed();
    expect("n", list("variables").size(), "variables");
    expect("class_count", classes, "classes");
    expect("dags_listed", listed, "DAGs listed");
    dag_count(problems);
    if (const json& k = field(j_, "k_best"); k.is_object()) {
      const bool of_classes = field(k, "of") == "classes";
      const std::uint64_t units = of_classes ? classes : listed;
      const auto want = count_of(field(k, "k"));
      const auto said = count_of(field(k, "listed")), tied = count_of(field(k, "tied"));
      if (!want || !said || !tied)
        problems.push_back("k_best " + shown(k) + ": k, listed and tied must be counts");
      else if (*said != units || *tied != (units > *want ? units - *want : 0))
        problems.push_back("k_best says " + std::to_string(*said) + " listed, " +
                           std::to_string(*tied) + " tied; the file lists " +
                           std::to_string(units) + (of_classes ? " classes" : " DAGs"));
    }
    const bool empty = classes == 0 && list("dags").empty();
    if (field(j_, "best_score").is_null() != empty)
      problems.push_back(empty ? "best_score is given for an empty pool"
                               : "best_score is null for a pool that lists networks");
    if (field(j_, "complete") == true && field(j_, "optimal") != true)
      problems.push_back("complete without optimal: a list within epsilon of an unproven best");
    if (field(j_, "complete") == true && field(j_, "memory_short") == true)
      problems.push_back("complete, and memory_short says the listing stopped");
    out_.items.push_back(
        {"counts", std::to_string(classes) + " classes, " + std::to_string(listed) + " DAGs listed",
         std::move(problems)});
  }

  // dag_count (with dag_count_exact) against the sum of the class sizes.
  void dag_count(std::vector<std::string>& problems) const {
    if (field(j_, "dag_count").is_null() && field(j_, "dag_count_exact").is_null()) return;
    std::string why;
    const auto said = size_of(j_, "dag_count", "dag_count_exact", why);
    if (!said) return problems.push_back(why);
    BigUint sum;
    for (const json& c : list("classes")) {
      const auto size = size_of(c, "size", "size_exact", why);
      if (!size) return;  // item "sizes" says which
      sum += *size;
    }
    if (list("classes").empty() && !list("dags").empty()) return;  // DAGs without classes
    if (!(*said == sum))
      problems.push_back("dag_count says " + said->to_string() + ", the class sizes sum to " +
                         sum.to_string());
  }

  // Each class holds at least one DAG, at least as many as it lists, and its log10_size (when
  // given) is the log of its size.
  void sizes() {
    std::vector<std::string> problems;
    const json& classes = list("classes");
    for (std::size_t c = 0; c < classes.size(); ++c) {
      const std::string at = "class " + std::to_string(c + 1);
      std::string why;
      const auto size = size_of(classes[c], "size", "size_exact", why);
      if (!size) {
        problems.push_back(at + ": " + why);
        continue;
      }
      if (size->is_zero()) problems.push_back(at + ": size 0 (a class holds its own DAG)");
      if (const json& m = field(classes[c], "members"); m.is_array() && *size < BigUint(m.size()))
        problems.push_back(at + " lists " + std::to_string(m.size()) + " DAGs but holds " +
                           size->to_string());
      if (const json& l = field(classes[c], "log10_size"); !l.is_null())
        if (!l.is_number() || std::fabs(l.get<double>() - size->log10()) > 1e-9)
          problems.push_back(at + ": log10_size " + shown(l) + " is not log10 of its size");
    }
    out_.items.push_back(
        {"sizes", std::to_string(classes.size()) + " classes", std::move(problems)});
  }

  struct Arc {
    double p = 0, p_edge = 0;
    bool has_edge = false;
  };

  // Every p and p_edge a number in [0, 1], p <= p_edge, each arc once, and per edge
  // p(u -> v) + p(v -> u) = p_edge (the arc not listed having p 0).
  void probabilities() {
    std::vector<std::string> problems;
    const json& edges = list("edges");
    std::map<std::pair<std::string, std::string>, Arc> arcs;
    const auto unit = [](const json& v) {
      return v.is_number() && v.get<double>() >= 0 && v.get<double>() <= 1;
    };
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const json& e = edges[i];
      const std::string from = field(e, "from").dump(), to = field(e, "to").dump();
      const std::string at = "edge " + std::to_string(i + 1) + " (" + from + " -> " + to + ")";
      Arc a;
      if (!unit(field(e, "p"))) {
        problems.push_back(at + ": p " + shown(field(e, "p")) + " is not a probability");
        continue;
      }
      a.p = field(e, "p").get<double>();
      if (const json& pe = field(e, "p_edge"); !pe.is_null()) {
        if (!unit(pe)) {
          problems.push_back(at + ": p_edge " + shown(pe) + " is not a probability");
          continue;
        }
        a.p_edge = pe.get<double>();
        a.has_edge = true;
        if (a.p > a.p_edge + 1e-9) problems.push_back(at + ": p above p_edge");
      }
      if (from == to) problems.push_back(at + ": an arc from a variable to itself");
      if (!arcs.emplace(std::make_pair(from, to), a).second)
        problems.push_back(at + ": the arc is listed twice");
    }
    if (!edges.empty() && list("classes").empty() && list("dags").empty())
      problems.push_back("edges listed in a pool without networks");
    for (const auto& [key, a] : arcs) {
      if (!a.has_edge) continue;
      const auto back = arcs.find({key.second, key.first});
      if (back != arcs.end() && key.first > key.second) continue;  // the pair seen once
      const double sum = a.p + (back == arcs.end() ? 0 : back->second.p);
      if (back != arcs.end() && std::fabs(a.p_edge - back->second.p_edge) > 1e-9)
        problems.push_back(key.first + " - " + key.second + ": p_edge differs by direction");
      if (std::fabs(sum - a.p_edge) > 1e-6) {
        std::ostringstream msg;
        msg << key.first << " - " << key.second << ": p_edge " << a.p_edge
            << ", the arcs' p sum to " << sum;
        problems.push_back(msg.str());
      }
    }
    out_.items.push_back(
        {"probabilities", std::to_string(edges.size()) + " arcs", std::move(problems)});
  }

  // The fields given that no check reads.
  void skipped() {
    const auto given = [&](const char* key) {
      const json& v = field(j_, key);
      return !v.is_null() && v != false;
    };
    if (given("optimal"))
      out_.skipped.push_back(
          "optimal: the proof of the optimum is the solver's (the scores, "
          "the order and epsilon are checked)");
    if (given("complete"))
      out_.skipped.push_back("complete: that no DAG within epsilon is missing is not re-derived");
    if (given("dags_within") &&
        !(field(j_, "complete") == true && field(j_, "dags_within_exact") == true))
      out_.skipped.push_back(
          "dags_within: a count past the list, not recounted (only that it "
          "holds the DAGs listed)");
    if (given("prefer_arcs"))
      out_.skipped.push_back(
          "prefer_arcs: which member each class shows (the members shown "
          "are checked, not their weights)");
    if (given("discretized"))
      out_.skipped.push_back("discretized: the cut points (the data given is taken as cut)");
    if (const json& o = field(j_, "orientations"); o.is_object() && field(o, "samples") != 0)
      out_.skipped.push_back(
          "orientations: the arc probabilities of sampled components are "
          "estimates, checked only through their edge sums");
    if (given("pool_account"))
      out_.skipped.push_back("pool_account: the search's account of what it admitted");
    out_.skipped.push_back("algorithm, seconds: how the pool was made");
  }
};

}  // namespace

PoolFieldChecks check_pool_fields(const nlohmann::json& pool) {
  return FieldChecker(pool).run();
}

}  // namespace bnsl
