// The command-line fuzz target's dictionary (libFuzzer's -dict), made from the command line's
// own definition (cmd/app.cpp, build_app) so that it cannot fall behind it: every command's
// name, every option's long and short names, every tunable of --set as "NAME=", and the values
// the hostile-input probe of issue 61 found breaking (NaN, infinities, out-of-range seeds).
// Without it the fuzzer has to guess "--candidates" byte by byte before it can try a value.
//
//   cli_dict > cli.dict     # then: fuzz_cli -dict=cli.dict ...  (scripts/fuzz.sh does this)
#include <iostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bnsl/comm.hpp"
#include "bnsl/tunables.hpp"
#include "commands.hpp"

namespace {

// One dictionary entry: a quoted string with '"', '\' and bytes outside printable ASCII as
// \xAB, as libFuzzer's dictionary format reads it.
std::string entry(std::string_view token) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "\"";
  for (const char ch : token) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x20 || b >= 0x7F || ch == '"' || ch == '\\') {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

void add_options(const CLI::App& app, std::set<std::string>& tokens) {
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& name : o->get_lnames()) tokens.insert("--" + name);
    for (const std::string& name : o->get_snames()) tokens.insert("-" + name);
  }
  for (const CLI::App* sub : app.get_subcommands({})) {
    tokens.insert(sub->get_name());
    add_options(*sub, tokens);
  }
}

}  // namespace

int main() {
  bnsl::Comm comm;  // one process
  CLI::App app;
  (void)bnsl::cli::build_app(app, comm);
  std::set<std::string> tokens;
  add_options(app, tokens);
  for (const bnsl::TunableInfo& t : bnsl::tunable_table()) tokens.insert(std::string(t.name) + "=");
  for (const char* value : {"nan", "-nan", "inf", "-inf", "1e400", "-1", "0", "-0", "0x10",
                            "18446744073709551615", "18446744073709551616", "-"})
    tokens.insert(value);
  tokens.insert("\n");  // the fuzz target's argument separator
  for (const std::string& token : tokens) std::cout << entry(token) << '\n';
  return std::cout ? 0 : 1;
}
