// Reading pool JSON: format 2 (pool_json.cpp; a `format` field) and format 1 (files written
// before it: no `format` field, variables as 0-based indices, each class with its whole DAG
// and CPDAG, each listed DAG with its parent lists), into the same PoolReport.
//
// Every field is validated and the first problem is reported as an InputError naming the file
// and the field's path in the file (JSON's own paths: `classes[3].added[0]`), or the line and
// column of a syntax error. A format-2 class is rebuilt from its base's DAG (the first class's
// or an earlier one's) and its changes, each of which must make sense there (an added arc joins
// two variables the base does not, a removed one is the base's, a reversed one the base's
// reversed), and each listed DAG from its class's DAG and the arcs it reverses; whether the
// result is acyclic, scores as stated and lies in its class is for `bnsl check` to judge, as
// for format 1. A format-2 class's essential graph is not in the file: it is computed here
// from the class's DAG (pool/cpdag.hpp), and left empty when that DAG has a cycle, which
// `bnsl check` reports. (Files written while format 2 was unreleased also listed it, as
// `reversible`, `became_reversible` and `became_compelled`; those fields are ignored.)
#include <algorithm>
#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bnsl/error.hpp"
#include "io/report_io.hpp"
#include "pool/cpdag.hpp"
#include "util/big_uint.hpp"

namespace bnsl {
namespace {

using nlohmann::json;
using Arcs = std::vector<std::pair<int, int>>;

// A field path in error messages, e.g. classes[3].added.
struct Field {
  const std::string& file;
  std::string path;
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file, 0, 0, "pool JSON: '" + path + "': " + what);
  }
  Field at(const std::string& key) const { return {file, path.empty() ? key : path + "." + key}; }
  Field at(std::size_t i) const { return {file, path + "[" + std::to_string(i) + "]"}; }
};

const json& member(const json& obj, const Field& f, const char* key, bool required = true) {
  static const json kNull;
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) f.at(key).fail("missing");
    return kNull;
  }
  return *it;
}

double number(const json& j, const Field& f) {
  if (!j.is_number()) f.fail("expected a number, got " + std::string(j.type_name()));
  return j.get<double>();
}

long long integer(const json& j, const Field& f, long long lo, long long hi) {
  if (!j.is_number_integer()) f.fail("expected an integer, got " + std::string(j.type_name()));
  if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi))
    f.fail("value " + std::to_string(j.get<std::uint64_t>()) + " out of range");
  long long v = j.get<long long>();
  if (v < lo || v > hi)
    f.fail("value " + std::to_string(v) + " out of range [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]");
  return v;
}

bool boolean(const json& j, const Field& f) {
  if (!j.is_boolean()) f.fail("expected true or false, got " + std::string(j.type_name()));
  return j.get<bool>();
}

const json& array(const json& j, const Field& f) {
  if (!j.is_array()) f.fail("expected an array, got " + std::string(j.type_name()));
  return j;
}

std::string text(const json& j, const Field& f) {
  if (!j.is_string()) f.fail("expected a string, got " + std::string(j.type_name()));
  return j.get<std::string>();
}

std::size_t count(const json& obj, const Field& f, const char* key) {
  return static_cast<std::size_t>(
      integer(member(obj, f, key), f.at(key), 0, std::numeric_limits<long long>::max()));
}

// What differs between the formats: how a variable is referred to.
class Reader {
 public:
  Reader(const std::string& file, int format) : root{file, ""}, format_(format) {}

  const Field root;

  void set_variables(const std::vector<std::string>& names) {
    n_ = static_cast<long long>(names.size());
    for (std::size_t v = 0; v < names.size(); ++v)
      if (!index_.emplace(names[v], static_cast<int>(v)).second)
        root.at("variables").at(v).fail("the name '" + names[v] + "' is given twice");
  }
  long long n() const { return n_; }
  int format() const { return format_; }

  // A variable: a name of `variables` (format 2) or a 0-based index into it (format 1).
  int var(const json& j, const Field& f) const {
    if (format_ == 1) return static_cast<int>(integer(j, f, 0, n_ - 1));
    return named(j, f);
  }
  // A variable by its name, in either format.
  int named(const json& j, const Field& f) const {
    const auto it = index_.find(text(j, f));
    if (it == index_.end()) f.fail("no variable is named '" + j.get<std::string>() + "'");
    return it->second;
  }

