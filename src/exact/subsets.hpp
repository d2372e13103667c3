// Subsets of a few variables as 32-bit masks, taken by size: the k-subsets in numeric order of
// their masks (colex order), their count, the one of a given rank, and the next one. The subset
// DP (dp.cpp) fills its layers in parallel chunks of consecutive k-subsets this way.
#pragma once

#include <bit>
#include <cstdint>

namespace bnsl::exact {

// C(n, k) for n <= 62.
inline std::uint64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * static_cast<std::uint64_t>(n - k + i) / i;
  return r;
}

// The k-subset of rank r (0-based) among the k-subsets in numeric order of their masks:
// r = sum over its elements c_1 < ... < c_k of C(c_i, i).
inline std::uint32_t unrank_subset(std::uint64_t r, int k) {
  std::uint32_t set = 0;
  for (int i = k; i >= 1; --i) {
    int c = i - 1;  // the largest c with C(c, i) <= r
    while (binomial(c + 1, i) <= r) ++c;
    set |= std::uint32_t{1} << c;
    r -= binomial(c, i);
  }
  return set;
}

// The next set of the same size in numeric order (Gosper's hack); s != 0, and the next set
// must fit in 32 bits.
inline std::uint32_t next_subset(std::uint32_t s) {
  const std::uint32_t t = s | (s - 1);
  return (t + 1) | (((~t & (t + 1)) - 1) >> (std::countr_zero(s) + 1));
}

}  // namespace bnsl::exact
