// The memory guard of a listing (the DP's enumeration, the ILP's collection): a list of DAGs
// (classes) within epsilon can outgrow memory long before it outgrows --max-solutions (a
// Bayes factor of 1e6 on 14 variables: millions of DAGs), and it is only half the cost: the
// report then holds each listed DAG whole, groups them into classes and writes them. So the
// listing stops while what it lists still fits as a pool, and says so (ExactStats::
// memory_short, the pool's `memory_short`), instead of failing at an allocation and writing
// nothing. The limit is read when the list has grown by an eighth (reading it costs tens of
// microseconds), so the list stops before the next reading could overshoot it.
#pragma once

#include <algorithm>
#include <cstddef>

#include "util/memory.hpp"

namespace bnsl::exact {

// Bytes a listed DAG (class) of n variables takes from the listing to the written pool, at
// most: its parent lists in the report (a vector per variable), the classes and their
// encodings, the JSON writer's buffers. Above the peaks bench/list_memory.sh measures for DAGs
// and for classes (bench/results/exact.md, "Lists under a memory limit").
inline double listed_bytes(int n) {
  return 128.0 * n + 1024.0;
}

class ListMemory {
 public:
  explicit ListMemory(int n) : per_unit_(listed_bytes(n)) {}

  // Whether a list of `listed` DAGs (classes) must stop: the list it may reach before the next
  // reading would not fit, as a pool, in the memory available now.
  bool short_of(std::size_t listed) {
    if (short_) return true;
    if (listed < next_check_) return false;
    next_check_ = listed + std::max<std::size_t>(kStep, listed / 8);
    left_ = available_memory().bytes;
    short_ = static_cast<double>(next_check_) * per_unit_ > left_;
    return short_;
  }
  bool short_of_memory() const { return short_; }
  double left() const { return left_; }  // bytes available at the last reading

 private:
  static constexpr std::size_t kStep = 4096;
  double per_unit_;
  std::size_t next_check_ = kStep;
  double left_ = 0;
  bool short_ = false;
};

}  // namespace bnsl::exact
