// Pool JSON, format 2: the pool, its classes and edge probabilities, compact at every size
// (docs/design.md, "Outputs"; read by pool_json_read.cpp, which also reads format 1).
//
// Variables are named once, in `variables`, and by name everywhere else. The first class (the
// best) gives its DAG whole, as parent lists; every other class gives its DAG as the arcs it
// adds to a base class's DAG, removes from it and reverses. The base is the first class, or
// (`base`: its rank) one of the 128 just before whose DAG differs from this one by fewer arcs.
// No class's essential graph is written: it is a function of the class's DAG, which a reader
// recomputes (the reversible and compelled pairs were a sixth of the file at andes' scale). A
// listed DAG (a member) is its class's DAG with some reversible arcs reversed, given by their
// numbers among the class DAG's arcs (from 1, by child, then parent, both in the order of
// `variables`). Near the best the classes differ from it, and more so from their neighbours,
// by a few arcs, so the file grows with those differences and the members, not with classes x
// variables as a whole DAG per class would. Class sizes are numbers, with the exact decimal
// beside them when a double cannot hold it.
//
// The text goes out in pieces as it is made (TextOut), never built whole; doubles are written
// as the shortest text that reads back to the same double. A report without classes (not
// summarized) lists its DAGs, the first whole and the others as changes against it.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/error.hpp"
#include "io/report_io.hpp"
#include "io/text_out.hpp"
#include "util/big_uint.hpp"
#include "util/utf8.hpp"

