// A network's structure as a Graphviz DOT digraph, read and written (bnsl/network_io.hpp).
//
// Reader: the DOT language of graphviz.org/doc/info/lang.html: "[strict] digraph [ID] {
// stmt_list }" with node, edge and attribute statements, "ID = ID" statements and subgraphs
// (an edge to a subgraph joins every node in it); IDs are names, numerals, double-quoted
// strings ('\"' the one escape, '+' joining strings) or HTML strings <...>; keywords in any
// case; // and /* */ comments and lines starting with '#'. Ports are read and ignored. A node
// is a variable: its name is its "label" attribute when it has one (what bnsl's own
// PREFIX.best.dot carries), else its ID. An edge is an arc, reversed by dir=back; an
// undirected graph, dir=none or dir=both is refused (a network's arcs have one direction).
// Writer: "digraph network {", every variable as a quoted ID, then every arc.
#include <cctype>
#include <map>
#include <set>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"

namespace bnsl {
namespace {

struct DotTok {
  enum Kind { id, punct, edgeop, end } kind = end;
  std::string text;
  bool quoted = false;  // a quoted or HTML string (never a keyword)
  std::size_t offset = 0;
};

bool id_char(unsigned char c) {
  return std::isalnum(c) || c == '_' || c >= 0x80;
}

class DotLexer {
 public:
  DotLexer(const std::string& text, const std::string& file) : text_(text), file_(file) {}
  std::vector<DotTok> tokens();

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
    const auto [line, col] = position_of(text_, offset);
    throw InputError(file_, line, col, what);
  }
  void skip();
  std::string quoted();
  std::string html();

  const std::string& text_;
  const std::string& file_;
  std::size_t i_ = 0;
};

void DotLexer::skip() {
  for (;;) {
    while (i_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[i_]))) ++i_;
    if (i_ < text_.size() && text_[i_] == '#' && (i_ == 0 || text_[i_ - 1] == '\n')) {
      while (i_ < text_.size() && text_[i_] != '\n') ++i_;
    } else if (text_.compare(i_, 2, "//") == 0) {
      while (i_ < text_.size() && text_[i_] != '\n') ++i_;
    } else if (text_.compare(i_, 2, "/*") == 0) {
      const std::size_t end = text_.find("*/", i_ + 2);
      if (end == std::string::npos) fail(i_, "unterminated /* comment");
      i_ = end + 2;
    } else {
      return;
    }
  }
}

std::string DotLexer::quoted() {
  const std::size_t start = i_++;
  std::string out;
  while (i_ < text_.size() && text_[i_] != '"') {
    if (text_[i_] == '\\' && i_ + 1 < text_.size() && text_[i_ + 1] == '"')
      ++i_;
    else if (text_[i_] == '\\' && i_ + 1 < text_.size() && text_[i_ + 1] == '\n') {
      i_ += 2;  // a line continuation
      continue;
    }
    out += text_[i_++];
  }
  if (i_ >= text_.size()) fail(start, "unterminated quoted string");
  ++i_;
  return out;
}

std::string DotLexer::html() {
  const std::size_t start = i_;
  int depth = 0;
  do {
    if (i_ >= text_.size()) fail(start, "unterminated HTML string");
    if (text_[i_] == '<') ++depth;
    if (text_[i_] == '>') --depth;
    ++i_;
  } while (depth > 0);
  return text_.substr(start + 1, i_ - start - 2);
}

std::vector<DotTok> DotLexer::tokens() {
  std::vector<DotTok> out;
  for (skip(); i_ < text_.size(); skip()) {
    DotTok t;
    t.offset = i_;
    const char c = text_[i_];
    if (c == '-' && i_ + 1 < text_.size() && (text_[i_ + 1] == '>' || text_[i_ + 1] == '-')) {
      t.kind = DotTok::edgeop;
      t.text = text_.substr(i_, 2);
      i_ += 2;
    } else if (std::string_view("{}[];,=:").find(c) != std::string_view::npos) {
      t.kind = DotTok::punct;
      t.text = std::string(1, c);
      ++i_;
    } else if (c == '"') {
      t.kind = DotTok::id;
      t.quoted = true;
      t.text = quoted();
      for (skip(); i_ < text_.size() && text_[i_] == '+'; skip()) {  // "a" + "b"
        ++i_;
        skip();
        if (i_ >= text_.size() || text_[i_] != '"') fail(i_, "expected a quoted string after '+'");
        t.text += quoted();
      }
    } else if (c == '<') {
      t.kind = DotTok::id;
      t.quoted = true;
      t.text = html();
    } else if (c == '-' || c == '.' || std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = DotTok::id;  // a numeral
      std::size_t j = i_ + (c == '-');
      while (j < text_.size() &&
             (std::isdigit(static_cast<unsigned char>(text_[j])) || text_[j] == '.'))
        ++j;
      if (j == i_ + (c == '-')) fail(i_, "expected a numeral");
      t.text = text_.substr(i_, j - i_);
      i_ = j;
    } else if (id_char(static_cast<unsigned char>(c))) {
      t.kind = DotTok::id;
      std::size_t j = i_;
      while (j < text_.size() && id_char(static_cast<unsigned char>(text_[j]))) ++j;
      t.text = text_.substr(i_, j - i_);
      i_ = j;
    } else {
      fail(i_, std::string("unexpected character '") + c + "'");
    }
    out.push_back(std::move(t));
  }
  DotTok end;
  end.offset = text_.size();
  out.push_back(end);
  return out;
}

