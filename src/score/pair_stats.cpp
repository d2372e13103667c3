// All-pairs statistics (pair_stats.hpp), counted bit-parallel (bit_columns.hpp).
//
// The pairs are visited in blocks of kBlock rows of the lower triangle (y), each block against
// every x < y, so a block's bitmaps stay in cache while the x columns stream past; blocks are
// handed out dynamically, largest first. From the joint table of X and Y:
//   N I(X; Y) = sum_ij n_ij ln n_ij - sum_i n_i ln n_i - sum_j n_j ln n_j + N ln N.
// Each count is offered at once to the lists of both variables (Lists below), so the memory is
// n * keep entries however many pairs there are.
#include "score/pair_stats.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>

#include "util/threads.hpp"

namespace bnsl {
namespace {

constexpr std::size_t kBlock = 16;
constexpr std::size_t kLocks = 1024;

using Parent = PairStats::Parent;

// a ranks before b: the higher gain, then the lower index (a total order, so the lists do not
// depend on the order the threads offer in).
bool before(const Parent& a, const Parent& b) {
  return a.gain != b.gain ? a.gain > b.gain : a.var < b.var;
}

// Every variable's best `keep` parents while the threads count: a heap per variable with its
// worst entry on top, guarded by one of kLocks mutexes. Once a list is full, a relaxed read of
// its worst gain turns most offers away without taking the lock.
class Lists {
 public:
  Lists(Parent* entries, std::uint32_t* size, std::size_t n, std::size_t keep)
      : entries_(entries),
        size_(size),
        keep_(keep),
        floor_(new std::atomic<double>[n]),
        locks_(kLocks) {
    for (std::size_t x = 0; x < n; ++x)
      floor_[x].store(-std::numeric_limits<double>::infinity(), std::memory_order_relaxed);
  }

  void offer(std::size_t x, double gain, int var) {
    if (gain < floor_[x].load(std::memory_order_relaxed)) return;
    const std::lock_guard<std::mutex> lock(locks_[x % kLocks]);
    Parent* heap = entries_ + x * keep_;
    std::uint32_t& size = size_[x];
    const Parent p{gain, var};
    if (size < keep_) {
      heap[size++] = p;
      std::push_heap(heap, heap + size, before);
      if (size == keep_) floor_[x].store(heap[0].gain, std::memory_order_relaxed);
      return;
    }
    if (!before(p, heap[0])) return;
    std::pop_heap(heap, heap + size, before);
    heap[size - 1] = p;
    std::push_heap(heap, heap + size, before);
    floor_[x].store(heap[0].gain, std::memory_order_relaxed);
  }

 private:
  Parent* entries_;
  std::uint32_t* size_;
  std::size_t keep_;
  std::unique_ptr<std::atomic<double>[]> floor_;
  std::vector<std::mutex> locks_;
};

}  // namespace

PairStats::PairStats(const BitColumns& bits, std::size_t keep, int threads, const StopToken& stop)
    : n_(bits.data().n_vars()), keep_(std::min(keep, n_ > 0 ? n_ - 1 : 0)) {
  const StopToken clock;
  const Dataset& data = bits.data();
  const std::size_t rows = data.n_rows();
  lists_.resize(n_ * keep_);
  size_.assign(n_, 0);
  if (n_ < 2 || rows == 0 || keep_ == 0) return;
  const double half_log_n = 0.5 * std::log(static_cast<double>(rows));
  std::vector<int> arity(n_);
  for (std::size_t v = 0; v < n_; ++v) arity[v] = data.arity(v);
  Lists lists(lists_.data(), size_.data(), n_, keep_);
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
          for (std::size_t y = std::max(y0, x + 1); y < y1; ++y) {
            // N I(X; Y), rounded to a float as the gains were once stored.
            const double ll =
                static_cast<float>(counter.ll_gain(static_cast<int>(x), static_cast<int>(y)));
            const int rx = arity[x], ry = arity[y];
            if (ry >= 2) lists.offer(x, ll - half_log_n * (rx - 1) * (ry - 1), static_cast<int>(y));
            if (rx >= 2) lists.offer(y, ll - half_log_n * (ry - 1) * (rx - 1), static_cast<int>(x));
          }
      });
    }
  }
  failure.rethrow();
  for (std::size_t x = 0; x < n_; ++x) {
    Parent* heap = lists_.data() + x * keep_;
    std::sort_heap(heap, heap + size_[x], before);  // best first
  }
  complete_ = !stopped;
  seconds_ = clock.elapsed();
}

std::vector<int> PairStats::top_parents(int x, std::size_t k) const {
  const std::span<const Parent> all = best(x);
  std::vector<int> out(std::min(k, all.size()));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = all[i].var;
  return out;
}

}  // namespace bnsl
