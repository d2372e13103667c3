// Each subcommand registers its options on the app and returns the action to run once the
// command line is parsed. Actions return the exit status; errors are thrown as exceptions
// and mapped to exit statuses in main.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

#include "bnsl/comm.hpp"

namespace bnsl::cli {

using Action = std::function<int()>;

// These three share their run with the other processes of `comm` (under mpirun; rank 0 writes
// the outputs); the others run in one process.
Action register_score(CLI::App& app, Comm& comm);
Action register_search(CLI::App& app, Comm& comm);
Action register_learn(CLI::App& app, Comm& comm);
Action register_check(CLI::App& app);
Action register_exact(CLI::App& app);
Action register_sample(CLI::App& app);
Action register_eval(CLI::App& app);
Action register_generate(CLI::App& app);
Action register_merge(CLI::App& app);

// Sets up `app` as bnsl's command line (description, --version, every subcommand) and returns
// the subcommands' actions; main.cpp and the command-line fuzz target (fuzz/) share it.
std::vector<Action> build_app(CLI::App& app, Comm& comm);

}  // namespace bnsl::cli
