// The ordering search's kernels on a synthetic screened cache: time per operation.
//
//   obs/swaps/N/B      one OBS pass of try_swap over every adjacent pair of a random order (no
//                      swap applied): the climbs' and the neighbour enumeration's inner loop
//   obs/move/N/B       ObsState::move of a random node to a random position (an insertion
//                      move: swaps with the related nodes passed, jumps over the others)
//   obs/insertion/N/B  an insertion move's evaluation: the best place for a random node,
//                      ObsState::best_insertion (v passes each related node in thought; no
//                      O(n) work), the order left as it was
//   obs/slide/N/B      the same evaluation made by moving the node, as insertion moves did
//                      before issue 60: v jumps and swaps to the far left, then to the far
//                      right, then moves to the best place (every jump an O(distance) block
//                      move); kept as the baseline of obs/insertion
//   asobs/evaluate/N/B the ASOBS network of a random order
//   obs/construct/N/B  an OBS state built on the cache: its per-variable index from parent to
//                      the entries holding it (each chain and each search's seed build one)
//
// N variables, each with 40 cached families of one to three parents drawn mostly from the 60
// variables around it (a screened cache's locality: about a hundred related nodes each), and
// the empty set. B = 1: one variable in ten has a required parent, a lower-indexed neighbour
// held by each of its families (its base, search/base_sets.hpp); its orders are linear
// extensions of those arcs. B = 0 is the unconstrained case, whose cost the bases must not
// raise.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "bnsl/cache.hpp"
#include "search/search_internal.hpp"

namespace {

constexpr int kFamilies = 40;
constexpr int kWindow = 30;  // parents drawn from v - kWindow .. v + kWindow, mostly

bnsl::ScoreCache synthetic_cache(int n, bool bases, std::vector<int>& base_of) {
  std::mt19937_64 rng(17);
  bnsl::ScoreCache cache(static_cast<std::size_t>(n));
  base_of.assign(static_cast<std::size_t>(n), -1);
  std::uniform_real_distribution<double> gain(0.0, 50.0);
  const auto near = [&](int v) {
    if (std::bernoulli_distribution(0.1)(rng))
      return std::uniform_int_distribution<int>(0, n - 1)(rng);
    return std::clamp(v + std::uniform_int_distribution<int>(-kWindow, kWindow)(rng), 0, n - 1);
  };
  for (int v = 0; v < n; ++v) {
    bnsl::VarCache& vc = cache.var(static_cast<std::size_t>(v));
    int base = -1;
    if (bases && v > 0 && std::bernoulli_distribution(0.1)(rng))
      base = std::max(0, v - std::uniform_int_distribution<int>(1, kWindow)(rng));
    base_of[static_cast<std::size_t>(v)] = base;
    const double empty = -1000.0 - gain(rng);
    std::vector<int> p;
    if (base >= 0) p.push_back(base);
    vc.add(empty, p);  // the base family (the empty set without a base)
    for (int k = 0; k < kFamilies; ++k) {
      p.clear();
      if (base >= 0) p.push_back(base);
      const int size = std::uniform_int_distribution<int>(1, 3)(rng);
      while (static_cast<int>(p.size()) < size + (base >= 0 ? 1 : 0)) {
        const int u = near(v);
        if (u != v && std::find(p.begin(), p.end(), u) == p.end()) p.push_back(u);
      }
      std::sort(p.begin(), p.end());
      if (vc.find(p) >= 0) continue;
      vc.add(empty + gain(rng) * static_cast<double>(p.size()), p);
    }
    vc.sort_best_first();
  }
  return cache;
}

// A random order, repaired into a linear extension of the base arcs (each base before its
// child): a stable topological sort by position.
bnsl::Order random_order(int n, const std::vector<int>& base_of, std::mt19937_64& rng) {
  bnsl::Order order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<char> placed(static_cast<std::size_t>(n), 0);
  bnsl::Order out;
  out.reserve(order.size());
  const auto place = [&](auto&& self, int v) -> void {
    if (placed[static_cast<std::size_t>(v)]) return;
    if (const int b = base_of[static_cast<std::size_t>(v)]; b >= 0) self(self, b);
    placed[static_cast<std::size_t>(v)] = 1;
    out.push_back(v);
  };
  for (int v : order) place(place, v);
  return out;
}

struct Setup {
  std::vector<int> base_of;
  bnsl::ScoreCache cache;
  Setup(int n, bool bases) : cache(synthetic_cache(n, bases, base_of)) {}
};

// An OBS kernel's fixture: the synthetic cache of the benchmark's arguments (N, B) and an OBS
// state on a random order of it.
struct ObsFixture {
  explicit ObsFixture(const benchmark::State& state)
      : n(static_cast<int>(state.range(0))), setup(n, state.range(1) != 0), obs(setup.cache) {
    obs.set_order(random_order(n, setup.base_of, rng));
  }
  int n;
  Setup setup;
  std::mt19937_64 rng{5};
  bnsl::ObsState obs;
  std::uniform_int_distribution<int> pick{0, n - 1};
};

void obs_swaps(benchmark::State& state) {
  ObsFixture f(state);
  auto& [n, s, rng, obs, pick] = f;
  double sum = 0;
  for (auto _ : state)
    for (std::size_t i = 0; i + 1 < obs.size(); ++i) sum += obs.try_swap(i).score;
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * (n - 1));
}

