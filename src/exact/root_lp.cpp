// The root relaxation of the ILP by column generation, and reduced-cost screening of the
// families against a known DAG (price and fix, as in column generation for set partitioning).
//
// Why. With many rows the cache has many families (uci/letter, 17 variables, 20,000 rows, BIC
// BF 20: 114,739), and CBC spends its time pricing them in every simplex iteration and in
// Gomory's tableau rows: after 90 s its root bound was still 2,300 above OPT (trial run).
// Few families matter to the LP: this loop starts from the best root_first_families of each
// variable plus the start DAG's and the empty sets, solves, separates cluster cuts (the strong
// separator CBC uses), prices every family with the LP duals and adds the most negative ones,
// until neither adds anything. On letter it converges in about 11 s with 4,692 families, but
// its bound is still 2,389 above OPT: too weak to screen any family out there (uci/nltcs:
// 8,929 -> 810 families, and the bound proves OPT).
//
// Bound and screening, valid for any duals (so also when the loop is stopped early). Rows r
// have a range [lo_r, hi_r] that holds at every DAG (convexity rows: 1; the k-cluster row of C
// in the first form of cluster_cuts.hpp: [k, |C|], in the second: [0, |C| - k]). With duals y
// and reduced costs d = c - A^T y of the minimisation (c = -score), every DAG x (one family
// per variable) has
//   -score(x) = d.x + y.Ax >= sum_v d(v, x_v) + Y,   Y = sum_r min(y_r lo_r, y_r hi_r),
// so with m_v = min_i d(v, i), score(x) <= U = -Y - sum_v m_v, and a DAG using family (v, i)
// scores at most U - (d(v, i) - m_v). A family whose bound falls below the threshold is used by
// no DAG scoring >= threshold. The ILP then runs on the families that remain: the threshold
// is the start DAG's score minus epsilon, and OPT - epsilon is at least that, so every DAG the
// proof and the collection need keeps all its families.
#include "exact/root_lp.hpp"

#ifdef BNSL_HAVE_CBC

#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <unordered_set>
#include <utility>

#include "exact/collect.hpp"

namespace bnsl::exact {
namespace {

constexpr double kPriceTol = 1e-7;  // a family prices in below -kPriceTol

// A cluster row with a nonzero dual, as the pricing of one variable's families sees it.
struct ActiveRow {
  Mask nodes;
  int k;
  bool few;  // as Row::few
  double y;  // its dual
};

// d[i] for the `count` families of one variable (scores, masks) and the least of them:
// -score - y_v minus the dual of every active row of the variable that holds the family. Cloned
// for the POPCNT instruction, which the default x86-64 build lacks: libgcc's software popcount
// took 18% of uci/sensors' BDeu root LP (bench/JOURNAL.md, 2026-11-28).
__attribute__((target_clones("popcnt", "default"))) double price_variable(
    const double* scores, const Mask* masks, std::size_t count, double y_v, const ActiveRow* rows,
    std::size_t n_rows, double* d) {
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < count; ++i) {
    double di = -scores[i] - y_v;
    for (std::size_t r = 0; r < n_rows; ++r)
      if ((std::popcount(masks[i] & rows[r].nodes) < rows[r].k) == rows[r].few) di -= rows[r].y;
    d[i] = di;
    least = std::min(least, di);
  }
  return least;
}

struct Row {
  ClusterCut cut;
  bool few;  // coefficients on C's families with fewer than k parents in C (else: at least k)
  double lo, hi;
  bool has(int v, Mask parents) const {
    return (cut.nodes >> v & 1) && (std::popcount(parents & cut.nodes) < cut.k) == few;
  }
};

class RootLp {
 public:
  RootLp(const FamilyTable& fam, const std::vector<std::uint32_t>& start, double threshold,
         const StopToken& stop, const ExactTunables& tune)
      : fam_(fam),
        cols_(fam),
        start_(start),
        tune_(tune),
        threshold_(threshold),
        stop_(stop),
        lp_col_(cols_.columns(), -1),
        d_(cols_.columns(), 0.0),
        x_(cols_.columns(), 0.0) {}

