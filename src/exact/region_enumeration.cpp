// A region of the collector's search listed by direct enumeration (enumerate_region()), when
// the LP leaves its variables few usable families: a depth-first search over one family per
// variable, bounded by the LP's Lagrangian bound and by the best scores left, with forward
// checking of cycles. An enumeration that stops on its budget keeps what it listed, and the
// rest of the region is split into disjoint parts (split_rest()) searched as the node's
// children (split()).
#include "exact/collector.hpp"

#ifdef BNSL_HAVE_CBC

#include <algorithm>
#include <bit>
#include <utility>
#include <vector>

namespace bnsl::exact::detail {

// Lists the region's DAGs within the threshold directly when that is cheap, by a depth-first
// search that picks one usable family per variable (fewest choices first), skips a family that
// closes a cycle with the families already picked, and lists each complete choice scoring
// >= threshold: exactly the region's part of the list. It stops after enumerate_steps_
// families tried: 2^18 by default, about the cost of tens of the collector's LP solves. What
// it listed by then is kept and the rest of the region is split into disjoint parts searched
// as the node's children (split_rest()) once the node's cut rounds are done, so no enumeration
// is wasted. Before (the region was branched on and what the enumeration found dropped), 70% of
// the families tried were in enumerations that stopped (uci/hepatitis and sponge, BIC BF 20, 1
// thread).
//
// The search's bound is the LP's, by Lagrangian duality, family by family. With the LP's row
// duals y (any y: optimality is not assumed) and reduced costs d = c - A^T y of the
// minimisation (c = -score), every DAG x of the region (its column bounds, and every row r in
// its range [lo_r, hi_r]: the region's rows hold for every DAG within the threshold) has
//   -score(x) = d.x + y.Ax >= sum_v d(v, x_v) + Y,   Y = sum_r min(y_r lo_r, y_r hi_r).
// With m_v = min d(v, i) over the families the region allows v, U = -Y - sum_v m_v and the
// penalty p(v, i) = d(v, i) - m_v >= 0: score(x) <= U - sum_v p(v, x_v). So a family with U -
// p(v, i) below the threshold is unusable, and a partial choice whose penalties exceed U - cut
// has no completion within it; each variable's families are tried by increasing penalty, so
// the first to exceed it ends the variable's loop. U is the LP bound when y is optimal. The
// penalties carry the cluster rows' duals, which the plain bound (the best usable family of
// each variable left) has not: that bound stays, as a second test. Rows with an infinite side
// and a dual of that side's sign (roundoff) leave no finite Y: then the penalties are 0 and the
// usable families those the LP point or its bound allow, as before.
//
// Both bounds look ahead (forward checking): a variable not yet picked counts with the best
// score and the least penalty of its families that close no cycle with those picked (pick()),
// and a pick that leaves some variable no such family, or either bound out of reach, is not
// followed. The descendants and ancestors of every variable through the picked families are
// kept as bit masks (a pick touches only the variables that reach the picked one and those it
// reaches), with running sums of the bounds, restored from a trail (undo()). uci/hepatitis and
// sponge (BIC BF 20, 1 thread, their complete lists of 87,169 and 146,097 DAGs; user seconds,
// niced beside another job): 13.0 and 30.1 s before; 11.0 and 10.7 with the look-ahead; 4.6
// and 4.2 with the split as well; hailfinder100 (BIC BF 3, 56 variables, 432,624 DAGs, the
// report included) 7.3 s before, 6.6 after.
Collector::Enumerated Collector::enumerate_region() {
  if (enumerate_steps_ == 0) return Enumerated::no;
  const int n = fam_.n;
  const double* x = lp_.getColSolution();
  const double* d = lp_.getReducedCost();
  const double* lo = lp_.getColLower();
  const double* up = lp_.getColUpper();
  enum_lists_.resize(static_cast<std::size_t>(n));
  const Screen screened = screen();
  for (int v = 0; v < n; ++v) {
    auto& list = enum_lists_[v];
    list.clear();
    for (std::size_t i = 0; i < fam_.size(v); ++i) {
      const std::size_t c = cols_.offset[v] + i;
      const auto index = static_cast<std::uint32_t>(i);
      if (up[c] < 0.5) continue;
      if (lo[c] > 0.5) {  // fixed to 1: the only family of v here
        list.assign(1, {0.0, index});
        break;
      }
      // without U, only a family at 0 in the LP point is ruled out (by its reduced cost)
      const double pen = penalty(screened, v, c, d);
      if (pen > screened.allowed && (screened.dual || x[c] < 1e-9)) continue;
      list.push_back({screened.dual ? pen : 0.0, index});
    }
    if (list.empty()) {  // no DAG within the threshold here
      ++out_.enumerations;
      return Enumerated::all;
    }
    if (screened.dual) std::sort(list.begin(), list.end());  // by increasing penalty
  }
  enum_budget_ = screened.dual ? screened.allowed : kInf;
  enum_order_.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) enum_order_[v] = v;
  std::stable_sort(enum_order_.begin(), enum_order_.end(),
                   [&](int a, int b) { return enum_lists_[a].size() < enum_lists_[b].size(); });
  enum_position_.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) enum_position_[enum_order_[k]] = k;
  enum_open_score_.assign(static_cast<std::size_t>(n), -kInf);
  enum_open_penalty_.assign(static_cast<std::size_t>(n), kInf);
  enum_open_score_sum_ = 0;
  enum_open_penalty_sum_ = 0;
  for (int v = 0; v < n; ++v) {
    for (const Usable& u : enum_lists_[v]) {
      enum_open_score_[v] = std::max(enum_open_score_[v], fam_.scores[v][u.i]);
      enum_open_penalty_[v] = std::min(enum_open_penalty_[v], u.penalty);
    }
    enum_open_score_sum_ += enum_open_score_[v];
    enum_open_penalty_sum_ += enum_open_penalty_[v];
  }
  enum_choice_.assign(static_cast<std::size_t>(n), 0);
  enum_desc_.assign(static_cast<std::size_t>(n), 0);
  enum_anc_.assign(static_cast<std::size_t>(n), 0);
  enum_trail_.clear();
  enum_stop_.assign(static_cast<std::size_t>(n), 0);
  enum_found_.clear();
  enum_found_scores_.clear();
  enum_partial_ = 0;
  enum_penalty_ = 0;
  enum_steps_ = 0;
  enum_aborted_ = false;
  enumerate_from(0);
  // Stopped by a halt (the node returns), or without a DAG listed (the depth-first search may
  // be lost in a region whose LP needs cuts: the node goes on to its cut rounds and branches,
  // and the branches meet again what the enumeration tried), or with nothing to split.
  // Splitting regardless cut no rows below the root on uci/hailfinder500 (BIC BF 3), whose
  // enumerations of 56 variables then listed nothing: 1 DAG in 600 s, against 348,685 in 30 s
  // before the split.
  if (enum_aborted_ && (shared_.halted() || enum_found_.empty() || !split_rest()))
    return Enumerated::no;
  if (enum_aborted_)
    ++out_.splits;
  else
    ++out_.enumerations;
  for (std::size_t i = 0; i < enum_found_.size(); ++i)
    take(std::move(enum_found_[i]), enum_found_scores_[i]);
  return enum_aborted_ ? Enumerated::part : Enumerated::all;
}

