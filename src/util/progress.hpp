// Progress lines on stderr, at most one every `interval` seconds, from any thread.
// Each worker reports its own finished items and counter; the line shows the totals.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "bnsl/stop.hpp"

namespace bnsl {

class Progress {
 public:
  Progress(std::string phase, bool enabled, const StopToken& clock, double interval = 2.0);
  // One more item finished, which took `work` units (sets scored, moves tried, ...).
  void step(std::uint64_t work);
  void set_total(std::uint64_t total) { total_ = total; }
  void finish();

 private:
  void print_line();

  std::string phase_;
  bool enabled_;
  const StopToken& clock_;
  double interval_;
  std::uint64_t total_ = 0;
  std::atomic<std::uint64_t> done_{0};
  std::atomic<std::uint64_t> work_{0};
  std::mutex mutex_;
  double last_ = 0;
};

}  // namespace bnsl
