// Screening's conditional sweeps and the lattice, steps of the best-first explorer
// (best_first.cpp) that run before its open lists. With screening (explore.cpp), the candidates
// are the child's best single parents by all-pairs statistics, and a parent that is weak alone
// but strong beside another is invisible to them: on random networks whose CPTs are Dirichlet
// draws, a node's four parents can each gain 16-41 alone and 1,352 together (gen2000, V1164),
// and one parent in five ranks beyond the 100th single parent. Given one true parent, the
// others stand out (V1713: 226 ranks 727th alone, 2nd beside 435). So before the open lists
// start:
//  1. sweeps: the explore.sweeps best singletons Y are each extended by every other variable Z (one
//     bit-parallel count each, score/bit_columns.hpp); the explore.promote Z with the largest
//     conditional gain BIC(Y + Z) - BIC(Y) > 0 join the candidates, and each sweep's
//     explore.sweep_pairs best pairs are scored into the closed list;
//  2. the lattice: every pair of candidates, then, as far as the time left allows, every
//     triple, and every set of four and five among the best explore.lattice4 and explore.lattice5
//     singles;
//  3. deep sweeps: the best sets of two and three parents (kDeepSweepBases of each size) are
//     each extended by every variable, and their explore.sweep_pairs best extensions scored.
// BIC* adds up single gains, so on such data it ranks a good set of three or four parents
// below every set that holds a strong child of X (V1633: {699, 1020, 1639} gains 944, each
// alone 5-48); the open lists then start from true scores up to those sizes. Screened
// exploration of gen2000 (60 s, 2 threads): the best subset of the true family is missing
// from 237 caches without screening and 101 with it (issue 19; bench/results/scale.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "explore/best_first.hpp"

