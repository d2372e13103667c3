// Bit-parallel counting (bit_columns.hpp).
//
// The joint count of states (i, j) of X and Y is popcount(X_i & Y_j) summed over N / 64
// words: (r_X - 1)(r_Y - 1) AND-popcounts per word instead of one scattered increment per
// row, the table's last row and column following from the marginals. For 4 x 4 states that
// is 9 popcounts per 64 rows, about 20 times fewer operations than counting row by row; for
// binary data, one. Tables with more inner cells than kMaxPackedCells (wide columns) are
// counted row by row from the codes. A sweep's family {Y, Z} of child X is counted the same
// way against the r_Y r_X bitmaps (Y = j and X = x), ANDed once per base.
//
// The popcount kernel has three builds: with AVX-512 VPOPCNTDQ, with the POPCNT instruction,
// and with neither; one is picked at run time from what the CPU supports (__builtin_cpu_supports
// and GCC target_clones).
#include "score/bit_columns.hpp"

#include <algorithm>
#include <cmath>

namespace bnsl {
namespace {

constexpr int kMaxPackedCells = 64;  // (r_X - 1)(r_Y - 1) up to this: bit-parallel

template <class F>
void with_codes(const Dataset& data, int v, F&& f) {
  if (data.wide(v))
    f(data.codes16(v));
  else
    f(data.codes8(v));
}

// out[i * nb + j] = popcount(a_i & b_j) over `words` words, for i < na, j < nb; bitmap i of a
// starts at a + i * words (likewise b). Inlined into each build below, which compiles it for
// its own target.
__attribute__((always_inline)) inline void popcount_table_body(const std::uint64_t* a, int na,
                                                               const std::uint64_t* b, int nb,
                                                               std::size_t words,
                                                               std::uint32_t* out) {
  for (int i = 0; i < na; ++i) {
    const std::uint64_t* ai = a + static_cast<std::size_t>(i) * words;
    int j = 0;
    for (; j + 3 <= nb; j += 3) {  // three columns per pass over a_i
      const std::uint64_t* b0 = b + static_cast<std::size_t>(j) * words;
      const std::uint64_t* b1 = b0 + words;
      const std::uint64_t* b2 = b1 + words;
      std::uint64_t s0 = 0, s1 = 0, s2 = 0;
      for (std::size_t w = 0; w < words; ++w) {
        const std::uint64_t x = ai[w];
        s0 += static_cast<std::uint64_t>(__builtin_popcountll(x & b0[w]));
        s1 += static_cast<std::uint64_t>(__builtin_popcountll(x & b1[w]));
        s2 += static_cast<std::uint64_t>(__builtin_popcountll(x & b2[w]));
      }
      out[i * nb + j] = static_cast<std::uint32_t>(s0);
      out[i * nb + j + 1] = static_cast<std::uint32_t>(s1);
      out[i * nb + j + 2] = static_cast<std::uint32_t>(s2);
    }
    for (; j < nb; ++j) {
      const std::uint64_t* bj = b + static_cast<std::size_t>(j) * words;
      std::uint64_t s = 0;
      for (std::size_t w = 0; w < words; ++w)
        s += static_cast<std::uint64_t>(__builtin_popcountll(ai[w] & bj[w]));
      out[i * nb + j] = static_cast<std::uint32_t>(s);
    }
  }
}

// Two builds of the kernel: with POPCNT (or without, chosen by the loader), and with AVX-512
// VPOPCNTDQ, into which GCC vectorises the word loops (8 words per instruction).
__attribute__((target_clones("popcnt", "default"))) void popcount_table_scalar(
    const std::uint64_t* a, int na, const std::uint64_t* b, int nb, std::size_t words,
    std::uint32_t* out) {
  popcount_table_body(a, na, b, nb, words, out);
}

__attribute__((target("avx512f,avx512vl,avx512vpopcntdq"))) void popcount_table_avx512(
    const std::uint64_t* a, int na, const std::uint64_t* b, int nb, std::size_t words,
    std::uint32_t* out) {
  popcount_table_body(a, na, b, nb, words, out);
}

using PopcountTable = void (*)(const std::uint64_t*, int, const std::uint64_t*, int, std::size_t,
                               std::uint32_t*);

PopcountTable pick_popcount_table() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512vpopcntdq") ? popcount_table_avx512 : popcount_table_scalar;
}

void popcount_table(const std::uint64_t* a, int na, const std::uint64_t* b, int nb,
                    std::size_t words, std::uint32_t* out) {
  static const PopcountTable kernel = pick_popcount_table();  // immutable once chosen
  kernel(a, na, b, nb, words, out);
}

// c[w] = a[w] & b[w]; returns the popcount.
__attribute__((target_clones("popcnt", "default"))) std::uint32_t and_count(const std::uint64_t* a,
                                                                            const std::uint64_t* b,
                                                                            std::size_t words,
                                                                            std::uint64_t* c) {
  std::uint64_t s = 0;
  for (std::size_t w = 0; w < words; ++w) {
    c[w] = a[w] & b[w];
    s += static_cast<std::uint64_t>(__builtin_popcountll(c[w]));
  }
  return static_cast<std::uint32_t>(s);
}

}  // namespace