  RootResult run() {
    load();
    lp_.initialSolve();
    for (;;) {
      ++result_.rounds;
      price();  // reduced costs and the bound, for the screening below
      if (stop_.stop_requested() || !lp_.isProvenOptimal()) break;
      const std::size_t rows = rows_.size();
      for (ClusterCut c : separate()) add_cut(c);
      const bool priced = add_priced();
      if (rows_.size() == rows && !priced) {
        result_.converged = true;
        break;
      }
      lp_.resolve();
    }
    screen();
    const double* y = lp_.getRowPrice();
    for (std::size_t r = 0; r < rows_.size(); ++r)
      if (std::fabs(y[fam_.n + static_cast<int>(r)]) > 1e-9) result_.cuts.push_back(rows_[r].cut);
    result_.lp_columns = full_col_.size();
    return std::move(result_);
  }

 private:
  // The first LP: convexity rows over the best families, the start DAG's and the smallest
  // ones (the empty set; with required arcs, the set of the required parents, which every
  // family of the variable holds: together they are a DAG).
  void load() {
    lp_.messageHandler()->setLogLevel(0);
    CoinPackedMatrix empty(false, 0, 0);
    empty.setDimensions(fam_.n, 0);
    std::vector<double> lo(static_cast<std::size_t>(fam_.n), 1.0);
    lp_.loadProblem(empty, nullptr, nullptr, nullptr, lo.data(), lo.data());
    for (int v = 0; v < fam_.n; ++v) {
      for (std::size_t i = 0; i < std::min(fam_.size(v), tune_.root_first_families); ++i)
        add_column(v, i);
      if (!start_.empty()) add_column(v, start_[v]);
      int fewest = 64;
      for (std::size_t i = 0; i < fam_.size(v); ++i)
        fewest = std::min(fewest, std::popcount(fam_.masks[v][i]));
      for (std::size_t i = 0; i < fam_.size(v); ++i)
        if (std::popcount(fam_.masks[v][i]) == fewest) add_column(v, i);
    }
  }

  void add_column(int v, std::size_t i) {
    const std::size_t col = cols_.offset[v] + i;
    if (lp_col_[col] >= 0) return;
    std::vector<int> rows{v};
    for (std::size_t r = 0; r < rows_.size(); ++r)
      if (rows_[r].has(v, fam_.masks[v][i])) rows.push_back(fam_.n + static_cast<int>(r));
    const std::vector<double> ones(rows.size(), 1.0);
    lp_col_[col] = lp_.getNumCols();
    full_col_.push_back(col);
    lp_.addCol(static_cast<int>(rows.size()), rows.data(), ones.data(), 0.0, 1.0,
               -fam_.scores[v][i]);
  }

  void add_cut(ClusterCut cut) {
    if (!known_.insert(cut).second) return;
    // The form with fewer columns over the whole table (cluster_row's choice).
    const ClusterRow whole = cluster_row(fam_, cols_, cut, true);
    const bool few = whole.lb > 0;  // lb = k; the other form has no lower bound
    const double size = std::popcount(cut.nodes);
    Row row{cut, few, few ? cut.k : 0.0, few ? size : size - cut.k};
    std::vector<int> columns;
    for (int c : whole.columns)
      if (lp_col_[c] >= 0) columns.push_back(lp_col_[c]);
    const std::vector<double> ones(columns.size(), 1.0);
    lp_.addRow(CoinPackedVector(static_cast<int>(columns.size()), columns.data(), ones.data()),
               row.lo, row.hi);
    rows_.push_back(row);
  }

  std::vector<ClusterCut> separate() {
    for (std::size_t c : support_) x_[c] = 0;
    support_.clear();
    const double* x = lp_.getColSolution();
    for (std::size_t j = 0; j < full_col_.size(); ++j)
      if (x[j] > 1e-12) {
        x_[full_col_[j]] = x[j];
        support_.push_back(full_col_[j]);
      }
    return separate_clusters(fam_, cols_, x_.data(), tune_.min_violation, tune_.cuts_per_round,
                             Separation::strong, tune_.exhaustive_cut_vars);
  }

