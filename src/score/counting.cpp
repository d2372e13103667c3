// Contingency-table counting, and the scores' traits (scores.hpp) applied to the counts (see
// counting.hpp for the scheme).
#include "score/counting.hpp"

#include <tsl/robin_map.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "bnsl/error.hpp"
#include "score/scores.hpp"

namespace bnsl {
namespace {

constexpr std::uint32_t kUnset = std::numeric_limits<std::uint32_t>::max();

// Calls f with the column's code pointer (8- or 16-bit).
template <class F>
void with_column(const Dataset& data, int v, F&& f) {
  if (data.wide(v))
    f(data.codes16(v));
  else
    f(data.codes8(v));
}

// A score's per-configuration term and family score, for the counting loops: the built-in
// traits compiled in (per_config() is a constant there), or a custom ScoreDefinition.
template <class Traits>
struct StaticTerm {
  static constexpr bool per_config() { return Traits::per_config; }
  static double term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q, double ess) {
    return Traits::config_term(counts, r, n_j, q, ess);
  }
  static double family(const FamilyScore& f, double sum) { return Traits::family(f, sum); }
};

struct DynamicTerm {
  const ScoreDefinition* def;
  bool per_config() const { return def->per_config(); }
  double term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q, double ess) const {
    return def->config_term(counts, r, n_j, q, ess);
  }
  double family(const FamilyScore& f, double sum) const { return def->family(f, sum); }
};

// BDeu's term through the Counter's memo (scores.hpp: the same bits as BdeuTraits).
struct MemoBdeuTerm {
  BdeuMemo* memo;
  static constexpr bool per_config() { return true; }
  double term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q, double ess) const {
    return memo->term(counts, r, n_j, q, ess);
  }
  static double family(const FamilyScore& f, double sum) { return BdeuTraits::family(f, sum); }
};

// Calls f(term) with the term of the score in `params`.
template <class F>
decltype(auto) with_score(const ScoreParams& params, BdeuMemo& memo, F&& f) {
  switch (params.kind) {
    case ScoreKind::bic:
      return f(StaticTerm<BicTraits>{});
    case ScoreKind::bdeu:
      return f(MemoBdeuTerm{&memo});
    case ScoreKind::custom:
      break;
  }
  return f(DynamicTerm{params.custom.get()});
}

}  // namespace

Counter::Counter(const Dataset& data, ScoreParams params, const RowGroups* groups)
    : data_(data),
      rows_(groups ? groups->rows : data),
      weight_(groups ? groups->weight.data() : nullptr),
      params_(params),
      n_rows_(rows_.n_rows()),
      n_total_(data.n_rows()),
      half_log_n_(data.n_rows() > 0 ? 0.5 * std::log(static_cast<double>(data.n_rows())) : 0) {
  nlogn_.resize(n_total_ + 1);
  nlogn_[0] = 0;
  for (std::size_t n = 1; n <= n_total_; ++n) nlogn_[n] = n * std::log(static_cast<double>(n));
  if (params_.kind == ScoreKind::custom && !params_.custom)
    throw InputError("a custom score needs its definition (ScoreParams::custom)");
}

void Counter::build_empty(ConfigIndex& out) const {
  out.idx.assign(n_rows_, 0);
  out.n_configs = 1;
  out.q = 1;
  out.dense = true;
}

void Counter::extend(const ConfigIndex& base, int var, ConfigIndex& out) {
  const std::uint64_t r = static_cast<std::uint64_t>(data_.arity(var));
  const std::uint64_t space = base.n_configs * r;
  out.q = base.q * static_cast<double>(r);
  out.idx.resize(n_rows_);
  if (space <= std::max<std::uint64_t>(n_rows_, 1)) {
    const std::uint32_t* in = base.idx.data();
    std::uint32_t* o = out.idx.data();
    const std::uint32_t rr = static_cast<std::uint32_t>(r);
    with_column(rows_, var, [&](const auto* y) {
      for (std::size_t i = 0; i < n_rows_; ++i) o[i] = in[i] * rr + y[i];
    });
    out.n_configs = space;
    out.dense = base.dense && r == 1;
  } else if (space <= 8 * static_cast<std::uint64_t>(n_rows_) + 65536) {
    remap_dense(base, var, out);
  } else {
    remap_hashed(base, var, out);
  }
}

