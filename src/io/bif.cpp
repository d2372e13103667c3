// BIF reader and writer, and parameter estimation for learned networks (bnsl/bif.hpp).
//
// Reader: a tokenizer (words, double-quoted words, punctuation; ',' and '|' are separators
// and // and /* */ comments are skipped, as in the BIF 0.15 grammar of Cozman's interchange
// format) feeds a recursive-descent parser that collects variable blocks and probability
// blocks, then resolves the probability blocks against the declared variables, so blocks may
// come in any order. Every error names the file, line and column. Each CPT row must be
// non-negative and sum to 1 within 0.01 (the shared networks print 6 digits), and every
// parent configuration must be given exactly once (or by a "default" entry); the arcs must
// close no directed cycle (the first variable on or below one is named). The properties
// "bnsl_name = ENCODED" and "bnsl_states = ENCODED ..." of a variable give back the names the
// writer had to map (io/legal_names.cpp).
// Writer: the layout of bnlearn's write.bif (see the header), names mapped to those bnlearn's
// and pgmpy's readers parse, numbers in the shortest text that reads back to the same double,
// so reading and writing a file keeps every value.
#include "bnsl/bif.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "bnsl/error.hpp"
#include "bnsl/network_io.hpp"
#include "io/net_formats.hpp"
#include "util/atomic_file.hpp"

namespace bnsl {

std::size_t BayesNet::n_configs(std::size_t v) const {
  std::size_t q = 1;
  for (int p : parents[v]) q *= states[p].size();
  return q;
}

std::size_t BayesNet::config_index(std::size_t v, const std::vector<int>& parent_states) const {
  std::size_t j = 0, mult = 1;
  for (std::size_t i = 0; i < parents[v].size(); ++i) {
    j += static_cast<std::size_t>(parent_states[i]) * mult;
    mult *= states[parents[v][i]].size();
  }
  return j;
}

int BayesNet::index_of(const std::string& name) const {
  for (std::size_t v = 0; v < names.size(); ++v)
    if (names[v] == name) return static_cast<int>(v);
  return -1;
}

void BayesNet::allocate_cpts() {
  cpt_offset.assign(n_vars(), 0);
  std::size_t total = 0;
  for (std::size_t v = 0; v < n_vars(); ++v) {
    cpt_offset[v] = total;
    total += n_configs(v) * states[v].size();
  }
  cpt.assign(total, 0.0);
}

namespace {

// ---------------------------------------------------------------------------------------
// Tokenizer

struct Token {
  enum Kind { word, quoted, punct, end } kind = end;
  std::string text;
  std::size_t line = 0, col = 0;
};

bool is_punct(char c) {
  return c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' || c == ';';
}
bool is_separator(char c) {
  return c == ',' || c == '|';
}
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& file) : text_(text), file_(file) {}

  std::vector<Token> tokens() {
    std::vector<Token> out;
    while (skip_blanks_and_comments()) out.push_back(next_token());
    Token end{Token::end, "", line_, col_};
    out.push_back(end);
    return out;
  }