namespace bnsl {
namespace {

using Arcs = std::vector<std::pair<int, int>>;  // (from, to)

bool contains(const std::vector<int>& sorted, int x) {
  return std::binary_search(sorted.begin(), sorted.end(), x);
}

// A JSON string literal (invalid UTF-8 replaced, as nlohmann::json writes it; names never
// have any, see written_names).
std::string json_string(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string hex(std::string_view bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (const char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// The names as `variables` writes them, since JSON text is UTF-8: a UTF-8 name as it is; any
// other with each byte that is not UTF-8 as U+FFFD and, should that be another variable's
// name, "~2", "~3"... after it. Such a name's bytes go in `variable_bytes` (written name: hex)
// so that readers get the column's name back byte for byte. (Escaping each such byte as a lone
// surrogate, \uDC80 + b - 0x80, would keep one field, but strict parsers, nlohmann's among
// them, refuse lone surrogates.)
std::vector<std::string> written_names(const std::vector<std::string>& names,
                                       std::vector<std::pair<std::string, std::string>>& bytes) {
  std::vector<char> valid(names.size());
  std::set<std::string> taken;
  for (std::size_t v = 0; v < names.size(); ++v)
    if ((valid[v] = valid_utf8(names[v]))) taken.insert(names[v]);
  std::vector<std::string> out;
  for (std::size_t v = 0; v < names.size(); ++v) {
    const std::string& name = names[v];
    if (valid[v]) {
      out.push_back(name);
      continue;
    }
    std::string shown;
    for (std::size_t i = 0; i < name.size();) {
      const auto [c, len] = utf8_code_point(name, i);
      shown.append(c < 0 ? std::string_view("\xEF\xBF\xBD")
                         : std::string_view(name).substr(i, len));
      i += len;
    }
    std::string written = shown;
    for (int k = 2; !taken.insert(written).second; ++k) written = shown + "~" + std::to_string(k);
    bytes.emplace_back(written, hex(name));
    out.push_back(std::move(written));
  }
  return out;
}

class PoolWriter {
 public:
  PoolWriter(std::ostream& os, const PoolReport& r) : out_(os), r_(r) {
    std::vector<std::string> names = r.variables;
    // A report not yet named (the search's, whose caller names the variables) names them by
    // their number from 1, as a data set without a header row would.
    std::size_t n = r.classes.empty() ? 0 : r.classes[0].dag.size();
    if (!r.dags.empty()) n = std::max(n, r.dags[0].parents.size());
    for (std::size_t v = names.size(); v < n; ++v) names.push_back("V" + std::to_string(v + 1));
    for (const std::string& name : written_names(names, name_bytes_))
      names_.push_back(json_string(name));
  }

  void write() {
    header();
    if (!r_.classes.empty()) {
      classes();
    } else if (!r_.dags.empty()) {
      dag_list();
    } else {
      out_ << ",\n \"classes\": []";
    }
    edges();
    out_ << "\n}\n";
    out_.finish();
  }

 private:
  TextOut out_;
  const PoolReport& r_;
  std::vector<std::string> names_;  // the variables' names as JSON strings
  std::vector<std::pair<std::string, std::string>> name_bytes_;  // written name, hex bytes
  ParentSets scratch_, scratch2_;

  // The header, one field a line; a field is one line here and one in pool_json_read.cpp.
  void header() {
    out_ << "{\"format\": ";
    out_.integer(kPoolJsonFormat);
    field("score", r_.score);
    field("ess", r_.ess);
    field("n", names_.size());
    field("rows", r_.rows);
    key("variables");
    out_ << '[';
    for (std::size_t v = 0; v < names_.size(); ++v) out_ << (v ? ", " : "") << names_[v];
    out_ << ']';
    if (!name_bytes_.empty()) {
      key("variable_bytes");
      for (std::size_t i = 0; i < name_bytes_.size(); ++i)
        out_ << (i ? ", " : "{") << json_string(name_bytes_[i].first) << ": "
             << json_string(name_bytes_[i].second);
      out_ << '}';
    }
    if (!r_.discretized.empty()) {
      key("discretized");
      discretized();
    }
    field("epsilon", r_.epsilon);
    field("best_score", best_score());
    field("optimal", r_.optimal);
    field("complete", r_.complete);
    field("memory_short", r_.memory_short);
    field("listed_above", r_.listed_above);
    field("dags_within", r_.dags_within);
    field("dags_within_exact", r_.dags_within_exact);
    key("k_best");
    k_best();
    key("prefer_arcs");
    prefer_arcs();
    key("constraints");
    constraints();
    field("algorithm", r_.algorithm);
    field("seconds", r_.seconds);
    field("class_count", r_.classes.size());
    key("dag_count");
    size(class_dag_count(r_), "dag_count_exact");
    field("dags_listed", r_.dags.size());
    key("orientations");
    counts({{"sampled_components", r_.orientation_sampled},
            {"samples", r_.orientation_samples},
            {"sizes_estimated", r_.sizes_estimated}});
    key("pool_account");
    out_ << pool_account_json(r_.account)
                .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  // {"a": 1, "b": 2}: an object of counts.
  void counts(std::initializer_list<std::pair<std::string_view, std::uint64_t>> fields) {
    const char* separator = "{\"";
    for (const auto& [name, value] : fields) {
      out_ << separator << name << "\": ";
      out_.unsigned_integer(value);
      separator = ", \"";
    }
    out_ << '}';
  }

  std::optional<double> best_score() const {
    if (!r_.classes.empty()) return r_.classes[0].score;
    if (!r_.dags.empty()) return r_.dags[0].score;
    return std::nullopt;
  }

  void key(std::string_view name) { out_ << ",\n \"" << name << "\": "; }
  template <typename T>
  void field(std::string_view name, const T& value) {
    key(name);
    put(value);
  }
  void put(double x) { out_.number(x); }
  void put(bool b) { out_ << (b ? "true" : "false"); }
  void put(std::uint64_t x) { out_.unsigned_integer(x); }
  void put(std::int64_t x) { out_.integer(x); }
  void put(int x) { out_.integer(x); }
  void put(const std::string& s) { out_ << json_string(s); }
  template <typename T>
  void put(const std::optional<T>& x) {
    if (x)
      put(*x);
    else
      out_ << "null";
  }

  // A count of DAGs as a number, and when a double cannot hold it exactly (above 2^53), also
  // as the exact decimal under `exact_key` (the number is then the nearest double, or null
  // past a double's range).
  void size(const std::string& decimal, std::string_view exact_key) {
    BigUint n;
    std::uint64_t small = 0;
    if (BigUint::parse(decimal, n) && n.to_u64(small) && small <= kExactDoubleMax) {
      out_.unsigned_integer(small);
      return;
    }
    out_.number(n.to_double());
    out_ << ",\"" << exact_key << "\":\"" << decimal << '"';
  }
  static constexpr std::uint64_t kExactDoubleMax = std::uint64_t{1} << 53;

  void arc(int from, int to) {
    out_ << '[' << names_[static_cast<std::size_t>(from)] << ','
         << names_[static_cast<std::size_t>(to)] << ']';
  }
  // ,"name":[[from,to],...], nothing when empty.
  void arcs(std::string_view name, const Arcs& list) {
    if (list.empty()) return;
    out_ << ",\"" << name << "\":[";
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i) out_ << ',';
      arc(list[i].first, list[i].second);
    }
    out_ << ']';
  }
  // {"A":[],"B":["A"],...}: every variable's parents, in the order of `variables`.
  void parents(const ParentSets& dag) {
    out_ << '{';
    for (std::size_t v = 0; v < dag.size(); ++v) {
      out_ << (v ? "," : "") << names_[v] << ":[";
      for (std::size_t k = 0; k < dag[v].size(); ++k)
        out_ << (k ? "," : "") << names_[static_cast<std::size_t>(dag[v][k])];
      out_ << ']';
    }
    out_ << '}';
  }

  // [{"variable": NAME, "method": "quantile", "breaks": [b0, ..., bK]}, ...]: the columns
  // --discretize cut, and where (bnsl/dataset.hpp, Discretization).
  void discretized() {
    out_ << '[';
    for (std::size_t i = 0; i < r_.discretized.size(); ++i) {
      const Discretization& d = r_.discretized[i];
      out_ << (i ? ", " : "")
           << "{\"variable\": " << (d.column < names_.size() ? names_[d.column] : json_string(""))
           << ", \"method\": " << json_string(d.method) << ", \"breaks\": [";
      for (std::size_t k = 0; k < d.breaks.size(); ++k) {
        if (k) out_ << ", ";
        out_.number(d.breaks[k]);
      }
      out_ << "]}";
    }
    out_ << ']';
  }

  void k_best() {
    if (r_.k_best == 0) {
      out_ << "null";
      return;
    }
    const std::size_t listed = r_.k_best_classes ? r_.classes.size() : r_.dags.size();
    out_ << "{\"k\": ";
    out_.unsigned_integer(r_.k_best);
    out_ << ", \"of\": \"" << (r_.k_best_classes ? "classes" : "dags") << "\", \"listed\": ";
    out_.unsigned_integer(listed);
    out_ << ", \"tied\": ";
    out_.unsigned_integer(listed > r_.k_best ? listed - r_.k_best : 0);
    out_ << '}';
  }

  void prefer_arcs() {
    if (!r_.preferred) {
      out_ << "null";
      return;
    }
    const PreferSummary& p = *r_.preferred;
    counts(
        {{"arcs", p.arcs}, {"classes", p.classes}, {"changed", p.changed}, {"partial", p.partial}});
  }

  void constraints() {
    const Constraints& c = r_.constraints;
    if (c.empty()) {
      out_ << "null";
      return;
    }
    const auto list = [&](const Arcs& a) {
      out_ << '[';
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (i) out_ << ", ";
        arc(a[i].first, a[i].second);
      }
      out_ << ']';
    };
    out_ << "{\"required\": ";
    list(c.required);
    out_ << ", \"forbidden\": ";
    list(c.forbidden);
    out_ << ", \"tiers\": ";
    if (c.tiers.empty()) {
      out_ << "null";
    } else {
      out_ << '[';
      for (std::size_t v = 0; v < c.tiers.size(); ++v) {
        if (v) out_ << ',';
        out_.integer(c.tiers[v]);
      }
      out_ << ']';
    }
    if (c.max_parents >= 0) {
      out_ << ", \"max_parents\": ";
      out_.integer(c.max_parents);
    }
    out_ << ", \"classes\": \"each class counts, lists and orients only its DAGs that satisfy "
            "these constraints\"}";
  }

  void classes() {
    // The listed DAGs of each class, in their order in report.dags.
    std::vector<std::vector<std::size_t>> members(r_.classes.size());
    for (std::size_t i = 0; i < r_.dags.size(); ++i) {
      const int mec = r_.dags[i].mec;
      if (mec < 0 || static_cast<std::size_t>(mec) >= r_.classes.size())
        throw RuntimeError("pool: dags[" + std::to_string(i) + "] belongs to no listed class");
      members[static_cast<std::size_t>(mec)].push_back(i);
    }
    const PoolClass& first = r_.classes[0];
    const ParentSets& base = sorted_parents(first.dag, scratch_);
    out_ << ",\n \"classes\": [\n  {\"score\":";
    out_.number(first.score);
    out_ << ",\"size\":";
    size(first.size, "size_exact");
    out_ << ",\"dag\":";
    parents(base);
    list_members(base, first.score, members[0]);
    out_ << '}';
    // The window of classes a class may be written against: their sorted DAGs (kept in a ring
    // when a class's DAG is not sorted already) and their arcs that differ from the first's.
    std::vector<const ParentSets*> dags(r_.classes.size(), &base);
    std::vector<ParentSets> ring(kBaseWindow + 1);
    std::vector<Arcs> differ(kBaseWindow + 1);
    for (std::size_t c = 1; c < r_.classes.size(); ++c) {
      const std::size_t slot = c % ring.size();
      dags[c] = &sorted_parents(r_.classes[c].dag, ring[slot]);
      differ[slot] = arcs_not_shared(base, *dags[c]);
      // The base: the first class, or one of the kBaseWindow before, whichever differs from
      // this class by the fewest arcs (the first when none does better).
      std::size_t base_class = 0, fewest = differ[slot].size();
      for (std::size_t b = c > kBaseWindow ? c - kBaseWindow : 1; b < c && fewest > 0; ++b) {
        const std::size_t d =
            symmetric_difference_size(differ[b % ring.size()], differ[slot], fewest);
        if (d < fewest) base_class = b, fewest = d;
      }
      out_ << ",\n  ";
      other_class(*dags[base_class], base_class, r_.classes[c], *dags[c], members[c]);
    }
    out_ << "\n ]";
  }

  // How many classes just before a class may serve as its base besides the first: a class a
  // few ranks up often differs from it by fewer arcs than the first does (andes at 60 s, on
  // average: 15.6 arcs from the first, 5.2 from the nearest of the 16 before, 3.6 of the 128
  // before, 3.2 of the 256; each arc about 24 bytes written). Finding it takes a comparison
  // of two short lists per candidate.
  static constexpr std::size_t kBaseWindow = 128;

  // The arcs of exactly one of two DAGs with sorted parent lists, sorted (by child, then
  // parent): the arc set of `dag` is that of `first` with these toggled.
  static Arcs arcs_not_shared(const ParentSets& first, const ParentSets& dag) {
    Arcs out;
    std::vector<int> only;
    for (std::size_t v = 0; v < dag.size(); ++v) {
      only.clear();
      std::set_symmetric_difference(first[v].begin(), first[v].end(), dag[v].begin(), dag[v].end(),
                                    std::back_inserter(only));
      for (const int u : only) out.emplace_back(static_cast<int>(v), u);
    }
    return out;
  }
  // |a Δ b| for sorted lists, or some count >= limit when it is at least that (the search for
  // a base needs no more: most candidates are out after a comparison of sizes or a few steps).
  static std::size_t symmetric_difference_size(const Arcs& a, const Arcs& b, std::size_t limit) {
    if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) >= limit) return limit;
    std::size_t i = 0, j = 0, d = 0;
    while (i < a.size() && j < b.size() && d < limit) {
      if (a[i] < b[j]) {
        ++i, ++d;
      } else if (b[j] < a[i]) {
        ++j, ++d;
      } else {
        ++i, ++j;
      }
    }
    return d + (a.size() - i) + (b.size() - j);
  }

