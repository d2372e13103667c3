// The tunables' table (bnsl/tunables.hpp): every default in its range, names unique and
// prefixed by their part, --set's checks, and values that reach the code that uses them
// (the budget policy's shares, the default screening, the grouping of rows, the pool's bands
// and its memory of classified DAGs, the DP's tables).
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "bnsl/error.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/graph.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/tunables.hpp"
#include "pool/dag_pool.hpp"

namespace {

bnsl::Dataset columns(std::size_t n, std::size_t rows) {
  bnsl::Dataset d;
  std::vector<std::uint32_t> codes(rows);
  for (std::size_t r = 0; r < rows; ++r) codes[r] = static_cast<std::uint32_t>(r % 2);
  for (std::size_t v = 0; v < n; ++v) d.add_column("v" + std::to_string(v), {"a", "b"}, codes);
  return d;
}

// Three variables, each with the empty parent set (-10) and every single parent (-9).
bnsl::ScoreCache three_arcs() {
  bnsl::ScoreCache cache(3);
  for (std::size_t v = 0; v < 3; ++v) {
    cache.var(v).add(-10.0, std::vector<int>{});
    for (int u = 0; u < 3; ++u)
      if (static_cast<std::size_t>(u) != v) cache.var(v).add(-9.0, std::vector<int>{u});
    cache.var(v).sort_best_first();
  }
  return cache;
}

// Every choice of one entry per variable of `cache` (3 entries each) that makes a DAG.
std::vector<std::vector<std::uint32_t>> one_parent_dags(const bnsl::ScoreCache& cache) {
  std::vector<std::vector<std::uint32_t>> out;
  for (std::uint32_t a = 0; a < 3; ++a)
    for (std::uint32_t b = 0; b < 3; ++b)
      for (std::uint32_t c = 0; c < 3; ++c) {
        const std::vector<std::uint32_t> choice{a, b, c};
        bnsl::ParentSets g(3);
        for (std::size_t v = 0; v < 3; ++v) {
          const auto p = cache.var(v).parents(choice[v]);
          g[v].assign(p.begin(), p.end());
        }
        if (bnsl::is_acyclic(g)) out.push_back(choice);
      }
  return out;
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
    CHECK((part == "explore" || part == "search" || part == "budget" || part == "pool" ||
           part == "exact"));
    CHECK(names.insert(name).second);
  }
  CHECK(names.size() >= 60);
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
  CHECK(bnsl::learn_explore_seconds(o, data, 10) == Approx(3));  // not above screened_share_vars
  o.budget.screened_share_vars = 29;
  CHECK(bnsl::learn_explore_seconds(o, data, 10) == Approx(6));

  bnsl::ExploreOptions e;
  e.time = 10;
  CHECK(bnsl::auto_candidates(e, data) == 0);  // 30 variables: not above 300
  e.tune.auto_screen_vars = 29;
  e.tune.auto_screen_candidates = 7;
  CHECK(bnsl::auto_candidates(e, data) == 16);  // 30 variables: narrow_screen_vars or fewer
  e.tune.narrow_screen_candidates = 5;
  CHECK(bnsl::auto_candidates(e, data) == 5);
  e.tune.narrow_screen_vars = 29;
  CHECK(bnsl::auto_candidates(e, data) == 7);
  e.candidates = 3;  // given: whatever the size
  CHECK(bnsl::auto_candidates(e, data) == 3);
}

TEST_CASE("set_tunable checks the pool's and exact mode's ranges too", "[tunables]") {
  bnsl::Tunables t;
  bnsl::set_tunable(t, "pool.bands=4");
  bnsl::set_tunable(t, "exact.min_violation=0.01");
  CHECK(t.pool.bands == 4);
  CHECK(t.exact.min_violation == 0.01);
  CHECK(bnsl::changed_tunables(t) ==
        std::vector<std::string>{"pool.bands=4", "exact.min_violation=0.01"});
  CHECK_THROWS_WITH(bnsl::set_tunable(t, "pool.bands=0"),
                    Catch::Contains("'0' is not a whole number in [1, 64]"));
  CHECK_THROWS_AS(bnsl::set_tunable(t, "pool.bands=65"), bnsl::InputError);
  CHECK_THROWS_AS(bnsl::set_tunable(t, "exact.start_climbs=0"), bnsl::InputError);  // 0: no limit
  CHECK_THROWS_AS(bnsl::set_tunable(t, "exact.min_violation=0"), bnsl::InputError);
  CHECK_THROWS_WITH(bnsl::set_tunable(t, "pool.band=4"), Catch::Contains("'pool.bands'"));
}

