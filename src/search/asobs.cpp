// ASOBS, acyclic selection OBS (Scanagatta, de Campos, Corani, Zaffalon 2015, "Learning
// Bayesian networks with thousands of variables", section 4). Nodes are visited from the last
// of the order to the first; each takes its best cache entry none of whose parents is a
// current descendant of it, so back-arcs are allowed when they close no cycle. Every entry
// OBS allows (parents all earlier, hence not yet visited, hence without in-arcs and not
// descendants of anything) is allowed here too, so ASOBS >= OBS on every order (Theorem 3).
//
// Descendant sets are bit rows of an n x n matrix (n^2/8 bytes per chain: 0.5 MB for 2,000
// variables, 12.5 MB for 10,000). When v commits to parents P, D = desc(v) + {v} is OR-ed
// into each parent and pushed up through their committed parents, stopping at any ancestor
// whose row already contains D (its ancestors' rows then do too: rows are transitively
// closed). A bit turns on at most once per order, so one order costs O(C k + n^2) bit
// operations as in the paper's todo-list scheme, with word-level parallelism.
//
// What an adjacent swap can affect. Nodes are decided from the back, and node x's decision
// depends only on the arcs chosen by nodes after it. Swapping positions i and i+1 (u, w)
// leaves every node after i+1 unchanged. u and w are re-decided (u first now). If both keep
// their entries, the arc set is identical and so is every later decision: the DAG does not
// change (the common case, answered by two choose() calls). Otherwise every node before i may
// see different descendant sets, so positions i-1..0 are re-decided, on top of the state
// after position i+2, which the sweep builds incrementally while walking from the back; the
// trial is undone through a log of changed words. The re-decision stops early once even the
// best entries of the remaining nodes could not beat the current score.
//
// Base arcs (base_sets.hpp: u -> v when every entry of v holds u). Orders are linear
// extensions of them, and then every node has a valid entry when it is decided: its base
// parents come earlier, so they are decided later and have no parents yet, so none is a
// descendant of it, and its base entry is valid. A sweep skips the swap of u and its base
// child w (u, decided first, could take w as a parent, and leave w no entry); every other
// adjacent swap keeps the order a linear extension.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <new>
#include <queue>
#include <string>

#include "bnsl/error.hpp"
#include "score/compare.hpp"
#include "search/search_internal.hpp"

