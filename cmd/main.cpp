// bnsl: learn Bayesian network structures from discrete data. This file only parses the
// command line, runs the chosen subcommand and maps exceptions to exit statuses:
// 0 success, 1 runtime failure, 2 bad usage or bad input.
#include <exception>
#include <iostream>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace bnsl;
  CLI::App app{
      "bnsl: Bayesian network structure learning from discrete data, under a time budget.\n"
      "Exit status: 0 success, 1 runtime failure, 2 bad usage or bad input,\n"
      "128+N when stopped by signal N (results so far are written)."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "bnsl 0.1.0");
  std::vector<cli::Action> actions = {
      cli::register_learn(app), cli::register_score(app),    cli::register_search(app),
      cli::register_exact(app), cli::register_check(app),    cli::register_sample(app),
      cli::register_eval(app),  cli::register_generate(app), cli::register_merge(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "bnsl: error: " << e.what() << "\n";
    std::cerr << "Run 'bnsl --help' or 'bnsl SUBCOMMAND --help' for usage.\n";
    return 2;
  }
  install_signal_handlers();
  try {
    for (auto& action : actions)
      if (int status = action(); status >= 0) return status;
    return 2;
  } catch (const InputError& e) {
    std::cerr << "bnsl: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "bnsl: error: " << e.what() << "\n";
    return 1;
  }
}