void Collector::enumerate_from(std::size_t k) {
  const std::size_t n = enum_order_.size();
  if (k == n) {
    if (const double score = fam_.score(enum_choice_); score >= cut_) {
      enum_found_.push_back(enum_choice_);
      enum_found_scores_.push_back(score);
    }
    return;
  }
  const int v = enum_order_[k];
  // Of the variables after position k (the sums run over v and them).
  const double open_score = enum_open_score_sum_ - enum_open_score_[v];
  const double open_penalty = enum_open_penalty_sum_ - enum_open_penalty_[v];
  const double score_sum = enum_open_score_sum_, penalty_sum = enum_open_penalty_sum_;
  const Mask desc = enum_desc_[v];  // a family with a parent among them would close a cycle
  const auto& list = enum_lists_[v];
  for (std::size_t pos = 0; pos < list.size(); ++pos) {
    const auto [pen, i] = list[pos];
    if (++enum_steps_ > enumerate_steps_ || ((enum_steps_ & 1023) == 0 && halt())) {
      enum_aborted_ = true;
      enum_stop_depth_ = k;
      enum_stop_[k] = pos;
      return;
    }
    if (enum_penalty_ + pen + open_penalty > enum_budget_) break;  // and every later family
    const double s = fam_.scores[v][i];
    if (enum_partial_ + s + open_score < cut_ - slack_) continue;
    const Mask parents = fam_.masks[v][i];
    if (parents & desc) continue;
    const std::size_t mark = enum_trail_.size();
    enum_choice_[v] = i;
    enum_partial_ += s;
    enum_penalty_ += pen;
    if (pick(v, parents)) enumerate_from(k + 1);
    undo(mark);
    enum_open_score_sum_ = score_sum;
    enum_open_penalty_sum_ = penalty_sum;
    enum_partial_ -= s;
    enum_penalty_ -= pen;
    if (enum_aborted_) {
      enum_stop_[k] = pos;
      return;
    }
  }
}

