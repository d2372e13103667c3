// Threads: the one place where "0 threads = all cores" is resolved, and the exception capture
// every OpenMP region uses (an exception escaping a parallel region ends the process; captured,
// the first one is rethrown on the calling thread once the region is over).
//
//   const int t = bnsl::resolve_threads(options.threads);
//   bnsl::FirstError error;
//   #pragma omp parallel num_threads(t)
//   {
//     Counter counter(...);                       // per-thread state
//   #pragma omp for schedule(dynamic, 1)
//     for (long i = 0; i < n; ++i) error.run([&] { work(counter, i); });
//   }
//   error.rethrow();
//
//   bnsl::parallel_for(n, t, 1, [&](long i) { work(i); });   // the same, without state
//
// This folder is also where the communication layer of multi-node runs will live.
#pragma once

#include <exception>
#include <mutex>

namespace bnsl {

// threads > 0: threads; otherwise OpenMP's default team size (OMP_NUM_THREADS when set, else
// every core the process may use).
int resolve_threads(int threads);

// Starts OpenMP's team of resolve_threads(threads) threads now, or throws RuntimeError naming
// the reason when the system refuses to create them (a small `ulimit -v`, a process limit):
// libgomp would otherwise end the process at its first parallel region with a message of its
// own. Each thread is first created and joined with pthreads (the same default stack size
// libgomp uses), then one empty parallel region makes libgomp keep its team for the run.
void start_threads(int threads);

// Keeps the first exception thrown by the functions it runs; the others are dropped.
class FirstError {
 public:
  template <class F>
  void run(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
  bool failed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<bool>(error_);
  }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  mutable std::mutex mutex_;
  std::exception_ptr error_;
};

// body(i) for i in [0, n) on `threads` threads (resolved), dynamically scheduled in chunks of
// `chunk`; the first exception of any call is rethrown here after the loop.
template <class Body>
void parallel_for(long n, int threads, int chunk, Body&& body) {
  FirstError error;
  const int t = resolve_threads(threads);
#pragma omp parallel for num_threads(t) schedule(dynamic, chunk)
  for (long i = 0; i < n; ++i) error.run([&] { body(i); });
  error.rethrow();
}

}  // namespace bnsl
