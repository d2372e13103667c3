// Cooperative stopping. The signal handler only stores the signal number in a lock-free
// atomic; every long loop polls StopToken::stop_requested() and returns its best-so-far.
// This flag is the one piece of process-wide state: signals are process-wide.
#include "bnsl/stop.hpp"

#include <algorithm>
#include <csignal>
#include <limits>

namespace bnsl {
namespace {

std::atomic<int> g_signal{0};  // process-wide by nature (signals are)
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int sig) {
  g_signal.store(sig, std::memory_order_relaxed);
}

}  // namespace

void install_signal_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool signal_received() {
  return g_signal.load(std::memory_order_relaxed) != 0;
}
int received_signal() {
  return g_signal.load(std::memory_order_relaxed);
}
void propagate_signal(int sig) {
  int none = 0;
  g_signal.compare_exchange_strong(none, sig, std::memory_order_relaxed);
}

void clear_signal() {
  g_signal.store(0, std::memory_order_relaxed);
}

StopToken::StopToken(double seconds)
    : start_(Clock::now()),
      deadline_(start_),
      has_deadline_(seconds > 0),
      budget_(has_deadline_ ? seconds : 0) {
  if (has_deadline_)
    deadline_ = start_ +
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

StopToken::StopToken(const StopToken& other)
    : start_(other.start_),
      deadline_(other.deadline_),
      has_deadline_(other.has_deadline_),
      budget_(other.budget_) {
  requested_.store(other.requested_.load());
}

StopToken StopToken::within(double seconds) const {
  StopToken part(seconds);
  if (has_deadline_ && (!part.has_deadline_ || deadline_ < part.deadline_)) {
    part.deadline_ = std::max(deadline_, part.start_);
    part.has_deadline_ = true;
    // 0 would read as no deadline to callers of budget(): a passed one is the shortest there is
    part.budget_ = std::max(std::chrono::duration<double>(part.deadline_ - part.start_).count(),
                            std::numeric_limits<double>::min());
  }
  if (requested_.load(std::memory_order_relaxed)) part.request_stop();
  return part;
}

bool StopToken::stop_requested() const {
  if (requested_.load(std::memory_order_relaxed) || signal_received()) return true;
  return has_deadline_ && Clock::now() >= deadline_;
}

double StopToken::remaining() const {
  if (!has_deadline_) return std::numeric_limits<double>::infinity();
  double left = std::chrono::duration<double>(deadline_ - Clock::now()).count();
  return left > 0 ? left : 0;
}

double StopToken::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

}  // namespace bnsl
