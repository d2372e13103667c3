// Slowdown (parallel/slowdown.hpp), the factor the deadline reserves scale by under load. Its
// figures on a loaded machine are measured by bench/deadline.py, not here (no timed
// assertions): these check its arithmetic on what a test can fix, the CPU a thread does or
// does not use.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "parallel/slowdown.hpp"

TEST_CASE("slowdown: 1 until measured, the cap for a thread that gets no CPU", "[slowdown]") {
  bnsl::Slowdown load(1.0);
  CHECK(load.factor() == 1);
  load.sample(1);
  CHECK(load.factor() == 1);  // one sample says nothing
  // The "busy" thread sleeps: it got (almost) no CPU in 150 ms, as if the machine gave it none.
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  load.sample(1);
  CHECK(load.factor() > 8);
  CHECK(load.factor() <= 16);
}

TEST_CASE("slowdown: a thread that computes is slowed by at least 1", "[slowdown]") {
  bnsl::Slowdown load(1.0);
  load.sample_thread();
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(150);
  volatile double x = 0;
  while (std::chrono::steady_clock::now() < until) x = x + 1;
  load.sample_thread();
  CHECK(load.factor() >= 1);
  CHECK(load.factor() <= 16);
}
