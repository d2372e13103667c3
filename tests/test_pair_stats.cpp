// All-pairs statistics (score/pair_stats.hpp) against the oracle's row-by-row counts: for
// every pair of random data with arities 1 to 40 (so both the bit-parallel path, up to 16
// states and 64 inner cells, and the row-by-row path are taken, and row counts that are not a
// multiple of 64), each kept gain equals BIC(x | {y}) - BIC(x | {}) computed by the oracle,
// and the kept lists are the best single parents in order, the same for any thread count and
// any list length.
#include <catch2/catch.hpp>

#include <algorithm>

#include "oracle.hpp"
#include "score/counting.hpp"
#include "score/pair_stats.hpp"

TEST_CASE("pair stats: every single-parent BIC gain equals the oracle's", "[pair_stats]") {
  const std::vector<int> arities = {2, 3, 4, 2, 17, 1, 5, 40, 2, 16, 9, 3};
  for (std::size_t rows : {1ul, 63ul, 64ul, 65ul, 1000ul}) {
    const bnsl::Dataset d = oracle::random_dataset(rows, arities, 7 + rows, 0.3);
    for (int threads : {1, 2}) {
      const bnsl::BitColumns bits(d);
      const int n = static_cast<int>(d.n_vars());
      // Keeping n - 1 (more is cut to that) lists every parent of arity >= 2.
      const bnsl::PairStats ps(bits, 100, threads, bnsl::StopToken());
      REQUIRE(ps.complete());
      REQUIRE(ps.keep() == static_cast<std::size_t>(n - 1));
      for (int x = 0; x < n; ++x) {
        std::vector<double> gain(static_cast<std::size_t>(n), 0);
        std::vector<int> seen(static_cast<std::size_t>(n), 0);
        for (const bnsl::PairStats::Parent& p : ps.best(x)) {
          gain[static_cast<std::size_t>(p.var)] = p.gain;
          ++seen[static_cast<std::size_t>(p.var)];
        }
        for (int y = 0; y < n; ++y) {
          INFO("rows " << rows << " x " << x << " (r " << d.arity(x) << ") y " << y << " (r "
                       << d.arity(y) << ")");
          const bool listed = y != x && d.arity(y) >= 2;
          REQUIRE(seen[static_cast<std::size_t>(y)] == (listed ? 1 : 0));
          if (!listed || d.arity(x) < 2) continue;
          const double want = oracle::score(d, x, {y}, {}) - oracle::score(d, x, {}, {});
          // Counted as a float: relative 1e-6 of the log-likelihood scale.
          CHECK(std::fabs(gain[static_cast<std::size_t>(y)] - want) <=
                1e-5 * std::max(1.0, static_cast<double>(rows)));
        }
      }
    }
  }
}

TEST_CASE("pair stats: top_parents ranks single parents by BIC gain", "[pair_stats]") {
  const bnsl::Dataset d = oracle::random_dataset(500, {3, 2, 4, 3, 2, 2, 3, 4}, 11, 0.2, 3);
  const bnsl::BitColumns bits(d);
  const bnsl::PairStats ps(bits, 3, 1, bnsl::StopToken());
  for (int x = 0; x < 8; ++x) {
    std::vector<std::pair<double, int>> all;
    for (int y = 0; y < 8; ++y)
      if (y != x) all.push_back({oracle::score(d, x, {y}, {}), y});
    std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.first > b.first; });
    const std::vector<int> top = ps.top_parents(x, 3);
    REQUIRE(top.size() == 3);
    for (int k = 0; k < 3; ++k) {
      INFO("x " << x << " rank " << k);
      // Equal up to float rounding: the oracle's k-th best scores the same as ours.
      CHECK(oracle::close_rel(oracle::score(d, x, {top[k]}, {}), all[k].first, 1e-6));
    }
  }
}

// The lists are a top-k under a total order, offered to by every thread at once: a shorter
// list is the head of a longer one, and the thread count changes nothing. 300 variables, so
// that many blocks (16 rows of the triangle each) run on each thread.
TEST_CASE("pair stats: short lists are the heads of the full ones, on any threads",
          "[pair_stats]") {
  std::vector<int> arities(300);
  for (std::size_t v = 0; v < arities.size(); ++v) arities[v] = 1 + static_cast<int>(v % 4);
  const bnsl::Dataset d = oracle::random_dataset(200, arities, 5, 0.4, 3);
  const bnsl::BitColumns bits(d);
  const bnsl::PairStats full(bits, 299, 1, bnsl::StopToken());
  for (int threads : {1, 2, 4})
    for (std::size_t keep : {1ul, 8ul, 32ul}) {
      const bnsl::PairStats ps(bits, keep, threads, bnsl::StopToken());
      for (int x = 0; x < 300; ++x) {
        INFO("threads " << threads << " keep " << keep << " x " << x);
        const auto head = full.best(x).first(std::min(keep, full.best(x).size()));
        REQUIRE(ps.best(x).size() == head.size());
        for (std::size_t i = 0; i < head.size(); ++i) {
          CHECK(ps.best(x)[i].var == head[i].var);
          CHECK(ps.best(x)[i].gain == head[i].gain);
        }
      }
    }
}

TEST_CASE("bit columns: a sweep's family {y, z} scores as the oracle and as Counter",
          "[pair_stats]") {
  const std::vector<int> arities = {2, 3, 4, 2, 17, 5, 8, 2, 16, 3};
  for (std::size_t rows : {1ul, 64ul, 130ul, 777ul}) {
    const bnsl::Dataset d = oracle::random_dataset(rows, arities, 3 + rows, 0.3, 3);
    const bnsl::BitColumns bits(d);
    bnsl::SweepCounter sweep(bits);
    bnsl::Counter counter(d, {});
    const int n = static_cast<int>(d.n_vars());
    for (int child = 0; child < n; ++child)
      for (int y = 0; y < n; ++y) {
        if (y == child) continue;
        const bool packed = bits.packed(child) && bits.packed(y) &&
                            d.arity(child) * d.arity(y) <= bnsl::SweepCounter::kMaxBaseCells;
        REQUIRE(sweep.set_base(child, y) == packed);
        if (!packed) continue;
        for (int z = 0; z < n; ++z) {
          if (z == y || z == child) continue;
          const std::uint32_t* t = sweep.table(z);
          INFO("rows " << rows << " child " << child << " y " << y << " z " << z);
          if (!bits.packed(z)) {
            CHECK(t == nullptr);
            continue;
          }
          REQUIRE(t != nullptr);
          const double q = static_cast<double>(d.arity(y)) * d.arity(z);
          const bnsl::FamilyScore f = counter.summarize(t, static_cast<std::size_t>(q), q, child);
          CHECK(oracle::close_rel(f.score, oracle::score(d, child, {y, z}, {}), 1e-9));
          if (y < z) {  // the configuration order of the sorted set: the very same numbers
            bnsl::ConfigIndex base;
            const int py = y;
            counter.build(std::span<const int>(&py, 1), base);
            const bnsl::FamilyScore c = counter.score_extension(base, z, child);
            CHECK(f.score == c.score);
            CHECK(f.ll == c.ll);
            CHECK(f.h_parents == c.h_parents);
            CHECK(f.cells == c.cells);
            CHECK(f.r_plus == c.r_plus);
          }
        }
      }
  }
}
