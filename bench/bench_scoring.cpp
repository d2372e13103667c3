// Parent-set scoring throughput: sets scored per second per thread (items_per_second).
//
// Three ways of scoring a family (child X, parent set P with |P| = k):
//   scratch  LocalScorer::score(X, P): the public one-off entry point (builds a Counter, the
//            index of P by k extensions, then counts);
//   build    Counter::build(P) + Counter::score with one long-lived Counter (what scratch costs
//            without the per-call Counter set-up);
//   explore  the explorers' pattern: the index of a base set B (|B| = k - 1) is built once,
//            then Counter::score_extension(B, Y, X) (extend + count, fused when the table is
//            small) for every other variable Y. The base build is inside the timed region,
//            amortised over its extensions, as in exploration.
//   grouped  explore over the distinct rows, each weighted by its multiplicity
//            (score/row_groups.hpp; grouped here whatever the share of distinct rows, so on
//            data without repeated rows it measures the cost of the weights alone).
// on synthetic data (20 binary and ternary variables with noisy dependences, fixed seed) at
// 1,000, 10,000 and 100,000 rows, and on a real CSV (default: datasets/alarm-5000.csv; set
// BNSL_BENCH_CSV to another file, BNSL_BENCH_NO_HEADER=1 for a headerless one), with BIC
// and BDeu. Every benchmark runs on one thread, and items_per_second is computed from CPU
// time, so it is sets per second per thread even on a loaded machine.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/score.hpp"
#include "score/counting.hpp"
#include "score/row_groups.hpp"

#ifndef BNSL_DATASETS_DIR
#define BNSL_DATASETS_DIR "datasets"
#endif

namespace {

constexpr std::uint64_t kSeed = 20240611;  // data and parent sets
constexpr int kSyntheticVars = 20;
constexpr int kFamilies = 64;  // distinct families (or bases) each benchmark cycles through

// Synthetic data: even variables binary, odd ternary; X_v for v >= 3 copies
// (X_{v-1} + 2 X_{v-3}) mod r_v with probability 0.7, else is uniform.
bnsl::Dataset make_synthetic(std::size_t rows) {
  std::mt19937_64 rng(kSeed);
  std::vector<int> arity(kSyntheticVars);
  for (int v = 0; v < kSyntheticVars; ++v) arity[v] = v % 2 == 0 ? 2 : 3;
  std::vector<std::vector<int>> cols(kSyntheticVars, std::vector<int>(rows));
  std::uniform_real_distribution<double> coin(0, 1);
  for (std::size_t i = 0; i < rows; ++i)
    for (int v = 0; v < kSyntheticVars; ++v) {
      const int r = arity[v];
      if (v >= 3 && coin(rng) < 0.7)
        cols[v][i] = (cols[v - 1][i] + 2 * cols[v - 3][i]) % r;
      else
        cols[v][i] = static_cast<int>(rng() % r);
    }
  return bnsl::Dataset::from_codes(cols, arity);
}

const bnsl::Dataset& synthetic(std::size_t rows) {
  static std::map<std::size_t, std::unique_ptr<bnsl::Dataset>> sets;
  auto& d = sets[rows];
  if (!d) d = std::make_unique<bnsl::Dataset>(make_synthetic(rows));
  return *d;
}

std::string csv_path() {
  const char* env = std::getenv("BNSL_BENCH_CSV");
  return env && *env ? env : BNSL_DATASETS_DIR "/alarm-5000.csv";
}

// The real data set, or nullptr (with a skip message) when it cannot be read.
const bnsl::Dataset* real_data(std::string& error) {
  static std::unique_ptr<bnsl::Dataset> data;
  static std::string load_error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    try {
      bnsl::CsvOptions opt;
      const char* nh = std::getenv("BNSL_BENCH_NO_HEADER");
      opt.header = !(nh && *nh && std::string(nh) != "0");
      data = std::make_unique<bnsl::Dataset>(bnsl::read_csv(csv_path(), opt));
    } catch (const std::exception& e) {
      load_error = csv_path() + ": " + e.what();
    }
  }
  error = load_error;
  return data.get();
}

struct Family {
  int child;
  std::vector<int> parents;  // sorted; in explore mode, the base set (size k - 1)
};

// kFamilies random families with `size` parents, none of them the child, fixed seed.
std::vector<Family> random_families(std::size_t n_vars, int size) {
  std::mt19937_64 rng(kSeed + size);
  std::vector<int> vars(n_vars);
  std::vector<Family> out;
  for (int f = 0; f < kFamilies; ++f) {
    for (std::size_t v = 0; v < n_vars; ++v) vars[v] = static_cast<int>(v);
    std::shuffle(vars.begin(), vars.end(), rng);
    Family fam{vars[0], std::vector<int>(vars.begin() + 1, vars.begin() + 1 + size)};
    std::sort(fam.parents.begin(), fam.parents.end());
    out.push_back(std::move(fam));
  }
  return out;
}

bnsl::ScoreParams params_of(int kind) {
  bnsl::ScoreParams p;
  p.kind = kind == 0 ? bnsl::ScoreKind::bic : bnsl::ScoreKind::bdeu;
  return p;
}