  std::pair<int, int> arc(const json& j, const Field& f) const {
    if (!j.is_array() || j.size() != 2) f.fail("expected a pair of variables");
    return {var(j[0], f.at(0)), var(j[1], f.at(1))};
  }

  Arcs arcs(const json& j, const Field& f) const {
    Arcs out;
    for (std::size_t i = 0; i < array(j, f).size(); ++i) out.push_back(arc(j[i], f.at(i)));
    return out;
  }

 private:
  int format_;
  long long n_ = 0;
  std::unordered_map<std::string, int> index_;
};

Constraints parse_constraints(const json& j, const Field& f, const Reader& in) {
  if (!j.is_object()) f.fail("expected an object or null");
  Constraints c;
  const auto arcs = [&](const char* key, bool needed) {
    Arcs out;
    if (const json& a = member(j, f, key, needed); !a.is_null()) out = in.arcs(a, f.at(key));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  c.required = arcs("required", false);  // absent from files written before required arcs
  c.forbidden = arcs("forbidden", true);
  if (const json& t = member(j, f, "tiers", false); !t.is_null()) {
    const Field g = f.at("tiers");
    if (array(t, g).size() != static_cast<std::size_t>(in.n()))
      g.fail("expected one tier per variable (" + std::to_string(in.n()) + ")");
    for (std::size_t v = 0; v < t.size(); ++v)
      c.tiers.push_back(static_cast<int>(integer(t[v], g.at(v), -1, 1'000'000)));
  }
  if (const json& m = member(j, f, "max_parents", false); !m.is_null())
    c.max_parents = static_cast<int>(integer(m, f.at("max_parents"), 0, 1'000'000));
  return c;
}

// "discretized": the columns --discretize cut, by name in either format (the field is newer
// than format 1's indices), each with its method and increasing cut points.
std::vector<Discretization> parse_discretized(const json& j, const Field& f, const Reader& in) {
  std::vector<Discretization> out;
  for (std::size_t i = 0; i < array(j, f).size(); ++i) {
    const Field g = f.at(i);
    if (!j[i].is_object()) g.fail("expected an object");
    Discretization d;
    d.column = static_cast<std::size_t>(in.named(member(j[i], g, "variable"), g.at("variable")));
    d.method = text(member(j[i], g, "method"), g.at("method"));
    const json& breaks = array(member(j[i], g, "breaks"), g.at("breaks"));
    for (std::size_t k = 0; k < breaks.size(); ++k) {
      d.breaks.push_back(number(breaks[k], g.at("breaks").at(k)));
      if (k && !(d.breaks[k - 1] < d.breaks[k]))
        g.at("breaks").at(k).fail("expected cut points in increasing order");
    }
    if (d.breaks.size() < 2) g.at("breaks").fail("expected at least two cut points");
    out.push_back(std::move(d));
  }
  return out;
}

// "variable_bytes": the names that are not UTF-8, byte for byte (two hex digits a byte), under
// the names `variables` writes for them (pool_json.cpp, written_names). The readers refer to a
// variable by its written name; the report keeps its bytes.
void parse_name_bytes(const json& j, const Field& f, const Reader& in, PoolReport& r) {
  if (!j.is_object()) f.fail("expected an object");
  for (const auto& [name, value] : j.items()) {
    const Field g = f.at(name);
    const auto v = static_cast<std::size_t>(in.named(json(name), g));
    const std::string digits = text(value, g);
    std::string bytes;
    for (std::size_t i = 0; i + 1 < digits.size(); i += 2) {
      unsigned b = 0;
      const auto [end, ec] = std::from_chars(digits.data() + i, digits.data() + i + 2, b, 16);
      if (ec != std::errc() || end != digits.data() + i + 2) break;
      bytes += static_cast<char>(b);
    }
    if (digits.empty() || bytes.size() * 2 != digits.size())
      g.fail("expected the name's bytes as hexadecimal digits, two a byte");
    r.variables[v] = std::move(bytes);
  }
  std::unordered_map<std::string, std::size_t> seen;
  for (std::size_t v = 0; v < r.variables.size(); ++v)
    if (!seen.emplace(r.variables[v], v).second)
      f.fail("variables " + std::to_string(seen[r.variables[v]] + 1) + " and " +
             std::to_string(v + 1) + " have the same bytes");
}

void parse_header(const json& j, Reader& in, PoolReport& r) {
  const Field& f = in.root;
  r.score = text(member(j, f, "score"), f.at("score"));
  if (r.score != "bic" && r.score != "bdeu") f.at("score").fail("expected \"bic\" or \"bdeu\"");
  if (const json& ess = member(j, f, "ess", false); !ess.is_null())
    r.ess = number(ess, f.at("ess"));
  const json& vars = array(member(j, f, "variables"), f.at("variables"));
  for (std::size_t v = 0; v < vars.size(); ++v)
    r.variables.push_back(text(vars[v], f.at("variables").at(v)));
  in.set_variables(r.variables);
  if (const json& b = member(j, f, "variable_bytes", false); !b.is_null())
    parse_name_bytes(b, f.at("variable_bytes"), in, r);
  if (const json& d = member(j, f, "discretized", false); !d.is_null())
    r.discretized = parse_discretized(d, f.at("discretized"), in);
  const long long n = in.n();
  if (const json& jn = member(j, f, "n", false); !jn.is_null()) integer(jn, f.at("n"), n, n);
  r.rows = count(j, f, "rows");
  r.epsilon = number(member(j, f, "epsilon"), f.at("epsilon"));
  if (const json& best = member(j, f, "best_score"); !best.is_null())  // null: empty pool
    number(best, f.at("best_score"));
  r.optimal = boolean(member(j, f, "optimal"), f.at("optimal"));
  r.complete = boolean(member(j, f, "complete"), f.at("complete"));
  if (const json& m = member(j, f, "memory_short", false); !m.is_null())
    r.memory_short = boolean(m, f.at("memory_short"));
  if (const json& above = member(j, f, "listed_above", false); !above.is_null())
    r.listed_above = number(above, f.at("listed_above"));
  if (const json& within = member(j, f, "dags_within", false); !within.is_null())
    r.dags_within = static_cast<std::uint64_t>(
        integer(within, f.at("dags_within"), 1, std::numeric_limits<long long>::max()));
  if (const json& exact = member(j, f, "dags_within_exact", false); !exact.is_null())
    r.dags_within_exact = boolean(exact, f.at("dags_within_exact"));
  if (const json& kb = member(j, f, "k_best", false); !kb.is_null()) {
    if (!kb.is_object()) f.at("k_best").fail("expected an object or null");
    const Field g = f.at("k_best");
    r.k_best = static_cast<std::size_t>(
        integer(member(kb, g, "k"), g.at("k"), 1, std::numeric_limits<long long>::max()));
    const std::string of = text(member(kb, g, "of"), g.at("of"));
    if (of != "dags" && of != "classes") g.at("of").fail("expected \"dags\" or \"classes\"");
    r.k_best_classes = of == "classes";
  }
  if (const json& pa = member(j, f, "prefer_arcs", false); !pa.is_null()) {
    if (!pa.is_object()) f.at("prefer_arcs").fail("expected an object or null");
    const Field g = f.at("prefer_arcs");
    r.preferred = PreferSummary{count(pa, g, "arcs"), count(pa, g, "classes"),
                                count(pa, g, "changed"), count(pa, g, "partial")};
  }
  if (const json& c = member(j, f, "constraints", false); !c.is_null())
    r.constraints = parse_constraints(c, f.at("constraints"), in);
  if (const json& a = member(j, f, "algorithm", false); !a.is_null())
    r.algorithm = text(a, f.at("algorithm"));
  if (const json& s = member(j, f, "seconds", false); !s.is_null())
    r.seconds = number(s, f.at("seconds"));
  if (const json& o = member(j, f, "orientations", false); o.is_object()) {
    if (o.contains("sampled_components") && o["sampled_components"].is_number_unsigned())
      r.orientation_sampled = o["sampled_components"].get<std::size_t>();
    if (o.contains("samples") && o["samples"].is_number_unsigned())
      r.orientation_samples = o["samples"].get<std::size_t>();
    if (o.contains("sizes_estimated") && o["sizes_estimated"].is_number_unsigned())
      r.sizes_estimated = o["sizes_estimated"].get<std::size_t>();
  }
}

EdgeProb parse_edge(const json& j, const Field& f, const Reader& in) {
  if (!j.is_object()) f.fail("expected an object");
  EdgeProb e;
  e.from = in.var(member(j, f, "from"), f.at("from"));
  e.to = in.var(member(j, f, "to"), f.at("to"));
  e.p = number(member(j, f, "p"), f.at("p"));
  if (const json& pe = member(j, f, "p_edge", false); !pe.is_null())
    e.p_edge = number(pe, f.at("p_edge"));
  return e;
}

void parse_edges(const json& j, const Reader& in, PoolReport& r) {
  const Field f = in.root.at("edges");
  const json& edges = member(j, in.root, "edges", false);
  if (edges.is_null()) return;
  array(edges, f);
  std::size_t with_p_edge = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    r.edges.push_back(parse_edge(edges[i], f.at(i), in));
    with_p_edge += edges[i].contains("p_edge");
  }
  for (std::size_t i = 0; i < edges.size() && with_p_edge > 0; ++i)
    if (!edges[i].contains("p_edge")) f.at(i).fail("expected \"p_edge\", as the other edges have");
  r.has_p_edge = with_p_edge > 0 || edges.empty();
}

