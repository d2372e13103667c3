// The report's per-class work on large chain components: wall time per class.
//
//   size/tree/N          mec_size of a class whose CPDAG is one undirected tree of N vertices
//                        (a random tree of long paths: what 60 rows of a 3,000-variable network
//                        learn, every variable with one parent)
//   orientations/tree/N  edge_orientations of the same class (the fraction of its DAGs orienting
//                        each reversible edge each way), no cache shared between iterations
//   size/blocks/N        mec_size of a chordal graph of N vertices built from small cliques
//                        glued at cut vertices (tests/test_mec_size.cpp's generator)
//   orientations/blocks/N  edge_orientations of it
//   classify/essential/N the pool's class of an offered DAG as it was: the essential graph of
//                        a random DAG of N vertices (in-degree 0 to 4, parents anywhere
//                        before it, as bnsl generate's networks), its encoding and hash
//   classify/key/N       the same DAG's class key (pool/class_key.hpp), what the pool uses now
//
// Before blocks.cpp, both counted every subpath of a path as a subproblem (O(N^3)); run it
// with --benchmark_filter to pick sizes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <span>
#include <vector>

#include "pool/class_key.hpp"
#include "pool/cpdag.hpp"
#include "pool/mec_size.hpp"
#include "pool/orientations.hpp"

namespace {

using Parents = std::vector<std::vector<int>>;

// Each vertex's parent is one of the three before it: paths of random length, branching.
Parents random_tree(int n) {
  std::mt19937_64 rng(7);
  Parents g(static_cast<std::size_t>(n));
  for (int v = 1; v < n; ++v)
    g[static_cast<std::size_t>(v)].push_back(
        std::uniform_int_distribution<int>(std::max(0, v - 3), v - 1)(rng));
  return g;
}

// Each new vertex's parents: a single vertex or a subset of a clique met before (an AMO of a
// chordal graph of many small blocks).
Parents random_blocks(int n) {
  std::mt19937_64 rng(11);
  std::vector<std::vector<int>> cliques{{0}};
  Parents g(static_cast<std::size_t>(n));
  for (int v = 1; v < n; ++v) {
    const auto& c = cliques[std::uniform_int_distribution<std::size_t>(
        cliques.size() > 8 ? cliques.size() - 8 : 0, cliques.size() - 1)(rng)];
    std::vector<int> s;
    if (std::bernoulli_distribution(0.5)(rng)) {
      s.push_back(c[std::uniform_int_distribution<std::size_t>(0, c.size() - 1)(rng)]);
    } else {
      for (int u : c)
        if (std::bernoulli_distribution(0.6)(rng)) s.push_back(u);
      if (s.empty()) s.push_back(c.front());
    }
    g[static_cast<std::size_t>(v)] = s;
    s.push_back(v);
    cliques.push_back(s);
  }
  return g;
}

// Each vertex draws 0 to 4 parents among all vertices before it.
Parents random_dag(int n) {
  std::mt19937_64 rng(13);
  Parents g(static_cast<std::size_t>(n));
  for (int v = 1; v < n; ++v) {
    auto& p = g[static_cast<std::size_t>(v)];
    const int k = std::uniform_int_distribution<int>(0, std::min(4, v))(rng);
    while (static_cast<int>(p.size()) < k) {
      const int u = std::uniform_int_distribution<int>(0, v - 1)(rng);
      if (std::find(p.begin(), p.end(), u) == p.end()) p.push_back(u);
    }
    std::sort(p.begin(), p.end());
  }
  return g;
}

void classify_essential(benchmark::State& state) {
  const Parents g = random_dag(static_cast<int>(state.range(0)));
  bnsl::EssentialGraphBuilder builder;
  std::vector<std::uint32_t> code;
  for (auto _ : state) {
    builder.build(g);
    builder.encode(code);
    benchmark::DoNotOptimize(bnsl::hash_encoding(code));
  }
}

void classify_key(benchmark::State& state) {
  const Parents g = random_dag(static_cast<int>(state.range(0)));
  const auto parents = [&g](std::size_t v) { return std::span<const int>(g[v]); };
  for (auto _ : state) benchmark::DoNotOptimize(bnsl::class_key(g.size(), parents));
}

template <Parents (*Make)(int)>
void size(benchmark::State& state) {
  const bnsl::Cpdag e = bnsl::essential_graph(Make(static_cast<int>(state.range(0))));
  for (auto _ : state) benchmark::DoNotOptimize(bnsl::mec_size(e));
}

template <Parents (*Make)(int)>
void orientations(benchmark::State& state) {
  const bnsl::Cpdag e = bnsl::essential_graph(Make(static_cast<int>(state.range(0))));
  for (auto _ : state) benchmark::DoNotOptimize(bnsl::edge_orientations(e));
}

BENCHMARK(size<random_tree>)
    ->Name("size/tree")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(3000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(orientations<random_tree>)
    ->Name("orientations/tree")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(3000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(size<random_blocks>)
    ->Name("size/blocks")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(3000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(orientations<random_blocks>)
    ->Name("orientations/blocks")
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(3000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(classify_essential)
    ->Name("classify/essential")
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(classify_key)
    ->Name("classify/key")
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
