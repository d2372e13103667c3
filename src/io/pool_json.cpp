// Pool JSON: the DAG pool, its classes and edge probabilities (docs/design.md, "Outputs").
//
// Written one DAG and one edge per line so that large pools stay readable with line tools;
// doubles are printed by nlohmann::json, which emits the shortest text that reads back to
// the same double (round trip, up to 17 significant digits). Reading validates every field
// and reports the first problem as an InputError naming the file and the field path (or the
// line and column for a syntax error).
#include <algorithm>
#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/error.hpp"
#include "io/report_io.hpp"
#include "util/big_uint.hpp"

namespace bnsl {
namespace {

using nlohmann::json;

std::string dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

using ordered = nlohmann::ordered_json;  // keeps the documented key order

// Parent lists as [[...],...], formatted directly into `out` (a pool can hold 100,000 DAGs
// of thousands of variables; building a json tree per DAG costs more than the search's last
// seconds can spare).
void append_parents(std::string& out, const ParentSets& parents) {
  out += '[';
  char buf[16];
  for (std::size_t v = 0; v < parents.size(); ++v) {
    if (v) out += ',';
    out += '[';
    for (std::size_t k = 0; k < parents[v].size(); ++k) {
      if (k) out += ',';
      const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, parents[v][k]);
      out.append(buf, end);
    }
    out += ']';
  }
  out += ']';
}

// One DAG as {"score":S,"mec":M,"parents":[[...],...]}.
void append_dag_json(std::string& out, const PoolDag& d) {
  out += "{\"score\":";
  out += dump(json(d.score));
  out += ",\"mec\":";
  out += std::to_string(d.mec);
  out += ",\"parents\":";
  append_parents(out, d.parents);
  out += '}';
}

void append_pairs(std::string& out, const std::vector<std::pair<int, int>>& pairs) {
  out += '[';
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i) out += ',';
    out += '[';
    out += std::to_string(pairs[i].first);
    out += ',';
    out += std::to_string(pairs[i].second);
    out += ']';
  }
  out += ']';
}

// One class as {"score":S,"size":"N","log10_size":L,"members":M,"first":I,"arcs":[[a,b],...],
// "edges":[[u,v],...],"dag":[[...],...]} ("first": null when no DAG of it is listed).
void append_class_json(std::string& out, const PoolClass& c) {
  out += "{\"score\":" + dump(json(c.score));
  out += ",\"size\":" + dump(json(c.size));
  out += ",\"log10_size\":" + dump(json(c.log10_size));
  out += ",\"members\":" + std::to_string(c.members);
  out += ",\"first\":" + (c.members > 0 ? std::to_string(c.first) : std::string("null"));
  out += ",\"arcs\":";
  append_pairs(out, c.arcs);
  out += ",\"edges\":";
  append_pairs(out, c.edges);
  out += ",\"dag\":";
  append_parents(out, c.dag);
  out += '}';
}

std::string edge_json(const EdgeProb& e) {
  ordered j{{"from", e.from}, {"to", e.to}, {"p", e.p}, {"p_edge", e.p_edge}};
  return j.dump();
}

// A field path in error messages, e.g. dags[3].parents.
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

ParentSets parse_parents(const json& j, const Field& f, long long n) {
  const json& parents = array(j, f);
  if (static_cast<long long>(parents.size()) != n)
    f.fail("expected " + std::to_string(n) + " parent lists (one per variable), got " +
           std::to_string(parents.size()));
  ParentSets out;
  for (std::size_t v = 0; v < parents.size(); ++v) {
    const json& list = array(parents[v], f.at(v));
    auto& ps = out.emplace_back();
    for (std::size_t k = 0; k < list.size(); ++k)
      ps.push_back(static_cast<int>(integer(list[k], f.at(v).at(k), 0, n - 1)));
  }
  return out;
}

// null, or {"k": K, "of": "dags" | "classes", "listed": DAGs or classes listed, "tied": those
// past K, tied with the K-th}.
std::string k_best_json(const PoolReport& r) {
  if (r.k_best == 0) return "null";
  const std::size_t listed = r.k_best_classes ? r.classes.size() : r.dags.size();
  return "{\"k\": " + std::to_string(r.k_best) + ", \"of\": \"" +
         (r.k_best_classes ? "classes" : "dags") + "\", \"listed\": " + std::to_string(listed) +
         ", \"tied\": " + std::to_string(listed > r.k_best ? listed - r.k_best : 0) + "}";
}