// ---- format 1 ----

ParentSets parse_parent_lists(const json& j, const Field& f, const Reader& in) {
  const json& parents = array(j, f);
  if (static_cast<long long>(parents.size()) != in.n())
    f.fail("expected " + std::to_string(in.n()) + " parent lists (one per variable), got " +
           std::to_string(parents.size()));
  ParentSets out;
  for (std::size_t v = 0; v < parents.size(); ++v) {
    const json& list = array(parents[v], f.at(v));
    auto& ps = out.emplace_back();
    for (std::size_t k = 0; k < list.size(); ++k) ps.push_back(in.var(list[k], f.at(v).at(k)));
  }
  return out;
}

PoolDag parse_dag_v1(const json& j, const Field& f, const Reader& in) {
  if (!j.is_object()) f.fail("expected an object");
  PoolDag d;
  d.score = number(member(j, f, "score"), f.at("score"));
  if (const json& mec = member(j, f, "mec", false); !mec.is_null())
    d.mec = static_cast<int>(integer(mec, f.at("mec"), -1, std::numeric_limits<int>::max()));
  d.parents = parse_parent_lists(member(j, f, "parents"), f.at("parents"), in);
  return d;
}

PoolClass parse_class_v1(const json& j, const Field& f, const Reader& in, std::size_t dags) {
  if (!j.is_object()) f.fail("expected an object");
  PoolClass c;
  c.score = number(member(j, f, "score"), f.at("score"));
  c.size = text(member(j, f, "size"), f.at("size"));
  BigUint size;
  if (!BigUint::parse(c.size, size)) f.at("size").fail("expected a decimal number");
  c.log10_size = number(member(j, f, "log10_size"), f.at("log10_size"));
  c.members = static_cast<std::size_t>(
      integer(member(j, f, "members"), f.at("members"), 0, static_cast<long long>(dags)));
  if (c.members > 0)
    c.first = static_cast<std::size_t>(
        integer(member(j, f, "first"), f.at("first"), 0, static_cast<long long>(dags) - 1));
  c.arcs = in.arcs(member(j, f, "arcs"), f.at("arcs"));
  c.edges = in.arcs(member(j, f, "edges"), f.at("edges"));
  if (const json& dag = member(j, f, "dag", false); !dag.is_null())
    c.dag = parse_parent_lists(dag, f.at("dag"), in);
  return c;
}

