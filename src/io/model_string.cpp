// bnlearn's model string, "[A][B|A][C|A:B]" (modelstring(), model2network()), read and
// written as a one-line text file (bnsl/network_io.hpp); structure only.
//
// Each variable appears once in brackets, followed by '|' and its parents separated by ':'
// when it has any. Names are everything between the delimiters, blanks included, as
// model2network reads them; blanks and line breaks between the bracketed blocks are skipped.
// The variables are numbered in the order of their blocks (bnsl writes them in its own order,
// not bnlearn's topological one, so a round trip keeps the order).
#include <map>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"

namespace bnsl {
namespace {

struct Block {
  std::string child;
  std::size_t at = 0;  // offset of the child's name
  std::vector<std::pair<std::string, std::size_t>> parents;
};

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

}  // namespace

BayesNet parse_model_string(const std::string& text, const std::string& file) {
  auto fail = [&](std::size_t offset, const std::string& what) {
    const auto [line, col] = position_of(text, offset);
    throw InputError(file, line, col, what);
  };
  std::vector<Block> blocks;
  std::size_t i = 0;
  // A name: up to the next delimiter; empty names are an error.
  auto name = [&](const char* what) {
    const std::size_t start = i;
    while (i < text.size() && text[i] != '[' && text[i] != ']' && text[i] != '|' &&
           text[i] != ':' && text[i] != '\n')
      ++i;
    if (i == start) fail(i, std::string("expected ") + what);
    return std::make_pair(text.substr(start, i - start), start);
  };
  for (;;) {
    while (i < text.size() && blank(text[i])) ++i;
    if (i == text.size()) break;
    if (text[i] != '[') fail(i, "expected '[' starting a variable's block");
    ++i;
    Block b;
    std::tie(b.child, b.at) = name("a variable name");
    if (i < text.size() && text[i] == '|') {
      do {
        ++i;
        b.parents.push_back(name("a parent's name"));
      } while (i < text.size() && text[i] == ':');
    }
    if (i == text.size() || text[i] != ']') fail(i, "expected ']' closing the block");
    ++i;
    blocks.push_back(std::move(b));
  }
  if (blocks.empty()) fail(i, "expected at least one '[variable]' block");
  BayesNet net;
  std::map<std::string, int> at;
  for (const Block& b : blocks) {
    if (!at.emplace(b.child, static_cast<int>(net.n_vars())).second)
      fail(b.at, "variable '" + b.child + "' has two blocks");
    net.names.push_back(b.child);
    net.declared_at.push_back(position_of(text, b.at));
  }
  net.states.assign(net.n_vars(), {});
  net.parents.assign(net.n_vars(), {});
  for (const Block& b : blocks)
    for (const auto& [p, offset] : b.parents) {
      auto it = at.find(p);
      if (it == at.end()) fail(offset, "parent '" + p + "' has no block of its own");
      net.parents[at[b.child]].push_back(it->second);
    }
  return net;
}

std::string model_string_text(const BayesNet& net, const NameMapping& m) {
  std::string out;
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    out += "[" + m.names[v];
    for (std::size_t i = 0; i < net.parents[v].size(); ++i)
      out += (i ? ":" : "|") + m.names[net.parents[v][i]];
    out += "]";
  }
  return out + "\n";
}

}  // namespace bnsl
