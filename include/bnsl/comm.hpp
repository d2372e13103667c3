// The processes that share one run: a thin communication interface with a serial default (this
// process alone) and an MPI implementation (src/parallel/mpi_comm.cpp, CMake option
// BNSL_WITH_MPI), as LightGBM's Network. The pipeline takes a Comm through ExploreOptions::comm
// and SearchOptions::comm and wraps the serial steps instead of forking them:
// - exploration: explore() draws its variables from a queue shared by every process (each with
//   its threads), then every process gathers the whole cache;
// - search: each process runs its chains (random streams from the seed, the rank and the
//   chain), sends the best network it finds to the others (they pool it, and large problems
//   restart around it), and at the end rank 0 pools every process's classes and reports;
// - a signal (SIGINT, SIGTERM) to any process stops them all, which then report as one
//   stopped process does.
//
//   std::unique_ptr<bnsl::Comm> comm = bnsl::make_comm(argc, argv);  // MPI under mpirun
//   bnsl::LearnOptions opt;
//   opt.comm = comm.get();
//   bnsl::StopToken stop = bnsl::start_together(*comm, 60);
//   bnsl::LearnResult r = bnsl::learn(data, opt, stop, comm->root() ? write : nullptr);
//
// Collective calls (marked so below) must be made by every process, in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/stop.hpp"

namespace bnsl {

// A half-open range of items [begin, end) handed out by a work queue.
struct ItemRange {
  std::size_t begin = 0, end = 0;
};

class Comm {
 public:
  Comm() = default;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;
  virtual ~Comm() = default;

  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  bool root() const { return rank() == 0; }
  bool distributed() const { return size() > 1; }
  // "MPI, 4 processes" or "one process".
  virtual std::string describe() const { return "one process"; }

  // Collective. Every process's bytes, in rank order (each process gets all of them).
  virtual std::vector<std::string> all_gather(std::string bytes) { return {std::move(bytes)}; }
  // Collective. Every process's bytes, in rank order, at rank 0 (the others get none).
  virtual std::vector<std::string> gather(std::string bytes) { return {std::move(bytes)}; }
  // Collective. Rank 0's bytes, everywhere.
  virtual std::string broadcast(std::string bytes) { return bytes; }
  virtual void barrier() {}

  // A queue of `count` items shared by every process. open_queue and close_queue are
  // collective; next_items may be called from any thread between them and returns an empty
  // range once every item was handed out. Items come in guided chunks (smaller as fewer are
  // left), so that a process asks rarely; `workers` is this process's number of threads.
  virtual void open_queue(std::size_t count, int workers);
  virtual ItemRange next_items();
  virtual void close_queue() {}
  // The threads of every process drawing from the open queue.
  virtual int queue_workers() const { return queue_workers_; }

  // Messages between processes, outside collectives (any thread): post() queues `bytes` for
  // process `to`; receive() takes one message that arrived, if any.
  virtual void post(int /*to*/, std::string /*bytes*/) {}
  virtual std::optional<std::pair<int, std::string>> receive() { return std::nullopt; }
  // Collective: returns once every message posted before it was delivered (and can be taken
  // with receive()).
  virtual void flush() {}

  // Ends every process at once with this exit status (after an error on this one).
  [[noreturn]] virtual void abort(int status);

  // Bytes this process has sent to and received from the others so far (collectives counted
  // as the bytes that cross this process's link; 0 for one process).
  struct Traffic {
    std::uint64_t sent = 0, received = 0;
  };
  virtual Traffic traffic() const { return {}; }

 protected:
  // The serial queue (also rank 0's counter in the MPI queue): guided chunks of the items
  // left, over `workers` threads.
  ItemRange take_chunk();
  std::mutex queue_mutex_;  // guards the three below
  std::size_t queue_next_ = 0, queue_count_ = 0;
  int queue_workers_ = 1;
};

// Collective: a stop token of `seconds` (<= 0: no deadline) started at the same moment in
// every process (when they leave a barrier), so that a run's processes share one deadline.
StopToken start_together(Comm& comm, double seconds);

// MPI when this binary was built with it (BNSL_WITH_MPI) and runs under an MPI launcher
// (mpirun, mpiexec or srun set its environment), else one process alone. Initialises MPI,
// which may remove its own arguments from argc/argv.
std::unique_ptr<Comm> make_comm(int& argc, char**& argv);

// Whether this binary was built with MPI.
bool mpi_built();

}  // namespace bnsl
