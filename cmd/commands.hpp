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
// exact runs in one process (main refuses it under mpirun); it takes `comm` for the frame of
// the pipeline commands (pipeline_frame.hpp).
Action register_exact(CLI::App& app, Comm& comm);
Action register_check(CLI::App& app);
Action register_sample(CLI::App& app);
Action register_eval(CLI::App& app);
Action register_generate(CLI::App& app);
Action register_merge(CLI::App& app);
Action register_convert(CLI::App& app);

// Sets up `app` as bnsl's command line (description, --version, every subcommand) and returns
// the subcommands' actions; main.cpp and the command-line fuzz target (fuzz/) share it.
std::vector<Action> build_app(CLI::App& app, Comm& comm);

// app.parse(argc, argv), with what CLI11 lets escape from a flag's value (`--no-header=abc`:
// std::stoll's invalid_argument or out_of_range) thrown as the CLI::ConversionError every
// other bad value gives, so that it is a usage error (exit 2) and not a crash. Shared by
// main.cpp and the fuzz target.
void parse_command_line(CLI::App& app, int argc, char** argv);

// Starts the worker threads of the parsed subcommand `command` (its --threads, all cores when
// not given) before any work: a system that refuses them (a small `ulimit -v`, a process limit)
// ends the run with a RuntimeError naming the reason, where libgomp would end it at the first
// parallel region with a message of its own.
void start_threads(const CLI::App& command);

}  // namespace bnsl::cli
