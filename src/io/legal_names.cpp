// Names each network format can hold, and the mapping of the others (bnsl/network_io.hpp,
// legal_names); the percent-encoded records of original names; checks every parser shares.
//
// The rules are those of the readers other tools use, not only of the published grammars,
// since a file bnsl writes is meant to open there: bnlearn's read.bif and read.net find names
// with the regular expression \w+ and split state lists on commas, blanks, parentheses and
// braces, and strip from "%" (NET) or "//" (BIF) to the end of a line; pgmpy's BIF reader takes
// states of printable ASCII without blanks. Hence:
//   BIF, NET variables   ASCII letters, digits, '_' (NET, Hugin's identifiers: not a digit
//                        first, else '_' is put before it)
//   BIF, NET states      printable ASCII but blanks and " , ; ( ) { } [ ] | # % \, and no //
//                        or /* (whose '/' is mapped)
//   XMLBIF, GraphML      any UTF-8 text XML 1.0 allows, without control characters and without
//                        a blank at either end (XML readers trim text)
//   DOT                  any UTF-8 without control characters and backslashes (DOT's quoted
//                        strings escape only '"'; Graphviz reads backslashes in labels)
//   model string         anything but [ ] | : and control characters (bnlearn's model2network)
//   adjacency CSV        anything but control characters (the header is CSV-quoted) and a
//                        leading U+FEFF (read as a byte-order mark)
//   UAI                  no names at all: variables are V0..V(n-1), states 0..r-1
// Each character a format cannot hold becomes '_' (a byte that is not UTF-8 counts as one
// character); an empty name becomes "_". The mapping depends on the name alone.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <tuple>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"
#include "util/utf8.hpp"

namespace bnsl {
namespace {

enum class Kind { variable, state };

bool ascii_word(long c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool ascii_state(long c) {
  static const std::string_view kReserved = "\",;(){}[]|#%\\";
  return c > 0x20 && c < 0x7F && kReserved.find(static_cast<char>(c)) == std::string_view::npos;
}

bool xml_char(long c) {
  return c >= 0x20 && c != 0x7F && !(c >= 0xFFFE && c <= 0xFFFF);
}

// Whether the character at s[i] (value c, length len) may stay in a name of `format`.
bool legal_at(NetFormat format, Kind kind, std::string_view s, std::size_t i, long c,
              std::size_t len) {
  if (c < 0) return false;
  switch (format) {
    case NetFormat::bif:
    case NetFormat::net:
      if (kind == Kind::variable) return ascii_word(c);
      if (c == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) return false;
      return ascii_state(c);
    case NetFormat::xmlbif:
    case NetFormat::graphml:
      if (c == ' ' && (i == 0 || i + len == s.size())) return false;
      return xml_char(c);
    case NetFormat::dot:
      return c >= 0x20 && c != 0x7F && c != '\\';
    case NetFormat::modelstring:
      return c >= 0x20 && c != 0x7F && c != '[' && c != ']' && c != '|' && c != ':';
    case NetFormat::adjacency:  // a leading U+FEFF would open the file as a byte-order mark
      if (c == 0xFEFF && i == 0) return false;
      return c >= 0x20 && c != 0x7F;
    case NetFormat::uai:
      return c >= 0x20 && c != 0x7F;
  }
  return false;
}

std::string legal_name(std::string_view s, NetFormat format, Kind kind) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto [c, len] = utf8_code_point(s, i);
    if (legal_at(format, kind, s, i, c, len))
      out.append(s.substr(i, len));
    else
      out += '_';
    i += len;
  }
  if (out.empty()) out.push_back('_');
  if (format == NetFormat::net && kind == Kind::variable && out[0] >= '0' && out[0] <= '9')
    out.insert(out.begin(), '_');
  return out;
}

std::string what_holds(NetFormat format, Kind kind) {
  switch (format) {
    case NetFormat::bif:
    case NetFormat::net:
      return kind == Kind::variable
                 ? "ASCII letters, digits and _"
                 : "printable ASCII without blanks and \" , ; ( ) { } [ ] | # % \\";
    case NetFormat::xmlbif:
    case NetFormat::graphml:
      return "no control characters and no blank at either end";
    case NetFormat::dot:
      return "no control characters and no backslash";
    case NetFormat::modelstring:
      return "no [ ] | : and no control characters";
    default:
      return "no control characters";
  }
}

[[noreturn]] void collision(const BayesNet& net, int v, const std::string& what,
                            const std::string& first, const std::string& second,
                            const std::string& written, NetFormat format, Kind kind) {
  const std::string text = what + " '" + first + "' and '" + second + "' are both written '" +
                           written + "' in " + name_of(kNetFormatNames, format) +
                           " (its names hold " + what_holds(format, kind) + "): rename one";
  if (!net.source.empty() && static_cast<std::size_t>(v) < net.declared_at.size())
    throw InputError(net.source, net.declared_at[v].first, net.declared_at[v].second, text);
  if (!net.source.empty()) throw InputError(net.source, 0, 0, text);
  throw InputError(text);
}

}  // namespace