namespace bnsl {

AsobsState::AsobsState(const ScoreCache& cache)
    : cache_(cache), bases_(cache), n_(cache.n_vars()), words_((cache.n_vars() + 63) / 64) {
  desc_.reset(static_cast<std::uint64_t*>(
      std::calloc(std::max<std::size_t>(1, n_ * words_), sizeof(std::uint64_t))));
  if (!desc_) throw std::bad_alloc();
  is_written_.assign(n_, 0);
  chosen_.assign(n_, -1);
  d_.assign(words_, 0);
}

void AsobsState::reset() {
  for (int a : written_) {
    std::fill_n(desc_.get() + static_cast<std::size_t>(a) * words_, words_, 0);
    is_written_[static_cast<std::size_t>(a)] = 0;
  }
  written_.clear();
  std::fill(chosen_.begin(), chosen_.end(), -1);
  logging_ = false;
}

std::uint32_t AsobsState::choose(int v) const {
  const VarCache& vc = cache_.var(v);
  const std::uint64_t* row = desc_.get() + static_cast<std::size_t>(v) * words_;
  for (std::uint32_t e = 0; e < vc.size(); ++e) {
    bool ok = true;
    for (int p : vc.parents(e))
      if ((row[p >> 6] >> (p & 63)) & 1u) {
        ok = false;
        break;
      }
    if (ok) return e;
  }
  return kNone;  // only on an order that is not a linear extension of the base arcs
}

void AsobsState::commit(int v, std::uint32_t e) {
  if (logging_) undo_nodes_.push_back(v);
  chosen_[v] = e;
  const auto ps = cache_.var(v).parents(e);
  if (ps.empty()) return;
  const std::size_t row_v = static_cast<std::size_t>(v) * words_;
  d_words_.clear();
  for (std::size_t w = 0; w < words_; ++w) {
    d_[w] = desc_[row_v + w];
    if (w == static_cast<std::size_t>(v >> 6)) d_[w] |= std::uint64_t{1} << (v & 63);
    if (d_[w]) d_words_.push_back(static_cast<std::uint32_t>(w));
  }
  stack_.assign(ps.begin(), ps.end());
  while (!stack_.empty()) {
    const int a = stack_.back();
    stack_.pop_back();
    const std::size_t base = static_cast<std::size_t>(a) * words_;
    bool changed = false;
    for (std::uint32_t w : d_words_) {
      const std::uint64_t add = d_[w] & ~desc_[base + w];
      if (!add) continue;
      if (logging_) undo_words_.push_back({base + w, desc_[base + w]});
      desc_[base + w] |= add;
      changed = true;
    }
    if (!changed) continue;
    if (!is_written_[static_cast<std::size_t>(a)]) {
      is_written_[static_cast<std::size_t>(a)] = 1;
      written_.push_back(a);
    }
    if (chosen_[a] < 0) continue;
    for (int p : cache_.var(a).parents(static_cast<std::size_t>(chosen_[a]))) stack_.push_back(p);
  }
}

void AsobsState::mark() {
  logging_ = true;
  undo_words_.clear();
  undo_nodes_.clear();
}

void AsobsState::rollback() {
  for (auto it = undo_words_.rbegin(); it != undo_words_.rend(); ++it)
    desc_[it->first] = it->second;
  for (int v : undo_nodes_) chosen_[v] = -1;
  undo_words_.clear();
  undo_nodes_.clear();
  logging_ = false;
}

double AsobsState::evaluate(std::span<const int> order, Choices& choices) {
  reset();
  choices.assign(order.size(), 0);
  for (std::size_t i = order.size(); i-- > 0;) {
    const int v = order[i];
    choices[v] = choose(v);
    if (choices[v] == kNone)
      throw RuntimeError("ASOBS: variable " + std::to_string(v) +
                         " has no entry on an order that puts a base parent after it");
    commit(v, choices[v]);
  }
  return dag_score(cache_, choices);
}

std::size_t AsobsState::sweep(Order& order, Choices& choices, double& score, Offerer& off,
                              const std::function<bool()>& should_stop) {
  const std::size_t n = order.size();
  if (n < 2) return 0;
  reset();
  prefix_best_.assign(n + 1, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    prefix_best_[i + 1] = prefix_best_[i] + cache_.var(order[i]).score(0);
  double tail_old = score;  // sum of the scores of positions <= i+1
  std::size_t accepted = 0;
  for (std::size_t i = n - 1; i-- > 0;) {
    if ((i & 31) == 0 && should_stop && should_stop()) break;
    if (try_sweep_swap(i, order, choices, score, tail_old, off)) ++accepted;
    const int x = order[i + 1];
    commit(x, choices[x]);
    tail_old -= cache_.var(x).score(choices[x]);
  }
  if (accepted) score = dag_score(cache_, choices);
  return accepted;
}

// Evaluates swapping positions i, i+1 on top of the state after position i+2; applies it if
// it improves. tail_old: the current network's score summed over positions <= i+1.
bool AsobsState::try_sweep_swap(std::size_t i, Order& order, Choices& choices, double& score,
                                double& tail_old, Offerer& off) {
  const int u = order[i], w = order[i + 1];
  if (bases_.holds(u, w)) return false;  // w may not precede its base parent u
  ++off.stats.swaps_tried;
  mark();
  const std::uint32_t cu = choose(u);
  if (cu == kNone) {  // unreachable on a linear extension of the base arcs
    rollback();
    return false;
  }
  commit(u, cu);
  const std::uint32_t cw = choose(w);
  if (cw == kNone || (cu == choices[u] && cw == choices[w])) {  // none / same arcs: same DAG
    rollback();
    return false;
  }
  commit(w, cw);
  trial_changes_.clear();
  trial_changes_.push_back({u, cu});
  trial_changes_.push_back({w, cw});
  double new_tail = cache_.var(u).score(cu) + cache_.var(w).score(cw);
  const double head = score - tail_old;  // positions > i+1, unchanged
  bool complete = true;
  for (std::size_t j = i; j-- > 0;) {
    if (!clearly_greater(head + new_tail + prefix_best_[j + 1], score)) {
      complete = false;  // cannot improve any more
      break;
    }
    const int x = order[j];
    const std::uint32_t c = choose(x);
    if (c == kNone) {  // unreachable, as above
      complete = false;
      break;
    }
    commit(x, c);
    new_tail += cache_.var(x).score(c);
    trial_changes_.push_back({x, c});
  }
  rollback();
  if (!complete) return false;
  const double new_score = head + new_tail;
  if (off.wants(new_score)) {
    trial_ = choices;
    for (auto [x, c] : trial_changes_) trial_[x] = c;
    off.offer(new_score, dag_hash(trial_), trial_);
  }
  if (!clearly_greater(new_score, score)) return false;
  std::swap(order[i], order[i + 1]);
  for (auto [x, c] : trial_changes_) choices[x] = c;
  score = new_score;
  tail_old = new_tail;
  ++off.stats.swaps_accepted;
  return true;
}

Order topological_order(const ScoreCache& cache, const Choices& choices, const Order& order) {
  const std::size_t n = choices.size();
  std::vector<int> pos(n), indeg(n, 0);
  std::vector<std::vector<int>> children(n);
  for (std::size_t i = 0; i < n; ++i) pos[order[i]] = static_cast<int>(i);
  for (std::size_t v = 0; v < n; ++v)
    for (int p : cache.var(v).parents(choices[v])) {
      children[p].push_back(static_cast<int>(v));
      ++indeg[v];
    }
  using Item = std::pair<int, int>;  // (position in order, variable), smallest first
  std::priority_queue<Item, std::vector<Item>, std::greater<>> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (indeg[v] == 0) ready.push({pos[v], static_cast<int>(v)});
  Order topo;
  topo.reserve(n);
  while (!ready.empty()) {
    const int v = ready.top().second;
    ready.pop();
    topo.push_back(v);
    for (int c : children[v])
      if (--indeg[c] == 0) ready.push({pos[c], c});
  }
  return topo;  // size < n only if choices had a cycle (never for OBS/ASOBS networks)
}

}  // namespace bnsl
