// The MPI implementation of bnsl::Comm (bnsl/comm.hpp), built with BNSL_WITH_MPI.
#pragma once

#include <memory>

#include "bnsl/comm.hpp"

namespace bnsl {

// Initialises MPI (MPI_THREAD_MULTIPLE) and starts the progress thread. Throws a runtime_error
// if the MPI library lacks thread support.
std::unique_ptr<Comm> make_mpi_comm(int& argc, char**& argv);

}  // namespace bnsl