namespace bnsl::best_first {

// The conditional sweeps (see the top of the file): promotes candidates and collects in
// sweep_pairs_ the best pairs {Y, Z} of each sweep, recorded by record_sweep_pairs().
void BestFirstExplorer::sweep() {
  if (singleton_id_.empty()) return;  // no singleton kept: nothing to sweep from
  std::vector<int> top;
  for (int y : candidates_)
    if (singleton_id_[y] >= 0 && recs_[singleton_id_[y]].extendable) top.push_back(y);
  if (top.empty()) return;  // (the per-variable arrays below are n long)
  std::stable_sort(top.begin(), top.end(), [&](int a, int b) {
    return recs_[singleton_id_[a]].bic > recs_[singleton_id_[b]].bic;
  });
  if (top.size() > task_.tune.sweeps) top.resize(task_.tune.sweeps);
  const std::size_t n = counter_.data().n_vars();
  std::vector<char> is_candidate(n, 0);
  for (int y : candidates_) is_candidate[y] = 1;
  std::vector<double> promote_gain(n, -INFINITY);  // best conditional gain, non-candidates
  std::vector<std::pair<double, int>> gains;
  const auto better = [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  };
  for (int y : top) {
    pairs_.set_base(task_.child, y);
    const double bic_y = recs_[singleton_id_[y]].bic;
    gains.clear();
    for (int z : *task_.universe) {
      if (z == y || z == task_.child || !task_.allowed(z)) continue;
      if (stopped_) return;
      const double g = pairs_.score(z).bic() - bic_y;
      ++stats_.sets_swept;
      gains.push_back({g, z});
      if (!is_candidate[z]) promote_gain[z] = std::max(promote_gain[z], g);
      poll();
    }
    const std::size_t k = std::min(task_.tune.sweep_pairs, gains.size());
    std::partial_sort(gains.begin(), gains.begin() + static_cast<long>(k), gains.end(), better);
    for (std::size_t i = 0; i < k && gains[i].first > 0; ++i)
      sweep_pairs_.push_back({y, gains[i].second});
  }
  gains.clear();
  for (std::size_t z = 0; z < n; ++z)
    if (promote_gain[z] > 0) gains.push_back({promote_gain[z], static_cast<int>(z)});
  const std::size_t k = std::min(task_.tune.promote, gains.size());
  std::partial_sort(gains.begin(), gains.begin() + static_cast<long>(k), gains.end(), better);
  ConfigIndex empty;
  task_.build(counter_, {}, empty, family_);
  for (std::size_t i = 0; i < k && !stopped_; ++i) {
    candidates_.push_back(gains[i].second);
    ++stats_.candidates_promoted;
    score_singleton(empty, gains[i].second);
  }
}

// Scores the sweeps' best pairs into the closed list (after build_groups, so that they get
// their cursors): the open lists then extend them by their true score, where BIC* (which
// adds up single gains) would rank them among the last.
void BestFirstExplorer::record_sweep_pairs() {
  for (auto [y, z] : sweep_pairs_) {
    if (stopped_) break;
    if (singleton_id_[z] < 0 || !recs_[singleton_id_[y]].extendable) continue;
    cand_ = {std::min(y, z), std::max(y, z)};
    if (seen_.find(cand_) >= 0) continue;
    ++stats_.sets_generated;
    evaluate(static_cast<std::uint32_t>(singleton_id_[y]), z, kAllHeaps);
    poll();
  }
}

// With screening, before the open lists run: every pair of alive candidates (counted
// bit-parallel), then while the time left allows, every triple, and every set of four and
// of five among the best explore.lattice4 and explore.lattice5 single parents. So the open lists
// extend sets whose true scores are known up to that size: on data where parents matter mostly
// together, BIC* (which adds up single gains) ranks them among the last (see the top).
void BestFirstExplorer::lattice() {
  std::vector<int> by_bic;  // alive candidates, best single parents first
  for (const auto& g : groups_) by_bic.insert(by_bic.end(), g.begin(), g.end());
  std::stable_sort(by_bic.begin(), by_bic.end(), [&](int a, int b) {
    return recs_[singleton_id_[a]].bic > recs_[singleton_id_[b]].bic;
  });
  std::vector<int> alive = by_bic;
  std::sort(alive.begin(), alive.end());
  const auto start = Clock::now();
  const std::uint64_t scored_before = stats_.sets_scored;
  for (std::size_t i = 0; i < alive.size() && !stopped_; ++i) {
    const int a = alive[i];
    pairs_.set_base(task_.child, a);
    for (std::size_t j = i + 1; j < alive.size() && !stopped_; ++j) {
      const int b = alive[j];
      cand_ = {a, b};
      if (seen_.find(cand_) >= 0) continue;
      ++stats_.sets_generated;
      // Counted here only when bit-parallel; else evaluate() may cut it before counting.
      const std::optional<FamilyScore> known = pairs_.packed_score(b);
      evaluate(static_cast<std::uint32_t>(singleton_id_[a]), b, kAllHeaps,
               known ? &*known : nullptr);
      poll();
    }
  }
  const double per_set =  // a pair's cost, a lower bound for larger sets
      std::chrono::duration<double>(Clock::now() - start).count() /
      std::max<double>(1, static_cast<double>(stats_.sets_scored - scored_before));
  const std::pair<int, std::size_t> levels[] = {
      {3, by_bic.size()}, {4, task_.tune.lattice4}, {5, task_.tune.lattice5}};
  for (auto [size, top] : levels) {
    if (stopped_ || size > task_.max_parents) return;
    std::vector<int> members(by_bic.begin(), by_bic.begin() + std::min(top, by_bic.size()));
    std::sort(members.begin(), members.end());
    double sets = 1;  // C(members, size)
    for (int k = 0; k < size; ++k)
      sets = sets * static_cast<double>(members.size() - k) / static_cast<double>(k + 1);
    if (members.size() < static_cast<std::size_t>(size) ||
        per_set * sets > task_.tune.lattice_share * task_.remaining())
      return;
    lattice_level(members, size);
  }
}

// With screening, after the lattice: the kDeepSweepBases[s] best sets of each size s = 2 ..
// kDeepSweepMax that beat all their scored subsets are each extended by every variable
// (counted row by row), and each one's explore.sweep_pairs best extensions are scored into the
// closed list, one size after the other, so a set found from a pair can be a base of
// three. A parent that matters only beside three others is invisible alone and to the
// lattice, whose sets are made of candidates: on gen2000 after 90 s (2 threads) the best
// subset of the true family was missing from 85 caches (18,043 of BIC lost), most of them
// sets of four whose best three were cached, the fourth parent ranking up to 1,961st alone
// and gaining 300-500 beside the three; the deep sweeps leave 47 (9,600 lost). The best
// set alone is not enough (the child's own children make the best sets: 74 left, 16,900
// lost), and more bases leave too little time for the rest (two and eight: 10,500 lost).
void BestFirstExplorer::deep_sweeps() {
  std::vector<std::pair<double, int>> gains;
  std::vector<std::pair<double, std::uint32_t>> bases;
  const auto better = [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  };
  for (std::size_t size = 2; size <= kDeepSweepMax && !stopped_; ++size) {
    if (static_cast<int>(size) >= task_.max_parents) return;
    // Bases: the best sets of this size that beat all their scored subsets.
    bases.clear();
    for (std::uint32_t id = 1; id < recs_.size(); ++id) {
      const Scored& r = recs_[id];
      if (r.scored && r.extendable && r.score >= r.best_sub && seen_.get(id).size() == size)
        bases.push_back({r.score, id});
    }
    const std::size_t n_bases = std::min(kDeepSweepBases[size], bases.size());
    std::partial_sort(bases.begin(), bases.begin() + static_cast<long>(n_bases), bases.end(),
                      better);
    for (std::size_t b = 0; b < n_bases && !stopped_; ++b) {
      const std::uint32_t base = bases[b].second;
      const auto set = seen_.get(base);
      const std::vector<std::int32_t> members(set.begin(), set.end());
      gains.clear();
      for (int z : *task_.universe) {
        if (z == task_.child || !task_.allowed(z) ||
            std::binary_search(members.begin(), members.end(), z))
          continue;
        if (stopped_) return;
        const double g =
            counter_.score_extension(base_index(base), z, task_.child).score - bases[b].first;
        ++stats_.sets_swept;
        if (g > 0) gains.push_back({g, z});
        poll();
      }
      const std::size_t k = std::min(task_.tune.sweep_pairs, gains.size());
      std::partial_sort(gains.begin(), gains.begin() + static_cast<long>(k), gains.end(), better);
      for (std::size_t i = 0; i < k && !stopped_; ++i) {
        const int z = gains[i].second;
        cand_ = members;
        cand_.insert(std::upper_bound(cand_.begin(), cand_.end(), z), z);
        if (seen_.find(cand_) >= 0) continue;
        ++stats_.sets_generated;
        evaluate(base, z, kAllHeaps);
        poll();
      }
    }
  }
}

// Scores every set of `size` members (sorted) whose subset without its last member is
// scored and extendable, as that subset's extension.
void BestFirstExplorer::lattice_level(const std::vector<int>& members, int size) {
  std::vector<std::size_t> pick(static_cast<std::size_t>(size));
  for (int k = 0; k < size; ++k) pick[k] = static_cast<std::size_t>(k);
  const std::size_t m = members.size();
  while (!stopped_) {
    sub_.clear();
    for (int k = 0; k + 1 < size; ++k) sub_.push_back(members[pick[k]]);
    const std::int64_t base = seen_.find(sub_);
    const int last = members[pick[size - 1]];
    cand_ = sub_;
    cand_.push_back(last);
    if (base >= 0 && recs_[base].scored && recs_[base].extendable && seen_.find(cand_) < 0) {
      ++stats_.sets_generated;
      evaluate(static_cast<std::uint32_t>(base), last, kAllHeaps);
      poll();
    }
    int k = size - 1;  // next combination in lexicographic order
    while (k >= 0 && pick[k] == m - static_cast<std::size_t>(size - k)) --k;
    if (k < 0) return;
    ++pick[k];
    for (int j = k + 1; j < size; ++j) pick[j] = pick[j - 1] + 1;
  }
}

}  // namespace bnsl::best_first