void parse_body_v1(const json& j, const Reader& in, PoolReport& r) {
  const Field& root = in.root;
  const json& dags = array(member(j, root, "dags"), root.at("dags"));
  for (std::size_t i = 0; i < dags.size(); ++i)
    r.dags.push_back(parse_dag_v1(dags[i], root.at("dags").at(i), in));
  if (const json& classes = member(j, root, "classes", false); !classes.is_null()) {
    array(classes, root.at("classes"));
    for (std::size_t i = 0; i < classes.size(); ++i) {
      r.classes.push_back(parse_class_v1(classes[i], root.at("classes").at(i), in, r.dags.size()));
      PoolClass& c = r.classes.back();
      if (c.dag.empty()) {  // files written before classes held a DAG
        if (c.members == 0) root.at("classes").at(i).fail("expected a \"dag\" or members");
        c.dag = r.dags[c.first].parents;
      }
    }
    r.mec_count = static_cast<int>(r.classes.size());
  }
}

// ---- format 2 ----

bool has(const std::vector<int>& sorted, int x) {
  return std::binary_search(sorted.begin(), sorted.end(), x);
}
void insert_sorted(std::vector<int>& list, int x) {
  list.insert(std::lower_bound(list.begin(), list.end(), x), x);
}
void erase_sorted(std::vector<int>& list, int x) {
  list.erase(std::lower_bound(list.begin(), list.end(), x));
}

