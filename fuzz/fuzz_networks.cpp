// Network files of the formats bnsl/network_io.hpp reads besides BIF (convert, sample, eval,
// --prefer-arcs): the input's first line names the format (xmlbif, net, uai, modelstring,
// graphml, dot, adjacency), the rest is the file. A network that reads is written in every
// format and read back, which must give the same variables and parent sets, and the names as
// written (or an InputError for names that collide in that format, or a RuntimeError for
// parameters it does not have).
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "bnsl/error.hpp"
#include "bnsl/network_io.hpp"

namespace {

std::vector<std::set<int>> parent_sets(const bnsl::BayesNet& net) {
  std::vector<std::set<int>> out;
  for (const auto& p : net.parents) out.emplace_back(p.begin(), p.end());
  return out;
}

void round_trips(const bnsl::BayesNet& net) {
  for (const auto& entry : bnsl::kNetFormatNames) {
    std::string text;
    try {
      text = bnsl::network_text(net, entry.value);
    } catch (const bnsl::InputError&) {
      continue;  // names that collide in this format
    } catch (const bnsl::RuntimeError&) {
      continue;  // no parameters for a format that needs them
    }
    const bnsl::BayesNet back = bnsl::parse_network(text, "again", entry.value);
    if (back.n_vars() != net.n_vars() || parent_sets(back) != parent_sets(net)) std::abort();
    // Names the format cannot hold come back as written (legal_names; only a file read with its
    // FILE.names.csv, or a format with room for the originals, gives them back whole).
    if (entry.value != bnsl::NetFormat::uai && back.names != net.names &&
        back.names != bnsl::legal_names(net, entry.value).names)
      std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nl = input.find('\n');
  if (nl == std::string::npos) return 0;
  const std::string name = input.substr(0, nl);
  for (const auto& entry : bnsl::kNetFormatNames) {
    if (entry.name != name || entry.value == bnsl::NetFormat::bif) continue;
    bnsl::BayesNet net;
    try {
      net = bnsl::parse_network(input.substr(nl + 1), "fuzz", entry.value);
    } catch (const bnsl::InputError&) {
      return 0;
    }
    round_trips(net);
  }
  return 0;
}
