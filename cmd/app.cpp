// The command line's shape (commands.hpp, build_app): shared by main.cpp and fuzz/fuzz_cli.cpp.
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "help.hpp"
#include "util/threads.hpp"

namespace bnsl::cli {

std::vector<Action> build_app(CLI::App& app, Comm& comm) {
  app.description(
      "bnsl: Bayesian network structure learning from discrete data, under a time budget.\n"
      "Exit status: 0 success, 1 runtime failure, 2 bad usage or bad input,\n"
      "128+N when stopped by signal N (results so far are written).");
  app.require_subcommand(1);
  setup_help(app);  // before the commands, which take its formatter and --help-all
  app.set_version_flag("--version",
                       std::string("bnsl " BNSL_VERSION) + (mpi_built() ? " (MPI)" : ""));
  return {register_learn(app, comm), register_score(app, comm), register_search(app, comm),
          register_exact(app, comm), register_check(app),       register_sample(app),
          register_eval(app),        register_generate(app),    register_merge(app),
          register_convert(app),     register_help(app)};
}

void parse_command_line(CLI::App& app, int argc, char** argv) {
  check_command_name(app, argc, argv);
  try {
    app.parse(argc, argv);
  } catch (const std::invalid_argument& e) {  // CLI::ParseError is a std::runtime_error
    throw CLI::ConversionError(std::string("a flag's value is not true/false, yes/no, on/off "
                                           "or a number (") +
                               e.what() + ")");
  } catch (const std::out_of_range& e) {
    throw CLI::ConversionError(std::string("a flag's value is out of range (") + e.what() + ")");
  }
}

void start_threads(const CLI::App& command) {
  if (const CLI::Option* t = command.get_option_no_throw("--threads"))
    bnsl::start_threads(t->count() > 0 ? t->as<int>() : 0);
}

}  // namespace bnsl::cli
