// Network files by format (bnsl/network_io.hpp): the choice of a format by name or extension,
// the dispatch to each format's parser and writer, and FILE.names.csv, the table of names
// written otherwise than they are (kind,variable,state,written; CSV-quoted where needed).
#include "bnsl/network_io.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"
#include "util/atomic_file.hpp"
#include "util/csv_field.hpp"

namespace bnsl {
namespace {

struct Extension {
  const char* ext;
  NetFormat format;
};
constexpr Extension kExtensions[] = {
    {".bif", NetFormat::bif},         {".xml", NetFormat::xmlbif},
    {".xmlbif", NetFormat::xmlbif},   {".net", NetFormat::net},
    {".uai", NetFormat::uai},         {".modelstring", NetFormat::modelstring},
    {".graphml", NetFormat::graphml}, {".dot", NetFormat::dot},
    {".gv", NetFormat::dot},          {".csv", NetFormat::adjacency}};

std::string read_text(const std::string& path, const char* what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path, 0, 0, std::string("cannot read the ") + what + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open the ") + what);
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::string sidecar_path(const std::string& path) {
  return path + ".names.csv";
}

std::string sidecar_text(const BayesNet& net, const NameMapping& m) {
  std::string out = "kind,variable,state,written\n";
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    if (m.names[v] != net.names[v])
      out += "variable," + csv_field(net.names[v]) + ",," + csv_field(m.names[v]) + "\n";
    if (m.states.empty()) continue;
    for (std::size_t k = 0; k < net.states[v].size(); ++k)
      if (m.states[v][k] != net.states[v][k])
        out += "state," + csv_field(net.names[v]) + "," + csv_field(net.states[v][k]) + "," +
               csv_field(m.states[v][k]) + "\n";
  }
  return out;
}

// Splits a CSV line of the sidecar (fields possibly double-quoted, "" for a quote).
std::vector<std::string> csv_fields(const std::string& line, const std::string& file,
                                    std::size_t lineno) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  if (quoted) throw InputError(file, lineno, line.size(), "unterminated quoted field");
  return out;
}

// Applies FILE.names.csv, when there is one, to a network read from FILE: each row's
// `written` name must be in the file (a table left by another file is an error, not a guess).
void apply_sidecar(BayesNet& net, const std::string& path) {
  const std::string side = sidecar_path(path);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(side, ec)) return;
  std::istringstream in(read_text(side, "names table"));
  std::string line;
  std::map<std::string, int> var_of;
  for (std::size_t v = 0; v < net.n_vars(); ++v) var_of.emplace(net.names[v], static_cast<int>(v));
  std::vector<std::string> names = net.names;
  auto states = net.states;
  for (std::size_t lineno = 1; std::getline(in, line); ++lineno) {
    if (lineno == 1) {
      if (line.rfind("kind,variable,state,written", 0) != 0)
        throw InputError(side, 1, 1, "expected the header kind,variable,state,written");
      continue;
    }
    if (line.empty() || line == "\r") continue;
    const auto f = csv_fields(line, side, lineno);
    if (f.size() != 4 || (f[0] != "variable" && f[0] != "state"))
      throw InputError(side, lineno, 1, "expected variable|state,VARIABLE,STATE,WRITTEN");
    // The variable as written: the row's own `written` for a variable row; for a state row,
    // the variable's written name from its variable row, else its name.
    if (f[0] == "variable") {
      auto it = var_of.find(f[3]);
      if (it == var_of.end())
        throw InputError(side, lineno, 1,
                         "'" + f[3] + "' is not a variable of " + path + " (a stale table?)");
      names[it->second] = f[1];
      continue;
    }
    auto it = std::find(names.begin(), names.end(), f[1]);
    if (it == names.end())
      throw InputError(side, lineno, 1, "'" + f[1] + "' is not a variable listed before");
    auto& s = states[it - names.begin()];
    auto at = std::find(net.states[it - names.begin()].begin(),
                        net.states[it - names.begin()].end(), f[3]);
    if (at == net.states[it - names.begin()].end())
      throw InputError(side, lineno, 1, "'" + f[3] + "' is not a state of " + f[1] + " in " + path);
    s[at - net.states[it - names.begin()].begin()] = f[2];
  }
  net.names = std::move(names);
  net.states = std::move(states);
  apply_name_records(net, {}, side);  // names still unique
}

}  // namespace

bool has_parameters(NetFormat format) {
  return format == NetFormat::bif || format == NetFormat::xmlbif || format == NetFormat::net ||
         format == NetFormat::uai;
}

std::string extension_of(NetFormat format) {
  for (const Extension& e : kExtensions)
    if (e.format == format) return e.ext;
  return "";
}

