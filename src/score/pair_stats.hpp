// All-pairs statistics: the empirical mutual information of every pair of variables, from one
// joint count per pair (see pair_stats.cpp). One count of (X, Y) gives both single-parent
// scores: LL(X | Y) - LL(X | {}) = N I(X; Y) = LL(Y | X) - LL(Y | {}), so
//   BIC(X | {Y}) = BIC(X | {}) + N I(X; Y) - (ln N / 2)(r_X - 1)(r_Y - 1).
//
//   BitColumns bits(data);
//   PairStats ps(bits, threads, stop);             // n (n - 1) / 2 counts, in parallel
//   double gain = ps.bic_gain(x, y);              // BIC(X | {Y}) - BIC(X | {})
//   std::vector<int> c = ps.top_parents(x, 30);   // the 30 best single parents of x
//
// Memory: one float per pair (200 MB for 10,000 variables) plus the bit-packed columns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/stop.hpp"
#include "score/bit_columns.hpp"

namespace bnsl {

class PairStats {
 public:
  // Counts every pair of columns with `threads` OpenMP threads (0: all cores). If `stop`
  // fires first, complete() is false and the pairs not counted read as 0.
  PairStats(const BitColumns& bits, int threads, const StopToken& stop);

  std::size_t n_vars() const { return n_; }
  bool complete() const { return complete_; }
  double seconds() const { return seconds_; }
  // N I(X; Y) in nats (symmetric), >= 0 up to rounding; stored as float.
  double ll_gain(int x, int y) const {
    return x == y ? 0.0 : static_cast<double>(gain_[index(x, y)]);
  }
  // BIC(X | {Y}) - BIC(X | {}).
  double bic_gain(int x, int y) const {
    return ll_gain(x, y) - half_log_n_ * (arity_[x] - 1) * (arity_[y] - 1);
  }
  // Up to k variables y != x with arity >= 2, by bic_gain(x, y), best first (ties: lower index).
  std::vector<int> top_parents(int x, std::size_t k) const;
  std::size_t bytes() const { return gain_.capacity() * sizeof(float); }

 private:
  std::size_t index(std::size_t x, std::size_t y) const {
    if (x > y) std::swap(x, y);
    return y * (y - 1) / 2 + x;  // lower triangle, row y
  }

  std::size_t n_;
  double half_log_n_;
  std::vector<int> arity_;
  std::vector<float> gain_;  // N I(x; y) for x < y, at index(x, y)
  bool complete_ = true;
  double seconds_ = 0;
};

}  // namespace bnsl
