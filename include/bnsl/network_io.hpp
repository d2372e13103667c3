// Network files in every format bnsl reads and writes, chosen by name or by extension.
//
//   bnsl::NetFormat f = bnsl::format_of_path("asia.xml");          // NetFormat::xmlbif
//   bnsl::BayesNet net = bnsl::read_network("asia.xml", f);
//   bnsl::write_network("asia.net", net, bnsl::NetFormat::net);     // Hugin NET
//   bnsl::write_network("asia.dot", net, bnsl::NetFormat::dot);     // structure only
//
// Formats (extension; what it holds):
//   bif          .bif              structure, states, CPTs (bnlearn, pgmpy, JavaBayes)
//   xmlbif       .xml .xmlbif      the same, XMLBIF 0.3 (pgmpy, Weka, JavaBayes)
//   net          .net              the same, Hugin's NET language (Hugin, GeNIe, bnlearn)
//   uai          .uai              the same, UAI 2008 "BAYES" (solvers; no names in it)
//   modelstring  .modelstring      structure: bnlearn's model string "[A][B|A][C|A:B]"
//   graphml      .graphml          structure: GraphML (Gephi, Cytoscape, networkx, igraph)
//   dot          .dot .gv          structure: Graphviz DOT digraph
//   adjacency    .csv              structure: a 0/1 matrix with a header row of names, row =
//                                  parent, column = child (Benchpress's layout)
// A structure-only file reads as a BayesNet without states or CPTs (has_parameters() false).
//
// Names a format cannot hold (see legal_names) are written mapped, each character it cannot
// hold replaced by '_', the same way every time; two names mapped alike are an InputError
// naming where the second was declared. Where a format has room for it (BIF and XMLBIF
// properties, NET attributes) the file records the original names, percent-encoded, and bnsl's
// readers restore them; every file written with a mapping also gets FILE.names.csv beside it
// (kind,variable,state,written: one row per name or state written otherwise), which bnsl reads
// back for the formats without such room (UAI, model string, GraphML, DOT, adjacency). A
// write without a mapping removes a FILE.names.csv left by an earlier one.
//
// Errors: InputError "FILE:LINE:COL: what was expected" for malformed input, an unknown format
// or a collision; RuntimeError when a file cannot be written. Writes are atomic.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "bnsl/bif.hpp"
#include "bnsl/names.hpp"

namespace bnsl {

enum class NetFormat { bif, xmlbif, net, uai, modelstring, graphml, dot, adjacency };

inline constexpr std::array<Named<NetFormat>, 8> kNetFormatNames{
    {{NetFormat::bif, "bif"},
     {NetFormat::xmlbif, "xmlbif"},
     {NetFormat::net, "net"},
     {NetFormat::uai, "uai"},
     {NetFormat::modelstring, "modelstring"},
     {NetFormat::graphml, "graphml"},
     {NetFormat::dot, "dot"},
     {NetFormat::adjacency, "adjacency"}}};

// Whether files of the format hold states and CPTs.
bool has_parameters(NetFormat format);
// The extension bnsl writes for the format: ".bif", ".xml", ".net", ".uai", ".modelstring",
// ".graphml", ".dot", ".csv".
std::string extension_of(NetFormat format);
// The format of a path by its extension (case-insensitive); nullopt when none matches.
std::optional<NetFormat> format_by_extension(const std::string& path);
// `name` (a format name, "" for none) or else the path's extension; InputError naming the
// path when neither gives a format.
NetFormat resolve_format(const std::string& path, const std::string& name);

BayesNet read_network(const std::string& path, NetFormat format);
// Parses a file's text; `file` names it in errors (no FILE.names.csv is read).
BayesNet parse_network(const std::string& text, const std::string& file, NetFormat format);

// The file's text with names mapped for the format (collisions throw InputError). A
// parameterised format needs net.has_parameters() (RuntimeError otherwise).
std::string network_text(const BayesNet& net, NetFormat format);
// Writes network_text atomically, and FILE.names.csv when names were mapped (see above).
void write_network(const std::string& path, const BayesNet& net, NetFormat format);

// How the names of `net` are written in `format`: written[v] and written_states[v][k] (states
// only for parameterised formats); `changed` when any differs from the original. Throws
// InputError on a collision, at net.declared_at of the later name when known.
struct NameMapping {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> states;
  bool changed = false;
};
NameMapping legal_names(const BayesNet& net, NetFormat format);

// Throws the InputError legal_names would for a network over the data's variables and states
// written in each of `formats`: what a run checks before it starts.
void check_legal_names(const Dataset& data, const std::vector<NetFormat>& formats);

// The arcs of the network file at `path` (any format by extension) as parent lists over
// `names`: every variable of the file must be one of `names` (InputError otherwise); variables
// of `names` missing from the file have no parents there.
std::vector<std::vector<int>> read_network_arcs(const std::string& path,
                                                const std::vector<std::string>& names);

}  // namespace bnsl