NameMapping legal_names(const BayesNet& net, NetFormat format) {
  NameMapping m;
  const std::size_t n = net.n_vars();
  m.names.resize(n);
  std::map<std::string, int> taken;
  for (std::size_t v = 0; v < n; ++v) {
    m.names[v] = format == NetFormat::uai ? default_variable_name(v)
                                          : legal_name(net.names[v], format, Kind::variable);
    auto [it, fresh] = taken.emplace(m.names[v], static_cast<int>(v));
    if (!fresh)
      collision(net, static_cast<int>(v), "variables", net.names[it->second], net.names[v],
                m.names[v], format, Kind::variable);
    m.changed |= m.names[v] != net.names[v];
  }
  if (!has_parameters(format) || net.states.size() != n) return m;
  m.states.resize(n);
  for (std::size_t v = 0; v < n; ++v) {
    std::map<std::string, std::size_t> seen;
    for (std::size_t k = 0; k < net.states[v].size(); ++k) {
      const std::string& s = net.states[v][k];
      std::string w =
          format == NetFormat::uai ? std::to_string(k) : legal_name(s, format, Kind::state);
      auto [it, fresh] = seen.emplace(w, k);
      if (!fresh)
        collision(net, static_cast<int>(v), "states of " + net.names[v], net.states[v][it->second],
                  s, w, format, Kind::state);
      m.changed |= w != s;
      m.states[v].push_back(std::move(w));
    }
  }
  return m;
}

std::string percent_encode(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (ascii_word(c) || c == '.' || c == '-') {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

bool percent_decode(std::string_view s, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    unsigned value = 0;
    if (i + 2 >= s.size()) return false;
    const auto [ptr, ec] = std::from_chars(s.data() + i + 1, s.data() + i + 3, value, 16);
    if (ec != std::errc() || ptr != s.data() + i + 3) return false;
    out += static_cast<char>(value);
    i += 2;
  }
  return true;
}

std::string encode_states(const std::vector<std::string>& states) {
  std::string out;
  for (std::size_t k = 0; k < states.size(); ++k) {
    if (k) out += ' ';
    out += percent_encode(states[k]);
  }
  return out;
}

void apply_name_records(BayesNet& net, const std::vector<NameRecord>& records,
                        const std::string& file) {
  for (const NameRecord& r : records) {
    if (r.has_name) net.names[r.var] = r.name;
    if (!r.has_states) continue;
    if (r.states.size() != net.states[r.var].size())
      throw InputError(file, r.line, r.col,
                       "the recorded states of " + net.names[r.var] + " are " +
                           std::to_string(r.states.size()) + ", not " +
                           std::to_string(net.states[r.var].size()));
    if (std::set<std::string>(r.states.begin(), r.states.end()).size() != r.states.size())
      throw InputError(file, r.line, r.col, "the recorded states repeat a name");
    net.states[r.var] = r.states;
  }
  std::map<std::string, std::size_t> seen;
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    if (seen.emplace(net.names[v], v).second) continue;
    std::size_t line = 0, col = 0;
    if (v < net.declared_at.size()) std::tie(line, col) = net.declared_at[v];
    throw InputError(file, line, col, "variable name '" + net.names[v] + "' declared twice");
  }
}

void check_network(BayesNet& net, const std::string& file) {
  const std::size_t n = net.n_vars();
  auto fail = [&](std::size_t v, const std::string& what) {
    std::size_t line = 0, col = 0;
    if (v < net.declared_at.size()) std::tie(line, col) = net.declared_at[v];
    throw InputError(file, line, col, what);
  };
  std::vector<std::vector<int>> children(n);
  std::vector<std::size_t> missing(n);
  for (std::size_t v = 0; v < n; ++v) {
    // No format's name records can say "empty", and data never has such names.
    if (net.names[v].empty()) fail(v, "expected a variable name, not an empty one");
    if (v < net.states.size())
      for (const std::string& s : net.states[v])
        if (s.empty()) fail(v, "expected state names of " + net.names[v] + ", not an empty one");
    std::set<int> seen;
    for (int p : net.parents[v]) {
      if (p < 0 || static_cast<std::size_t>(p) >= n || p == static_cast<int>(v) ||
          !seen.insert(p).second)
        fail(v, "the parents of " + net.names[v] + " repeat a variable or hold it");
      children[p].push_back(static_cast<int>(v));
    }
    missing[v] = net.parents[v].size();
  }
  std::vector<int> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (missing[v] == 0) ready.push_back(static_cast<int>(v));
  std::size_t done = 0;
  while (!ready.empty()) {
    const int v = ready.back();
    ready.pop_back();
    ++done;
    for (int c : children[v])
      if (--missing[c] == 0) ready.push_back(c);
  }
  if (done != n) {
    std::size_t v = 0;
    while (missing[v] == 0) ++v;
    fail(v, "the network has a directed cycle through " + net.names[v]);
  }
}

void check_cpt_cells(const BayesNet& net, std::size_t text_size, const std::string& file) {
  const double limit = 64.0 * static_cast<double>(text_size) + 1e6;
  double total = 0, largest = 0;
  std::size_t at = 0;
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    double cells = static_cast<double>(net.states[v].size());
    for (int p : net.parents[v]) cells *= static_cast<double>(net.states[p].size());
    total += cells;
    if (cells > largest) std::tie(largest, at) = std::make_pair(cells, v);
  }
  if (total <= limit) return;
  std::size_t line = 0, col = 0;
  if (at < net.declared_at.size()) std::tie(line, col) = net.declared_at[at];
  throw InputError(file, line, col,
                   "the CPTs would hold " + std::to_string(total) + " numbers (" + net.names[at] +
                       "'s alone " + std::to_string(largest) +
                       "), more than the file can describe");
}

std::size_t config_from_last_fastest(const BayesNet& net, std::size_t v, std::size_t jl) {
  const auto& pa = net.parents[v];
  std::size_t j = 0, mult = 1;
  std::vector<std::size_t> digit(pa.size());
  for (std::size_t i = pa.size(); i-- > 0;) {
    const std::size_t ri = net.states[pa[i]].size();
    digit[i] = jl % ri;
    jl /= ri;
  }
  for (std::size_t i = 0; i < pa.size(); ++i) {
    j += digit[i] * mult;
    mult *= net.states[pa[i]].size();
  }
  return j;
}

std::pair<std::size_t, std::size_t> position_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++col;
    }
  }
  return {line, col};
}

}  // namespace bnsl
