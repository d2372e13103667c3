// Screening (ExploreOptions::candidates): candidate parents from all-pairs statistics, then
// conditional sweeps (explore/best_first.cpp). Constructed examples with 2,000 noise columns:
//  - a planted parent set of three moderately informative parents is the child's best cache
//    entry, scored exactly (oracle re-count);
//  - a parent invisible alone (X = A xor D with P(D = 1) = 1/2: A and X are independent, and A
//    ranks among the noise by pair statistics) is found by the sweep from D, its partner, so
//    {A, D} is in the cache and best;
//  - the stats say the cache is screened, hence not exhaustive.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <span>

#include "bnsl/dataset.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/learn.hpp"
#include "oracle.hpp"
#include "score/pair_stats.hpp"

namespace {

constexpr std::size_t kNoise = 2000;
constexpr std::size_t kRows = 400;

// Columns 0..kNoise-1: independent uniform binary noise; then the planted ones, by `plant`,
// which appends columns given the generator and the row count.
template <class Plant>
bnsl::Dataset planted(std::uint64_t seed, Plant plant) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<int>> cols(kNoise, std::vector<int>(kRows));
  for (auto& c : cols)
    for (int& x : c) x = static_cast<int>(rng() & 1);
  plant(rng, cols);
  return bnsl::Dataset::from_codes(cols, std::vector<int>(cols.size(), 2));
}

bnsl::ExploreOptions screened(std::size_t child) {
  bnsl::ExploreOptions o;
  o.candidates = 16;
  o.time_per_var = 0.5;
  o.threads = 2;
  o.var_begin = child;
  o.var_end = child + 1;
  return o;
}

std::vector<int> best_parents(const bnsl::ScoreCache& cache, std::size_t v) {
  const auto ps = cache.var(v).parents(0);
  return {ps.begin(), ps.end()};
}

}  // namespace

TEST_CASE("screening keeps a planted parent set among 2,000 noise columns", "[screening]") {
  // P1, P2, P3 (columns kNoise .. kNoise+2), child X = majority(P1, P2, P3), flipped w.p. 0.1.
  const bnsl::Dataset d = planted(3, [](std::mt19937_64& rng, auto& cols) {
    std::bernoulli_distribution flip(0.1);
    for (int k = 0; k < 3; ++k) {
      cols.emplace_back(kRows);
      for (int& x : cols.back()) x = static_cast<int>(rng() & 1);
    }
    cols.emplace_back(kRows);
    for (std::size_t i = 0; i < kRows; ++i) {
      const int m = cols[kNoise][i] + cols[kNoise + 1][i] + cols[kNoise + 2][i] >= 2;
      cols.back()[i] = m ^ static_cast<int>(flip(rng));
    }
  });
  const std::size_t x = kNoise + 3;
  bnsl::ExploreStats stats;
  const bnsl::ScoreCache cache = bnsl::explore(d, screened(x), bnsl::StopToken(), &stats);
  CHECK(stats.candidates == 16);
  CHECK_FALSE(stats.exhaustive());
  const std::vector<int> want = {static_cast<int>(kNoise), static_cast<int>(kNoise + 1),
                                 static_cast<int>(kNoise + 2)};
  CHECK(best_parents(cache, x) == want);
  CHECK(oracle::close_rel(cache.var(x).score(0), oracle::score(d, static_cast<int>(x), want, {})));
}

