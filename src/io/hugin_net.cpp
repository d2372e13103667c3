// Hugin's NET language (second revision, the format of Hugin, GeNIe and bnlearn's read.net /
// write.net), read and written (bnsl/network_io.hpp).
//
// A file is a "net { ATTRIBUTES }" block, then "[discrete] node NAME { ATTRIBUTES }" blocks
// and "potential ( CHILD | PARENT ... ) { data = ( ... ); }" blocks, in any order. An
// attribute is "NAME = VALUE;" with a value that is a string, a number, a word or a list in
// parentheses; "%" starts a comment to the end of the line. A node's "states" list its states
// as strings. A potential's "data" is the CPT as nested lists: the first parent outermost,
// then the next, the child's distribution innermost (so the last parent varies fastest); the
// nesting is only layout, so the numbers are read in order. Refused: continuous, decision and
// utility nodes, object-oriented classes, potentials of several children. The node attributes
// "bnsl_name" and "bnsl_states" (percent-encoded) give back names the writer had to map;
// other attributes (label, position, ...) are skipped.
#include <algorithm>
#include <cmath>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"

namespace bnsl {
namespace {

struct Tok {
  enum Kind { word, string, punct, end } kind = end;
  std::string text;
  std::size_t line = 0, col = 0;
};

bool net_punct(char c) {
  return c == '{' || c == '}' || c == '(' || c == ')' || c == '=' || c == ';' || c == '|';
}

std::vector<Tok> net_tokens(const std::string& text, const std::string& file) {
  std::vector<Tok> out;
  std::size_t i = 0, line = 1, col = 1;
  auto advance = [&]() {
    if (text[i++] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i - 1]) & 0xC0) != 0x80) {
      ++col;
    }
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '\f') {
      advance();
    } else if (c == '%') {
      while (i < text.size() && text[i] != '\n') advance();
    } else if (net_punct(c)) {
      out.push_back({Tok::punct, std::string(1, c), line, col});
      advance();
    } else if (c == '"') {
      Tok t{Tok::string, "", line, col};
      advance();
      while (i < text.size() && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\'))
          advance();
        t.text += text[i];
        advance();
      }
      if (i >= text.size()) throw InputError(file, t.line, t.col, "unterminated string");
      advance();
      out.push_back(std::move(t));
    } else {
      Tok t{Tok::word, "", line, col};
      while (i < text.size() && !net_punct(text[i]) && text[i] != '"' && text[i] != '%' &&
             text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r' &&
             text[i] != ',' && text[i] != '\f') {
        t.text += text[i];
        advance();
      }
      out.push_back(std::move(t));
    }
  }
  out.push_back({Tok::end, "", line, col});
  return out;
}

struct Potential {
  std::vector<Tok> vars;  // child, then parents
  std::vector<double> data;
  Tok at;
};

class NetParser {
 public:
  NetParser(const std::string& text, const std::string& file)
      : file_(file), text_size_(text.size()), toks_(net_tokens(text, file)) {}
  BayesNet parse();

 private:
  const Tok& peek() const { return toks_[pos_]; }
  const Tok& take() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  [[noreturn]] void fail(const Tok& t, const std::string& what) const {
    throw InputError(file_, t.line, t.col,
                     what + ", got " + (t.kind == Tok::end ? "end of file" : "'" + t.text + "'"));
  }
  bool is(const char* p) const { return peek().kind == Tok::punct && peek().text == p; }
  void expect(const char* p) {
    if (!is(p)) fail(peek(), std::string("expected '") + p + "'");
    take();
  }
  const Tok& word(const char* what) {
    if (peek().kind != Tok::word) fail(peek(), std::string("expected ") + what);
    return take();
  }
  void skip_value();
  std::vector<Tok> string_list();
  void attributes(int var, BayesNet* net);
  void node(BayesNet& net);
  void potential();
  void fill(BayesNet& net, int v, const Potential& p) const;

  const std::string& file_;
  std::size_t text_size_;
  std::vector<Tok> toks_;
  std::size_t pos_ = 0;
  std::vector<Potential> potentials_;
  std::vector<NameRecord> records_;
};

// A value: a string, a word or a parenthesised list (nested lists allowed).
void NetParser::skip_value() {
  if (is("(")) {
    int depth = 0;
    do {
      if (peek().kind == Tok::end) fail(peek(), "expected ')' closing the list");
      if (is("(")) ++depth;
      if (is(")")) --depth;
      take();
    } while (depth > 0);
  } else if (peek().kind == Tok::word || peek().kind == Tok::string) {
    take();
  } else {
    fail(peek(), "expected a value");
  }
}