bool keyword(const DotTok& t, const char* word) {
  if (t.kind != DotTok::id || t.quoted) return false;
  std::size_t i = 0;
  for (; i < t.text.size() && word[i]; ++i)
    if (std::tolower(static_cast<unsigned char>(t.text[i])) != word[i]) return false;
  return i == t.text.size() && !word[i];
}

using Attrs = std::vector<std::pair<std::string, std::string>>;

class DotParser {
 public:
  DotParser(const std::string& text, const std::string& file)
      : text_(text), file_(file), toks_(DotLexer(text, file).tokens()) {}
  BayesNet parse();

 private:
  const DotTok& peek(std::size_t k = 0) const {
    return toks_[std::min(pos_ + k, toks_.size() - 1)];
  }
  const DotTok& take() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  bool is(const char* p) const { return peek().kind == DotTok::punct && peek().text == p; }
  [[noreturn]] void fail(const DotTok& t, const std::string& what) const {
    const auto [line, col] = position_of(text_, t.offset);
    throw InputError(
        file_, line, col,
        what + ", got " + (t.kind == DotTok::end ? "end of file" : "'" + t.text + "'"));
  }
  void expect(const char* p) {
    if (!is(p)) fail(peek(), std::string("expected '") + p + "'");
    take();
  }
  std::vector<int> stmt_list();
  std::vector<int> statement();
  std::vector<int> operand(const DotTok** at);
  int node_id();
  Attrs attr_lists();

  const std::string& text_;
  const std::string& file_;
  std::vector<DotTok> toks_;
  std::size_t pos_ = 0;
  static constexpr int kMaxDepth = 100;  // subgraphs within subgraphs
  int depth_ = 0;
  std::map<std::string, int> by_id_;
  std::vector<std::string> ids_, labels_;
  std::vector<std::size_t> first_at_;
  std::vector<std::pair<int, int>> arcs_;  // (from, to)
  std::vector<const DotTok*> arc_at_;
};

Attrs DotParser::attr_lists() {
  Attrs out;
  while (is("[")) {
    take();
    while (!is("]")) {
      if (peek().kind != DotTok::id) fail(peek(), "expected an attribute name or ']'");
      std::string key = take().text;
      std::string value = "true";
      if (is("=")) {
        take();
        if (peek().kind != DotTok::id) fail(peek(), "expected an attribute value");
        value = take().text;
      }
      out.emplace_back(std::move(key), std::move(value));
      if (is(";") || is(",")) take();
    }
    take();
  }
  return out;
}

int DotParser::node_id() {
  const DotTok& t = peek();
  if (t.kind != DotTok::id) fail(t, "expected a node ID");
  take();
  auto [it, fresh] = by_id_.emplace(t.text, static_cast<int>(ids_.size()));
  if (fresh) {
    ids_.push_back(t.text);
    labels_.emplace_back();
    first_at_.push_back(t.offset);
  }
  for (int k = 0; k < 2 && is(":"); ++k) {  // port and compass point: ignored
    take();
    if (peek().kind != DotTok::id) fail(peek(), "expected a port name");
    take();
  }
  return it->second;
}

