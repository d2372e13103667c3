// Bit-parallel counting on one-hot bitmaps (see bit_columns.cpp).
//
// A column of arity r <= kMaxBitArity is stored as r bitmaps of N bits, bitmap s marking the
// rows where the column takes state s. A joint count is then a popcount of ANDed bitmaps, 64
// rows per instruction: cheap when the tables are small, which is what all-pairs statistics
// (pair_stats.hpp) and the conditional sweeps of screened exploration (two parents and the
// child) need.
//
//   BitColumns bits(data);                 // every column with 2..16 states
//   PairCounts pc(bits);                   // per thread
//   double ll = pc.ll_gain(x, y);          // N I(X; Y)
//   SweepCounter sw(bits);                 // per thread
//   if (sw.set_base(child, y))             // false if a column is not packed or too wide
//     if (const std::uint32_t* t = sw.table(z))    // null if z is not packed
//       FamilyScore f = counter.summarize(t, r_y * r_z, r_y * r_z, child);  // {y, z}
//   PairSweep ps(counter, &bits);          // the same, scored, with a row-by-row fallback
//   ps.set_base(child, y);
//   FamilyScore f = ps.score(z);           // {y, z}, bit-parallel where it can be
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "bnsl/dataset.hpp"
#include "score/counting.hpp"

namespace bnsl {

class BitColumns {
 public:
  static constexpr int kMaxBitArity = 16;

  explicit BitColumns(const Dataset& data);
  // What the constructor allocates for `data`, before it does.
  static std::size_t bytes_needed(const Dataset& data);

  const Dataset& data() const { return data_; }
  std::size_t words() const { return words_; }  // 64-bit words per bitmap
  bool packed(int v) const { return offset_[v] != kNone; }
  // Bitmap of state s of v (packed(v) only).
  const std::uint64_t* bitmap(int v, int s) const {
    return bits_.data() + offset_[v] + static_cast<std::size_t>(s) * words_;
  }
  // Rows where v takes state s.
  std::uint32_t count(int v, int s) const { return count_[count_offset_[v] + s]; }
  const std::vector<double>& nlogn() const { return nlogn_; }  // nlogn()[k] = k ln k, k <= N
  std::size_t bytes() const { return bits_.capacity() * 8 + count_.capacity() * 4; }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const Dataset& data_;
  std::size_t words_ = 0;
  std::vector<std::size_t> offset_;  // start of v's bitmaps in bits_, kNone if unpacked
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> count_;  // state counts, v's at count_offset_[v]
  std::vector<std::size_t> count_offset_;
  std::vector<double> nlogn_;
};

// N I(X; Y) for pairs of columns, bit-parallel when both are packed and the table small, row
// by row otherwise. One per thread (scratch buffers).
class PairCounts {
 public:
  explicit PairCounts(const BitColumns& bits) : bits_(bits) {}
  double ll_gain(int x, int y);

 private:
  void count_packed(int x, int y, int rx, int ry);
  void count_rows(int x, int y, int ry);
  const BitColumns& bits_;
  std::vector<std::uint32_t> table_, inner_;
};

// Families {y, z} of one child, for many z: the cells (y, child) are ANDed once (set_base),
// then each z costs r_y r_child (r_z - 1) popcounts of N / 64 words. One per thread.
class SweepCounter {
 public:
  explicit SweepCounter(const BitColumns& bits) : bits_(bits) {}
  // False (and nothing set) when child or y is not packed, or r_y r_child > kMaxBaseCells.
  bool set_base(int child, int y);
  // The count table of child against {y, z} (z != y, z != child), configurations (y state,
  // z state) with y's slowest and the child's state fastest, as Counter counts the sorted set
  // {y, z} when y < z: (j r_z + s) r_child + x. Null when z is not packed.
  const std::uint32_t* table(int z);
  static constexpr int kMaxBaseCells = 64;

 private:
  const BitColumns& bits_;
  int child_ = -1, y_ = -1, r_child_ = 0, r_y_ = 0;
  std::vector<std::uint64_t> base_;  // bitmap of (y = j, child = x) at (j * r_child + x) * words
  std::vector<std::uint32_t> base_count_, cells_, table_;
};

// The families {y, z} of one child for one y and many z, scored: bit-parallel (SweepCounter)
// where both columns and the table allow, row by row from y's configuration index (built on
// first need) otherwise; the two give the same score bit for bit (Counter::summarize). One per
// thread, sharing the thread's Counter.
class PairSweep {
 public:
  PairSweep(Counter& counter, const BitColumns* bits) : counter_(counter) {
    if (bits) sweep_.emplace(*bits);
  }
  void set_base(int child, int y) {
    child_ = child;
    y_ = y;
    fast_ = sweep_ && sweep_->set_base(child, y);
    built_ = false;
  }
  // The family's score when it can be counted bit-parallel, else nothing.
  std::optional<FamilyScore> packed_score(int z);
  FamilyScore score(int z);

 private:
  Counter& counter_;
  std::optional<SweepCounter> sweep_;
  ConfigIndex index_;  // y's, when built_
  int child_ = -1, y_ = -1;
  bool fast_ = false, built_ = false;
};

}  // namespace bnsl
