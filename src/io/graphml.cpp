// GraphML (the GraphML primer, graphml.graphdrawing.org), read and written as a directed graph
// (bnsl/network_io.hpp); structure only.
//
// Written: <graphml> with two node keys, "name" and "label" (Cytoscape shows the first, Gephi
// the second), one <graph edgedefault="directed">, nodes n0..n(n-1) carrying the variable's
// name in both, and one <edge source target> per arc. Read: the first <graph> of the document;
// a node's name is its data for the key whose attr.name is "name", else "label", else its id;
// an edge must be directed (edgedefault="directed" or directed="true") and join declared
// nodes. Nested graphs, hyperedges and ports are refused. XML is read by expat
// (io/xml_tree.cpp).
#include <map>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"
#include "io/xml_tree.hpp"

namespace bnsl {
namespace {

[[noreturn]] void fail(const std::string& file, const XmlElement& e, const std::string& what) {
  throw InputError(file, e.line, e.col, what);
}

const std::string& required(const std::string& file, const XmlElement& e, const char* key) {
  const std::string* v = e.attribute(key);
  if (!v) fail(file, e, "expected the attribute " + std::string(key) + " of <" + e.name + ">");
  return *v;
}

// The key ids naming nodes, best first: attr.name "name", then "label".
std::vector<std::string> name_keys(const XmlElement& root) {
  std::string name, label;
  for (const auto& c : root.children) {
    if (c->name != "key") continue;
    const std::string* f = c->attribute("for");
    const std::string* a = c->attribute("attr.name");
    const std::string* id = c->attribute("id");
    if (!id || !a || (f && *f != "node" && *f != "all")) continue;
    if (*a == "name" && name.empty()) name = *id;
    if (*a == "label" && label.empty()) label = *id;
  }
  std::vector<std::string> out;
  if (!name.empty()) out.push_back(name);
  if (!label.empty()) out.push_back(label);
  return out;
}

std::string node_name(const XmlElement& node, const std::string& id,
                      const std::vector<std::string>& keys) {
  for (const std::string& key : keys)
    for (const auto& d : node.children)
      if (d->name == "data" && d->attribute("key") && *d->attribute("key") == key) return d->text;
  return id;
}

}  // namespace

BayesNet parse_graphml(const std::string& text, const std::string& file) {
  const auto root = parse_xml(text, file);
  if (root->name != "graphml") fail(file, *root, "expected the root element <graphml>");
  const XmlElement* graph = nullptr;
  for (const auto& c : root->children)
    if (c->name == "graph") {
      graph = c.get();
      break;
    }
  if (!graph) fail(file, *root, "expected a <graph> inside <graphml>");
  const std::string* edge_default = graph->attribute("edgedefault");
  const bool directed = edge_default && *edge_default == "directed";
  const std::vector<std::string> keys = name_keys(*root);
  BayesNet net;
  std::map<std::string, int> by_id;
  for (const auto& c : graph->children) {
    if (c->name == "hyperedge") fail(file, *c, "expected a graph without hyperedges");
    if (c->name != "node") continue;
    for (const auto& d : c->children)
      if (d->name == "graph" || d->name == "port")
        fail(file, *d, "expected a flat graph (no nested graphs or ports)");
    const std::string& id = required(file, *c, "id");
    if (!by_id.emplace(id, static_cast<int>(net.n_vars())).second)
      fail(file, *c, "node id '" + id + "' declared twice");
    net.names.push_back(node_name(*c, id, keys));
    net.declared_at.emplace_back(c->line, c->col);
  }
  if (net.n_vars() == 0) fail(file, *graph, "expected at least one <node>");
  net.states.assign(net.n_vars(), {});
  net.parents.assign(net.n_vars(), {});
  for (const auto& c : graph->children) {
    if (c->name != "edge") continue;
    const std::string* d = c->attribute("directed");
    if (d ? *d != "true" : !directed)
      fail(file, *c, "expected a directed edge (edgedefault=\"directed\" or directed=\"true\")");
    const std::string& from = required(file, *c, "source");
    const std::string& to = required(file, *c, "target");
    const auto f = by_id.find(from), t = by_id.find(to);
    if (f == by_id.end() || t == by_id.end())
      fail(file, *c, "edge between undeclared nodes '" + from + "' and '" + to + "'");
    net.parents[t->second].push_back(f->second);
  }
  apply_name_records(net, {}, file);  // names unique
  return net;
}

std::string graphml_text(const BayesNet& net, const NameMapping& m) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
      "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
      "  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n"
      "  <graph id=\"network\" edgedefault=\"directed\">\n";
  for (std::size_t v = 0; v < net.n_vars(); ++v) {
    const std::string name = xml_escape(m.names[v]);
    out += "    <node id=\"n" + std::to_string(v) + "\"><data key=\"name\">" + name +
           "</data><data key=\"label\">" + name + "</data></node>\n";
  }
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    for (int p : net.parents[v])
      out += "    <edge source=\"n" + std::to_string(p) + "\" target=\"n" + std::to_string(v) +
             "\"/>\n";
  return out + "  </graph>\n</graphml>\n";
}

}  // namespace bnsl
