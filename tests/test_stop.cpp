// StopToken::within: a part of a budget whose outer deadline has already passed is itself
// past, never "no deadline" (StopToken(0) means none); and an exploration given its own time
// under such an outer token stops every variable at once instead of running unbounded.
#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <thread>

#include "bnsl/dataset.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/stop.hpp"

namespace {

bnsl::StopToken passed() {
  bnsl::StopToken t(1e-6);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  return t;
}

}  // namespace

TEST_CASE("within: the sooner of its own deadline and the outer one", "[stop]") {
  const bnsl::StopToken none;
  CHECK_FALSE(none.within(0).has_deadline());
  CHECK(none.within(100).has_deadline());
  CHECK(none.within(100).remaining() > 99);

  const bnsl::StopToken outer(100);
  CHECK(outer.within(0).remaining() <= 100);
  CHECK(outer.within(0).has_deadline());
  CHECK(outer.within(5).remaining() <= 5);

  const bnsl::StopToken past = passed();
  REQUIRE(past.stop_requested());
  const bnsl::StopToken part = past.within(60);
  CHECK(part.has_deadline());
  CHECK(part.budget() > 0);  // a budget, not "none"
  CHECK(part.remaining() == 0);
  CHECK(part.stop_requested());
  CHECK(past.within(0).stop_requested());

  bnsl::StopToken asked(100);
  asked.request_stop();
  CHECK(asked.within(50).stop_requested());
}

TEST_CASE("an exploration with its own budget under a passed deadline stops at once",
          "[stop][screening]") {
  // 300 binary columns, 50 rows: screened (candidates 16), so the all-pairs statistics and
  // each variable's best-first explorer poll the run's token.
  std::mt19937_64 rng(7);
  std::vector<std::vector<int>> cols(300, std::vector<int>(50));
  for (auto& c : cols)
    for (int& x : c) x = static_cast<int>(rng() & 1);
  const bnsl::Dataset d = bnsl::Dataset::from_codes(cols, std::vector<int>(cols.size(), 2));
  bnsl::ExploreOptions o;
  o.candidates = 16;
  o.max_parents = 2;  // keeps the unlimited run below short
  o.time = 60;        // its own share: the outer deadline has passed already
  o.threads = 1;
  bnsl::ExploreStats unlimited_stats;
  {
    bnsl::ExploreOptions u = o;
    u.time = 0;
    u.time_per_var = 0;
    bnsl::explore(d, u, bnsl::StopToken(), &unlimited_stats);
  }
  bnsl::ExploreStats stats;
  const bnsl::ScoreCache cache = bnsl::explore(d, o, passed(), &stats);
  // Every variable keeps its empty set (the cache stays usable); none ran its course.
  for (std::size_t v = 0; v < d.n_vars(); ++v) CHECK(cache.var(v).size() >= 1);
  CHECK(stats.sets_scored < unlimited_stats.sets_scored / 4);
}
