// src/parallel/threads.hpp: "0 threads" means OpenMP's team size, and an exception thrown in
// any iteration of a parallel loop reaches the caller (instead of ending the process).
#include <catch2/catch.hpp>

#include <omp.h>

#include <atomic>
#include <stdexcept>

#include "parallel/threads.hpp"

TEST_CASE("parallel: resolve_threads", "[parallel]") {
  CHECK(bnsl::resolve_threads(3) == 3);
  CHECK(bnsl::resolve_threads(0) == omp_get_max_threads());
  CHECK(bnsl::resolve_threads(-1) == omp_get_max_threads());
}

TEST_CASE("parallel: parallel_for runs every index once", "[parallel]") {
  std::vector<std::atomic<int>> hits(1000);
  bnsl::parallel_for(1000, 4, 7, [&](long i) { hits[i].fetch_add(1); });
  for (const auto& h : hits) CHECK(h.load() == 1);
}

TEST_CASE("parallel: the first exception of a parallel loop is rethrown", "[parallel]") {
  std::atomic<int> ran{0};
  CHECK_THROWS_WITH(bnsl::parallel_for(100, 4, 1,
                                       [&](long i) {
                                         ran.fetch_add(1);
                                         if (i % 10 == 3) throw std::runtime_error("bad index");
                                       }),
                    "bad index");
  CHECK(ran.load() == 100);  // the other iterations still ran

  bnsl::FirstError error;
#pragma omp parallel num_threads(3)
  {
#pragma omp for
    for (long i = 0; i < 30; ++i)
      error.run([&] {
        if (i == 17) throw std::invalid_argument("seventeen");
      });
  }
  CHECK(error.failed());
  CHECK_THROWS_AS(error.rethrow(), std::invalid_argument);
}
