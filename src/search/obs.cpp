// OBS, ordering-based search (Teyssier & Koller 2005, "Ordering-based search", section 3).
// Given an order, each node independently takes its best cache entry whose parents all
// precede it; the result is the best DAG consistent with the order, and it is acyclic by
// construction. Cost: one scan of each node's entries until the first consistent one,
// O(C k) in the worst case.
//
// Swapping the adjacent nodes u = order[i] and w = order[i+1] changes only their predecessor
// sets: u gains w, w loses u. So only u and w can change their choice: u can only improve, to
// an entry better than its current one that contains w (scan entries before its current
// choice, and only the entries that contain w, found through a per-variable index from
// parent to entries); w must move to a worse entry only if its current one contains u (scan
// after it). A swap therefore costs two short partial scans, independent of n.
//
// Moving one node far (insertion moves, parent pulls) needs swaps only with the nodes related
// to it (a parent of one of its entries, or a child with it in one of theirs: about a hundred
// on a screened cache of 10,000 variables); past a run of unrelated nodes it jumps, a block
// move of the order that changes no choice. An insertion pass over every node then costs
// O(n (related + distance)) instead of O(n * distance) swap evaluations.
//
// Base arcs (base_sets.hpp: u -> v when every entry of v holds u, as required arcs make them).
// Orders are kept linear extensions of them, so that every node has an entry (its base).
// set_order() repairs the order it is given. The only adjacent swap that would break that is
// one of u and w = its base child, and it shows at no extra cost: w's current entry holds u,
// so the swap already scans w's later entries, and none is left without u. Such a swap is
// blocked: score -infinity, never applied; a move that meets one stops there. For a cache
// without base arcs nothing changes (that scan always ends at the empty set).
#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>

#include "score/compare.hpp"
#include "search/search_internal.hpp"

namespace bnsl {

ObsState::ObsState(const ScoreCache& cache) : cache_(cache), bases_(cache) {
  const std::size_t n = cache.n_vars();
  with_.resize(n);
  entries_.resize(n);
  // A counting sort by parent: the entries of each parent's run come out ascending, as the
  // scan order wants, in two passes over the entries. Sorting (parent, entry) pairs instead
  // took about 0.9 s per state at 5 million entries (c20ng, 910 variables screened), once for
  // the seed and once per chain in every search round: 16% of perf's samples after the
  // exploration.
  std::vector<std::uint32_t> slot(n, 0);  // per parent: its count, then its next slot
  std::vector<int> parents;               // the parents occurring in v's entries
  for (std::size_t v = 0; v < n; ++v) {
    const VarCache& vc = cache.var(v);
    parents.clear();
    for (std::uint32_t e = 0; e < vc.size(); ++e)
      for (int p : vc.parents(e))
        if (slot[static_cast<std::size_t>(p)]++ == 0) parents.push_back(p);
    std::sort(parents.begin(), parents.end());
    auto& with = with_[v];
    with.reserve(parents.size() + 1);
    std::uint32_t k = 0;
    for (int p : parents) {
      with.push_back({p, k});
      const std::uint32_t c = slot[static_cast<std::size_t>(p)];
      slot[static_cast<std::size_t>(p)] = k;
      k += c;
    }
    with.push_back({-1, k});  // end sentinel
    auto& entries = entries_[v];
    entries.resize(k);
    for (std::uint32_t e = 0; e < vc.size(); ++e)
      for (int p : vc.parents(e)) entries[slot[static_cast<std::size_t>(p)]++] = e;
    for (int p : parents) slot[static_cast<std::size_t>(p)] = 0;
  }
  related_.resize(n);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t k = 0; k + 1 < with_[v].size(); ++k) {
      const int p = with_[v][k].first;
      related_[v].push_back(p);
      related_[p].push_back(static_cast<int>(v));
    }
  for (auto& r : related_) {
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  }
}

void ObsState::jump(int v, std::size_t to) {
  const std::size_t from = static_cast<std::size_t>(pos_[v]);
#ifndef NDEBUG
  for (int u : related_[v]) {  // jumps pass no related node (so no base parent or child)
    const std::size_t p = static_cast<std::size_t>(pos_[u]);
    assert(!((to < from && p >= to && p < from) || (to > from && p > from && p <= to)));
  }
#endif
  if (to < from) {
    std::move_backward(order_.begin() + static_cast<long>(to),
                       order_.begin() + static_cast<long>(from),
                       order_.begin() + static_cast<long>(from) + 1);
    for (std::size_t i = to + 1; i <= from; ++i) pos_[order_[i]] = static_cast<int>(i);
  } else if (to > from) {
    std::move(order_.begin() + static_cast<long>(from) + 1,
              order_.begin() + static_cast<long>(to) + 1, order_.begin() + static_cast<long>(from));
    for (std::size_t i = from; i < to; ++i) pos_[order_[i]] = static_cast<int>(i);
  }
  order_[to] = v;
  pos_[v] = static_cast<int>(to);
}

