// The command line: the input's lines are the arguments after "bnsl", parsed as main.cpp
// parses them (cmd/app.cpp). Only parsing: no command runs. A usage error (CLI::ParseError) and
// a bad value an option's callback refuses (bnsl's InputError) are the outcomes main.cpp turns
// into exit status 2; any other exception is a finding.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bnsl/comm.hpp"
#include "bnsl/error.hpp"
#include "commands.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"bnsl"};
  std::string arg;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    if (data[i] == '\n') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg.push_back(static_cast<char>(data[i]));
    }
  }
  if (!arg.empty()) args.push_back(arg);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  bnsl::Comm comm;  // one process
  CLI::App app;
  const std::vector<bnsl::cli::Action> actions = bnsl::cli::build_app(app, comm);
  try {
    bnsl::cli::parse_command_line(app, static_cast<int>(args.size()), argv.data());
  } catch (const CLI::ParseError&) {
  } catch (const bnsl::InputError&) {  // e.g. --set search.stall_share=nan
  }
  return 0;
}
