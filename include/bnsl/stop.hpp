// Cooperative stopping: a wall-clock deadline plus the SIGINT/SIGTERM flag.
//
//   bnsl::install_signal_handlers();              // once, in main
//   bnsl::StopToken stop(60.0);                   // 60 s from now; <= 0 means no deadline
//   while (!stop.stop_requested()) { ... }        // poll every few thousand steps
//
// The signal handler only sets a flag; loops poll it and return their best-so-far result.
#pragma once

#include <atomic>
#include <chrono>

namespace bnsl {

using Clock = std::chrono::steady_clock;

void install_signal_handlers();
bool signal_received();  // SIGINT or SIGTERM arrived
int received_signal();   // its number, 0 if none
// Marks signal `sig` as received, as if it had arrived here: another process of the run
// received it (bnsl/comm.hpp), or a test. The first signal's number is kept.
void propagate_signal(int sig);
// Forgets a received signal: for front ends that run several jobs in one process and stop one
// with propagate_signal (the Python package, on Ctrl-C), before the next.
void clear_signal();

class StopToken {
 public:
  explicit StopToken(double seconds = 0);  // seconds <= 0: no deadline
  StopToken(const StopToken& other);
  // A token for a part of this one's time, started now: its deadline is `seconds` from now
  // (none if seconds <= 0) or this token's, whichever comes first, so a deadline already passed
  // stays passed (where StopToken(remaining()) would read 0 as no deadline at all).
  StopToken within(double seconds) const;

  bool stop_requested() const;
  bool has_deadline() const { return has_deadline_; }
  // The seconds from start to the deadline it was created with (0 without one).
  double budget() const { return budget_; }
  // Seconds left before the deadline (infinity without one, 0 once passed).
  double remaining() const;
  double elapsed() const;  // seconds since construction
  Clock::time_point start() const { return start_; }
  void request_stop() { requested_.store(true, std::memory_order_relaxed); }

 private:
  Clock::time_point start_;
  Clock::time_point deadline_;
  bool has_deadline_;
  double budget_;
  std::atomic<bool> requested_{false};
};

}  // namespace bnsl
