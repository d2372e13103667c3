// How much slower than on an idle machine the process computes now: the wall time its busy
// threads spent over the CPU time they got, over the last seconds. On a machine shared with
// other work (2 threads on 2 cores with 2 busy processes beside them: about 2) every step takes
// that much longer, the report at the deadline too, so the reserves kept for it scale by it
// (issue 24: the deadline under load).
//
//   Slowdown load;
//   while (computing) { load.sample(threads); ... }   // from a thread that polls anyway
//   while (listing) { load.sample_thread(); ... }      // or of the one thread computing
//   const double reserve = load.factor(1) * unloaded_reserve;   // of a one-thread step
#pragma once

#include <deque>
#include <utility>

namespace bnsl {

// The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID): what a step cost it,
// whatever else the machine ran meanwhile.
double thread_cpu_seconds();

class Slowdown {
 public:
  explicit Slowdown(double window_seconds = 2.0);

  // A sample while `busy` threads of the process compute without waiting (each could use a
  // core to itself). Samples less than 10 ms apart are skipped; a change of `busy` starts the
  // window again (the factor measured so far stays until the new window says more).
  void sample(int busy);
  // A sample of the calling thread alone (its own CPU clock), while it computes; always from
  // the same thread.
  void sample_thread();
  // busy x wall / CPU over the window, at least 1 and at most 16; 1 before two samples: how
  // much slower the busy threads run than on cores of their own.
  double factor() const { return factor_; }
  // How much slower a job of `threads` CPU-bound threads would run now, from the same samples:
  // the machine's cores shared evenly by the runnable threads, factor() x cores of them while
  // the samples were taken, of which the busy ones were this process's. E.g. 2 busy threads
  // on 2 cores beside 2 busy processes: factor() 2, and a job of 1 thread (a report) 1.5.
  double factor(int threads) const;
  int cores() const { return cores_; }

 private:
  void add(int busy, double cpu_seconds);

  double window_;
  int cores_;                                      // the cores this process may run on
  int busy_ = 0;                                   // -1: the thread's own clock
  std::deque<std::pair<double, double>> samples_;  // (wall s, process CPU s)
  double factor_ = 1;
};

}  // namespace bnsl