void obs_move(benchmark::State& state) {
  ObsFixture f(state);
  auto& [n, s, rng, obs, pick] = f;
  for (auto _ : state) {
    const int v = pick(rng);
    obs.move(v, static_cast<std::size_t>(pick(rng)));
  }
  benchmark::DoNotOptimize(obs.score());
  state.SetItemsProcessed(state.iterations());
}

void obs_insertion(benchmark::State& state) {
  ObsFixture f(state);
  auto& [n, s, rng, obs, pick] = f;
  double sum = 0;
  for (auto _ : state) sum += obs.best_insertion(pick(rng), nullptr).score;
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
}

// The slide by moves (the baseline): v's passes are the same swaps as best_insertion's, and v
// ends where it started (the move to the best place is left out, as obs/insertion makes none).
void obs_slide(benchmark::State& state) {
  ObsFixture f(state);
  auto& [n, s, rng, obs, pick] = f;
  std::vector<int> ps;
  double sum = 0;
  for (auto _ : state) {
    const int v = pick(rng);
    const std::size_t start = static_cast<std::size_t>(obs.position(v));
    for (bool left : {true, false}) {
      const std::size_t at = static_cast<std::size_t>(obs.position(v));
      ps.clear();
      for (int u : obs.related(v))
        if (left ? static_cast<std::size_t>(obs.position(u)) < at
                 : static_cast<std::size_t>(obs.position(u)) > at)
          ps.push_back(obs.position(u));
      if (left)
        std::sort(ps.begin(), ps.end(), std::greater<>());
      else
        std::sort(ps.begin(), ps.end());
      for (int p : ps) {
        const std::size_t q = static_cast<std::size_t>(p);
        obs.jump(v, left ? q + 1 : q - 1);
        const bnsl::ObsState::Swap sw = obs.try_swap(left ? q : q - 1);
        if (sw.blocked) break;
        obs.apply(sw);
        sum += obs.score();
      }
    }
    obs.move(v, start);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
}

void asobs_evaluate(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const Setup s(n, state.range(1) != 0);
  std::mt19937_64 rng(5);
  bnsl::AsobsState asobs(s.cache);
  const bnsl::Order order = random_order(n, s.base_of, rng);
  bnsl::Choices choices;
  double sum = 0;
  for (auto _ : state) sum += asobs.evaluate(order, choices);
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations());
}

void obs_construct(benchmark::State& state) {
  const Setup s(static_cast<int>(state.range(0)), state.range(1) != 0);
  std::size_t entries = 0;
  for (std::size_t v = 0; v < s.cache.n_vars(); ++v) entries += s.cache.var(v).size();
  for (auto _ : state) {
    bnsl::ObsState obs(s.cache);
    benchmark::DoNotOptimize(obs.related(0).data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(entries));
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int n : {1000, 10000})
    for (int bases : {0, 1}) b->Args({n, bases});
  b->ArgNames({"N", "B"});
}

}  // namespace

BENCHMARK(obs_swaps)->Name("obs/swaps")->Apply(sizes);
BENCHMARK(obs_move)->Name("obs/move")->Apply(sizes);
BENCHMARK(obs_insertion)->Name("obs/insertion")->Apply(sizes);
BENCHMARK(obs_slide)->Name("obs/slide")->Apply(sizes);
BENCHMARK(asobs_evaluate)->Name("asobs/evaluate")->Apply(sizes)->Unit(benchmark::kMillisecond);
BENCHMARK(obs_construct)->Name("obs/construct")->Apply(sizes)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
