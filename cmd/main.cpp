// bnsl: learn Bayesian network structures from discrete data. This file only parses the
// command line, runs the chosen subcommand and maps exceptions to exit statuses:
// 0 success, 1 runtime failure, 2 bad usage or bad input. Under mpirun, the processes share
// learn, score and search (bnsl/comm.hpp); an error in any process ends them all.
#include <chrono>
#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "bnsl/comm.hpp"
#include "bnsl/error.hpp"
#include "bnsl/stop.hpp"
#include "commands.hpp"
#include "outputs.hpp"

namespace {

// The exit status of an error in a process of a shared run, which ends every process. An error
// that every process meets (bad input) is printed once, by rank 0; the others wait a moment
// first, and print theirs only if it is their own.
int fail(bnsl::Comm& comm, const std::string& message, int status) {
  if (comm.distributed() && !comm.root()) std::this_thread::sleep_for(std::chrono::seconds(2));
  std::cerr << "bnsl: error"
            << (comm.distributed() ? " (process " + std::to_string(comm.rank()) + ")" : "") << ": "
            << message << "\n";
  if (comm.distributed()) comm.abort(status);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace bnsl;
  std::unique_ptr<Comm> comm;
  try {
    comm = make_comm(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bnsl: error: " << e.what() << "\n";
    return 1;
  }
  std::unique_ptr<CLI::App> owned;
  std::vector<cli::Action> actions;
  try {  // a tight `ulimit -v` can fail even this
    owned = std::make_unique<CLI::App>();
    actions = cli::build_app(*owned, *comm);
  } catch (const std::bad_alloc&) {
    std::cerr << "bnsl: error: out of memory while starting (ulimit -v?)\n";
    return 1;
  }
  CLI::App& app = *owned;
  try {
    cli::parse_command_line(app, argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "bnsl: error: " << e.what() << "\n";
    std::cerr << "Run 'bnsl help' or 'bnsl help COMMAND' for usage.\n";
    return 2;
  } catch (const InputError& e) {  // thrown by an option's callback: a bad value
    std::cerr << "bnsl: error: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "bnsl: error: out of memory while reading the command line\n";
    return 1;
  } catch (const std::exception& e) {  // a callback's conversion of a value it was given
    std::cerr << "bnsl: error: " << e.what() << "\n";
    return 2;
  }
  install_signal_handlers();
  std::string command;
  try {
    command = app.get_subcommands().front()->get_name();
    if (comm->distributed() && command != "learn" && command != "score" && command != "search")
      throw InputError(
          "bnsl " + command + " runs in one process: start it without mpirun " +
          "(it uses every core of its node); learn, score and search run under mpirun");
    cli::start_threads(*app.get_subcommands().front());
    for (auto& action : actions)
      if (int status = action(); status >= 0) return status;
    return 2;
  } catch (const InputError& e) {
    return fail(*comm, e.what(), 2);
  } catch (const std::bad_alloc&) {
    return fail(*comm, cli::out_of_memory_text(command), 1);
  } catch (const std::exception& e) {
    return fail(*comm, e.what(), 1);
  }
}