std::size_t BitColumns::bytes_needed(const Dataset& data) {
  const std::size_t words = (data.n_rows() + 63) / 64;
  std::size_t bytes = (data.n_rows() + 1) * sizeof(double);  // nlogn_
  for (std::size_t v = 0; v < data.n_vars(); ++v) {
    const auto r = static_cast<std::size_t>(data.arity(v));
    bytes += r * sizeof(std::uint32_t);
    if (r >= 2 && r <= kMaxBitArity) bytes += r * words * sizeof(std::uint64_t);
  }
  return bytes;
}

BitColumns::BitColumns(const Dataset& data) : data_(data) {
  const std::size_t n = data.n_vars(), rows = data.n_rows();
  words_ = (rows + 63) / 64;
  offset_.assign(n, kNone);
  count_offset_.assign(n + 1, 0);
  std::size_t total = 0;
  for (std::size_t v = 0; v < n; ++v) {
    const int r = data.arity(v);
    count_offset_[v + 1] = count_offset_[v] + static_cast<std::size_t>(r);
    if (r >= 2 && r <= kMaxBitArity) {
      offset_[v] = total;
      total += static_cast<std::size_t>(r) * words_;
    }
  }
  bits_.assign(total, 0);
  count_.assign(count_offset_[n], 0);
  for (std::size_t v = 0; v < n; ++v) {
    std::uint32_t* cnt = count_.data() + count_offset_[v];
    const std::size_t off = offset_[v];
    with_codes(data, static_cast<int>(v), [&](const auto* x) {
      for (std::size_t i = 0; i < rows; ++i) {
        const std::size_t s = x[i];
        ++cnt[s];
        if (off != kNone) bits_[off + s * words_ + i / 64] |= std::uint64_t{1} << (i % 64);
      }
    });
  }
  nlogn_.assign(rows + 1, 0.0);
  for (std::size_t k = 1; k <= rows; ++k)
    nlogn_[k] = static_cast<double>(k) * std::log(static_cast<double>(k));
}

double PairCounts::ll_gain(int x, int y) {
  const Dataset& data = bits_.data();
  const int rx = data.arity(x), ry = data.arity(y);
  if (rx < 2 || ry < 2) return 0;
  table_.assign(static_cast<std::size_t>(rx) * ry, 0);
  if (bits_.packed(x) && bits_.packed(y) && (rx - 1) * (ry - 1) <= kMaxPackedCells)
    count_packed(x, y, rx, ry);
  else
    count_rows(x, y, ry);
  const std::vector<double>& nlogn = bits_.nlogn();
  double s = nlogn[data.n_rows()];
  for (std::uint32_t c : table_) s += nlogn[c];
  for (int i = 0; i < rx; ++i) s -= nlogn[bits_.count(x, i)];
  for (int j = 0; j < ry; ++j) s -= nlogn[bits_.count(y, j)];
  return std::max(0.0, s);
}