void Counter::remap_dense(const ConfigIndex& base, int var, ConfigIndex& out) {
  const std::uint64_t r = static_cast<std::uint64_t>(data_.arity(var));
  const std::size_t space = base.n_configs * r;
  if (remap_.size() < space) remap_.resize(space, kUnset);
  std::uint32_t next = 0;
  const std::uint32_t* in = base.idx.data();
  std::uint32_t* o = out.idx.data();
  std::uint32_t* map = remap_.data();
  touched_.clear();
  with_column(rows_, var, [&](const auto* y) {
    for (std::size_t i = 0; i < n_rows_; ++i) {
      std::uint64_t key = in[i] * r + y[i];
      std::uint32_t& m = map[key];
      if (m == kUnset) {
        m = next++;
        touched_.push_back(static_cast<std::uint32_t>(key));
      }
      o[i] = m;
    }
  });
  for (std::uint32_t k : touched_) map[k] = kUnset;
  out.n_configs = next;
  out.dense = true;
}

void Counter::remap_hashed(const ConfigIndex& base, int var, ConfigIndex& out) {
  const std::uint64_t r = static_cast<std::uint64_t>(data_.arity(var));
  tsl::robin_map<std::uint64_t, std::uint32_t> map;
  map.reserve(n_rows_);
  const std::uint32_t* in = base.idx.data();
  std::uint32_t* o = out.idx.data();
  with_column(rows_, var, [&](const auto* y) {
    for (std::size_t i = 0; i < n_rows_; ++i) {
      auto it = map.try_emplace(in[i] * r + y[i], static_cast<std::uint32_t>(map.size())).first;
      o[i] = it->second;
    }
  });
  out.n_configs = map.size();
  out.dense = true;
}

void Counter::build(std::span<const int> parents, ConfigIndex& out) {
  if (parents.empty()) return build_empty(out);
  ConfigIndex* cur = &tmp_[0];
  ConfigIndex* nxt = &tmp_[1];
  build_empty(*cur);
  for (std::size_t i = 0; i + 1 < parents.size(); ++i) {
    extend(*cur, parents[i], *nxt);
    std::swap(cur, nxt);
  }
  extend(*cur, parents.back(), out);
}

FamilyScore Counter::score(const ConfigIndex& index, int child) {
  const std::uint64_t cells = index.n_configs * static_cast<std::uint64_t>(data_.arity(child));
  if (cells <= 4 * static_cast<std::uint64_t>(n_rows_) + 65536) return score_table(index, child);
  return score_grouped(index, child);
}

template <class Key>
void Counter::count_keys(std::size_t cells, Key key) {
  if (weight_) {
    const std::uint32_t* w = weight_;
    tally(cells, key, [w](std::size_t i) { return w[i]; });
  } else {
    tally(cells, key, [](std::size_t) { return std::uint32_t{1}; });
  }
}

template <class Key, class Weight>
void Counter::tally(std::size_t cells, Key key, Weight weight) {
  constexpr std::size_t kSmall = 2048;  // four copies stay in L1
  if (cells > kSmall || n_rows_ < 64) {
    cells_.assign(cells, 0);
    std::uint32_t* c = cells_.data();
    for (std::size_t i = 0; i < n_rows_; ++i) c[key(i)] += weight(i);
    return;
  }
  cells_.assign(4 * cells, 0);
  std::uint32_t* c0 = cells_.data();
  std::uint32_t *c1 = c0 + cells, *c2 = c1 + cells, *c3 = c2 + cells;
  std::size_t i = 0;
  for (; i + 4 <= n_rows_; i += 4) {
    c0[key(i)] += weight(i);
    c1[key(i + 1)] += weight(i + 1);
    c2[key(i + 2)] += weight(i + 2);
    c3[key(i + 3)] += weight(i + 3);
  }
  for (; i < n_rows_; ++i) c0[key(i)] += weight(i);
  for (std::size_t j = 0; j < cells; ++j) c0[j] += c1[j] + c2[j] + c3[j];
}

FamilyScore Counter::score_table(const ConfigIndex& index, int child) {
  const int r = data_.arity(child);
  const std::size_t n_configs = index.n_configs;
  const std::uint32_t* idx = index.idx.data();
  const std::uint32_t rr = static_cast<std::uint32_t>(r);
  with_column(rows_, child, [&](const auto* x) {
    count_keys(n_configs * r, [=](std::size_t i) { return idx[i] * rr + x[i]; });
  });
  return summarize_table(n_configs, index.q, child);
}