std::vector<Tok> NetParser::string_list() {
  expect("(");
  std::vector<Tok> out;
  while (!is(")")) {
    if (peek().kind != Tok::string) fail(peek(), "expected a state name in double quotes or ')'");
    out.push_back(take());
  }
  take();
  return out;
}

// "NAME = VALUE;" ... up to '}'; with a node (`net`), its states and the bnsl_ records.
void NetParser::attributes(int var, BayesNet* net) {
  while (!is("}")) {
    const Tok& key = word("an attribute name or '}'");
    expect("=");
    if (net && key.text == "states") {
      auto& states = net->states[var];
      if (!states.empty()) fail(key, "expected one 'states' per node");
      for (const Tok& s : string_list()) {
        if (std::find(states.begin(), states.end(), s.text) != states.end())
          fail(s, "expected distinct state names");
        states.push_back(s.text);
      }
    } else if (net && (key.text == "bnsl_name" || key.text == "bnsl_states")) {
      if (peek().kind != Tok::string) fail(peek(), "expected a string");
      const Tok& value = take();
      NameRecord r{var, "", false, {}, false, key.line, key.col};
      std::string w, decoded;
      for (std::size_t i = 0; i <= value.text.size(); ++i) {
        if (i < value.text.size() && value.text[i] != ' ') {
          w += value.text[i];
          continue;
        }
        if (w.empty()) continue;
        if (!percent_decode(w, decoded)) fail(value, "expected %-encoded names");
        (key.text == "bnsl_name" ? r.name : r.states.emplace_back()) = decoded;
        w.clear();
      }
      (key.text == "bnsl_name" ? r.has_name : r.has_states) = true;
      records_.push_back(std::move(r));
    } else {
      skip_value();
    }
    expect(";");
  }
  take();
}

void NetParser::node(BayesNet& net) {
  const Tok& name = word("a node name");
  if (net.index_of(name.text) >= 0) fail(name, "expected a new node name (declared twice)");
  const int v = static_cast<int>(net.n_vars());
  net.names.push_back(name.text);
  net.declared_at.emplace_back(name.line, name.col);
  net.states.emplace_back();
  expect("{");
  attributes(v, &net);
  if (net.states[v].empty()) fail(name, "expected a 'states' list in node " + name.text);
}

void NetParser::potential() {
  Potential p;
  p.at = peek();
  expect("(");
  bool bar = false;
  while (!is(")")) {
    if (is("|")) {
      if (bar || p.vars.size() != 1) fail(peek(), "expected one child before '|'");
      bar = true;
      take();
      continue;
    }
    if (!bar && !p.vars.empty()) fail(peek(), "expected '|' (one child per potential)");
    p.vars.push_back(word("a node name"));
  }
  if (p.vars.empty()) fail(peek(), "expected the child node");
  take();
  expect("{");
  bool have_data = false;
  while (!is("}")) {
    const Tok& key = word("'data' or another attribute");
    expect("=");
    if (key.text != "data") {
      skip_value();
      expect(";");
      continue;
    }
    have_data = true;
    if (!is("(")) fail(peek(), "expected '(' starting the data");
    int depth = 0;
    do {
      if (is("(")) {
        ++depth;
        take();
      } else if (is(")")) {
        --depth;
        take();
      } else {
        double x = 0;
        if (peek().kind != Tok::word || !parse_number(peek().text, x) || x < 0)
          fail(peek(), "expected a non-negative probability");
        p.data.push_back(x);
        take();
      }
    } while (depth > 0);
    expect(";");
  }
  take();
  if (!have_data) fail(p.at, "expected a 'data' list in the potential");
  potentials_.push_back(std::move(p));
}

// data: the last parent fastest, the child fastest of all.
void NetParser::fill(BayesNet& net, int v, const Potential& p) const {
  const std::size_t r = net.states[v].size(), q = net.n_configs(v);
  if (p.data.size() != r * q)
    fail(p.at, "expected " + std::to_string(r * q) + " numbers in the data of " + net.names[v] +
                   ", found " + std::to_string(p.data.size()));
  for (std::size_t jl = 0; jl < q; ++jl) {
    const std::size_t j = config_from_last_fastest(net, v, jl);
    double sum = 0;
    for (std::size_t k = 0; k < r; ++k) sum += p.data[jl * r + k];
    if (std::abs(sum - 1) > 1e-2)
      fail(p.at, "expected the probabilities of " + net.names[v] +
                     " to sum to 1 in every parent configuration (configuration " +
                     std::to_string(jl) + " sums to " + std::to_string(sum) + ")");
    std::copy(p.data.begin() + jl * r, p.data.begin() + (jl + 1) * r,
              net.cpt.begin() + net.cpt_offset[v] + j * r);
  }
}

