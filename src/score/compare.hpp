// The one definition of score comparison used by pruning, search, dedupe and tests.
// Scores are sums of many logs; two scores closer than kScoreTolerance (relative, with an
// absolute floor) are treated as equal. Pruning rules only fire when their inequality holds
// by more than the tolerance, so rounding can only make them keep more, never drop more.
#pragma once

#include <algorithm>
#include <cmath>

namespace bnsl {

inline constexpr double kScoreTolerance = 1e-9;

inline double score_tolerance(double a, double b) {
  return kScoreTolerance * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// a > b beyond rounding noise.
inline bool clearly_greater(double a, double b) {
  return a > b + score_tolerance(a, b);
}

// a > b beyond rounding noise, where a and b were computed from terms as large as `scale` (a
// difference of large sums is only as exact as the sums).
inline bool clearly_greater(double a, double b, double scale) {
  return a > b + std::max(score_tolerance(a, b), kScoreTolerance * std::fabs(scale));
}

// a and b equal within rounding noise.
inline bool score_equal(double a, double b) {
  return std::fabs(a - b) <= score_tolerance(a, b);
}

}  // namespace bnsl
