// src/util/threads.hpp: "0 threads" means OpenMP's team size, and an exception thrown in
// any iteration of a parallel loop reaches the caller (instead of ending the process). The
// serial communication layer's work queue, and the byte strings processes exchange.
#include <catch2/catch.hpp>

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/comm.hpp"
#include "parallel/wire.hpp"
#include "util/threads.hpp"

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

// bnsl/comm.hpp's serial default: the work queue hands out every item once, in guided chunks
// (never empty while items are left, smaller as fewer are left), to any number of threads.
TEST_CASE("parallel: the serial work queue hands out every item once", "[parallel][comm]") {
  bnsl::Comm comm;
  CHECK(comm.root());
  CHECK_FALSE(comm.distributed());
  for (std::size_t count : {0, 1, 7, 1000}) {
    comm.open_queue(count, 4);
    CHECK(comm.queue_workers() == 4);
    std::vector<std::atomic<int>> hits(count);
    std::atomic<std::size_t> first_chunk{0};
#pragma omp parallel num_threads(4)
    {
      for (bnsl::ItemRange r = comm.next_items(); r.begin < r.end; r = comm.next_items()) {
        if (r.begin == 0) first_chunk = r.end;
        for (std::size_t i = r.begin; i < r.end; ++i) hits[i].fetch_add(1);
      }
    }
    comm.close_queue();
    for (const auto& h : hits) CHECK(h.load() == 1);
    if (count == 1000) CHECK(first_chunk.load() == 1000 / (8 * 4));
    const bnsl::ItemRange after = comm.next_items();
    CHECK(after.begin == after.end);
  }
  // The collectives of one process return its own bytes.
  CHECK(comm.all_gather("abc") == std::vector<std::string>{"abc"});
  CHECK(comm.gather("abc") == std::vector<std::string>{"abc"});
  CHECK(comm.broadcast("abc") == "abc");
}

// parallel/wire.hpp: what processes send each other reads back as it was written.
TEST_CASE("parallel: cache entries and networks survive the wire", "[parallel][comm]") {
  bnsl::ScoreCache cache(4);
  cache.var(0).add(-10.5, {});
  cache.var(1).add(-3.25, std::vector<int>{0, 2});
  cache.var(1).add(-4.0, {});
  cache.var(3).add(-1e300, std::vector<int>{0, 1, 2});
  const std::vector<int> some = {1, 3};
  bnsl::ScoreCache back(4);
  back.var(1).add(-99, {});  // replaced
  bnsl::wire::unpack_vars(bnsl::wire::pack_vars(cache, some), back);
  CHECK(back.var(0).empty());
  for (int v : some) {
    REQUIRE(back.var(v).size() == cache.var(v).size());
    for (std::size_t e = 0; e < cache.var(v).size(); ++e) {
      CHECK(back.var(v).score(e) == cache.var(v).score(e));
      const auto a = cache.var(v).parents(e), b = back.var(v).parents(e);
      CHECK(std::vector<int>(a.begin(), a.end()) == std::vector<int>(b.begin(), b.end()));
    }
  }
  const std::string bytes = bnsl::wire::pack_vars(cache, some);
  CHECK_THROWS(bnsl::wire::unpack_vars(bytes.substr(0, bytes.size() - 3), back));
  bnsl::ScoreCache small(2);
  CHECK_THROWS(bnsl::wire::unpack_vars(bytes, small));  // variable 3 of 2

  const std::vector<std::uint32_t> choices = {0, 1, 0, 0};
  double score = 0;
  std::vector<std::uint32_t> got;
  const std::string net = bnsl::wire::pack_network(-17.75, choices);
  CHECK(bnsl::wire::unpack_network(net, 4, score, got));
  CHECK(score == -17.75);
  CHECK(got == choices);
  CHECK_FALSE(bnsl::wire::unpack_network(net, 5, score, got));
  CHECK_FALSE(bnsl::wire::unpack_network(net.substr(0, 9), 4, score, got));
}