  // A class after the first: its changes against the DAG of class `base_class` (an earlier
  // one, `base` its sorted DAG), named by its rank unless it is the first.
  void other_class(const ParentSets& base, std::size_t base_class, const PoolClass& c,
                   const ParentSets& dag, const std::vector<std::size_t>& members) {
    out_ << "{\"score\":";
    out_.number(c.score);
    out_ << ",\"size\":";
    size(c.size, "size_exact");
    if (base_class > 0) {
      out_ << ",\"base\":";
      out_.unsigned_integer(base_class + 1);
    }
    const DagChanges d = dag_changes(base, dag);
    arcs("added", d.added);
    arcs("removed", d.removed);
    arcs("reversed", d.reversed);
    list_members(dag, c.score, members);
    out_ << '}';
  }

  // ,"members":[[...],...]: each listed DAG of the class as the numbers of the class DAG's arcs
  // it reverses, or {"score":S,"reversed":[...]} when its score is not the class's; nothing
  // when the class lists none.
  void list_members(const ParentSets& dag, double score, const std::vector<std::size_t>& members) {
    if (members.empty()) return;
    out_ << ",\"members\":[";
    for (std::size_t k = 0; k < members.size(); ++k) {
      const PoolDag& m = r_.dags[members[k]];
      out_ << (k ? "," : "");
      const bool own_score = m.score != score;
      if (own_score) {
        out_ << "{\"score\":";
        out_.number(m.score);
        out_ << ",\"reversed\":";
      }
      reversals(dag, m.parents, members[k]);
      if (own_score) out_ << '}';
    }
    out_ << ']';
  }