// null, or {"arcs": preferred arcs, "classes": classes with one on a reversible edge,
// "changed": classes showing another member, "partial": classes searched in part}.
std::string prefer_json(const PoolReport& r) {
  if (!r.preferred) return "null";
  const PreferSummary& p = *r.preferred;
  return "{\"arcs\": " + std::to_string(p.arcs) + ", \"classes\": " + std::to_string(p.classes) +
         ", \"changed\": " + std::to_string(p.changed) +
         ", \"partial\": " + std::to_string(p.partial) + "}";
}

std::vector<std::pair<int, int>> parse_pairs(const json& j, const Field& f, long long n) {
  std::vector<std::pair<int, int>> out;
  for (std::size_t i = 0; i < array(j, f).size(); ++i) {
    const json& pair = array(j[i], f.at(i));
    if (pair.size() != 2) f.at(i).fail("expected a pair of variable indices");
    out.emplace_back(static_cast<int>(integer(pair[0], f.at(i).at(0), 0, n - 1)),
                     static_cast<int>(integer(pair[1], f.at(i).at(1), 0, n - 1)));
  }
  return out;
}

// null, or {"required": [[from, to], ...], "forbidden": [[from, to], ...], "tiers": [tier of
// each variable, -1: none] or null, "max_parents": the in-degree limit (absent: none),
// "classes": what a class counts}.
std::string constraints_json(const PoolReport& r) {
  const Constraints& c = r.constraints;
  if (c.empty()) return "null";
  const auto pairs = [](const std::vector<std::pair<int, int>>& arcs) {
    std::string out = "[";
    for (std::size_t i = 0; i < arcs.size(); ++i)
      out += (i ? ", [" : "[") + std::to_string(arcs[i].first) + ", " +
             std::to_string(arcs[i].second) + "]";
    return out + "]";
  };
  std::string out =
      "{\"required\": " + pairs(c.required) + ", \"forbidden\": " + pairs(c.forbidden);
  out += ", \"tiers\": " + (c.tiers.empty() ? std::string("null") : dump(json(c.tiers)));
  if (c.max_parents >= 0) out += ", \"max_parents\": " + std::to_string(c.max_parents);
  out +=
      ", \"classes\": \"each class counts, lists and orients only its DAGs that satisfy these "
      "constraints\"}";
  return out;
}

Constraints parse_constraints(const json& j, const Field& f, long long n) {
  if (!j.is_object()) f.fail("expected an object or null");
  Constraints c;
  const auto arcs = [&](const char* key, bool needed) {
    std::vector<std::pair<int, int>> out;
    if (const json& a = member(j, f, key, needed); !a.is_null()) out = parse_pairs(a, f.at(key), n);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };
  c.required = arcs("required", false);  // absent from files written before required arcs
  c.forbidden = arcs("forbidden", true);
  if (const json& t = member(j, f, "tiers", false); !t.is_null()) {
    const Field g = f.at("tiers");
    if (array(t, g).size() != static_cast<std::size_t>(n))
      g.fail("expected one tier per variable (" + std::to_string(n) + ")");
    for (std::size_t v = 0; v < t.size(); ++v)
      c.tiers.push_back(static_cast<int>(integer(t[v], g.at(v), -1, 1'000'000)));
  }
  if (const json& m = member(j, f, "max_parents", false); !m.is_null())
    c.max_parents = static_cast<int>(integer(m, f.at("max_parents"), 0, 1'000'000));
  return c;
}

PoolDag parse_dag(const json& j, const Field& f, long long n) {
  if (!j.is_object()) f.fail("expected an object");
  PoolDag d;
  d.score = number(member(j, f, "score"), f.at("score"));
  if (const json& mec = member(j, f, "mec", false); !mec.is_null())
    d.mec = static_cast<int>(integer(mec, f.at("mec"), -1, std::numeric_limits<int>::max()));
  d.parents = parse_parents(member(j, f, "parents"), f.at("parents"), n);
  return d;
}

EdgeProb parse_edge(const json& j, const Field& f, long long n) {
  if (!j.is_object()) f.fail("expected an object");
  EdgeProb e;
  e.from = static_cast<int>(integer(member(j, f, "from"), f.at("from"), 0, n - 1));
  e.to = static_cast<int>(integer(member(j, f, "to"), f.at("to"), 0, n - 1));
  e.p = number(member(j, f, "p"), f.at("p"));
  if (const json& pe = member(j, f, "p_edge", false); !pe.is_null())
    e.p_edge = number(pe, f.at("p_edge"));
  return e;
}

