// Counting for screened exploration at scale: items per second per thread (CPU time).
//
//   pairs/bits    N I(X; Y) of one pair of columns, bit-parallel (score/bit_columns.hpp: the
//                 kernel of the all-pairs statistics, score/pair_stats.hpp)
//   pairs/rows    the same single-parent family counted row by row, as the explorers did
//                 before screening (Counter::score_extension from the empty set)
//   sweep/bits    a conditional sweep's family {Y, Z} of child X for a fixed Y: SweepCounter
//                 (AND-popcounts against the r_Y r_X base bitmaps) + Counter::summarize
//   sweep/rows    the same family by Counter::score_extension from Y's index
//   allpairs      PairStats over all pairs of 400 variables keeping 32 per variable, one
//                 thread: pairs per second
// on data sampled from a random network (bnsl generate: 400 variables, in-degree <= 4,
// arities 2-4, fixed seeds) at 1,000, 5,000 and 20,000 rows. The popcount kernel is the
// AVX-512 one when the CPU has VPOPCNTDQ, else POPCNT (bit_columns.cpp): say which machine.
#include <benchmark/benchmark.h>

#include <array>
#include <map>
#include <memory>
#include <random>
#include <span>

#include "bnsl/generate.hpp"
#include "bnsl/sample.hpp"
#include "score/bit_columns.hpp"
#include "score/counting.hpp"
#include "score/pair_stats.hpp"

namespace {

constexpr std::size_t kVars = 400;
constexpr int kPairs = 1024;  // distinct (x, y) pairs or (x, y, z) triples cycled through

const bnsl::Dataset& data(std::size_t rows) {
  static std::map<std::size_t, std::unique_ptr<bnsl::Dataset>> cache;
  auto& d = cache[rows];
  if (!d) {
    bnsl::GenerateOptions o;
    o.vars = kVars;
    o.max_parents = 4;
    o.seed = 7;
    d = std::make_unique<bnsl::Dataset>(bnsl::sample(bnsl::generate_network(o), rows, 7));
  }
  return *d;
}

std::vector<std::array<int, 3>> triples() {
  std::mt19937_64 rng(11);
  std::vector<std::array<int, 3>> t(kPairs);
  for (auto& [x, y, z] : t) {
    x = static_cast<int>(rng() % kVars);
    do y = static_cast<int>(rng() % kVars);
    while (y == x);
    do z = static_cast<int>(rng() % kVars);
    while (z == x || z == y);
  }
  return t;
}

void pairs_bits(benchmark::State& state) {
  const bnsl::Dataset& d = data(static_cast<std::size_t>(state.range(0)));
  const bnsl::BitColumns bits(d);
  bnsl::PairCounts pc(bits);
  const auto t = triples();
  std::size_t k = 0;
  for (auto _ : state) {
    const auto& [x, y, z] = t[k++ % t.size()];
    benchmark::DoNotOptimize(pc.ll_gain(x, y));
  }
  state.SetItemsProcessed(state.iterations());
}

void pairs_rows(benchmark::State& state) {
  const bnsl::Dataset& d = data(static_cast<std::size_t>(state.range(0)));
  bnsl::Counter counter(d, {});
  bnsl::ConfigIndex empty;
  counter.build_empty(empty);
  const auto t = triples();
  std::size_t k = 0;
  for (auto _ : state) {
    const auto& [x, y, z] = t[k++ % t.size()];
    benchmark::DoNotOptimize(counter.score_extension(empty, y, x).score);
  }
  state.SetItemsProcessed(state.iterations());
}

// A sweep: one base (x, y), then z over every other variable.
void sweep_bits(benchmark::State& state) {
  const bnsl::Dataset& d = data(static_cast<std::size_t>(state.range(0)));
  const bnsl::BitColumns bits(d);
  bnsl::SweepCounter sweep(bits);
  bnsl::Counter counter(d, {});
  const auto t = triples();
  std::size_t k = 0;
  int z = 0;
  for (auto _ : state) {
    const auto& [x, y, unused] = t[(k / kVars) % t.size()];
    if (k % kVars == 0) sweep.set_base(x, y);
    ++k;
    z = (z + 1) % static_cast<int>(kVars);
    if (z == x || z == y) continue;
    const double q = static_cast<double>(d.arity(y)) * d.arity(z);
    benchmark::DoNotOptimize(
        counter.summarize(sweep.table(z), static_cast<std::size_t>(q), q, x).score);
  }
  state.SetItemsProcessed(state.iterations());
}

void sweep_rows(benchmark::State& state) {
  const bnsl::Dataset& d = data(static_cast<std::size_t>(state.range(0)));
  bnsl::Counter counter(d, {});
  bnsl::ConfigIndex base;
  const auto t = triples();
  std::size_t k = 0;
  int z = 0;
  for (auto _ : state) {
    const auto& [x, y, unused] = t[(k / kVars) % t.size()];
    if (k % kVars == 0) counter.build(std::span<const int>(&y, 1), base);
    ++k;
    z = (z + 1) % static_cast<int>(kVars);
    if (z == x || z == y) continue;
    benchmark::DoNotOptimize(counter.score_extension(base, z, x).score);
  }
  state.SetItemsProcessed(state.iterations());
}

void allpairs(benchmark::State& state) {
  const bnsl::Dataset& d = data(static_cast<std::size_t>(state.range(0)));
  const bnsl::BitColumns bits(d);
  for (auto _ : state) {
    const bnsl::PairStats ps(bits, 32, 1, bnsl::StopToken());
    benchmark::DoNotOptimize(ps.best(0).data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kVars * (kVars - 1) / 2));
}

void rows_args(benchmark::internal::Benchmark* b) {
  for (int rows : {1000, 5000, 20000}) b->Arg(rows);
  b->ArgName("rows");
}

}  // namespace

BENCHMARK(pairs_bits)->Name("pairs/bits")->Apply(rows_args);
BENCHMARK(pairs_rows)->Name("pairs/rows")->Apply(rows_args);
BENCHMARK(sweep_bits)->Name("sweep/bits")->Apply(rows_args);
BENCHMARK(sweep_rows)->Name("sweep/rows")->Apply(rows_args);
BENCHMARK(allpairs)->Name("allpairs")->Apply(rows_args)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