 private:
  char peek(std::size_t k = 0) const { return i_ + k < text_.size() ? text_[i_ + k] : '\0'; }
  void advance() {
    if (text_[i_++] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }
  bool comment_start() const { return peek() == '/' && (peek(1) == '/' || peek(1) == '*'); }

  // Returns false at end of text.
  bool skip_blanks_and_comments() {
    for (;;) {
      if (i_ >= text_.size()) return false;
      if (is_blank(peek()) || is_separator(peek())) {
        advance();
      } else if (peek() == '/' && peek(1) == '/') {
        while (i_ < text_.size() && peek() != '\n') advance();
      } else if (peek() == '/' && peek(1) == '*') {
        const std::size_t line = line_, col = col_;
        advance();
        advance();
        while (i_ < text_.size() && !(peek() == '*' && peek(1) == '/')) advance();
        if (i_ >= text_.size()) throw InputError(file_, line, col, "unterminated /* comment");
        advance();
        advance();
      } else {
        return true;
      }
    }
  }

  Token next_token() {
    Token t{Token::word, "", line_, col_};
    if (is_punct(peek())) {
      t.kind = Token::punct;
      t.text = peek();
      advance();
    } else if (peek() == '"') {
      t.kind = Token::quoted;
      advance();
      while (i_ < text_.size() && peek() != '"') {
        if (peek() == '\\' && (peek(1) == '"' || peek(1) == '\\')) advance();
        t.text += peek();
        advance();
      }
      if (i_ >= text_.size()) throw InputError(file_, t.line, t.col, "unterminated quoted name");
      advance();
    } else {
      while (i_ < text_.size() && !is_blank(peek()) && !is_punct(peek()) && !is_separator(peek()) &&
             peek() != '"' && !comment_start()) {
        t.text += peek();
        advance();
      }
    }
    return t;
  }

  const std::string& text_;
  const std::string& file_;
  std::size_t i_ = 0, line_ = 1, col_ = 1;
};

// ---------------------------------------------------------------------------------------
// Parser

struct Entry {  // one line of a probability block
  enum Kind { table, config, fallback } kind = table;
  std::vector<Token> states;  // parent states (config lines)
  std::vector<double> values;
  Token at;  // where the entry starts
};

struct ProbBlock {
  std::vector<Token> vars;  // child, then parents
  std::vector<Entry> entries;
  Token at;
};

class BifParser {
 public:
  BifParser(const std::string& text, const std::string& file)
      : file_(file), text_size_(text.size()), tokens_(Lexer(text, file).tokens()) {}
  BayesNet parse();

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& take() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  [[noreturn]] void fail(const Token& t, const std::string& what) const {
    std::string got = t.kind == Token::end ? "end of file" : "'" + t.text + "'";
    throw InputError(file_, t.line, t.col, what + ", got " + got);
  }
  bool is(const Token& t, const char* punct) const {
    return t.kind == Token::punct && t.text == punct;
  }
  void expect(const char* punct) {
    if (!is(peek(), punct)) fail(peek(), std::string("expected '") + punct + "'");
    take();
  }
  const Token& name(const char* what) {
    if (peek().kind != Token::word && peek().kind != Token::quoted)
      fail(peek(), std::string("expected ") + what);
    return take();
  }
  double number();
  void skip_to_semicolon();
  void parse_network();
  void parse_variable(BayesNet& net);
  void parse_type(std::vector<std::string>& states);
  void parse_property(int var);
  void parse_probability();
  Entry parse_entry();
  void resolve(BayesNet& net) const;
  void fill_cpt(BayesNet& net, int v, const ProbBlock& b) const;
  void fill_table(BayesNet& net, int v, const Entry& e) const;
  void check_rows(const BayesNet& net, int v, const std::vector<bool>& seen,
                  const ProbBlock& b) const;

