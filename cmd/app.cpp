// The command line's shape (commands.hpp, build_app): shared by main.cpp and fuzz/fuzz_cli.cpp.
#include <string>

#include "commands.hpp"

namespace bnsl::cli {

std::vector<Action> build_app(CLI::App& app, Comm& comm) {
  app.description(
      "bnsl: Bayesian network structure learning from discrete data, under a time budget.\n"
      "Exit status: 0 success, 1 runtime failure, 2 bad usage or bad input,\n"
      "128+N when stopped by signal N (results so far are written).");
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("bnsl 0.1.0") + (mpi_built() ? " (MPI)" : ""));
  return {register_learn(app, comm), register_score(app, comm), register_search(app, comm),
          register_exact(app),       register_check(app),       register_sample(app),
          register_eval(app),        register_generate(app),    register_merge(app)};
}

}  // namespace bnsl::cli
