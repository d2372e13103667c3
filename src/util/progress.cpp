// Rate-limited progress lines on stderr (never stdout: results go there or to files).
#include "util/progress.hpp"

#include <cstdio>

namespace bnsl {

Progress::Progress(std::string phase, bool enabled, const StopToken& clock, double interval)
    : phase_(std::move(phase)), enabled_(enabled), clock_(clock), interval_(interval) {}

void Progress::step(std::uint64_t work) {
  done_.fetch_add(1, std::memory_order_relaxed);
  work_.fetch_add(work, std::memory_order_relaxed);
  if (!enabled_) return;
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  double now = clock_.elapsed();
  if (now - last_ < interval_) return;
  last_ = now;
  print_line();
}

void Progress::finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  print_line();
}

void Progress::print_line() {
  const double elapsed = clock_.elapsed();
  const double budget = clock_.has_deadline() ? elapsed + clock_.remaining() : 0;
  char when[64];
  if (budget > 0)
    std::snprintf(when, sizeof when, "%.1f s / %.0f s", elapsed, budget);
  else
    std::snprintf(when, sizeof when, "%.1f s", elapsed);
  std::fprintf(stderr, "bnsl: %s: %llu/%llu variables, %llu sets scored, %s\n", phase_.c_str(),
               static_cast<unsigned long long>(done_.load()),
               static_cast<unsigned long long>(total_),
               static_cast<unsigned long long>(work_.load()), when);
}

}  // namespace bnsl