// A node ID or a subgraph: the nodes it stands for.
std::vector<int> DotParser::operand(const DotTok** at) {
  *at = &peek();
  if (keyword(peek(), "subgraph") || is("{")) {
    if (keyword(peek(), "subgraph")) {
      take();
      if (peek().kind == DotTok::id) take();
    }
    // Each level is a recursion of stmt_list(): a file of nested braces must not exhaust the
    // stack (a fuzzer input nested 5,048 braces).
    if (depth_ == kMaxDepth)
      fail(peek(), "subgraphs nested more than " + std::to_string(kMaxDepth) + " deep");
    expect("{");
    ++depth_;
    std::vector<int> nodes = stmt_list();
    --depth_;
    expect("}");
    return nodes;
  }
  return {node_id()};
}

std::vector<int> DotParser::statement() {
  const DotTok& first = peek();
  if (keyword(first, "graph") || keyword(first, "node") || keyword(first, "edge")) {
    take();
    attr_lists();  // defaults: no bearing on the structure
    return {};
  }
  if (first.kind == DotTok::id && peek(1).kind == DotTok::punct && peek(1).text == "=") {
    take();
    take();
    if (peek().kind != DotTok::id) fail(peek(), "expected a value after '='");
    take();
    return {};
  }
  const DotTok* at = nullptr;
  std::vector<int> left = operand(&at);
  std::vector<int> all = left;
  std::vector<std::vector<int>> chain{left};
  std::vector<const DotTok*> ops;
  while (peek().kind == DotTok::edgeop) {
    if (peek().text == "--") fail(peek(), "expected '->' (a network's arcs are directed)");
    ops.push_back(&take());
    std::vector<int> right = operand(&at);
    all.insert(all.end(), right.begin(), right.end());
    chain.push_back(std::move(right));
  }
  const Attrs attrs = attr_lists();
  if (ops.empty()) {
    const bool one_node = !keyword(first, "subgraph") && !(first.kind == DotTok::punct);
    for (const auto& [k, v] : attrs)
      if (k == "label" && one_node) labels_[left[0]] = v;
    return all;
  }
  bool back = false;
  for (const auto& [k, v] : attrs)
    if (k == "dir") {
      if (v == "back")
        back = true;
      else if (v != "forward")
        fail(*ops[0], "expected a directed edge, not dir=" + v);
    }
  for (std::size_t i = 0; i < ops.size(); ++i)
    for (int a : chain[i])
      for (int b : chain[i + 1]) {
        arcs_.emplace_back(back ? b : a, back ? a : b);
        arc_at_.push_back(ops[i]);
      }
  return all;
}

std::vector<int> DotParser::stmt_list() {
  std::vector<int> nodes;
  while (!is("}") && peek().kind != DotTok::end) {
    const std::vector<int> some = statement();
    nodes.insert(nodes.end(), some.begin(), some.end());
    if (is(";")) take();
  }
  return nodes;
}

BayesNet DotParser::parse() {
  if (keyword(peek(), "strict")) take();
  if (keyword(peek(), "graph")) fail(peek(), "expected 'digraph' (a network's arcs are directed)");
  if (!keyword(peek(), "digraph")) fail(peek(), "expected 'digraph'");
  take();
  if (peek().kind == DotTok::id) take();
  expect("{");
  stmt_list();
  expect("}");
  if (peek().kind != DotTok::end) fail(peek(), "expected the end of the file");
  if (ids_.empty()) fail(peek(), "expected at least one node");
  BayesNet net;
  for (std::size_t v = 0; v < ids_.size(); ++v) {
    net.names.push_back(labels_[v].empty() ? ids_[v] : labels_[v]);
    net.declared_at.push_back(position_of(text_, first_at_[v]));
  }
  net.states.assign(net.n_vars(), {});
  net.parents.assign(net.n_vars(), {});
  std::set<std::pair<int, int>> seen;
  for (std::size_t i = 0; i < arcs_.size(); ++i) {
    const auto [from, to] = arcs_[i];
    if (from == to)
      fail(*arc_at_[i], "expected an arc between two nodes (a loop on " + ids_[from] + ")");
    if (seen.insert({from, to}).second) net.parents[to].push_back(from);
  }
  apply_name_records(net, {}, file_);  // names unique
  return net;
}

std::string dot_id(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

BayesNet parse_dot_network(const std::string& text, const std::string& file) {
  return DotParser(text, file).parse();
}

std::string dot_network_text(const BayesNet& net, const NameMapping& m) {
  std::string out = "digraph network {\n";
  for (std::size_t v = 0; v < net.n_vars(); ++v) out += "  " + dot_id(m.names[v]) + ";\n";
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    for (int p : net.parents[v])
      out += "  " + dot_id(m.names[p]) + " -> " + dot_id(m.names[v]) + ";\n";
  return out + "}\n";
}

}  // namespace bnsl