std::optional<NetFormat> format_by_extension(const std::string& path) {
  std::string lower = std::filesystem::path(path).extension().string();
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const Extension& e : kExtensions)
    if (lower == e.ext) return e.format;
  return std::nullopt;
}

NetFormat resolve_format(const std::string& path, const std::string& name) {
  if (!name.empty()) {
    for (const auto& entry : kNetFormatNames)
      if (entry.name == name) return entry.value;
    throw InputError(
        path, 0, 0,
        "unknown network format '" + name + "' (expected " + alternatives(kNetFormatNames) + ")");
  }
  if (auto f = format_by_extension(path)) return *f;
  throw InputError(path, 0, 0,
                   "unknown network format: the extension is none of .bif .xml .xmlbif .net "
                   ".uai .modelstring .graphml .dot .gv .csv (name the format with --from/--to: " +
                       alternatives(kNetFormatNames) + ")");
}

BayesNet parse_network(const std::string& text, const std::string& file, NetFormat format) {
  BayesNet net;
  switch (format) {
    case NetFormat::bif:
      net = parse_bif(text, file);
      break;
    case NetFormat::xmlbif:
      net = parse_xmlbif(text, file);
      break;
    case NetFormat::net:
      net = parse_hugin_net(text, file);
      break;
    case NetFormat::uai:
      net = parse_uai(text, file);
      break;
    case NetFormat::modelstring:
      net = parse_model_string(text, file);
      break;
    case NetFormat::graphml:
      net = parse_graphml(text, file);
      break;
    case NetFormat::dot:
      net = parse_dot_network(text, file);
      break;
    case NetFormat::adjacency:
      net = parse_adjacency(text, file);
      break;
  }
  net.source = file;
  check_network(net, file);
  return net;
}

BayesNet read_network(const std::string& path, NetFormat format) {
  BayesNet net = parse_network(read_text(path, "network file"), path, format);
  if (format != NetFormat::bif && format != NetFormat::xmlbif && format != NetFormat::net)
    apply_sidecar(net, path);
  return net;
}

std::string network_text(const BayesNet& net, NetFormat format) {
  if (has_parameters(format) && !net.has_parameters())
    throw RuntimeError("a " + name_of(kNetFormatNames, format) +
                       " file needs parameters, and this network has none");
  const NameMapping m = legal_names(net, format);
  switch (format) {
    case NetFormat::bif:
      return write_bif_text(net, m);
    case NetFormat::xmlbif:
      return xmlbif_text(net, m);
    case NetFormat::net:
      return hugin_net_text(net, m);
    case NetFormat::uai:
      return uai_text(net);
    case NetFormat::modelstring:
      return model_string_text(net, m);
    case NetFormat::graphml:
      return graphml_text(net, m);
    case NetFormat::dot:
      return dot_network_text(net, m);
    case NetFormat::adjacency:
      return adjacency_text(net, m);
  }
  return "";
}

void write_network(const std::string& path, const BayesNet& net, NetFormat format) {
  const std::string text = network_text(net, format);
  const NameMapping m = legal_names(net, format);
  write_file_atomically(path, text);
  const std::string side = sidecar_path(path);
  std::error_code ec;
  if (m.changed)
    write_file_atomically(side, sidecar_text(net, m));
  else if (std::filesystem::exists(side, ec))
    std::filesystem::remove(side, ec);
}

void check_legal_names(const Dataset& data, const std::vector<NetFormat>& formats) {
  BayesNet net;
  net.names = data.names();
  for (std::size_t v = 0; v < data.n_vars(); ++v) {
    auto& s = net.states.emplace_back();
    for (int k = 0; k < data.arity(v); ++k) s.push_back(data.state_name(v, k));
    if (data.header_column(v) > 0) net.declared_at.emplace_back(1, data.header_column(v));
  }
  net.source = data.source();
  for (NetFormat f : formats) legal_names(net, f);
}

std::vector<std::vector<int>> read_network_arcs(const std::string& path,
                                                const std::vector<std::string>& names) {
  const BayesNet net = read_network(path, resolve_format(path, ""));
  std::map<std::string, int> at;
  for (std::size_t v = 0; v < names.size(); ++v) at.emplace(names[v], static_cast<int>(v));
  std::vector<int> to(net.n_vars());
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    auto it = at.find(net.names[v]);
    if (it == at.end()) {
      std::size_t line = 0, col = 0;
      if (v < net.declared_at.size()) std::tie(line, col) = net.declared_at[v];
      throw InputError(path, line, col, "'" + net.names[v] + "' is not a variable of the data");
    }
    to[v] = it->second;
  }
  std::vector<std::vector<int>> parents(names.size());
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    for (int p : net.parents[v]) parents[to[v]].push_back(to[p]);
    std::sort(parents[to[v]].begin(), parents[to[v]].end());
  }
  return parents;
}

}  // namespace bnsl