  const std::string& file_;
  std::size_t text_size_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  std::vector<ProbBlock> blocks_;
  std::vector<Token> var_tokens_;  // where each variable was declared
  std::vector<NameRecord> records_;
};

double BifParser::number() {
  const Token& t = peek();
  double x = 0;
  if (t.kind != Token::word || !parse_number(t.text, x)) fail(t, "expected a probability");
  if (x < 0) fail(t, "expected a non-negative probability");
  take();
  return x;
}

void BifParser::skip_to_semicolon() {
  while (peek().kind != Token::end && !is(peek(), ";")) take();
  expect(";");
}

void BifParser::parse_network() {
  while (peek().kind != Token::end && !is(peek(), "{")) take();  // network name (any words)
  expect("{");
  int depth = 1;
  while (depth > 0) {
    if (peek().kind == Token::end) fail(peek(), "expected '}' closing the network block");
    if (is(peek(), "{")) ++depth;
    if (is(peek(), "}")) --depth;
    take();
  }
}

void BifParser::parse_type(std::vector<std::string>& states) {
  const Token& kind = name("'discrete'");
  if (kind.text != "discrete") fail(kind, "expected 'discrete' (only discrete variables)");
  expect("[");
  const Token& count = peek();
  std::size_t k = 0;
  auto [ptr, ec] = std::from_chars(count.text.data(), count.text.data() + count.text.size(), k);
  if (count.kind != Token::word || ec != std::errc() ||
      ptr != count.text.data() + count.text.size() || k == 0)
    fail(count, "expected the number of states");
  take();
  expect("]");
  expect("{");
  while (!is(peek(), "}")) {
    const Token& s = name("a state name or '}'");
    for (const auto& old : states)
      if (old == s.text) fail(s, "expected distinct state names");
    states.push_back(s.text);
  }
  if (states.size() != k)
    fail(peek(), "expected " + std::to_string(k) + " states as declared, found " +
                     std::to_string(states.size()));
  expect("}");
  expect(";");
}

// "property bnsl_name = X;" / "property bnsl_states = X Y ...;": the original names
// (percent-encoded); any other property is skipped.
void BifParser::parse_property(int var) {
  std::vector<Token> words;
  while (peek().kind != Token::end && !is(peek(), ";")) words.push_back(take());
  expect(";");
  if (words.size() < 3 || words[1].text != "=" ||
      (words[0].text != "bnsl_name" && words[0].text != "bnsl_states"))
    return;
  NameRecord r;
  r.var = var;
  r.line = words[0].line;
  r.col = words[0].col;
  const bool name = words[0].text == "bnsl_name";
  if (name && words.size() != 3) fail(words[3], "expected one encoded name after bnsl_name =");
  for (std::size_t i = 2; i < words.size(); ++i) {
    std::string decoded;
    if (!percent_decode(words[i].text, decoded)) fail(words[i], "expected a %-encoded name");
    if (name)
      r.name = decoded;
    else
      r.states.push_back(decoded);
  }
  (name ? r.has_name : r.has_states) = true;
  records_.push_back(std::move(r));
}

void BifParser::parse_variable(BayesNet& net) {
  const Token& var = name("a variable name");
  if (net.index_of(var.text) >= 0) fail(var, "expected a new variable name (declared twice)");
  expect("{");
  std::vector<std::string> states;
  while (!is(peek(), "}")) {
    const Token& key = name("'type', 'property' or '}'");
    if (key.text == "type") {
      if (!states.empty()) fail(key, "expected one 'type' per variable");
      parse_type(states);
    } else if (key.text == "property") {
      parse_property(static_cast<int>(net.n_vars()));
    } else {
      fail(key, "expected 'type', 'property' or '}'");
    }
  }
  if (states.empty()) fail(peek(), "expected a 'type discrete' line in variable " + var.text);
  take();
  net.names.push_back(var.text);
  net.states.push_back(std::move(states));
  var_tokens_.push_back(var);
}

Entry BifParser::parse_entry() {
  Entry e;
  e.at = peek();
  if (is(peek(), "(")) {
    e.kind = Entry::config;
    take();
    while (!is(peek(), ")")) e.states.push_back(name("a parent state or ')'"));
    take();
  } else if (e.at.kind == Token::word && (e.at.text == "table" || e.at.text == "default")) {
    e.kind = e.at.text == "table" ? Entry::table : Entry::fallback;
    take();
  } else {
    fail(e.at, "expected 'table', 'default', '(' or '}'");
  }
  while (!is(peek(), ";")) e.values.push_back(number());
  take();
  return e;
}

void BifParser::parse_probability() {
  ProbBlock b;
  b.at = peek();
  expect("(");
  while (!is(peek(), ")")) b.vars.push_back(name("a variable name or ')'"));
  if (b.vars.empty()) fail(peek(), "expected the child variable");
  take();
  expect("{");
  while (!is(peek(), "}")) {
    if (peek().kind == Token::word && peek().text == "property") {
      take();
      skip_to_semicolon();
    } else {
      b.entries.push_back(parse_entry());
    }
  }
  take();
  blocks_.push_back(std::move(b));
}

BayesNet BifParser::parse() {
  BayesNet net;
  while (peek().kind != Token::end) {
    const Token& key = name("'network', 'variable' or 'probability'");
    if (key.text == "network")
      parse_network();
    else if (key.text == "variable")
      parse_variable(net);
    else if (key.text == "probability")
      parse_probability();
    else
      fail(key, "expected 'network', 'variable' or 'probability'");
  }
  if (net.n_vars() == 0) fail(peek(), "expected at least one 'variable' block");
  net.source = file_;
  for (const Token& t : var_tokens_) net.declared_at.emplace_back(t.line, t.col);
  resolve(net);
  apply_name_records(net, records_, file_);
  check_network(net, file_);  // a directed cycle, as every other format's parser checks
  return net;
}

// Conditional "table": child state slowest, last parent fastest.
void BifParser::fill_table(BayesNet& net, int v, const Entry& e) const {
  const std::size_t r = net.states[v].size(), q = net.n_configs(v);
  if (e.values.size() != r * q)
    fail(e.at, "expected " + std::to_string(r * q) + " values in the table, found " +
                   std::to_string(e.values.size()));
  for (std::size_t jl = 0; jl < q; ++jl) {  // jl: last parent fastest
    const std::size_t j = config_from_last_fastest(net, v, jl);
    for (std::size_t k = 0; k < r; ++k)
      net.cpt[net.cpt_offset[v] + j * r + k] = e.values[k * q + jl];
  }
}

void BifParser::check_rows(const BayesNet& net, int v, const std::vector<bool>& seen,
                           const ProbBlock& b) const {
  const std::size_t r = net.states[v].size();
  for (std::size_t j = 0; j < seen.size(); ++j) {
    if (!seen[j])
      fail(b.at, "expected a row for every parent configuration of " + net.names[v] +
                     " (configuration " + std::to_string(j) + " is missing)");
    double sum = 0;
    for (std::size_t k = 0; k < r; ++k) sum += net.prob(v, j, k);
    if (std::fabs(sum - 1) > 1e-2)
      fail(b.at, "expected the probabilities of " + net.names[v] +
                     " to sum to 1 in every "
                     "parent configuration (configuration " +
                     std::to_string(j) + " sums to " + std::to_string(sum) + ")");
  }
}

void BifParser::fill_cpt(BayesNet& net, int v, const ProbBlock& b) const {
  const std::size_t r = net.states[v].size(), q = net.n_configs(v);
  std::vector<bool> seen(q, false);
  const Entry* fallback = nullptr;
  for (const Entry& e : b.entries) {
    if (e.kind == Entry::fallback) {
      fallback = &e;
      if (e.values.size() != r) fail(e.at, "expected " + std::to_string(r) + " values");
      continue;
    }
    if (e.kind == Entry::table) {
      fill_table(net, v, e);
      seen.assign(q, true);
      continue;
    }
    const auto& pa = net.parents[v];
    if (e.states.size() != pa.size())
      fail(e.at, "expected " + std::to_string(pa.size()) + " parent states");
    std::vector<int> s(pa.size());
    for (std::size_t i = 0; i < pa.size(); ++i) {
      const auto& names = net.states[pa[i]];
      auto it = std::find(names.begin(), names.end(), e.states[i].text);
      if (it == names.end()) fail(e.states[i], "expected a state of " + net.names[pa[i]]);
      s[i] = static_cast<int>(it - names.begin());
    }
    const std::size_t j = net.config_index(v, s);
    if (seen[j]) fail(e.at, "expected each parent configuration once (given twice)");
    if (e.values.size() != r) fail(e.at, "expected " + std::to_string(r) + " values");
    seen[j] = true;
    std::copy(e.values.begin(), e.values.end(), net.cpt.begin() + net.cpt_offset[v] + j * r);
  }
  for (std::size_t j = 0; fallback && j < q; ++j)
    if (!seen[j]) {
      std::copy(fallback->values.begin(), fallback->values.end(),
                net.cpt.begin() + net.cpt_offset[v] + j * r);
      seen[j] = true;
    }
  check_rows(net, v, seen, b);
}

void BifParser::resolve(BayesNet& net) const {
  const std::size_t n = net.n_vars();
  std::vector<const ProbBlock*> block_of(n, nullptr);
  net.parents.assign(n, {});
  for (const ProbBlock& b : blocks_) {
    std::vector<int> ids;
    for (const Token& t : b.vars) {
      int id = net.index_of(t.text);
      if (id < 0) fail(t, "expected a declared variable");
      for (int old : ids)
        if (old == id) fail(t, "expected distinct variables in the probability header");
      ids.push_back(id);
    }
    if (block_of[ids[0]]) fail(b.vars[0], "expected one probability block per variable");
    block_of[ids[0]] = &b;
    net.parents[ids[0]].assign(ids.begin() + 1, ids.end());
  }
  for (std::size_t v = 0; v < n; ++v)
    if (!block_of[v])
      throw InputError(file_, var_tokens_[v].line, var_tokens_[v].col,
                       "variable " + net.names[v] + " has no probability block");
  check_cpt_cells(net, text_size_, file_);
  net.allocate_cpts();
  for (std::size_t v = 0; v < n; ++v) fill_cpt(net, static_cast<int>(v), *block_of[v]);
}

// ---------------------------------------------------------------------------------------
// Writer

}  // namespace