void PairCounts::count_packed(int x, int y, int rx, int ry) {
  inner_.resize(static_cast<std::size_t>(rx - 1) * (ry - 1));
  popcount_table(bits_.bitmap(x, 0), rx - 1, bits_.bitmap(y, 0), ry - 1, bits_.words(),
                 inner_.data());
  // Inner cells, then the last column (from row sums), the last row, the corner.
  const auto at = [&](int i, int j) -> std::uint32_t& {
    return table_[static_cast<std::size_t>(i) * ry + j];
  };
  std::uint32_t corner = static_cast<std::uint32_t>(bits_.data().n_rows());
  for (int i = 0; i < rx - 1; ++i) {
    std::uint32_t row = 0;
    for (int j = 0; j < ry - 1; ++j)
      row += at(i, j) = inner_[static_cast<std::size_t>(i) * (ry - 1) + j];
    at(i, ry - 1) = bits_.count(x, i) - row;
    corner -= bits_.count(x, i);
  }
  for (int j = 0; j < ry - 1; ++j) {
    std::uint32_t col = 0;
    for (int i = 0; i < rx - 1; ++i) col += at(i, j);
    at(rx - 1, j) = bits_.count(y, j) - col;
    corner -= at(rx - 1, j);
  }
  at(rx - 1, ry - 1) = corner;
}

void PairCounts::count_rows(int x, int y, int ry) {
  const Dataset& data = bits_.data();
  const std::size_t rows = data.n_rows();
  std::uint32_t* t = table_.data();
  with_codes(data, x, [&](const auto* a) {
    with_codes(data, y, [&](const auto* b) {
      for (std::size_t i = 0; i < rows; ++i) ++t[static_cast<std::size_t>(a[i]) * ry + b[i]];
    });
  });
}

bool SweepCounter::set_base(int child, int y) {
  const Dataset& data = bits_.data();
  if (!bits_.packed(child) || !bits_.packed(y)) return false;
  const int rc = data.arity(child), ry = data.arity(y);
  if (rc * ry > kMaxBaseCells) return false;
  child_ = child;
  y_ = y;
  r_child_ = rc;
  r_y_ = ry;
  const std::size_t words = bits_.words();
  base_.resize(static_cast<std::size_t>(rc * ry) * words);
  base_count_.resize(static_cast<std::size_t>(rc * ry));
  for (int j = 0; j < ry; ++j)
    for (int x = 0; x < rc; ++x) {
      const std::size_t cell = static_cast<std::size_t>(j * rc + x);
      base_count_[cell] =
          and_count(bits_.bitmap(y, j), bits_.bitmap(child, x), words, base_.data() + cell * words);
    }
  return true;
}

const std::uint32_t* SweepCounter::table(int z) {
  const Dataset& data = bits_.data();
  if (!bits_.packed(z)) return nullptr;
  const int rz = data.arity(z), cells = r_y_ * r_child_;
  cells_.resize(static_cast<std::size_t>(cells) * (rz - 1));
  popcount_table(base_.data(), cells, bits_.bitmap(z, 0), rz - 1, bits_.words(), cells_.data());
  // Cell (j, x) of the base split by the states s of z.
  table_.resize(static_cast<std::size_t>(r_y_) * rz * r_child_);
  for (int j = 0; j < r_y_; ++j)
    for (int x = 0; x < r_child_; ++x) {
      const std::size_t cell = static_cast<std::size_t>(j * r_child_ + x);
      const std::uint32_t* split = cells_.data() + cell * static_cast<std::size_t>(rz - 1);
      std::uint32_t last = base_count_[cell];
      for (int s = 0; s < rz - 1; ++s) {
        table_[(static_cast<std::size_t>(j) * rz + s) * r_child_ + x] = split[s];
        last -= split[s];
      }
      table_[(static_cast<std::size_t>(j) * rz + rz - 1) * r_child_ + x] = last;
    }
  return table_.data();
}

std::optional<FamilyScore> PairSweep::packed_score(int z) {
  const std::uint32_t* t = fast_ ? sweep_->table(z) : nullptr;
  if (!t) return std::nullopt;
  const double q = static_cast<double>(counter_.data().arity(y_)) * counter_.data().arity(z);
  return counter_.summarize(t, static_cast<std::size_t>(q), q, child_);
}

FamilyScore PairSweep::score(int z) {
  if (std::optional<FamilyScore> f = packed_score(z)) return *f;
  if (!built_) counter_.build(std::span<const int>(&y_, 1), index_);
  built_ = true;
  return counter_.score_extension(index_, z, child_);
}

}  // namespace bnsl