TEST_CASE("screening: a sweep finds a parent that is independent of the child alone",
          "[screening]") {
  // D (column kNoise) uniform, A (kNoise + 1) with P(A = 1) = 0.8, X = A xor D flipped w.p.
  // 0.05: D is informative alone, A is not (P(X = 1 | A) = P(D != A) = 1/2).
  const bnsl::Dataset d = planted(5, [](std::mt19937_64& rng, auto& cols) {
    std::bernoulli_distribution flip(0.05), a_one(0.8);
    cols.emplace_back(kRows);
    for (int& x : cols.back()) x = static_cast<int>(rng() & 1);
    cols.emplace_back(kRows);
    for (int& x : cols.back()) x = a_one(rng) ? 1 : 0;
    cols.emplace_back(kRows);
    for (std::size_t i = 0; i < kRows; ++i)
      cols.back()[i] = (cols[kNoise][i] ^ cols[kNoise + 1][i]) ^ static_cast<int>(flip(rng));
  });
  const std::size_t x = kNoise + 2;
  const int dd = static_cast<int>(kNoise), a = static_cast<int>(kNoise + 1);
  // A alone gains nothing: BIC(X | A) < BIC(X | {}).
  REQUIRE(oracle::score(d, static_cast<int>(x), {a}, {}) <
          oracle::score(d, static_cast<int>(x), {}, {}));
  // ... and is not among the 16 candidates that pair statistics give (only a sweep finds it).
  const bnsl::BitColumns bits(d);
  const bnsl::PairStats pairs(bits, 16, 1, bnsl::StopToken());
  const std::vector<int> top = pairs.top_parents(static_cast<int>(x), 16);
  REQUIRE(std::find(top.begin(), top.end(), dd) != top.end());
  REQUIRE(std::find(top.begin(), top.end(), a) == top.end());
  bnsl::ExploreStats stats;
  const bnsl::ScoreCache cache = bnsl::explore(d, screened(x), bnsl::StopToken(), &stats);
  CHECK(stats.candidates_promoted >= 1);
  const std::vector<int> want = {dd, a};
  CHECK(best_parents(cache, x) == want);
  CHECK(oracle::close_rel(cache.var(x).score(0), oracle::score(d, static_cast<int>(x), want, {})));
}

// Screening on columns of every width: some bit-packed (2-16 states), some not (17-40), so
// that sweeps, the lattice and the draft cache mix bit-parallel and row-by-row counts (a
// draft pair of a packed base and a wide partner once read an index never built). Every entry
// of the draft and of the final caches equals the oracle's re-count, BIC and BDeu.
TEST_CASE("screening: draft and caches on packed and wide columns score exactly", "[screening]") {
  std::vector<int> arities;
  for (int v = 0; v < 40; ++v) arities.push_back(v % 5 == 0 ? 17 + v % 23 : 2 + v % 4);
  const bnsl::Dataset d = oracle::random_dataset(300, arities, 19, 0.2, 3);
  for (const bnsl::ScoreKind kind : {bnsl::ScoreKind::bic, bnsl::ScoreKind::bdeu}) {
    bnsl::ExploreOptions o;
    o.candidates = 6;
    o.time_per_var = 0.05;
    o.threads = 2;
    o.score.kind = kind;
    int drafts = 0;
    auto check = [&](const bnsl::ScoreCache& cache, const char* what) {
      for (std::size_t v = 0; v < cache.n_vars(); ++v)
        for (std::size_t e = 0; e < cache.var(v).size(); ++e) {
          const auto ps = cache.var(v).parents(e);
          const std::vector<int> parents(ps.begin(), ps.end());
          INFO(what << ", variable " << v << ", entry " << e);
          REQUIRE(oracle::close_rel(cache.var(v).score(e),
                                    oracle::score(d, static_cast<int>(v), parents, o.score)));
        }
    };
    o.on_draft = [&](const bnsl::ExploreOptions::Draft& draft) {
      ++drafts;
      check(draft.cache, "draft");
      REQUIRE(draft.candidates.size() == d.n_vars());  // the screened candidates, for proposals
      for (std::size_t v = 0; v < d.n_vars(); ++v) {
        CHECK(draft.candidates[v].size() <= 6);
        CHECK(std::count(draft.candidates[v].begin(), draft.candidates[v].end(),
                         static_cast<int>(v)) == 0);
      }
    };
    bnsl::ExploreStats stats;
    const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken(), &stats);
    CHECK(drafts == 1);
    CHECK(stats.candidates == 6);
    check(cache, "cache");
  }
}