void append_number(std::string& out, double x) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, x);
  const std::string_view text(buf, ec == std::errc() ? ptr - buf : 0);
  out += text;
  if (text.find_first_of(".en") == std::string_view::npos) out += ".0";  // 1 -> 1.0, as bnlearn
}

bool parse_number(std::string_view text, double& x) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, x);
  return !text.empty() && ec == std::errc() && ptr == last && std::isfinite(x);
}

namespace {

void append_row(std::string& out, const BayesNet& net, std::size_t v, std::size_t j) {
  const std::size_t r = net.states[v].size();
  for (std::size_t k = 0; k < r; ++k) {
    if (k) out += ", ";
    append_number(out, net.prob(v, j, static_cast<int>(k)));
  }
  out += ";\n";
}

void append_probability(std::string& out, const BayesNet& net, const NameMapping& m,
                        std::size_t v) {
  const auto& pa = net.parents[v];
  out += "probability ( " + m.names[v];
  for (std::size_t i = 0; i < pa.size(); ++i) out += (i ? ", " : " | ") + m.names[pa[i]];
  out += " ) {\n";
  if (pa.empty()) {
    out += "  table ";
    append_row(out, net, v, 0);
  }
  for (std::size_t j = 0; !pa.empty() && j < net.n_configs(v); ++j) {
    std::size_t rest = j;  // decode j, first parent fastest
    out += "  (";
    for (std::size_t i = 0; i < pa.size(); ++i) {
      const std::size_t ri = net.states[pa[i]].size();
      out += (i ? ", " : "") + m.states[pa[i]][rest % ri];
      rest /= ri;
    }
    out += ") ";
    append_row(out, net, v, j);
  }
  out += "}\n";
}

}  // namespace

