// SetTable (src/explore/set_table.hpp): a narrow table (members below 64, keyed by bitmask)
// and a wide one (keyed by the member list) hold the same sets under the same ids, against a
// std::map of the sets inserted.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "explore/set_table.hpp"

TEST_CASE("set table: narrow and wide tables find exactly the sets inserted", "[explore]") {
  // narrow keyed by the mask's hash, by runs (all but the largest member's hash plus it), wide
  bnsl::SetTable narrow(true), runs(true, true), wide(false);
  const auto fill = [&](std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::map<std::vector<std::int32_t>, std::uint32_t> truth;
    std::uniform_int_distribution<int> size(0, 6), member(0, 63);
    const auto random_set = [&] {
      std::vector<std::int32_t> s;
      for (int k = size(rng); k > 0; --k) s.push_back(member(rng));
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
      return s;
    };
    for (int i = 0; i < 20000; ++i) {
      const auto s = random_set();
      const auto it = truth.find(s);
      const std::int64_t want = it == truth.end() ? -1 : static_cast<std::int64_t>(it->second);
      REQUIRE(narrow.find(s) == want);
      REQUIRE(runs.find(s) == want);
      REQUIRE(wide.find(s) == want);
      if (want < 0) {
        const std::uint32_t id = narrow.insert(s);
        REQUIRE(runs.insert(s) == id);
        REQUIRE(wide.insert(s) == id);
        truth.emplace(s, id);
      }
    }
    REQUIRE(narrow.size() == truth.size());
    for (const auto& [s, id] : truth) {
      for (const bnsl::SetTable* t : {&narrow, &runs, &wide}) {
        const auto got = t->get(id);
        CHECK(std::vector<std::int32_t>(got.begin(), got.end()) == s);
        CHECK(t->find(s) == id);
      }
    }
    CHECK(truth.size() > 10000);  // mostly new sets, with repeats among the small ones
  };
  fill(5);
  // clear() keeps the memory: the tables refill from id 0 and forget every earlier set
  const std::size_t bytes = narrow.bytes();
  for (bnsl::SetTable* t : {&narrow, &runs, &wide}) {
    t->clear();
    CHECK(t->size() == 0);
    CHECK(t->find(std::vector<std::int32_t>{}) == -1);
  }
  CHECK(narrow.bytes() == bytes);
  fill(6);
}