// The draft's families stay in the final cache: each is there, or a cached proper subset
// beats it by more than epsilon (rule 1). With a budget too short for the exploration to meet
// them (every variable cut at its share), the stats count those kept, and learn's final
// network scores at least its draft network (the search starts from it, within the cache).
TEST_CASE("screening: the final cache keeps the draft's families", "[screening]") {
  std::vector<int> arities(60);
  for (std::size_t v = 0; v < arities.size(); ++v) arities[v] = 2 + static_cast<int>(v % 3);
  const bnsl::Dataset d = oracle::random_dataset(500, arities, 23, 0.3, 3);
  for (const double per_var : {0.05, 1e-6}) {
    bnsl::ExploreOptions o;
    o.candidates = 5;
    o.time_per_var = per_var;
    o.threads = 2;
    std::optional<bnsl::ScoreCache> draft;
    o.on_draft = [&](const bnsl::ExploreOptions::Draft& c) { draft = c.cache; };
    bnsl::ExploreStats stats;
    const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken(), &stats);
    REQUIRE(draft);
    if (per_var < 1e-3) CHECK(stats.draft_kept > 0);
    for (std::size_t v = 0; v < d.n_vars(); ++v) {
      const bnsl::VarCache& to = cache.var(v);
      for (std::size_t i = 0; i < draft->var(v).size(); ++i) {
        const auto family = draft->var(v).parents(i);
        bool beaten = false;
        for (std::size_t j = 0; j < to.size(); ++j) {
          const auto sub = to.parents(j);
          beaten = beaten || (sub.size() < family.size() &&
                              std::includes(family.begin(), family.end(), sub.begin(), sub.end()) &&
                              to.score(j) > draft->var(v).score(i) + stats.epsilon);
        }
        INFO("variable " << v << ", draft entry " << i);
        CHECK((to.find(family) >= 0 || beaten));
      }
    }
  }

  bnsl::LearnOptions o;
  o.explore.candidates = 5;
  o.threads = 2;
  const bnsl::StopToken stop(2.0);  // the draft comes within milliseconds, even under ASan
  double draft_best = 0, final_best = 0;
  int drafts = 0;
  const bnsl::LearnResult r =
      bnsl::learn(d, o, stop, [&](bnsl::PoolReport& report, bnsl::ReportStage stage) {
        REQUIRE(!report.dags.empty());
        if (stage == bnsl::ReportStage::draft) {
          ++drafts;
          draft_best = report.dags.front().score;
        }
        if (stage == bnsl::ReportStage::final) final_best = report.dags.front().score;
      });
  REQUIRE(drafts == 1);
  CHECK(r.search.start_networks == 1);
  CHECK(final_best >= draft_best - 1e-9 * std::fabs(draft_best));
}

// A deep sweep (explore/best_first.cpp) finds a fourth parent that carries no information
// until the three others are given. A, B, C, D uniform binary; X copies A, B or C (w.p. 1/6
// each) or is A xor B xor C xor D (w.p. 1/2). Given any set without all of A, B, C, the
// parity is a fair coin whatever D is, so D is independent of X alone and beside any one or
// two of them (no candidate, no promotion, no lattice set holds it); beside {A, B, C} it
// reveals the parity (about 0.15 nats a row). A, B, C are strong alone (0.014 nats a row).
TEST_CASE("screening: a deep sweep finds a parent that matters only beside three others",
          "[screening]") {
  constexpr std::size_t noise = 300, rows = 4000;
  std::mt19937_64 rng(7);
  std::vector<std::vector<int>> cols(noise + 5, std::vector<int>(rows));
  for (std::size_t c = 0; c < noise + 4; ++c)
    for (int& x : cols[c]) x = static_cast<int>(rng() & 1);
  std::uniform_int_distribution<int> mode(0, 5);
  for (std::size_t i = 0; i < rows; ++i) {
    const int a = cols[noise][i], b = cols[noise + 1][i], c = cols[noise + 2][i],
              dd = cols[noise + 3][i];
    const int m = mode(rng);
    cols[noise + 4][i] = m == 0 ? a : m == 1 ? b : m == 2 ? c : a ^ b ^ c ^ dd;
  }
  const bnsl::Dataset d = bnsl::Dataset::from_codes(cols, std::vector<int>(cols.size(), 2));
  const int x = static_cast<int>(noise + 4);
  const std::vector<int> want = {static_cast<int>(noise), static_cast<int>(noise + 1),
                                 static_cast<int>(noise + 2), static_cast<int>(noise + 3)};
  // D alone and beside A and B gains nothing, beside {A, B, C} a lot.
  const std::vector<int> abc(want.begin(), want.begin() + 3);
  REQUIRE(oracle::score(d, x, {want[3]}, {}) < oracle::score(d, x, {}, {}));
  REQUIRE(oracle::score(d, x, {want[0], want[1], want[3]}, {}) <
          oracle::score(d, x, {want[0], want[1]}, {}));
  REQUIRE(oracle::score(d, x, want, {}) > oracle::score(d, x, abc, {}) + 100);
  bnsl::ExploreOptions o = screened(static_cast<std::size_t>(x));
  bnsl::ExploreStats stats;
  const bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken(), &stats);
  CHECK(best_parents(cache, static_cast<std::size_t>(x)) == want);
  CHECK(oracle::close_rel(cache.var(static_cast<std::size_t>(x)).score(0),
                          oracle::score(d, x, want, {})));
}

