// Slowdown (slowdown.hpp): the process's CPU clock (every thread's time,
// CLOCK_PROCESS_CPUTIME_ID), or one thread's, against the steady clock. A thread that polls (the
// search's monitor) adds almost nothing; OpenMP threads spinning at a barrier would count as
// computing, so sample only while the busy threads have work.
#include "parallel/slowdown.hpp"

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>

namespace bnsl {
namespace {

double seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

double thread_cpu_seconds() {
  return seconds(CLOCK_THREAD_CPUTIME_ID);
}

Slowdown::Slowdown(double window_seconds) : window_(window_seconds) {
  cpu_set_t set;
  CPU_ZERO(&set);
  cores_ = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  if (cores_ <= 0) cores_ = static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
}

double Slowdown::factor(int threads) const {
  if (busy_ == 0) return 1;  // not measured
  const double cores = cores_;
  const double busy = std::min<double>(busy_ < 0 ? 1 : busy_, cores);
  // Slowed, the machine was saturated: factor_ x cores runnable threads. Not slowed, the
  // others are taken to be none (they fitted beside ours).
  const double others = factor_ > 1 ? std::max(0.0, factor_ * cores - busy) : 0.0;
  return std::clamp((others + std::max(1, threads)) / cores, 1.0, 16.0);
}

void Slowdown::sample(int busy) {
  add(std::max(1, busy), seconds(CLOCK_PROCESS_CPUTIME_ID));
}

void Slowdown::sample_thread() {
  add(-1, thread_cpu_seconds());
}

void Slowdown::add(int busy, double cpu) {
  const double wall = seconds(CLOCK_MONOTONIC);
  if (busy != busy_) {
    busy_ = busy;
    samples_.clear();
  }
  if (!samples_.empty() && wall - samples_.back().first < 0.01) return;
  samples_.emplace_back(wall, cpu);
  while (samples_.size() > 2 && wall - samples_[1].first >= window_) samples_.pop_front();
  const double dwall = wall - samples_.front().first;
  const double dcpu = samples_.back().second - samples_.front().second;
  if (dwall < 0.1) return;  // too short a window to say
  const double threads = busy < 0 ? 1 : busy;
  factor_ = dcpu > 0 ? std::clamp(threads * dwall / dcpu, 1.0, 16.0) : 16.0;
}

}  // namespace bnsl