FamilyScore Counter::score_extension(const ConfigIndex& base, int var, int child) {
  const std::uint64_t r_y = static_cast<std::uint64_t>(data_.arity(var));
  const std::uint64_t r_x = static_cast<std::uint64_t>(data_.arity(child));
  const std::uint64_t n_configs = base.n_configs * r_y;
  if (n_configs * r_x > 4 * static_cast<std::uint64_t>(n_rows_) + 65536) {
    extend(base, var, fallback_);
    return score(fallback_, child);
  }
  const std::uint32_t* in = base.idx.data();
  const std::uint32_t ry = static_cast<std::uint32_t>(r_y), rx = static_cast<std::uint32_t>(r_x);
  with_column(rows_, var, [&](const auto* y) {
    with_column(rows_, child, [&](const auto* x) {
      count_keys(n_configs * r_x, [=](std::size_t i) { return (in[i] * ry + y[i]) * rx + x[i]; });
    });
  });
  return summarize_table(n_configs, base.q * static_cast<double>(r_y), child);
}

FamilyScore Counter::summarize(const std::uint32_t* c, std::size_t n_configs, double q,
                               int child) const {
  return with_score(params_, bdeu_memo_, [&](const auto& term) {
    const int r = data_.arity(child);
    FamilyScore f;
    f.q = q;
    f.r_plus = 0;
    f.cells = 0;
    double s_jk = 0, s_j = 0, term_sum = 0;
    for (std::size_t j = 0; j < n_configs; ++j) {
      const std::uint32_t* row = c + j * r;
      std::uint32_t n_j = 0;
      for (int k = 0; k < r; ++k) {
        n_j += row[k];
        s_jk += nlogn(row[k]);
        f.cells += row[k] != 0;
      }
      if (n_j == 0) continue;
      ++f.r_plus;
      s_j += nlogn(n_j);
      if (term.per_config()) term_sum += term.term(row, r, n_j, q, params_.ess);
    }
    finish(f, child, s_jk, s_j);
    f.score = term.family(f, term_sum);
    return f;
  });
}

FamilyScore Counter::score_grouped(const ConfigIndex& index, int child) {
  const int r = data_.arity(child);
  const std::size_t n_configs = index.n_configs;
  const std::uint32_t* idx = index.idx.data();
  nj_.assign(n_configs + 1, 0);
  for (std::size_t i = 0; i < n_rows_; ++i) ++nj_[idx[i] + 1];
  for (std::size_t j = 0; j < n_configs; ++j) nj_[j + 1] += nj_[j];  // group starts
  order_.resize(n_rows_);
  for (std::size_t i = 0; i < n_rows_; ++i) order_[nj_[idx[i]]++] = static_cast<std::uint32_t>(i);
  // nj_[j] is now the end of group j (= start of group j + 1).
  cells_.assign(r, 0);
  return with_score(params_, bdeu_memo_, [&](const auto& term) {
    FamilyScore f;
    f.q = index.q;
    f.r_plus = 0;
    f.cells = 0;
    double s_jk = 0, s_j = 0, term_sum = 0;
    const std::uint32_t* w = weight_;
    with_column(rows_, child, [&](const auto* x) {
      std::uint32_t begin = 0;
      for (std::size_t j = 0; j < n_configs; ++j) {
        const std::uint32_t end = nj_[j];
        if (end == begin) continue;
        std::uint32_t n_j = 0;
        for (std::uint32_t p = begin; p < end; ++p) {
          const std::uint32_t row = order_[p], m = w ? w[row] : 1;
          cells_[x[row]] += m;
          n_j += m;
        }
        if (term.per_config()) term_sum += term.term(cells_.data(), r, n_j, index.q, params_.ess);
        for (std::uint32_t p = begin; p < end; ++p) {
          std::uint32_t& cell = cells_[x[order_[p]]];
          if (cell == 0) continue;
          ++f.cells;
          s_jk += nlogn(cell);
          cell = 0;
        }
        ++f.r_plus;
        s_j += nlogn(n_j);
        begin = end;
      }
    });
    finish(f, child, s_jk, s_j);
    f.score = term.family(f, term_sum);
    return f;
  });
}

void Counter::finish(FamilyScore& f, int child, double sum_nlogn_jk, double sum_nlogn_j) const {
  f.ll = std::min(0.0, sum_nlogn_jk - sum_nlogn_j);
  f.penalty = penalty(child, f.q);
  const double n = static_cast<double>(n_total_);
  f.h_parents = n > 0 ? std::max(0.0, std::log(n) - sum_nlogn_j / n) : 0;
  f.score = f.ll - f.penalty;
}

}  // namespace bnsl
