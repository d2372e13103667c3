// What the network formats share inside the library (bnsl/network_io.hpp is the public face):
// each format's parser and writer, and the recording of original names.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bnsl/bif.hpp"
#include "bnsl/network_io.hpp"

namespace bnsl {

// Each writer takes the names as legal_names mapped them for its format.
std::string write_bif_text(const BayesNet& net, const NameMapping& names);
BayesNet parse_xmlbif(const std::string& text, const std::string& file);
std::string xmlbif_text(const BayesNet& net, const NameMapping& names);
BayesNet parse_hugin_net(const std::string& text, const std::string& file);
std::string hugin_net_text(const BayesNet& net, const NameMapping& names);
BayesNet parse_uai(const std::string& text, const std::string& file);
std::string uai_text(const BayesNet& net);
BayesNet parse_model_string(const std::string& text, const std::string& file);
std::string model_string_text(const BayesNet& net, const NameMapping& names);
BayesNet parse_graphml(const std::string& text, const std::string& file);
std::string graphml_text(const BayesNet& net, const NameMapping& names);
BayesNet parse_dot_network(const std::string& text, const std::string& file);
std::string dot_network_text(const BayesNet& net, const NameMapping& names);
BayesNet parse_adjacency(const std::string& text, const std::string& file);
std::string adjacency_text(const BayesNet& net, const NameMapping& names);

// Numbers as the writers print them: the shortest text that reads back to the same double.
void append_number(std::string& out, double x);
// Parses a whole token as a finite double (a leading '+' allowed); false otherwise.
bool parse_number(std::string_view text, double& x);

// The original names recorded in a file: "%"-encoding of every byte but ASCII letters, digits
// and _ . - (so the record holds none of the characters the formats reserve).
std::string percent_encode(std::string_view s);
// Decodes; false on a malformed %XX.
bool percent_decode(std::string_view s, std::string& out);
// "bnsl_states" record: the encoded states separated by single spaces.
std::string encode_states(const std::vector<std::string>& states);

// Records read from a file, to be applied once the file is parsed: variable v's original
// name and states (empty: none), and where the record was (for errors).
struct NameRecord {
  int var = -1;
  std::string name;  // decoded original name, or empty
  bool has_name = false;
  std::vector<std::string> states;  // decoded original states, or empty
  bool has_states = false;
  std::size_t line = 0, col = 0;
};
// Replaces the names and states of `net` by the recorded ones; InputError at the record when
// a record does not fit (wrong number of states, names no longer unique).
void apply_name_records(BayesNet& net, const std::vector<NameRecord>& records,
                        const std::string& file);

// Checks what every parser must deliver: parents within range, distinct, not the child,
// acyclic (InputError at the child's declaration otherwise). `file` names it in errors.
void check_network(BayesNet& net, const std::string& file);

// Refuses CPTs of more cells than a file of `text_size` bytes can describe (64 per byte, and a
// million more: BIF's "default" rows and UAI's implicit states are short), before they are
// allocated; InputError at the largest CPT's variable.
void check_cpt_cells(const BayesNet& net, std::size_t text_size, const std::string& file);

// The CPT configuration index (first parent fastest, the BayesNet layout) of the parent
// configuration numbered `jl` with the LAST parent fastest (the order XMLBIF, NET and UAI list
// them in).
std::size_t config_from_last_fastest(const BayesNet& net, std::size_t v, std::size_t jl);

// Line and column (1-based, columns in characters) of byte `offset` of `text`.
std::pair<std::size_t, std::size_t> position_of(std::string_view text, std::size_t offset);

}  // namespace bnsl