// Without screening, a timed exploration builds the draft too (explore.draft_unscreened), for
// learn's first network, then, unless on_draft declines it (learn does when its early rounds
// fill their share) or the pass would give each variable less than
// explore.quick_min_var_seconds, a quick pass over every variable (explore.quick_share) and a
// second draft that holds what it found: every draft entry is exactly scored; the second draft
// holds each family of the first or a subset that beats it by more than epsilon, and, its
// quick pass long enough to explore every variable to the end, every family of the exhaustive
// cache. The exploration still tries every variable to its end (the cache is exhaustive), and
// its cache holds every entry of the run without the draft, with the same score; the draft
// adds only exactly scored sets. learn then reports the draft's networks before its final one,
// each scoring more than the one before, the final at least as much as the last.
TEST_CASE("screening: unscreened timed runs draft a first network too", "[screening]") {
  std::vector<int> arities(12);
  for (std::size_t v = 0; v < arities.size(); ++v) arities[v] = 2 + static_cast<int>(v % 3);
  const bnsl::Dataset d = oracle::random_dataset(400, arities, 31, 0.3, 3);
  struct Drafts {
    std::vector<bnsl::ScoreCache> caches;
    std::vector<bool> more;
    double epsilon = 0;
  };
  // gated: explore.quick_min_var_seconds above what the pass would give each variable
  auto run = [&](int draft_unscreened, double quick_share, Drafts& drafts, bool decline = false,
                 bool gated = false) {
    bnsl::ExploreOptions o;
    o.candidates = 0;
    o.time = 600;  // finishes long before
    o.threads = 2;
    o.tune.draft_unscreened = draft_unscreened;
    o.tune.quick_share = quick_share;
    // 60 s on 2 threads is 10 s a variable: the default gate (0.05) passes it
    if (gated) o.tune.quick_min_var_seconds = 11;
    o.on_draft = [&](const bnsl::ExploreOptions::Draft& draft) {
      drafts.caches.push_back(draft.cache);
      drafts.more.push_back(draft.quick_seconds != nullptr);
      if (draft.quick_seconds) {
        CHECK(*draft.quick_seconds == Approx(quick_share * o.time));
        if (decline) *draft.quick_seconds = 0;
      }
      drafts.epsilon = draft.so_far.epsilon;
      REQUIRE(draft.candidates.size() == d.n_vars());
      for (std::size_t v = 0; v < d.n_vars(); ++v) {
        CHECK(std::count(draft.candidates[v].begin(), draft.candidates[v].end(),
                         static_cast<int>(v)) == 0);
        for (std::size_t e = 0; e < draft.cache.var(v).size(); ++e) {
          const auto ps = draft.cache.var(v).parents(e);
          const std::vector<int> parents(ps.begin(), ps.end());
          REQUIRE(oracle::close_rel(draft.cache.var(v).score(e),
                                    oracle::score(d, static_cast<int>(v), parents, o.score)));
        }
      }
    };
    bnsl::ExploreStats stats;
    bnsl::ScoreCache cache = bnsl::explore(d, o, bnsl::StopToken(), &stats);
    CHECK(stats.exhaustive());
    CHECK(stats.candidates == 0);
    // the quick pass explored every variable to the end: none again, none cut
    CHECK(stats.quick_sets == 0);
    CHECK(stats.vars_explored == d.n_vars());
    CHECK((stats.quick_seconds > 0) == (draft_unscreened && quick_share > 0 && !decline && !gated));
    return cache;
  };
  // `to` holds `family` with `score`, or a proper subset that beats it by more than eps.
  auto holds = [](const bnsl::VarCache& to, std::span<const int> family, double score, double eps) {
    if (const long at = to.find(family); at >= 0)
      return oracle::close_rel(to.score(static_cast<std::size_t>(at)), score);
    for (std::size_t j = 0; j < to.size(); ++j) {
      const auto sub = to.parents(j);
      if (sub.size() < family.size() &&
          std::includes(family.begin(), family.end(), sub.begin(), sub.end()) &&
          to.score(j) > score + eps)
        return true;
    }
    return false;
  };
  Drafts with, pairs_only, declined, gated, without;
  const bnsl::ScoreCache drafted = run(1, 0.1, with);
  run(1, 0, pairs_only);
  run(1, 0.1, declined, true);
  CHECK(declined.more == std::vector<bool>{true});
  run(1, 0.1, gated, false, true);
  CHECK(gated.more == std::vector<bool>{true});
  const bnsl::ScoreCache plain = run(0, 0.1, without);
  REQUIRE(with.caches.size() == 2);
  CHECK(with.more == std::vector<bool>{true, false});
  CHECK(pairs_only.more == std::vector<bool>{false});
  CHECK(without.caches.empty());
  for (std::size_t v = 0; v < d.n_vars(); ++v) {
    const bnsl::VarCache& first = with.caches[0].var(v);
    const bnsl::VarCache& second = with.caches[1].var(v);
    INFO("variable " << v);
    for (std::size_t e = 0; e < first.size(); ++e)
      CHECK(holds(second, first.parents(e), first.score(e), with.epsilon));
    for (std::size_t e = 0; e < plain.var(v).size(); ++e)
      CHECK(second.find(plain.var(v).parents(e)) >= 0);
  }
  for (std::size_t v = 0; v < d.n_vars(); ++v) {
    for (std::size_t e = 0; e < plain.var(v).size(); ++e) {
      const long at = drafted.var(v).find(plain.var(v).parents(e));
      INFO("variable " << v << ", entry " << e);
      REQUIRE(at >= 0);
      CHECK(drafted.var(v).score(static_cast<std::size_t>(at)) == plain.var(v).score(e));
    }
    for (std::size_t e = 0; e < drafted.var(v).size(); ++e) {
      const auto ps = drafted.var(v).parents(e);
      const std::vector<int> parents(ps.begin(), ps.end());
      CHECK(oracle::close_rel(drafted.var(v).score(e),
                              oracle::score(d, static_cast<int>(v), parents, {})));
    }
  }

  bnsl::LearnOptions o;
  o.explore.candidates = 0;
  o.threads = 2;
  const bnsl::StopToken stop(2.0);
  double draft_best = 0, final_best = 0;
  int drafts = 0, finals = 0;
  bnsl::learn(d, o, stop, [&](bnsl::PoolReport& report, bnsl::ReportStage stage) {
    REQUIRE(!report.dags.empty());
    if (stage == bnsl::ReportStage::draft) {
      CHECK(finals == 0);
      if (drafts++ > 0) CHECK(report.dags.front().score > draft_best);
      draft_best = report.dags.front().score;
    }
    if (stage == bnsl::ReportStage::final) {
      ++finals;
      final_best = report.dags.front().score;
    }
  });
  CHECK(drafts >= 1);
  CHECK(drafts <= 2);
  CHECK(finals == 1);
  CHECK(final_best >= draft_best - 1e-9 * std::fabs(draft_best));
}