void label(benchmark::State& state, const bnsl::Dataset& data, int k) {
  state.SetLabel(std::to_string(data.n_rows()) + " rows, " + std::to_string(data.n_vars()) +
                 " vars, k=" + std::to_string(k));
}

// Mode scratch: LocalScorer::score from nothing.
void run_scratch(benchmark::State& state, const bnsl::Dataset& data, int k, int kind) {
  bnsl::LocalScorer scorer(data, params_of(kind));
  const auto fams = random_families(data.n_vars(), k);
  std::size_t f = 0;
  for (auto _ : state) {
    const Family& fam = fams[f++ % fams.size()];
    benchmark::DoNotOptimize(scorer.score(fam.child, fam.parents).score);
  }
  state.SetItemsProcessed(state.iterations());
  label(state, data, k);
}

// Mode build: one Counter reused, index built by k extensions, then counted.
void run_build(benchmark::State& state, const bnsl::Dataset& data, int k, int kind) {
  bnsl::Counter counter(data, params_of(kind));
  bnsl::ConfigIndex index;
  const auto fams = random_families(data.n_vars(), k);
  std::size_t f = 0;
  for (auto _ : state) {
    const Family& fam = fams[f++ % fams.size()];
    counter.build(fam.parents, index);
    benchmark::DoNotOptimize(counter.score(index, fam.child).score);
  }
  state.SetItemsProcessed(state.iterations());
  label(state, data, k);
}

// Mode explore: per iteration, one base set of size k - 1 built, then extended by every
// variable not in it (nor the child) and scored: n_vars - k sets per iteration.
void explore_with(benchmark::State& state, const bnsl::Dataset& data, int k, int kind,
                  const bnsl::RowGroups* groups) {
  bnsl::Counter counter(data, params_of(kind), groups);
  bnsl::ConfigIndex base;
  const auto fams = random_families(data.n_vars(), k - 1);
  std::size_t f = 0;
  std::int64_t sets = 0;
  for (auto _ : state) {
    const Family& fam = fams[f++ % fams.size()];
    counter.build(fam.parents, base);
    for (int y = 0; y < static_cast<int>(data.n_vars()); ++y) {
      if (y == fam.child || std::binary_search(fam.parents.begin(), fam.parents.end(), y)) continue;
      benchmark::DoNotOptimize(counter.score_extension(base, y, fam.child).score);
      ++sets;
    }
  }
  state.SetItemsProcessed(sets);
  label(state, data, k);
}

void run_explore(benchmark::State& state, const bnsl::Dataset& data, int k, int kind) {
  explore_with(state, data, k, kind, nullptr);
}

// Mode grouped: explore over the distinct rows.
void run_grouped(benchmark::State& state, const bnsl::Dataset& data, int k, int kind) {
  const std::optional<bnsl::RowGroups> groups = bnsl::group_rows(data, 1.0);
  explore_with(state, data, k, kind, &*groups);
  state.SetLabel(std::to_string(data.n_rows()) + " rows (" + std::to_string(groups->rows.n_rows()) +
                 " distinct), " + std::to_string(data.n_vars()) + " vars, k=" + std::to_string(k));
}

using Runner = void (*)(benchmark::State&, const bnsl::Dataset&, int, int);

// Args: rows, k, kind (0 BIC, 1 BDeu).
template <Runner run>
void bm_synthetic(benchmark::State& state) {
  run(state, synthetic(state.range(0)), static_cast<int>(state.range(1)),
      static_cast<int>(state.range(2)));
}

// Args: k, kind.
template <Runner run>
void bm_csv(benchmark::State& state) {
  std::string error;
  const bnsl::Dataset* data = real_data(error);
  if (!data) {
    state.SkipWithError(error.c_str());
    for (auto _ : state) {
    }
    return;
  }
  run(state, *data, static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
}

void synthetic_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"rows", "k", "bdeu"});
  for (int kind : {0, 1})
    for (int rows : {1000, 10000, 100000})
      for (int k = 1; k <= 4; ++k) b->Args({rows, k, kind});
}

void csv_args(benchmark::internal::Benchmark* b) {
  b->ArgNames({"k", "bdeu"});
  for (int kind : {0, 1})
    for (int k = 1; k <= 4; ++k) b->Args({k, kind});
}

}  // namespace

BENCHMARK(bm_synthetic<run_scratch>)->Name("scratch/synthetic")->Apply(synthetic_args);
BENCHMARK(bm_synthetic<run_build>)->Name("build/synthetic")->Apply(synthetic_args);
BENCHMARK(bm_synthetic<run_explore>)->Name("explore/synthetic")->Apply(synthetic_args);
BENCHMARK(bm_csv<run_scratch>)->Name("scratch/csv")->Apply(csv_args);
BENCHMARK(bm_csv<run_build>)->Name("build/csv")->Apply(csv_args);
BENCHMARK(bm_csv<run_explore>)->Name("explore/csv")->Apply(csv_args);
BENCHMARK(bm_synthetic<run_grouped>)->Name("grouped/synthetic")->Apply(synthetic_args);
BENCHMARK(bm_csv<run_grouped>)->Name("grouped/csv")->Apply(csv_args);

BENCHMARK_MAIN();
