// The built-in scores' traits (include/bnsl/score.hpp, ScoreDefinition): what BIC and BDeu
// add to a counting pass, their names, and the pruning rules proven for them
// (docs/design.md, "Scores" and "Pruning"). Adding a built-in score: its traits here, its
// name in kScoreKindNames, a case in Counter's dispatch (counting.cpp) and in prune_rules /
// score_uses_ess (score.cpp), and its formula in the tests' oracle.
#pragma once

#include <math.h>  // lgamma_r: the reentrant lgamma (std::lgamma writes the global signgam)

#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "bnsl/score.hpp"

namespace bnsl {

inline double log_gamma(double x) {
  int sign;
  return lgamma_r(x, &sign);
}

// BIC = LL - pen: the counting pass's own summary; no per-configuration term.
struct BicTraits {
  static constexpr std::string_view name = "bic";
  static constexpr bool uses_ess = false;
  static constexpr bool per_config = false;
  static constexpr PruneRules rules{.bic = true};
  static double config_term(const std::uint32_t*, int, std::uint32_t, double, double) { return 0; }
  static double family(const FamilyScore& f, double) { return f.ll - f.penalty; }
};

// BDeu: per configuration j (a_j = ess / q, a_jk = a_j / r)
// lnG(a_j) - lnG(a_j + n_j) + sum over nonzero cells of [lnG(a_jk + n_jk) - lnG(a_jk)].
struct BdeuTraits {
  static constexpr std::string_view name = "bdeu";
  static constexpr bool uses_ess = true;
  static constexpr bool per_config = true;
  static constexpr PruneRules rules{.bdeu = true};
  static double config_term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q,
                            double ess) {
    const double a_j = ess / q, a_jk = a_j / r;
    double s = log_gamma(a_j) - log_gamma(a_j + n_j);
    const double lg_a_jk = log_gamma(a_jk);
    for (int k = 0; k < r; ++k)
      if (counts[k] != 0) s += log_gamma(a_jk + counts[k]) - lg_a_jk;
    return s;
  }
  static double family(const FamilyScore&, double config_sum) { return config_sum; }
};

// BdeuTraits::config_term from tables of its log-gamma differences, one table per (q, r),
// filled on demand for counts below kCounts: the same operations in the same order, so the
// same bits, for a fraction of the log_gamma calls. A parent set's configurations all share q,
// and a lattice of sets few values of q; per thread (Counter owns one).
class BdeuMemo {
 public:
  double term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q, double ess) {
    if (q != q_ || r != r_ || ess != ess_) select(q, r, ess);
    double s = head(n_j);
    for (int k = 0; k < r; ++k)
      if (counts[k] != 0) s += cell(counts[k]);
    return s;
  }

 private:
  static constexpr std::uint32_t kCounts = 1024;  // counts memoised (larger: computed)
  static constexpr std::size_t kTables = 256;     // tables kept (then all dropped)
  struct Table {
    double a_j, a_jk, lg_a_j, lg_a_jk;
    std::vector<double> head, cell;  // NaN: not yet computed
  };
  struct Key {
    double q;
    int r;
    double ess;
    bool operator==(const Key&) const = default;
  };

  void select(double q, int r, double ess) {
    q_ = q;
    r_ = r;
    ess_ = ess;
    for (auto& [key, table] : tables_)
      if (key == Key{q, r, ess}) {
        t_ = &table;
        return;
      }
    if (tables_.size() >= kTables) tables_.clear();
    Table& t = tables_.emplace_back(Key{q, r, ess}, Table{}).second;
    t.a_j = ess / q;
    t.a_jk = t.a_j / r;
    t.lg_a_j = log_gamma(t.a_j);
    t.lg_a_jk = log_gamma(t.a_jk);
    t_ = &t;
  }
  double head(std::uint32_t n) {
    if (n >= kCounts) return t_->lg_a_j - log_gamma(t_->a_j + n);
    if (n >= t_->head.size()) t_->head.resize(n + 1, std::numeric_limits<double>::quiet_NaN());
    double& v = t_->head[n];
    if (std::isnan(v)) v = t_->lg_a_j - log_gamma(t_->a_j + n);
    return v;
  }
  double cell(std::uint32_t n) {
    if (n >= kCounts) return log_gamma(t_->a_jk + n) - t_->lg_a_jk;
    if (n >= t_->cell.size()) t_->cell.resize(n + 1, std::numeric_limits<double>::quiet_NaN());
    double& v = t_->cell[n];
    if (std::isnan(v)) v = log_gamma(t_->a_jk + n) - t_->lg_a_jk;
    return v;
  }

  double q_ = -1, ess_ = -1;
  int r_ = -1;
  Table* t_ = nullptr;
  std::deque<std::pair<Key, Table>> tables_;  // a deque: t_ stays valid as it grows
};

}  // namespace bnsl