  // d_ for every family from the current duals; the bound U (see the top of the file).
  void price() {
    const double* y = lp_.getRowPrice();
    double lagrange = 0;  // Y
    for (int v = 0; v < fam_.n; ++v) lagrange += y[v];
    std::vector<std::vector<ActiveRow>> active(static_cast<std::size_t>(fam_.n));
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      const double yr = y[fam_.n + static_cast<int>(r)];
      if (yr == 0) continue;
      lagrange += std::min(yr * rows_[r].lo, yr * rows_[r].hi);
      const ClusterCut& cut = rows_[r].cut;
      for (Mask rest = cut.nodes; rest != 0; rest &= rest - 1)
        active[std::countr_zero(rest)].push_back({cut.nodes, cut.k, rows_[r].few, yr});
    }
    min_d_.assign(static_cast<std::size_t>(fam_.n), std::numeric_limits<double>::infinity());
    double bound = -lagrange;
    for (int v = 0; v < fam_.n; ++v) {
      min_d_[v] = price_variable(fam_.scores[v].data(), fam_.masks[v].data(), fam_.size(v), y[v],
                                 active[v].data(), active[v].size(), &d_[cols_.offset[v]]);
      bound -= min_d_[v];
    }
    result_.bound = result_.rounds == 1 ? bound : std::min(result_.bound, bound);
    last_bound_ = bound;
  }

  // Adds, per variable, the families outside the LP with the most negative reduced costs.
  bool add_priced() {
    bool added = false;
    std::vector<std::pair<double, std::size_t>> candidates;
    for (int v = 0; v < fam_.n; ++v) {
      candidates.clear();
      for (std::size_t i = 0; i < fam_.size(v); ++i) {
        const std::size_t col = cols_.offset[v] + i;
        if (lp_col_[col] < 0 && d_[col] < -kPriceTol) candidates.emplace_back(d_[col], i);
      }
      const std::size_t take = std::min(candidates.size(), tune_.priced_per_var);
      std::partial_sort(candidates.begin(), candidates.begin() + take, candidates.end());
      for (std::size_t j = 0; j < take; ++j) add_column(v, candidates[j].second);
      added |= take > 0;
    }
    return added;
  }

  // Families no DAG scoring >= threshold uses, by the last duals' bound.
  void screen() {
    const double slack = threshold_slack(threshold_);
    result_.usable.assign(cols_.columns(), 1);
    for (int v = 0; v < fam_.n; ++v)
      for (std::size_t i = 0; i < fam_.size(v); ++i) {
        const std::size_t col = cols_.offset[v] + i;
        if (last_bound_ - (d_[col] - min_d_[v]) < threshold_ - slack) result_.usable[col] = 0;
      }
    if (!start_.empty())  // it scores above the threshold; kept whatever rounding did
      for (int v = 0; v < fam_.n; ++v) result_.usable[cols_.offset[v] + start_[v]] = 1;
  }

  const FamilyTable& fam_;
  const ColumnLayout cols_;
  const std::vector<std::uint32_t>& start_;
  const ExactTunables tune_;
  const double threshold_;
  const StopToken& stop_;
  OsiClpSolverInterface lp_;
  std::vector<int> lp_col_;            // family column -> LP column, or -1
  std::vector<std::size_t> full_col_;  // LP column -> family column
  std::vector<Row> rows_;              // LP row fam_.n + r
  std::unordered_set<ClusterCut, ClusterCutHash> known_;
  std::vector<double> d_;             // reduced cost of every family
  std::vector<double> min_d_;         // per variable
  std::vector<double> x_;             // LP point over all families (0 outside the LP)
  std::vector<std::size_t> support_;  // its nonzero entries
  double last_bound_ = std::numeric_limits<double>::infinity();
  RootResult result_;
};

}  // namespace

RootResult solve_root(const FamilyTable& fam, const std::vector<std::uint32_t>& start,
                      double threshold, const StopToken& stop, const ExactTunables& tune) {
  return RootLp(fam, start, threshold, stop, tune).run();
}

}  // namespace bnsl::exact

#else  // !BNSL_HAVE_CBC

#include "bnsl/error.hpp"

namespace bnsl::exact {

RootResult solve_root(const FamilyTable&, const std::vector<std::uint32_t>&, double,
                      const StopToken&, const ExactTunables&) {
  throw InputError("the ILP's root LP needs COIN-OR CBC, which this build lacks");
}

}  // namespace bnsl::exact

#endif  // BNSL_HAVE_CBC
