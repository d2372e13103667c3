// All-pairs statistics: the empirical mutual information of every pair of variables, from one
// joint count per pair (see pair_stats.cpp), reduced as it is counted to each variable's best
// single parents. One count of (X, Y) gives both single-parent scores:
//   LL(X | Y) - LL(X | {}) = N I(X; Y) = LL(Y | X) - LL(Y | {}), so
//   BIC(X | {Y}) = BIC(X | {}) + N I(X; Y) - (ln N / 2)(r_X - 1)(r_Y - 1).
//
//   BitColumns bits(data);
//   PairStats ps(bits, 32, threads, stop);        // n (n - 1) / 2 counts, in parallel
//   std::vector<int> c = ps.top_parents(x, 30);   // the 30 best single parents of x
//   for (const PairStats::Parent& p : ps.best(x)) // all 32 kept, best first, with their gains
//
// Memory: `keep` entries per variable (16 bytes each: 50 MB for 100,000 variables and 32),
// plus the bit-packed columns. The n (n - 1) / 2 gains themselves are never held (a float each
// would be 20 GB at 100,000 variables; issue 24).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/stop.hpp"
#include "score/bit_columns.hpp"

namespace bnsl {

class PairStats {
 public:
  struct Parent {
    double gain;  // BIC(x | {var}) - BIC(x | {}), from N I(x; var) rounded to a float
    int var;
  };

  // Counts every pair of columns with `threads` OpenMP threads (0: all cores) and keeps each
  // variable's `keep` best single parents. If `stop` fires first, complete() is false and the
  // pairs not counted are missing from the lists.
  PairStats(const BitColumns& bits, std::size_t keep, int threads, const StopToken& stop);

  std::size_t n_vars() const { return n_; }
  std::size_t keep() const { return keep_; }
  bool complete() const { return complete_; }
  double seconds() const { return seconds_; }
  // Up to keep() variables y != x with arity >= 2, by gain best first (ties: lower index):
  // the best of all n - 1, whatever order the pairs were counted in.
  std::span<const Parent> best(int x) const {
    return {lists_.data() + static_cast<std::size_t>(x) * keep_, size_[x]};
  }
  // The first min(k, keep()) variables of best(x).
  std::vector<int> top_parents(int x, std::size_t k) const;
  // What the constructor allocates for n variables keeping `keep` each, before it does.
  static std::size_t bytes_needed(std::size_t n, std::size_t keep) {
    return n * (keep * sizeof(Parent) + sizeof(std::uint32_t) + sizeof(double));
  }
  std::size_t bytes() const {
    return lists_.capacity() * sizeof(Parent) + size_.capacity() * sizeof(std::uint32_t);
  }

 private:
  std::size_t n_, keep_;
  std::vector<Parent> lists_;        // variable x's at [x * keep_, x * keep_ + size_[x])
  std::vector<std::uint32_t> size_;  // entries of each list
  bool complete_ = true;
  double seconds_ = 0;
};

}  // namespace bnsl