BayesNet parse_bif(const std::string& text, const std::string& file) {
  return BifParser(text, file).parse();
}

BayesNet read_bif(const std::string& path) {
  return read_network(path, NetFormat::bif);  // a directory named, as for every format
}

std::string write_bif_text(const BayesNet& net, const NameMapping& m) {
  std::string out = "network unknown {\n}\n";
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    out += "variable " + m.names[v] + " {\n  type discrete [ " +
           std::to_string(net.states[v].size()) + " ] { ";
    for (std::size_t k = 0; k < net.states[v].size(); ++k) out += (k ? ", " : "") + m.states[v][k];
    out += " };\n";
    if (m.names[v] != net.names[v])
      out += "  property bnsl_name = " + percent_encode(net.names[v]) + ";\n";
    if (m.states[v] != net.states[v])
      out += "  property bnsl_states = " + encode_states(net.states[v]) + ";\n";
    out += "}\n";
  }
  for (std::size_t v = 0; v < net.n_vars(); ++v) append_probability(out, net, m, v);
  return out;
}

std::string bif_text(const BayesNet& net) {
  return network_text(net, NetFormat::bif);
}

void write_bif(const std::string& path, const BayesNet& net) {
  write_network(path, net, NetFormat::bif);
}

}  // namespace bnsl