bool ObsState::move(int v, std::size_t to) {
  const std::size_t from = static_cast<std::size_t>(pos_[v]);
  if (to == from) return true;
  // Positions of the related nodes v will pass, nearest first.
  auto& ps = scratch_positions_;
  ps.clear();
  for (int u : related_[v]) {
    const std::size_t p = static_cast<std::size_t>(pos_[u]);
    if ((to < from && p >= to && p < from) || (to > from && p > from && p <= to))
      ps.push_back(static_cast<int>(p));
  }
  if (to < from) {
    std::sort(ps.begin(), ps.end(), std::greater<>());
    for (int p : ps) {  // nodes left of v keep their positions while v moves left
      jump(v, static_cast<std::size_t>(p) + 1);
      const Swap s = try_swap(static_cast<std::size_t>(p));
      if (s.blocked) return false;  // order[p] is a base parent of v
      apply(s);
    }
  } else {
    std::sort(ps.begin(), ps.end());
    for (int p : ps) {  // nodes right of v keep their positions while v moves right
      jump(v, static_cast<std::size_t>(p) - 1);
      const Swap s = try_swap(static_cast<std::size_t>(p) - 1);
      if (s.blocked) return false;  // v is a base parent of order[p]
      apply(s);
    }
  }
  jump(v, to);
  return true;
}

// Best entry of u better than its current one that contains w and whose other parents all
// sit before position `limit`; the current choice if there is none.
std::uint32_t ObsState::first_valid_with(int u, int w, int limit) const {
  return first_valid_with(u, choices_[u], w, limit);
}

// The same for u's choice `current` (one best_insertion's slide has it take).
std::uint32_t ObsState::first_valid_with(int u, std::uint32_t current, int w, int limit) const {
  const auto& keys = with_[u];
  auto it = std::lower_bound(keys.begin(), keys.end() - 1, std::make_pair(w, 0u),
                             [](const auto& a, const auto& b) { return a.first < b.first; });
  if (it == keys.end() - 1 || it->first != w) return current;
  const VarCache& vc = cache_.var(u);
  for (std::uint32_t k = it->second; k < (it + 1)->second; ++k) {
    const std::uint32_t e = entries_[u][k];
    if (e >= current) break;
    bool ok = true;
    for (int p : vc.parents(e))
      if (p != w && pos_[p] >= limit) {
        ok = false;
        break;
      }
    if (ok) return e;
  }
  return current;
}

void ObsState::set_order(std::span<const int> order) {
  const std::size_t n = order.size();
  order_.assign(order.begin(), order.end());
  bases_.repair(order_);  // one branch without base arcs
  pos_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) pos_[order_[i]] = static_cast<int>(i);
  choices_.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const VarCache& vc = cache_.var(v);
    choices_[v] =
        first_valid(static_cast<int>(v), 0, static_cast<std::uint32_t>(vc.size()), -1, -1, pos_[v]);
    assert(choices_[v] < vc.size());  // at the latest its base entry (validated cache)
  }
  resync();
}

void ObsState::resync() {
  score_ = dag_score(cache_, choices_);
  hash_ = dag_hash(choices_);
}

// First entry e in [from, to) of v whose parents p all satisfy p != excluded and
// (p == extra or pos[p] < limit); `to` if there is none.
std::uint32_t ObsState::first_valid(int v, std::uint32_t from, std::uint32_t to, int extra,
                                    int excluded, int limit) const {
  const VarCache& vc = cache_.var(v);
  for (std::uint32_t e = from; e < to; ++e) {
    bool ok = true;
    for (int p : vc.parents(e))
      if (p == excluded || (p != extra && pos_[p] >= limit)) {
        ok = false;
        break;
      }
    if (ok) return e;
  }
  return to;
}

ObsState::Swap ObsState::try_swap(std::size_t i) const {
  Swap s;
  s.i = i;
  const int u = order_[i], w = order_[i + 1];
  const int pi = static_cast<int>(i);
  const VarCache& cu = cache_.var(u);
  const VarCache& cw = cache_.var(w);
  // w moves before u: only if its current entry uses u must it move on to a worse one. If no
  // later entry does without u, every entry of w holds u (the earlier ones lack a parent that
  // still follows w): u is a base parent of w, and the swap is blocked.
  s.w_choice = choices_[w];
  const auto wp = cw.parents(choices_[w]);
  if (std::find(wp.begin(), wp.end(), u) != wp.end()) {
    const auto end = static_cast<std::uint32_t>(cw.size());
    s.w_choice = first_valid(w, choices_[w] + 1, end, -1, u, pi + 1);
    if (s.w_choice == end) {
      assert(bases_.holds(u, w));
      s.w_choice = choices_[w];
      s.u_choice = choices_[u];
      s.blocked = true;
      s.score = -std::numeric_limits<double>::infinity();
      return s;
    }
  }
  // u moves behind w: any entry better than its current one may now be valid if it uses w.
  s.u_choice = first_valid_with(u, w, pi);
  s.score = score_ + (cu.score(s.u_choice) - cu.score(choices_[u])) +
            (cw.score(s.w_choice) - cw.score(choices_[w]));
  return s;
}

