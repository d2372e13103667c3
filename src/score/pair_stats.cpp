// All-pairs mutual information (pair_stats.hpp), counted bit-parallel (bit_columns.hpp).
//
// The pairs are visited in blocks of kBlock rows of the lower triangle (y), each block against
// every x < y, so a block's bitmaps stay in cache while the x columns stream past; blocks are
// handed out dynamically, largest first. From the joint table of X and Y:
//   N I(X; Y) = sum_ij n_ij ln n_ij - sum_i n_i ln n_i - sum_j n_j ln n_j + N ln N.
#include "score/pair_stats.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <numeric>

#include "parallel/threads.hpp"

namespace bnsl {
namespace {

constexpr std::size_t kBlock = 16;

}  // namespace

PairStats::PairStats(const BitColumns& bits, int threads, const StopToken& stop)
    : n_(bits.data().n_vars()) {
  const StopToken clock;
  const Dataset& data = bits.data();
  const std::size_t rows = data.n_rows();
  half_log_n_ = rows > 0 ? 0.5 * std::log(static_cast<double>(rows)) : 0;
  arity_.resize(n_);
  for (std::size_t v = 0; v < n_; ++v) arity_[v] = data.arity(v);
  gain_.assign(n_ > 1 ? n_ * (n_ - 1) / 2 : 0, 0.0f);
  if (n_ < 2 || rows == 0) return;
  const std::size_t blocks = (n_ + kBlock - 1) / kBlock;
  const int t = resolve_threads(threads);
  FirstError failure;
  std::atomic<bool> stopped{false};
#pragma omp parallel num_threads(t)
  {
    PairCounts counter(bits);
#pragma omp for schedule(dynamic, 1)
    for (long k = 0; k < static_cast<long>(blocks); ++k) {
      if (stopped.load(std::memory_order_relaxed) || stop.stop_requested()) {
        stopped.store(true, std::memory_order_relaxed);
        continue;
      }
      failure.run([&] {
        const std::size_t b = blocks - 1 - static_cast<std::size_t>(k);  // largest first
        const std::size_t y0 = b * kBlock, y1 = std::min(n_, y0 + kBlock);
        for (std::size_t x = 0; x + 1 < y1; ++x)
          for (std::size_t y = std::max(y0, x + 1); y < y1; ++y)
            gain_[index(x, y)] =
                static_cast<float>(counter.ll_gain(static_cast<int>(x), static_cast<int>(y)));
      });
    }
  }
  failure.rethrow();
  complete_ = !stopped;
  seconds_ = clock.elapsed();
}

std::vector<int> PairStats::top_parents(int x, std::size_t k) const {
  std::vector<std::pair<double, int>> all;
  all.reserve(n_);
  for (std::size_t y = 0; y < n_; ++y)
    if (static_cast<int>(y) != x && arity_[y] >= 2)
      all.push_back({bic_gain(x, static_cast<int>(y)), static_cast<int>(y)});
  const auto better = [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  };
  k = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<long>(k), all.end(), better);
  std::vector<int> out(k);
  for (std::size_t i = 0; i < k; ++i) out[i] = all[i].second;
  return out;
}

}  // namespace bnsl
