// A listing past max_solutions keeps the best: the scores it holds, the bar below which a DAG
// (class) is no longer listed, and the lists of DAGs trimmed to it. Shared by the DP's
// enumeration (enumerate.cpp) and the ILP's collection (collect.cpp); see their comments for
// why every DAG above the final bar is listed.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <vector>

namespace bnsl::exact {

class BestScores {
 public:
  explicit BestScores(std::size_t max) : max_(max) {}

  // A DAG (class) of this score was met: whether the list takes it. Below max it does; then
  // only when it beats the worst listed score, which leaves the list. From the first unit
  // past max, bar() is the worst listed score; not before: a bar would hide that there are
  // more.
  bool admit(double score) {
    if (worst_.size() < max_) {
      worst_.push(score);
      return true;
    }
    dropped_ = true;
    if (max_ == 0) return false;
    const bool taken = score > worst_.top();
    if (taken) {
      worst_.pop();
      worst_.push(score);
    }
    bar_ = worst_.top();
    return taken;
  }
  std::size_t listed() const { return worst_.size(); }
  double bar() const { return bar_; }        // -inf until a unit was left out
  bool dropped() const { return dropped_; }  // some unit was left out or left the list

 private:
  std::size_t max_;
  std::priority_queue<double, std::vector<double>, std::greater<>> worst_;  // listed scores
  double bar_ = -std::numeric_limits<double>::infinity();
  bool dropped_ = false;
};

using Choice = std::vector<std::uint32_t>;  // family index per variable

// Keeps the DAGs scoring at least `bar` (dags[i] scores scores[i]), in their order.
inline void drop_below(std::vector<Choice>& dags, std::vector<double>& scores, double bar) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < dags.size(); ++i)
    if (scores[i] >= bar) {
      if (kept != i) {
        dags[kept] = std::move(dags[i]);
        scores[kept] = scores[i];
      }
      ++kept;
    }
  dags.resize(kept);
  scores.resize(kept);
}

// Keeps the max best DAGs, the first ones among ties, in their order.
inline void keep_best(std::vector<Choice>& dags, std::vector<double>& scores, std::size_t max) {
  if (dags.size() <= max) return;
  std::vector<std::size_t> order(dags.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  order.resize(max);
  std::sort(order.begin(), order.end());
  for (std::size_t k = 0; k < order.size(); ++k)
    if (order[k] != k) {
      dags[k] = std::move(dags[order[k]]);
      scores[k] = scores[order[k]];
    }
  dags.resize(max);
  scores.resize(max);
}

}  // namespace bnsl::exact