// {"A":[...],...}: parent lists by name; a variable not named has no parents.
ParentSets parse_parents_object(const json& j, const Field& f, const Reader& in) {
  if (!j.is_object()) f.fail("expected an object of parent lists by name");
  ParentSets dag(static_cast<std::size_t>(in.n()));
  for (auto it = j.begin(); it != j.end(); ++it) {
    const Field g = f.at(it.key());
    const int v = in.var(json(it.key()), f);
    auto& ps = dag[static_cast<std::size_t>(v)];
    for (std::size_t k = 0; k < array(it.value(), g).size(); ++k) {
      const int u = in.var(it.value()[k], g.at(k));
      if (u == v || has(ps, u)) g.at(k).fail("a parent repeated, or the variable itself");
      insert_sorted(ps, u);
    }
  }
  return dag;
}

// A count of DAGs: an integer, or a number beside its exact decimal `exact_key`.
std::string parse_size(const json& obj, const Field& f, const char* key, const char* exact_key,
                       double* log10_out) {
  const json& n = member(obj, f, key);
  BigUint size;
  if (const json& exact = member(obj, f, exact_key, false); !exact.is_null()) {
    const std::string decimal = text(exact, f.at(exact_key));
    if (!BigUint::parse(decimal, size)) f.at(exact_key).fail("expected a decimal number");
    const double approx = size.to_double();
    if (!n.is_null() && std::isfinite(approx) &&
        !(std::fabs(number(n, f.at(key)) - approx) <= 1e-9 * approx))
      f.at(key).fail("differs from " + std::string(exact_key));
  } else if (n.is_number_unsigned()) {
    size = BigUint(n.get<std::uint64_t>());
  } else {
    const double x = number(n, f.at(key));
    if (!(x >= 0 && x <= 9007199254740992.0 && x == std::floor(x)))
      f.at(key).fail("expected a whole number (with \"" + std::string(exact_key) +
                     "\" above 2^53)");
    size = BigUint(static_cast<std::uint64_t>(x));
  }
  if (log10_out) *log10_out = size.log10();
  return size.to_string();
}

// `base` with the arcs of obj's "removed" taken out, those of "reversed" (as the result holds
// them) turned round and those of "added" put in; each must make sense against `base`.
ParentSets apply_changes(const ParentSets& base, const json& obj, const Field& f,
                         const Reader& in) {
  const auto list = [&](const char* key) {
    const json& a = member(obj, f, key, false);
    return a.is_null() ? Arcs{} : in.arcs(a, f.at(key));
  };
  ParentSets dag = base;
  const Arcs removed = list("removed"), reversed = list("reversed"), added = list("added");
  for (std::size_t i = 0; i < removed.size(); ++i) {
    const auto [u, v] = removed[i];
    auto& pv = dag[static_cast<std::size_t>(v)];
    if (!has(pv, u)) f.at("removed").at(i).fail("not an arc of the base class's DAG");
    erase_sorted(pv, u);
  }
  for (std::size_t i = 0; i < reversed.size(); ++i) {
    const auto [u, v] = reversed[i];  // here u -> v, in base v -> u
    auto& pu = dag[static_cast<std::size_t>(u)];
    if (!has(pu, v)) f.at("reversed").at(i).fail("the base class's DAG lacks its reverse");
    erase_sorted(pu, v);
    insert_sorted(dag[static_cast<std::size_t>(v)], u);
  }
  for (std::size_t i = 0; i < added.size(); ++i) {
    const auto [u, v] = added[i];
    if (u == v || adjacent(base, u, v) || adjacent(dag, u, v))
      f.at("added").at(i).fail("joins variables already adjacent (or a variable to itself)");
    insert_sorted(dag[static_cast<std::size_t>(v)], u);
  }
  return dag;
}