  // [k,...]: the numbers of the arcs of `dag` (from 1, by child, then parent) that `member`
  // holds reversed; a member must hold every other arc as `dag` does, and no arc more.
  void reversals(const ParentSets& dag, const ParentSets& member, std::size_t index) {
    out_ << '[';
    std::size_t number = 0, arcs = 0, held = 0;
    bool any = false;
    for (std::size_t v = 0; v < dag.size(); ++v) {
      arcs += member[v].size();
      for (const int u : dag[v]) {
        ++number;
        const std::vector<int>& pv = member[v];
        if (std::find(pv.begin(), pv.end(), u) != pv.end()) {
          ++held;
          continue;
        }
        const std::vector<int>& pu = member[static_cast<std::size_t>(u)];
        if (std::find(pu.begin(), pu.end(), static_cast<int>(v)) == pu.end())
          throw RuntimeError("pool: dags[" + std::to_string(index) +
                             "] lacks an edge of its class's DAG");
        ++held;
        out_ << (any ? "," : "");
        out_.unsigned_integer(number);
        any = true;
      }
    }
    if (arcs != held)
      throw RuntimeError("pool: dags[" + std::to_string(index) +
                         "] has an edge its class's DAG lacks");
    out_ << ']';
  }

  // Without classes: the first DAG whole, every other as changes against it.
  void dag_list() {
    const ParentSets& base = sorted_parents(r_.dags[0].parents, scratch_);
    out_ << ",\n \"dags\": [\n  {\"score\":";
    out_.number(r_.dags[0].score);
    out_ << ",\"dag\":";
    parents(base);
    out_ << '}';
    for (std::size_t i = 1; i < r_.dags.size(); ++i) {
      out_ << ",\n  {\"score\":";
      out_.number(r_.dags[i].score);
      const DagChanges d = dag_changes(base, sorted_parents(r_.dags[i].parents, scratch2_));
      arcs("added", d.added);
      arcs("removed", d.removed);
      arcs("reversed", d.reversed);
      out_ << '}';
    }
    out_ << "\n ]";
  }

