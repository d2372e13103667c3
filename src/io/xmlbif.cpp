// XMLBIF 0.3 (Cozman's XML interchange format for Bayesian networks; what pgmpy, Weka and
// JavaBayes read and write), read and written (bnsl/network_io.hpp).
//
// A document is <BIF VERSION="0.3"><NETWORK><NAME>..</NAME> then VARIABLE elements
// (TYPE="nature": a NAME, one OUTCOME per state, PROPERTY elements) and DEFINITION elements
// (FOR the child, GIVEN its parents in order, TABLE the probabilities). The TABLE lists, for
// each parent configuration with the LAST GIVEN varying fastest, the child's distribution
// (the child fastest of all). The reader also takes PROBABILITY for DEFINITION (XMLBIF 0.2,
// JavaBayes) and tag names in any case (the UAI 2006 variant); decision and utility variables
// are refused. PROPERTY "bnsl_name = ENCODED" and "bnsl_states = ENCODED ..." give back names
// the writer had to map. XML itself is read by expat (io/xml_tree.cpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"
#include "io/xml_tree.hpp"

namespace bnsl {
namespace {

bool same_tag(const std::string& a, const char* b) {
  std::size_t i = 0;
  for (; i < a.size() && b[i]; ++i)
    if (std::toupper(static_cast<unsigned char>(a[i])) != b[i]) return false;
  return i == a.size() && !b[i];
}

std::string trimmed(const std::string& s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

[[noreturn]] void fail(const std::string& file, const XmlElement& e, const std::string& what) {
  throw InputError(file, e.line, e.col, what);
}

const XmlElement* child(const XmlElement& e, const char* tag) {
  for (const auto& c : e.children)
    if (same_tag(c->name, tag)) return c.get();
  return nullptr;
}

std::string text_of(const std::string& file, const XmlElement& e, const char* tag) {
  const XmlElement* c = child(e, tag);
  if (!c) fail(file, e, std::string("expected a <") + tag + "> inside <" + e.name + ">");
  return trimmed(c->text);
}

struct Definition {
  const XmlElement* at = nullptr;
  int child = -1;
  std::vector<int> parents;
  std::vector<double> table;
};

class XmlbifReader {
 public:
  XmlbifReader(const std::string& file, std::size_t text_size)
      : file_(file), text_size_(text_size) {}
  BayesNet read(const XmlElement& root);

 private:
  void variable(const XmlElement& e, BayesNet& net);
  void property(const XmlElement& p, int var);
  Definition definition(const XmlElement& e, const BayesNet& net) const;
  int variable_index(const XmlElement& e, const BayesNet& net) const;
  void fill(BayesNet& net, const Definition& d) const;

  const std::string& file_;
  std::size_t text_size_;
  std::vector<NameRecord> records_;
};

void XmlbifReader::property(const XmlElement& p, int var) {
  const std::string text = trimmed(p.text);
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) return;
  const std::string key = trimmed(text.substr(0, eq));
  if (key != "bnsl_name" && key != "bnsl_states") return;
  NameRecord r;
  r.var = var;
  r.line = p.line;
  r.col = p.col;
  std::istringstream words(text.substr(eq + 1));
  std::string w, decoded;
  while (words >> w) {
    if (!percent_decode(w, decoded)) fail(file_, p, "expected %-encoded names in " + key);
    (key == "bnsl_name" ? r.name : r.states.emplace_back()) = decoded;
  }
  (key == "bnsl_name" ? r.has_name : r.has_states) = true;
  records_.push_back(std::move(r));
}

void XmlbifReader::variable(const XmlElement& e, BayesNet& net) {
  if (const std::string* type = e.attribute("TYPE"); type && *type != "nature")
    fail(file_, e, "expected a chance variable (TYPE=\"nature\"), not TYPE=\"" + *type + "\"");
  const int v = static_cast<int>(net.n_vars());
  net.names.push_back(text_of(file_, e, "NAME"));
  net.declared_at.emplace_back(e.line, e.col);
  auto& states = net.states.emplace_back();
  for (const auto& c : e.children) {
    if (same_tag(c->name, "OUTCOME") || same_tag(c->name, "VALUE")) {
      std::string s = trimmed(c->text);
      if (std::find(states.begin(), states.end(), s) != states.end())
        fail(file_, *c, "expected distinct outcomes ('" + s + "' twice)");
      states.push_back(std::move(s));
    } else if (same_tag(c->name, "PROPERTY")) {
      property(*c, v);
    }
  }
  if (states.empty()) fail(file_, e, "expected at least one <OUTCOME> of " + net.names.back());
}

int XmlbifReader::variable_index(const XmlElement& e, const BayesNet& net) const {
  const std::string name = trimmed(e.text);
  const int v = net.index_of(name);
  if (v < 0) fail(file_, e, "'" + name + "' is not a declared variable");
  return v;
}

Definition XmlbifReader::definition(const XmlElement& e, const BayesNet& net) const {
  Definition d;
  d.at = &e;
  const XmlElement* table = nullptr;
  for (const auto& c : e.children) {
    if (same_tag(c->name, "FOR")) {
      if (d.child >= 0) fail(file_, *c, "expected one <FOR> per definition");
      d.child = variable_index(*c, net);
    } else if (same_tag(c->name, "GIVEN")) {
      d.parents.push_back(variable_index(*c, net));
    } else if (same_tag(c->name, "TABLE")) {
      if (table) fail(file_, *c, "expected one <TABLE> per definition");
      table = c.get();
    }
  }
  if (d.child < 0) fail(file_, e, "expected a <FOR> naming the child variable");
  if (!table) fail(file_, e, "expected a <TABLE> of probabilities");
  std::istringstream words(table->text);
  std::string w;
  while (words >> w) {
    double x = 0;
    if (!parse_number(w, x) || x < 0)
      fail(file_, *table, "expected non-negative numbers in <TABLE>, got '" + w + "'");
    d.table.push_back(x);
  }
  return d;
}

// TABLE: parent configurations with the last GIVEN fastest, the child fastest within each.
void XmlbifReader::fill(BayesNet& net, const Definition& d) const {
  const int v = d.child;
  const std::size_t r = net.states[v].size(), q = net.n_configs(v);
  if (d.table.size() != r * q)
    fail(file_, *d.at,
         "expected " + std::to_string(r * q) + " numbers in the <TABLE> of " + net.names[v] +
             ", found " + std::to_string(d.table.size()));
  for (std::size_t jl = 0; jl < q; ++jl) {
    const std::size_t j = config_from_last_fastest(net, v, jl);
    double sum = 0;
    for (std::size_t k = 0; k < r; ++k) sum += d.table[jl * r + k];
    if (std::abs(sum - 1) > 1e-2)
      fail(file_, *d.at,
           "expected the probabilities of " + net.names[v] +
               " to sum to 1 in every parent configuration (configuration " + std::to_string(jl) +
               " sums to " + std::to_string(sum) + ")");
    std::copy(d.table.begin() + jl * r, d.table.begin() + (jl + 1) * r,
              net.cpt.begin() + net.cpt_offset[v] + j * r);
  }
}

BayesNet XmlbifReader::read(const XmlElement& root) {
  if (!same_tag(root.name, "BIF")) fail(file_, root, "expected the root element <BIF>");
  const XmlElement* network = child(root, "NETWORK");
  if (!network) fail(file_, root, "expected a <NETWORK> inside <BIF>");
  BayesNet net;
  for (const auto& c : network->children)
    if (same_tag(c->name, "VARIABLE")) variable(*c, net);
  if (net.n_vars() == 0) fail(file_, *network, "expected at least one <VARIABLE>");
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    if (net.index_of(net.names[v]) != static_cast<int>(v))
      throw InputError(file_, net.declared_at[v].first, net.declared_at[v].second,
                       "variable '" + net.names[v] + "' declared twice");
  std::vector<Definition> defs;
  std::vector<bool> defined(net.n_vars(), false);
  net.parents.assign(net.n_vars(), {});
  for (const auto& c : network->children) {
    if (!same_tag(c->name, "DEFINITION") && !same_tag(c->name, "PROBABILITY")) continue;
    Definition d = definition(*c, net);
    if (defined[d.child]) fail(file_, *c, "expected one definition per variable");
    defined[d.child] = true;
    net.parents[d.child] = d.parents;
    defs.push_back(std::move(d));
  }
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    if (!defined[v])
      throw InputError(file_, net.declared_at[v].first, net.declared_at[v].second,
                       "variable " + net.names[v] + " has no <DEFINITION>");
  check_network(net, file_);
  check_cpt_cells(net, text_size_, file_);
  net.allocate_cpts();
  for (const Definition& d : defs) fill(net, d);
  apply_name_records(net, records_, file_);
  return net;
}

}  // namespace

BayesNet parse_xmlbif(const std::string& text, const std::string& file) {
  const auto root = parse_xml(text, file);
  return XmlbifReader(file, text.size()).read(*root);
}

std::string xmlbif_text(const BayesNet& net, const NameMapping& m) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<BIF VERSION=\"0.3\">\n<NETWORK>\n"
      "<NAME>unknown</NAME>\n";
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    out += "<VARIABLE TYPE=\"nature\">\n  <NAME>" + xml_escape(m.names[v]) + "</NAME>\n";
    for (const std::string& s : m.states[v]) out += "  <OUTCOME>" + xml_escape(s) + "</OUTCOME>\n";
    if (m.names[v] != net.names[v])
      out += "  <PROPERTY>bnsl_name = " + percent_encode(net.names[v]) + "</PROPERTY>\n";
    if (m.states[v] != net.states[v])
      out += "  <PROPERTY>bnsl_states = " + encode_states(net.states[v]) + "</PROPERTY>\n";
    out += "</VARIABLE>\n";
  }
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    const auto& pa = net.parents[v];
    out += "<DEFINITION>\n  <FOR>" + xml_escape(m.names[v]) + "</FOR>\n";
    for (int p : pa) out += "  <GIVEN>" + xml_escape(m.names[p]) + "</GIVEN>\n";
    out += "  <TABLE>";
    const std::size_t r = net.states[v].size(), q = net.n_configs(v);
    for (std::size_t jl = 0; jl < q; ++jl) {
      const std::size_t j = config_from_last_fastest(net, v, jl);
      for (std::size_t k = 0; k < r; ++k) {
        if (jl || k) out += ' ';
        append_number(out, net.prob(v, j, static_cast<int>(k)));
      }
    }
    out += "</TABLE>\n</DEFINITION>\n";
  }
  return out + "</NETWORK>\n</BIF>\n";
}

}  // namespace bnsl