BayesNet NetParser::parse() {
  BayesNet net;
  while (peek().kind != Tok::end) {
    const Tok& key = word("'net', 'node' or 'potential'");
    if (key.text == "net") {
      expect("{");
      attributes(-1, nullptr);
    } else if (key.text == "node") {
      node(net);
    } else if (key.text == "discrete") {
      if (word("'node'").text != "node") fail(toks_[pos_ - 1], "expected 'node'");
      node(net);
    } else if (key.text == "potential") {
      potential();
    } else if (key.text == "continuous" || key.text == "decision" || key.text == "utility") {
      fail(key, "expected a discrete chance node (only those are supported)");
    } else if (key.text == "class") {
      fail(key, "expected a plain network (object-oriented classes are not supported)");
    } else {
      fail(key, "expected 'net', 'node' or 'potential'");
    }
  }
  if (net.n_vars() == 0) fail(peek(), "expected at least one 'node' block");
  std::vector<const Potential*> of(net.n_vars(), nullptr);
  net.parents.assign(net.n_vars(), {});
  for (const Potential& p : potentials_) {
    std::vector<int> ids;
    for (const Tok& t : p.vars) {
      const int id = net.index_of(t.text);
      if (id < 0) fail(t, "expected a declared node");
      ids.push_back(id);
    }
    if (of[ids[0]]) fail(p.vars[0], "expected one potential per node");
    of[ids[0]] = &p;
    net.parents[ids[0]].assign(ids.begin() + 1, ids.end());
  }
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    if (!of[v])
      throw InputError(file_, net.declared_at[v].first, net.declared_at[v].second,
                       "node " + net.names[v] + " has no potential");
  check_network(net, file_);
  check_cpt_cells(net, text_size_, file_);
  net.allocate_cpts();
  for (std::size_t v = 0; v < net.n_vars(); ++v) fill(net, static_cast<int>(v), *of[v]);
  apply_name_records(net, records_, file_);
  return net;
}

// The data of v from parent `level` on, for the configurations numbered from `base` (last
// parent fastest), as nested lists.
void append_data(std::string& out, const BayesNet& net, std::size_t v, std::size_t level,
                 std::size_t base) {
  const auto& pa = net.parents[v];
  out += '(';
  if (level == pa.size()) {
    const std::size_t j = config_from_last_fastest(net, v, base);
    for (std::size_t k = 0; k < net.states[v].size(); ++k) {
      if (k) out += ' ';
      append_number(out, net.prob(v, j, static_cast<int>(k)));
    }
  } else {
    const std::size_t r = net.states[pa[level]].size();
    for (std::size_t s = 0; s < r; ++s) append_data(out, net, v, level + 1, base * r + s);
  }
  out += ')';
}

}  // namespace

BayesNet parse_hugin_net(const std::string& text, const std::string& file) {
  return NetParser(text, file).parse();
}

std::string hugin_net_text(const BayesNet& net, const NameMapping& m) {
  std::string out = "net\n{\n}\n";
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    out += "node " + m.names[v] + "\n{\n  states = (";
    for (std::size_t k = 0; k < m.states[v].size(); ++k)
      out += (k ? " \"" : "\"") + m.states[v][k] + "\"";
    out += ");\n";
    if (m.names[v] != net.names[v])
      out += "  bnsl_name = \"" + percent_encode(net.names[v]) + "\";\n";
    if (m.states[v] != net.states[v])
      out += "  bnsl_states = \"" + encode_states(net.states[v]) + "\";\n";
    out += "}\n";
  }
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    out += "potential ( " + m.names[v];
    for (std::size_t i = 0; i < net.parents[v].size(); ++i)
      out += (i ? " " : " | ") + m.names[net.parents[v][i]];
    out += " )\n{\n  data = ";
    append_data(out, net, v, 0, 0);
    out += ";\n}\n";
  }
  return out;
}

}  // namespace bnsl