  void edges() {
    out_ << ",\n \"edges\": [";
    for (std::size_t i = 0; i < r_.edges.size(); ++i) {
      const EdgeProb& e = r_.edges[i];
      out_ << (i ? ",\n  {\"from\":" : "\n  {\"from\":") << names_[static_cast<std::size_t>(e.from)]
           << ",\"to\":" << names_[static_cast<std::size_t>(e.to)] << ",\"p\":";
      out_.number(e.p);
      out_ << ",\"p_edge\":";
      out_.number(e.p_edge);
      out_ << '}';
    }
    out_ << (r_.edges.empty() ? "]" : "\n ]");
  }
};

}  // namespace

const ParentSets& sorted_parents(const ParentSets& dag, ParentSets& scratch) {
  if (std::all_of(dag.begin(), dag.end(),
                  [](const std::vector<int>& p) { return std::is_sorted(p.begin(), p.end()); }))
    return dag;
  scratch = dag;
  for (auto& p : scratch) std::sort(p.begin(), p.end());
  return scratch;
}

DagChanges dag_changes(const ParentSets& base, const ParentSets& dag) {
  DagChanges d;
  std::vector<int> only;
  for (std::size_t v = 0; v < dag.size(); ++v) {
    const int to = static_cast<int>(v);
    only.clear();
    std::set_difference(dag[v].begin(), dag[v].end(), base[v].begin(), base[v].end(),
                        std::back_inserter(only));
    for (const int u : only)
      (contains(base[static_cast<std::size_t>(u)], to) ? d.reversed : d.added).emplace_back(u, to);
    only.clear();
    std::set_difference(base[v].begin(), base[v].end(), dag[v].begin(), dag[v].end(),
                        std::back_inserter(only));
    for (const int u : only)
      if (!contains(dag[static_cast<std::size_t>(u)], to)) d.removed.emplace_back(u, to);
  }
  return d;
}

void write_pool_json(std::ostream& os, const PoolReport& r) {
  PoolWriter(os, r).write();
}

std::string pool_json_text(const PoolReport& r) {
  std::ostringstream os;
  write_pool_json(os, r);
  return std::move(os).str();
}

}  // namespace bnsl