PoolClass parse_class(const json& j, const Field& f, long long n, std::size_t dags) {
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
  c.arcs = parse_pairs(member(j, f, "arcs"), f.at("arcs"), n);
  c.edges = parse_pairs(member(j, f, "edges"), f.at("edges"), n);
  if (const json& dag = member(j, f, "dag", false); !dag.is_null())
    c.dag = parse_parents(dag, f.at("dag"), n);
  return c;
}

void parse_header(const json& j, const Field& f, PoolReport& r) {
  r.score = text(member(j, f, "score"), f.at("score"));
  if (r.score != "bic" && r.score != "bdeu") f.at("score").fail("expected \"bic\" or \"bdeu\"");
  if (const json& ess = member(j, f, "ess", false); !ess.is_null())
    r.ess = number(ess, f.at("ess"));
  const json& vars = array(member(j, f, "variables"), f.at("variables"));
  for (std::size_t v = 0; v < vars.size(); ++v)
    r.variables.push_back(text(vars[v], f.at("variables").at(v)));
  const long long n = static_cast<long long>(r.variables.size());
  if (const json& jn = member(j, f, "n", false); !jn.is_null()) integer(jn, f.at("n"), n, n);
  r.rows = static_cast<std::size_t>(
      integer(member(j, f, "rows"), f.at("rows"), 0, std::numeric_limits<long long>::max()));
  r.epsilon = number(member(j, f, "epsilon"), f.at("epsilon"));
  if (const json& best = member(j, f, "best_score"); !best.is_null())  // null: empty pool
    number(best, f.at("best_score"));
  r.optimal = boolean(member(j, f, "optimal"), f.at("optimal"));
  r.complete = boolean(member(j, f, "complete"), f.at("complete"));
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
    const auto count = [&](const char* key) {
      return static_cast<std::size_t>(
          integer(member(pa, g, key), g.at(key), 0, std::numeric_limits<long long>::max()));
    };
    r.preferred =
        PreferSummary{count("arcs"), count("classes"), count("changed"), count("partial")};
  }
  if (const json& c = member(j, f, "constraints", false); !c.is_null())
    r.constraints = parse_constraints(c, f.at("constraints"), n);
  if (const json& a = member(j, f, "algorithm", false); !a.is_null())
    r.algorithm = text(a, f.at("algorithm"));
  if (const json& s = member(j, f, "seconds", false); !s.is_null())
    r.seconds = number(s, f.at("seconds"));
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

// The text is written in pieces of about a megabyte: a pool of 44,843 classes of 223 variables
// is 300 MB of JSON, which is not held whole.
namespace {

// "discretized": [{"variable": NAME, "method": "quantile", "breaks": [b0, ..., bK]}, ...]: the
// columns --discretize cut, and where (bnsl/dataset.hpp, Discretization).
std::string discretized_json(const PoolReport& r) {
  json list = json::array();
  for (const Discretization& d : r.discretized)
    list.push_back({{"variable", d.column < r.variables.size() ? r.variables[d.column] : ""},
                    {"method", d.method},
                    {"breaks", d.breaks}});
  return list.dump();
}

}  // namespace