class ClassesV2 {
 public:
  ClassesV2(const Reader& in, PoolReport& r) : in_(in), r_(r) {}

  void parse(const json& classes, const Field& f) {
    array(classes, f);
    for (std::size_t i = 0; i < classes.size(); ++i) {
      const json& c = classes[i];
      const Field g = f.at(i);
      if (!c.is_object()) g.fail("expected an object");
      PoolClass k;
      k.score = number(member(c, g, "score"), g.at("score"));
      k.size = parse_size(c, g, "size", "size_exact", &k.log10_size);
      if (i == 0)
        first_class(c, g, k);
      else
        other_class(c, g, k);
      members(member(c, g, "members", false), g.at("members"), k, i);
      r_.classes.push_back(std::move(k));
    }
    r_.mec_count = static_cast<int>(r_.classes.size());
    sort_listed();
  }

 private:
  const Reader& in_;
  PoolReport& r_;
  EssentialGraphBuilder essential_;  // scratch for each class's essential graph

  void first_class(const json& c, const Field& g, PoolClass& k) {
    k.dag = parse_parents_object(member(c, g, "dag"), g.at("dag"), in_);
    for (const char* key : {"base", "added", "removed", "reversed"})
      if (c.contains(key)) g.at(key).fail("the first class gives its DAG whole, not changes");
    describe(k);
  }

  // A class after the first: changes against its base, the first class or the earlier class
  // of rank `base`.
  void other_class(const json& c, const Field& g, PoolClass& k) {
    std::size_t base = 0;
    if (const json& b = member(c, g, "base", false); !b.is_null())
      base = static_cast<std::size_t>(
                 integer(b, g.at("base"), 1, static_cast<long long>(r_.classes.size()))) -
             1;
    k.dag = apply_changes(r_.classes[base].dag, c, g, in_);
    describe(k);
  }

  // The class's essential graph from its DAG, as summarize() gives it: compelled arcs and
  // reversible edges (u < v), each sorted; none when the DAG has a cycle.
  void describe(PoolClass& k) {
    try {
      essential_.build(k.dag);
    } catch (const RuntimeError&) {
      return;  // a cycle: `bnsl check` says so
    }
    const Cpdag e = essential_.cpdag();
    for (std::size_t v = 0; v < e.n_vars(); ++v) {
      const int to = static_cast<int>(v);
      for (const int u : e.directed[v]) k.arcs.emplace_back(u, to);
      for (const int u : e.undirected[v])
        if (u < to) k.edges.emplace_back(u, to);
    }
    std::sort(k.arcs.begin(), k.arcs.end());
    std::sort(k.edges.begin(), k.edges.end());
  }

  // The members come class by class, best class first, which is best first but for DAGs of
  // classes whose scores differ by rounding only (a list of DAGs from exact mode, each with its
  // own score); those are put back in order of score (stably: the first DAG stays first), and
  // each class's `first` follows.
  void sort_listed() {
    std::vector<PoolDag>& dags = r_.dags;
    const auto better = [](const PoolDag& a, const PoolDag& b) { return a.score > b.score; };
    if (std::is_sorted(dags.begin(), dags.end(), better)) return;
    std::stable_sort(dags.begin(), dags.end(), better);
    for (std::size_t i = dags.size(); i-- > 0;)
      r_.classes[static_cast<std::size_t>(dags[i].mec)].first = i;
  }

