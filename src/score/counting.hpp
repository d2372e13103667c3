// Contingency-table counting, the hot loop of parent-set exploration.
//
// A parent set P is represented by its per-row configuration index: idx[i] in
// [0, n_configs) names the joint state of P in row i. Extending P by a variable Y reuses
// it: idx'[i] = idx[i] * r_Y + y[i]. While the product stays at most N the raw index is
// kept (some configurations may be unseen); beyond that it is re-densified (a remap table
// or, for huge key spaces, a hash map) so that n_configs never exceeds N and memory stays
// O(N) per set. Scoring a child X then counts n_jk in a table of n_configs * r_X cells, or
// groups rows by configuration when that table would be much larger than N.
//
// With RowGroups (row_groups.hpp) the passes visit the distinct rows only, each counted with
// its multiplicity; the counts, and so every score, are those of the whole data set.
//
// One Counter per thread: it owns all scratch buffers, so the hot loop allocates nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/score.hpp"
#include "score/row_groups.hpp"
#include "score/scores.hpp"

namespace bnsl {

struct ConfigIndex {
  std::vector<std::uint32_t> idx;  // per row: configuration in [0, n_configs)
  std::uint64_t n_configs = 1;     // size of the index space (<= max(N, product of arities))
  double q = 1;                    // product of parent arities
  bool dense = true;               // every index in [0, n_configs) occurs in the data
};

class Counter {
 public:
  // groups: the identical rows of `data` grouped (group_rows), or null to count every row;
  // it must outlive the Counter.
  Counter(const Dataset& data, ScoreParams params, const RowGroups* groups = nullptr);

  void build_empty(ConfigIndex& out) const;
  // out = base extended by variable `var` (out must not alias base).
  void extend(const ConfigIndex& base, int var, ConfigIndex& out);
  // Index of an arbitrary parent set, by repeated extension (uses internal scratch).
  void build(std::span<const int> parents, ConfigIndex& out);

  // Counts child X against the configurations and computes every FamilyScore field.
  FamilyScore score(const ConfigIndex& index, int child);
  // score() of base extended by `var`, fused into one pass when the count table is small
  // (the index of base + var is never written); falls back to extend() + score().
  FamilyScore score_extension(const ConfigIndex& base, int var, int child);

  // The FamilyScore of a count table counted elsewhere (bit_columns.hpp): cells[j * r + k] =
  // n_jk for n_configs configurations j of a parent set with arity product q (r = arity of
  // child). Bit-identical to score() on the same counts.
  FamilyScore summarize(const std::uint32_t* cells, std::size_t n_configs, double q,
                        int child) const;

  const Dataset& data() const { return data_; }         // the data scored (every row)
  std::size_t rows_counted() const { return n_rows_; }  // rows a counting pass visits
  // Those rows (data(), or its distinct rows), and the multiplicity of row i of them.
  const Dataset& rows() const { return rows_; }
  std::uint32_t weight(std::size_t i) const { return weight_ ? weight_[i] : 1; }
  const ScoreParams& params() const { return params_; }
  double penalty(int child, double q) const { return half_log_n_ * (data_.arity(child) - 1) * q; }

 private:
  void remap_dense(const ConfigIndex& base, int var, ConfigIndex& out);
  void remap_hashed(const ConfigIndex& base, int var, ConfigIndex& out);
  FamilyScore score_table(const ConfigIndex& index, int child);
  // FamilyScore from the n_configs x r table in cells_ (r = arity of child).
  FamilyScore summarize_table(std::size_t n_configs, double q, int child) const {
    return summarize(cells_.data(), n_configs, q, child);
  }
  // Counts key(i) into cells_[0, cells): small tables are counted into four interleaved
  // copies (consecutive rows rarely wait on the same counter), then summed.
  template <class Key>
  void count_keys(std::size_t cells, Key key);
  template <class Key, class Weight>
  void tally(std::size_t cells, Key key, Weight weight);
  FamilyScore score_grouped(const ConfigIndex& index, int child);
  void finish(FamilyScore& f, int child, double sum_nlogn_jk, double sum_nlogn_j) const;
  double nlogn(std::uint32_t n) const { return nlogn_[n]; }

  const Dataset& data_;
  const Dataset& rows_;          // what the passes visit: data_, or its distinct rows
  const std::uint32_t* weight_;  // multiplicity of each row of rows_ (null: 1)
  ScoreParams params_;
  std::size_t n_rows_;   // rows of rows_
  std::size_t n_total_;  // rows of data_ (N)
  double half_log_n_;
  std::vector<double> nlogn_;         // nlogn_[n] = n ln n
  mutable BdeuMemo bdeu_memo_;        // BDeu's log-gamma tables (summarize() is const)
  std::vector<std::uint32_t> remap_;  // key -> dense id, UINT32_MAX when unset
  std::vector<std::uint32_t> touched_;
  std::vector<std::uint32_t> cells_;  // n_jk table, or per-group scratch
  std::vector<std::uint32_t> nj_;     // n_j
  std::vector<std::uint32_t> order_;  // rows grouped by configuration
  ConfigIndex tmp_[2];
  ConfigIndex fallback_;
};

}  // namespace bnsl