void write_pool_json(std::ostream& os, const PoolReport& r) {
  constexpr std::size_t kPiece = std::size_t{1} << 20;
  std::string out = "{\"score\": " + dump(r.score);
  const auto flush = [&](bool always) {
    if (always || out.size() >= kPiece) {
      os.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  };
  out += ", \"ess\": " + (r.ess ? dump(*r.ess) : std::string("null"));
  out += ", \"n\": " + std::to_string(r.variables.size());
  out += ", \"rows\": " + std::to_string(r.rows);
  out += ",\n \"variables\": " + dump(r.variables);
  if (!r.discretized.empty()) out += ",\n \"discretized\": " + discretized_json(r);
  out += ",\n \"epsilon\": " + dump(r.epsilon);
  out += ", \"best_score\": " + (r.classes.empty()
                                     ? r.dags.empty() ? std::string("null") : dump(r.dags[0].score)
                                     : dump(r.classes[0].score));
  out += ", \"optimal\": " + dump(r.optimal) + ", \"complete\": " + dump(r.complete);
  out += ", \"listed_above\": " + (r.listed_above ? dump(*r.listed_above) : std::string("null"));
  out += ", \"dags_within\": " +
         (r.dags_within ? std::to_string(*r.dags_within) : std::string("null")) +
         ", \"dags_within_exact\": " + dump(r.dags_within_exact);
  out += ",\n \"k_best\": " + k_best_json(r);
  out += ", \"prefer_arcs\": " + prefer_json(r);
  out += ",\n \"constraints\": " + constraints_json(r);
  out += ",\n \"algorithm\": " + dump(r.algorithm) + ", \"seconds\": " + dump(r.seconds);
  out += ", \"class_count\": " + std::to_string(r.classes.size());
  out += ", \"dag_count\": " + dump(json(class_dag_count(r)));
  out += ", \"dags_listed\": " + std::to_string(r.dags.size());
  out += ",\n \"orientations\": {\"sampled_components\": " + std::to_string(r.orientation_sampled) +
         ", \"samples\": " + std::to_string(r.orientation_samples) +
         ", \"sizes_estimated\": " + std::to_string(r.sizes_estimated) + "}";
  out += ",\n \"pool_account\": " +
         pool_account_json(r.account).dump(-1, ' ', false, json::error_handler_t::replace);
  out += ",\n \"classes\": [";
  for (std::size_t i = 0; i < r.classes.size(); ++i) {
    out += i ? ",\n  " : "\n  ";
    append_class_json(out, r.classes[i]);
    flush(false);
  }
  out += "\n ],\n \"dags\": [";
  for (std::size_t i = 0; i < r.dags.size(); ++i) {
    out += i ? ",\n  " : "\n  ";
    append_dag_json(out, r.dags[i]);
    flush(false);
  }
  out += "\n ],\n \"edges\": [";
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    out += (i ? ",\n  " : "\n  ") + edge_json(r.edges[i]);
    flush(false);
  }
  out += "\n ]\n}\n";
  flush(true);
}

std::string pool_json_text(const PoolReport& r) {
  std::ostringstream os;
  write_pool_json(os, r);
  return std::move(os).str();
}

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
  const Field root{file, ""};
  if (!j.is_object()) throw InputError(file, 0, 0, "pool JSON: expected an object at top level");
  PoolReport r;
  parse_header(j, root, r);
  const long long n = static_cast<long long>(r.variables.size());
  const json& dags = array(member(j, root, "dags"), root.at("dags"));
  for (std::size_t i = 0; i < dags.size(); ++i)
    r.dags.push_back(parse_dag(dags[i], root.at("dags").at(i), n));
  if (const json& classes = member(j, root, "classes", false); !classes.is_null()) {
    array(classes, root.at("classes"));
    for (std::size_t i = 0; i < classes.size(); ++i) {
      r.classes.push_back(parse_class(classes[i], root.at("classes").at(i), n, r.dags.size()));
      PoolClass& c = r.classes.back();
      if (c.dag.empty()) {  // files written before classes held a DAG
        if (c.members == 0) root.at("classes").at(i).fail("expected a \"dag\" or members");
        c.dag = r.dags[c.first].parents;
      }
    }
    r.mec_count = static_cast<int>(r.classes.size());
  }
  if (const json& o = member(j, root, "orientations", false); o.is_object()) {
    if (o.contains("sampled_components") && o["sampled_components"].is_number_unsigned())
      r.orientation_sampled = o["sampled_components"].get<std::size_t>();
    if (o.contains("samples") && o["samples"].is_number_unsigned())
      r.orientation_samples = o["samples"].get<std::size_t>();
    if (o.contains("sizes_estimated") && o["sizes_estimated"].is_number_unsigned())
      r.sizes_estimated = o["sizes_estimated"].get<std::size_t>();
  }
  if (const json& edges = member(j, root, "edges", false); !edges.is_null()) {
    array(edges, root.at("edges"));
    std::size_t with_p_edge = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
      r.edges.push_back(parse_edge(edges[i], root.at("edges").at(i), n));
      with_p_edge += edges[i].is_object() && edges[i].contains("p_edge");
    }
    for (std::size_t i = 0; i < edges.size() && with_p_edge > 0; ++i)
      if (!edges[i].contains("p_edge"))
        root.at("edges").at(i).fail("expected \"p_edge\", as the other edges have");
    r.has_p_edge = with_p_edge > 0 || edges.empty();
  }
  return r;
}

}  // namespace bnsl