  // The listed DAGs of class `id`: each the class's DAG with the numbered arcs reversed.
  void members(const json& list, const Field& f, PoolClass& k, std::size_t id) {
    if (list.is_null()) return;
    Arcs numbered;  // the class DAG's arcs, by child, then parent
    for (std::size_t v = 0; v < k.dag.size(); ++v)
      for (const int u : k.dag[v]) numbered.emplace_back(u, static_cast<int>(v));
    k.first = r_.dags.size();
    for (std::size_t i = 0; i < array(list, f).size(); ++i) {
      const Field g = f.at(i);
      PoolDag d;
      d.score = k.score;
      d.mec = static_cast<int>(id);
      const json* reversed = &list[i];
      if (list[i].is_object()) {
        d.score = number(member(list[i], g, "score"), g.at("score"));
        reversed = &member(list[i], g, "reversed");
      }
      const Field h = list[i].is_object() ? g.at("reversed") : g;
      d.parents = k.dag;
      std::vector<std::size_t> seen;
      for (std::size_t m = 0; m < array(*reversed, h).size(); ++m) {
        const auto a = static_cast<std::size_t>(
            integer((*reversed)[m], h.at(m), 1, static_cast<long long>(numbered.size())));
        if (std::find(seen.begin(), seen.end(), a) != seen.end()) h.at(m).fail("repeated");
        seen.push_back(a);
        const auto [u, v] = numbered[a - 1];
        erase_sorted(d.parents[static_cast<std::size_t>(v)], u);
        insert_sorted(d.parents[static_cast<std::size_t>(u)], v);
      }
      r_.dags.push_back(std::move(d));
    }
    k.members = list.size();
    if (k.members == 0) k.first = 0;
  }
};

// A list of DAGs without classes: the first whole, the others as changes against it.
void parse_dag_list(const json& dags, const Field& f, const Reader& in, PoolReport& r) {
  array(dags, f);
  ParentSets base;
  for (std::size_t i = 0; i < dags.size(); ++i) {
    const Field g = f.at(i);
    if (!dags[i].is_object()) g.fail("expected an object");
    PoolDag d;
    d.score = number(member(dags[i], g, "score"), g.at("score"));
    if (i == 0) base = parse_parents_object(member(dags[i], g, "dag"), g.at("dag"), in);
    d.parents = i == 0 ? base : apply_changes(base, dags[i], g, in);
    r.dags.push_back(std::move(d));
  }
}

void parse_body_v2(const json& j, const Reader& in, PoolReport& r) {
  const Field& root = in.root;
  const json& classes = member(j, root, "classes", false);
  const json& dags = member(j, root, "dags", false);
  if (!classes.is_null() && !dags.is_null())
    root.at("dags").fail("a pool with classes lists its DAGs as the classes' members");
  if (!classes.is_null()) ClassesV2(in, r).parse(classes, root.at("classes"));
  if (!dags.is_null()) parse_dag_list(dags, root.at("dags"), in, r);
}

[[noreturn]] void syntax_error(const std::string& text, const std::string& file,
                               const json::parse_error& e) {
  std::size_t line = 1, col = 1;
  const std::size_t end = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
  for (std::size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  std::string what = e.what();  // "[json.exception.parse_error.101] parse error at ...: why"
  if (auto colon = what.rfind(": "); colon != std::string::npos) what = what.substr(colon + 2);
  throw InputError(file, line, col, "pool JSON: " + what);
}

}  // namespace

PoolReport parse_pool_json(const std::string& text, const std::string& file) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    syntax_error(text, file, e);
  } catch (const json::exception& e) {  // a number too large for a double (out_of_range.406)
    std::string what = e.what();        // "[json.exception.out_of_range.406] number overflow ..."
    if (const std::size_t end = what.find("] "); end != std::string::npos) what.erase(0, end + 2);
    throw InputError(file, 0, 0, "pool JSON: " + what);
  }
  if (!j.is_object()) throw InputError(file, 0, 0, "pool JSON: expected an object at top level");
  int format = 1;  // files without the field
  if (const auto it = j.find("format"); it != j.end())
    format =
        static_cast<int>(integer(*it, Field{file, "format"}, 1, std::numeric_limits<int>::max()));
  if (format > kPoolJsonFormat)
    throw InputError(file, 0, 0,
                     "pool JSON: format " + std::to_string(format) +
                         " is newer than this bnsl reads (up to " +
                         std::to_string(kPoolJsonFormat) + "): use a newer bnsl");
  Reader in(file, format);
  PoolReport r;
  parse_header(j, in, r);
  if (format == 1)
    parse_body_v1(j, in, r);
  else
    parse_body_v2(j, in, r);
  parse_edges(j, in, r);
  return r;
}

}  // namespace bnsl