std::uint64_t ObsState::swap_hash(const Swap& s) const {
  const int u = order_[s.i], w = order_[s.i + 1];
  std::uint64_t h = hash_;
  if (s.u_choice != choices_[u]) h ^= entry_hash(u, choices_[u]) ^ entry_hash(u, s.u_choice);
  if (s.w_choice != choices_[w]) h ^= entry_hash(w, choices_[w]) ^ entry_hash(w, s.w_choice);
  return h;
}

void ObsState::apply(const Swap& s) {
  assert(!s.blocked);
  const int u = order_[s.i], w = order_[s.i + 1];
  hash_ = swap_hash(s);
  std::swap(order_[s.i], order_[s.i + 1]);
  pos_[u] = static_cast<int>(s.i + 1);
  pos_[w] = static_cast<int>(s.i);
  choices_[u] = s.u_choice;
  choices_[w] = s.w_choice;
  score_ = s.score;
}

void ObsState::offer_swap(const Swap& s, Offerer& off) {
  if (s.blocked || !off.wants(s.score)) return;
  const int u = order_[s.i], w = order_[s.i + 1];
  if (s.u_choice == choices_[u] && s.w_choice == choices_[w]) return;  // same DAG as now
  scratch_ = choices_;
  scratch_[u] = s.u_choice;
  scratch_[w] = s.w_choice;
  off.offer(s.score, swap_hash(s), scratch_);
}

namespace {

bool holds(std::span<const int> parents, int u) {
  return std::find(parents.begin(), parents.end(), u) != parents.end();
}

}  // namespace

ObsState::Insertion ObsState::best_insertion(int v, Offerer* off) {
  Insertion best{score_, static_cast<std::size_t>(pos_[v]), 0};
  slide<true>(v, off, best);
  slide<false>(v, off, best);
  return best;
}

// One side of best_insertion. v is never moved: it sits, in thought, just in front of (kLeft)
// or just behind the node u it passes, whose position is then the limit its own parents and
// u's other parents must lie before; nodes passed earlier lie on v's far side of u already,
// and no node but v and u changes its predecessors.
template <bool kLeft>
void ObsState::slide(int v, Offerer* off, Insertion& best) {
  const int start = pos_[v];
  auto& nodes = slide_nodes_;
  nodes.clear();
  for (int u : related_[v])
    if (kLeft ? pos_[u] < start : pos_[u] > start) nodes.push_back(u);
  std::sort(nodes.begin(), nodes.end(),
            [&](int a, int b) { return kLeft ? pos_[a] > pos_[b] : pos_[a] < pos_[b]; });
  slide_changed_.clear();
  const VarCache& vc = cache_.var(v);
  std::uint32_t cv = choices_[v];
  double score = score_;
  std::uint64_t hash = hash_;
  for (int u : nodes) {
    ++best.passes;
    const VarCache& uc = cache_.var(u);
    const std::uint32_t cu = choices_[u];
    const int limit = pos_[u];
    std::uint32_t nv = cv, nu = cu;
    if constexpr (kLeft) {  // v moves in front of u: v loses u, u gains v
      if (holds(vc.parents(cv), u)) {
        nv = first_valid(v, cv + 1, static_cast<std::uint32_t>(vc.size()), -1, u, limit);
        if (nv == vc.size()) return;  // every later entry holds u: u is a base parent of v
      }
      nu = first_valid_with(u, cu, v, limit);
      score = score + (uc.score(nu) - uc.score(cu)) + (vc.score(nv) - vc.score(cv));
    } else {  // v moves behind u: u loses v, v gains u
      if (holds(uc.parents(cu), v)) {
        nu = first_valid(u, cu + 1, static_cast<std::uint32_t>(uc.size()), -1, v, limit);
        if (nu == uc.size()) return;  // v is a base parent of u
      }
      nv = first_valid_with(v, cv, u, limit);
      score = score + (vc.score(nv) - vc.score(cv)) + (uc.score(nu) - uc.score(cu));
    }
    if (nv != cv) hash ^= entry_hash(v, cv) ^ entry_hash(v, nv);
    if (nu != cu) hash ^= entry_hash(u, cu) ^ entry_hash(u, nu);
    const bool changed = nv != cv || nu != cu;
    cv = nv;
    if (nu != cu) slide_changed_.push_back({u, nu});
    if (off && changed && off->wants(score)) {
      scratch_ = choices_;
      for (const auto& [w, c] : slide_changed_) scratch_[w] = c;
      scratch_[v] = cv;
      off->offer(score, hash, scratch_);
    }
    if (clearly_greater(score, best.score)) {
      best.score = score;
      best.to = static_cast<std::size_t>(limit);
    }
  }
}

}  // namespace bnsl