// 200 rows of two binary columns: four distinct rows (a share of 0.02).
TEST_CASE("explore.group_rows_share decides whether repeated rows are counted once", "[tunables]") {
  const bnsl::Dataset data = columns(2, 200);
  for (const double share : {0.75, 0.02, 0.01, 0.0}) {
    bnsl::ExploreOptions o;
    o.threads = 1;
    o.tune.group_rows_share = share;
    bnsl::ExploreStats stats;
    bnsl::explore(data, o, bnsl::StopToken(), &stats);
    INFO("share " << share);
    CHECK(stats.rows == 200);
    // columns() repeats (a, a) and (b, b): two distinct rows, a share of 0.01.
    CHECK(stats.rows_counted == (share >= 0.01 ? 2u : 200u));
  }
}

TEST_CASE("pool.bands reaches the pool, one band for problems solved exactly", "[tunables]") {
  bnsl::PoolTunables t;
  CHECK(bnsl::pool_bands(7, 22, 100, t.bands) == 16);
  t.bands = 3;
  CHECK(bnsl::pool_bands(7, 22, 100, t.bands) == 3);
  CHECK(bnsl::pool_bands(7, 22, 22, t.bands) == 1);
}

// The pool's memory of classified DAGs (pool.classified_max) only saves encodings: with it at
// 1 (forgotten at every offer) the pool admits the same classes as with the default. Over
// three_arcs(), every DAG of 3 nodes with at most one parent each, offered twice: the empty
// graph, 3 skeletons of one edge and 3 of two (no collider, which needs two parents; three
// arcs with one parent each make a cycle), each one class: 7.
TEST_CASE("pool.classified_max changes no class the pool admits", "[tunables]") {
  const bnsl::ScoreCache cache = three_arcs();
  const auto fill = [&](std::size_t max_classified) {
    bnsl::DagPool pool(cache, bnsl::Epsilon::epsilon(5), 100, true, 1, max_classified);
    for (int round = 0; round < 2; ++round)
      for (const std::vector<std::uint32_t>& choice : one_parent_dags(cache))
        pool.offer(bnsl::dag_score(cache, choice), bnsl::dag_hash(choice), choice);
    return pool.size();
  };
  CHECK(one_parent_dags(cache).size() == 16);  // 1 + 6 + 9 (two chains and a fork a skeleton)
  CHECK(fill(bnsl::PoolTunables{}.classified_max) == 7);
  CHECK(fill(1) == 7);
}

// exact.k_best_first_epsilon and k_best_rounds: the K best by widening epsilon. Over
// three_arcs() OPT is -28 (9 DAGs of two arcs), then 6 of one arc at -29 and the empty one at
// -30. K = 12 at a first epsilon of 0.5 lists the 9, then at 1.0 the 15 (K and the ties);
// with one round allowed, only the 9, not known to be the K best.
TEST_CASE("exact.k_best_first_epsilon and k_best_rounds steer the K-best rounds", "[tunables]") {
  const bnsl::ScoreCache cache = three_arcs();
  bnsl::ExactOptions o;
  o.method = bnsl::ExactMethod::dp;
  o.k_best.k = 12;
  o.threads = 1;
  o.tune.k_best_first_epsilon = 0.5;
  bnsl::ExactStats st;
  bnsl::PoolReport r = bnsl::solve_exact(cache, o, bnsl::StopToken(), &st);
  CHECK(st.k_best_rounds == 2);
  CHECK(r.dags.size() == 15);
  CHECK(st.complete);
  o.tune.k_best_rounds = 1;
  st = {};
  r = bnsl::solve_exact(cache, o, bnsl::StopToken(), &st);
  CHECK(st.k_best_rounds == 1);
  CHECK(r.dags.size() == 9);
  CHECK_FALSE(st.complete);
}