// Adds the arcs parents -> v (v's family just picked, its score and penalty already counted):
// every variable that reaches v (v's parents and their ancestors) now reaches v and v's
// descendants, which have those ancestors; each variable not yet picked whose descendants grew
// has its best score and least penalty (families closing no cycle, with a penalty that still
// fits) taken again, and v leaves the sums. Returns false when some variable is left
// without a family, or when the picked families plus the best the others can add fall below
// the cut (or their penalties above the budget): no completion of the choice is within it.
bool Collector::pick(int v, Mask parents) {
  enum_open_score_sum_ -= enum_open_score_[v];
  enum_open_penalty_sum_ -= enum_open_penalty_[v];
  Mask reach = parents;  // the variables that now reach v: its parents and their ancestors
  for (Mask b = parents; b; b &= b - 1) reach |= enum_anc_[std::countr_zero(b)];
  const Mask below = (Mask{1} << v) | enum_desc_[v];  // v and the variables it reaches
  bool ok = true;
  for (Mask b = reach; b; b &= b - 1) {
    const int x = std::countr_zero(b);
    Mask& dx = enum_desc_[x];
    if ((dx | below) == dx) continue;
    enum_trail_.push_back({x, dx, enum_anc_[x], enum_open_score_[x], enum_open_penalty_[x]});
    dx |= below;
    if (!ok || enum_position_[x] <= enum_position_[v]) continue;  // picked already
    double best = -kInf, least = kInf;
    for (const auto& [pen, i] : enum_lists_[x]) {
      if (enum_penalty_ + pen > enum_budget_) break;  // by increasing penalty
      if (fam_.masks[x][i] & dx) continue;
      best = std::max(best, fam_.scores[x][i]);
      least = std::min(least, pen);
    }
    enum_open_score_sum_ += best - enum_open_score_[x];
    enum_open_penalty_sum_ += least - enum_open_penalty_[x];
    enum_open_score_[x] = best;
    enum_open_penalty_[x] = least;
    ok = best > -kInf;
  }
  for (Mask b = below; b; b &= b - 1) {  // reach and below are disjoint: v closes no cycle
    const int y = std::countr_zero(b);
    Mask& ay = enum_anc_[y];
    if ((ay | reach) == ay) continue;
    enum_trail_.push_back({y, enum_desc_[y], ay, enum_open_score_[y], enum_open_penalty_[y]});
    ay |= reach;
  }
  return ok && enum_partial_ + enum_open_score_sum_ >= cut_ - slack_ &&
         enum_penalty_ + enum_open_penalty_sum_ <= enum_budget_;
}

void Collector::undo(std::size_t mark) {
  while (enum_trail_.size() > mark) {
    const Undo& u = enum_trail_.back();
    enum_desc_[u.v] = u.desc;
    enum_anc_[u.v] = u.anc;
    enum_open_score_[u.v] = u.open_score;
    enum_open_penalty_[u.v] = u.open_penalty;
    enum_trail_.pop_back();
  }
}

// After enumerate_from() stopped at depth K (enum_stop_), the part of the region it listed is
// every choice that leaves the path of families in progress before its end: at some depth k,
// v_k = enum_order_[k] takes a family at a position in enum_lists_[v_k] before p_k =
// enum_stop_[k], the path's families c_j fixed above it. The rest of the region is the
// disjoint union of R_k, k = 0..K: c_0 .. c_(k-1) fixed to 1, and v_k's families at positions
// up to p_k (k < K: p_k's own subtree is R_(k+1) .. R_K) or before p_K (k = K) fixed to 0. A
// family outside v_k's list stays free in R_k: no DAG within the cut uses it. R_k is empty when
// one of the families it excludes is fixed to 1 in the region (v_k's list is then that
// family). The parts, as column bounds, go to parts_, the deepest first. Returns false when
// they would make no progress (no part is narrower than the region: nothing was listed).
bool Collector::split_rest() {
  const double* lo = lp_.getColLower();
  const std::size_t depth = enum_stop_depth_;
  parts_.clear();
  bool narrower = false;
  for (std::size_t k = depth + 1; k-- > 0;) {
    const int v = enum_order_[k];
    const auto& list = enum_lists_[v];
    const std::size_t excluded = k < depth ? enum_stop_[k] + 1 : enum_stop_[k];
    Task part;
    bool empty = false;
    for (std::size_t q = 0; q < excluded && !empty; ++q) {
      const auto c = static_cast<int>(cols_.offset[v] + list[q].i);
      empty = lo[c] > 0.5;
      part.push_back({c, 0.0, 0.0});
    }
    if (empty) continue;
    for (std::size_t j = 0; j < k; ++j) {
      const int u = enum_order_[j];
      const auto c = static_cast<int>(cols_.offset[u] + enum_lists_[u][enum_stop_[j]].i);
      if (lo[c] < 0.5) part.push_back({c, 1.0, 1.0});
    }
    narrower = narrower || !part.empty();
    parts_.push_back(std::move(part));
  }
  if (!narrower) parts_.clear();
  return narrower;
}

// Searches the parts split_rest() left, each as a child of the node.
void Collector::split(int depth) {
  const std::vector<Task> parts = std::move(parts_);
  parts_.clear();
  Task saved;
  for (std::size_t p = 0; p < parts.size() && !shared_.halted(); ++p) {
    saved.clear();
    for (const Bound& b : parts[p]) {
      saved.push_back({b.col, lp_.getColLower()[b.col], lp_.getColUpper()[b.col]});
      lp_.setColBounds(b.col, b.lo, b.up);
    }
    child(depth, p + 1 == parts.size());
    for (auto it = saved.rbegin(); it != saved.rend(); ++it)
      lp_.setColBounds(it->col, it->lo, it->up);
  }
}

}  // namespace bnsl::exact::detail

#endif  // BNSL_HAVE_CBC
