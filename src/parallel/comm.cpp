// The serial communication layer (bnsl/comm.hpp): one process alone, whose work queue is a
// counter handing out guided chunks; and the choice between it and MPI at start-up.
#include "bnsl/comm.hpp"

#include <algorithm>
#include <cstdlib>

#include "parallel/mpi_comm.hpp"

namespace bnsl {

// Guided chunks: an eighth of each worker's fair share of the items left, at least one. With
// thousands of variables a process asks a few dozen times; the last items go one by one, so
// the processes end together.
constexpr std::size_t kChunkDivisor = 8;

void Comm::open_queue(std::size_t count, int workers) {
  std::lock_guard<std::mutex> lock(queue_mutex_);
  queue_next_ = 0;
  queue_count_ = count;
  queue_workers_ = std::max(1, workers);
}

ItemRange Comm::take_chunk() {
  std::lock_guard<std::mutex> lock(queue_mutex_);
  const std::size_t left = queue_count_ - queue_next_;
  const std::size_t share = left / (kChunkDivisor * static_cast<std::size_t>(queue_workers_));
  const std::size_t chunk = std::min(left, std::max<std::size_t>(1, share));
  ItemRange r{queue_next_, queue_next_ + chunk};
  queue_next_ += chunk;
  return r;
}

ItemRange Comm::next_items() {
  return take_chunk();
}

void Comm::abort(int status) {
  std::exit(status);
}

StopToken start_together(Comm& comm, double seconds) {
  comm.barrier();
  return StopToken(seconds);
}

bool mpi_built() {
#ifdef BNSL_HAVE_MPI
  return true;
#else
  return false;
#endif
}

std::unique_ptr<Comm> make_comm(int& argc, char**& argv) {
#ifdef BNSL_HAVE_MPI
  // Open MPI's mpirun, MPICH's Hydra and Slurm's srun (with PMI or PMIx) set these.
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(var)) return make_mpi_comm(argc, argv);
#else
  (void)argc;
  (void)argv;
#endif
  return std::make_unique<Comm>();
}

}  // namespace bnsl
