// The tunables' table (bnsl/tunables.hpp): every default in its range, names unique and
// prefixed by their part, --set's checks, and values that reach the code that uses them
// (the budget policy's shares, the default screening).
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>

#include "bnsl/error.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/tunables.hpp"

namespace {

bnsl::Dataset columns(std::size_t n, std::size_t rows) {
  bnsl::Dataset d;
  std::vector<std::uint32_t> codes(rows);
  for (std::size_t r = 0; r < rows; ++r) codes[r] = static_cast<std::uint32_t>(r % 2);
  for (std::size_t v = 0; v < n; ++v) d.add_column("v" + std::to_string(v), {"a", "b"}, codes);
  return d;
}

}  // namespace

TEST_CASE("every tunable's default lies in its range, and names are unique", "[tunables]") {
  std::set<std::string> names;
  for (const bnsl::TunableInfo& t : bnsl::tunable_table()) {
    INFO(t.name);
    CHECK(t.lo <= t.value);
    CHECK(t.value <= t.hi);
    if (t.integer) CHECK(t.value == std::floor(t.value));
    CHECK(!t.why.empty());
    const std::string name(t.name);
    const std::string part = name.substr(0, name.find('.'));
    CHECK((part == "explore" || part == "search" || part == "budget"));
    CHECK(names.insert(name).second);
  }
  CHECK(names.size() >= 20);
  CHECK(bnsl::changed_tunables(bnsl::Tunables{}).empty());
}

TEST_CASE("set_tunable checks the name and the range and changes that one alone", "[tunables]") {
  bnsl::Tunables t;
  bnsl::set_tunable(t, "search.stall_share", 0.5);
  CHECK(t.search.stall_share == 0.5);
  bnsl::set_tunable(t, "explore.draft_singles=12");
  CHECK(t.explore.draft_singles == 12);
  CHECK(bnsl::changed_tunables(t) ==
        std::vector<std::string>{"explore.draft_singles=12", "search.stall_share=0.5"});
  for (const bnsl::TunableInfo& i : bnsl::tunable_table()) {  // back to every default
    bnsl::set_tunable(t, i.name, i.value);
  }
  CHECK(bnsl::changed_tunables(t).empty());
  CHECK_THROWS_WITH(bnsl::set_tunable(t, "search.stal_share", 0.5),
                    Catch::Contains("did you mean 'search.stall_share'"));
  CHECK_THROWS_AS(bnsl::set_tunable(t, "search.stall_share", 1.5), bnsl::InputError);
  CHECK_THROWS_AS(bnsl::set_tunable(t, "search.stall_share", std::nan("")), bnsl::InputError);
  CHECK_THROWS_AS(bnsl::set_tunable(t, "search.flood_max", 2.5), bnsl::InputError);
  CHECK_THROWS_AS(bnsl::set_tunable(t, "search.flood_max"), bnsl::InputError);
  CHECK_THROWS_AS(bnsl::set_tunable(t, "search.flood_max=1x"), bnsl::InputError);
  CHECK(t.search.stall_share == bnsl::SearchTunables{}.stall_share);  // refused: unchanged
}

TEST_CASE("the budget shares and the default screening come from the tunables", "[tunables]") {
  const bnsl::Dataset data = columns(30, 20);
  bnsl::LearnOptions o;
  o.search.dp_max_n = 0;                                         // not the DP's share
  CHECK(bnsl::learn_explore_seconds(o, data, 10) == Approx(5));  // the default, 0.5
  o.budget.explore_share = 0.3;
  CHECK(bnsl::learn_explore_seconds(o, data, 10) == Approx(3));
  o.explore.tune.auto_screen_vars = 20;  // 30 variables: screened now
  o.budget.screened_explore_share = 0.6;
  CHECK(bnsl::learn_explore_seconds(o, data, 10) == Approx(6));

  bnsl::ExploreOptions e;
  e.time = 10;
  CHECK(bnsl::auto_candidates(e, data) == 0);  // 30 variables: not above 1000
  e.tune.auto_screen_vars = 29;
  e.tune.auto_screen_candidates = 7;
  CHECK(bnsl::auto_candidates(e, data) == 7);
}
