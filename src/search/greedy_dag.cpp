// Greedy acyclic family selection: a good network over a score cache in seconds, at any n.
//
// Method. Start from the base network: every variable at the entry of its base (base_sets.hpp:
// the parents all its entries hold, its required parents; the empty network for a cache
// without them). Every variable v proposes its best cache entry better than its current one
// that closes no cycle; a max-heap holds the proposals by gain (the entry's score minus the
// current one's). The best proposal is re-checked (the network may have changed since it was
// made) and applied; v then proposes again. It ends when no variable can move to a better
// entry, so the result is a local optimum of single-family changes that add parents (the only
// changes that can close a cycle, and the only ones a better entry needs). This is greedy hill
// climbing in DAG space (as bnlearn's hc) with the cache's families as moves: a move may add
// several parents at once, so parents that only matter together are taken in one step. Its
// topological order seeds the ordering search (OBS on that order scores at least as much as the
// network: every family stays consistent).
//
// Cycle checks with a dynamic topological order (Pearce & Kelly 2006, "A dynamic topological
// sort algorithm for directed acyclic graphs", JEA 11). ord[v] is v's position in an order
// consistent with the network. A new arc p -> v with ord[p] < ord[v] is always safe; otherwise
// it closes a cycle iff p is a descendant of v, and a search forward from v need only visit
// nodes with ord <= ord[p]. If none is p, the nodes found (forward from v) and the nodes that
// reach p with ord > ord[v] (backward from p) swap places in the order, each group keeping its
// own relative order: only the affected region is touched, never all n. All new parents of
// one move point into v, so the move is acyclic iff no new parent is a descendant of v.
//
// The base arcs are in every network over the cache and never change; the order starts as a
// topological order of the base network (the identity, repaired by BaseSets::repair).
//
// Cost: per proposal, a scan of v's entries better than its current one, each checked by a
// bounded forward search; in practice a few milliseconds for 10,000 variables.
#include "search/greedy_dag.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

#include "score/compare.hpp"
#include "search/base_sets.hpp"

namespace bnsl {
namespace {

class GreedyDag {
 public:
  explicit GreedyDag(const ScoreCache& cache)
      : cache_(cache),
        n_(cache.n_vars()),
        choice_(n_),
        children_(n_),
        ord_(n_),
        at_(n_),
        mark_(n_, 0) {
    const BaseSets bases(cache);
    std::iota(at_.begin(), at_.end(), 0);
    bases.repair(at_);  // a topological order of the base network
    for (std::size_t v = 0; v < n_; ++v) {
      choice_[v] = bases.entry(static_cast<int>(v));  // validated by the caller
      for (int p : bases.parents(static_cast<int>(v)))
        children_[static_cast<std::size_t>(p)].push_back(static_cast<int>(v));
      ord_[static_cast<std::size_t>(at_[v])] = static_cast<int>(v);
    }
  }

  GreedyDagResult run(const std::function<bool()>& should_stop) {
    for (std::size_t v = 0; v < n_; ++v) propose(static_cast<int>(v));
    GreedyDagResult r;
    while (!heap_.empty()) {
      if ((++r.moves & 255) == 0 && should_stop && should_stop()) {
        r.stopped = true;
        break;
      }
      const Proposal p = heap_.top();
      heap_.pop();
      if (p.entry >= choice_[p.v]) continue;  // stale: v already moved to a better entry
      if (!acyclic(p.v, p.entry)) {
        propose(p.v);  // the network changed since: the next entry that still fits
        continue;
      }
      apply(p.v, p.entry);
      ++r.applied;
      propose(p.v);
    }
    r.choices = choice_;
    r.order.assign(at_.begin(), at_.end());
    r.score = dag_score(cache_, choice_);
    return r;
  }

 private:
  struct Proposal {
    double gain;
    int v;
    std::uint32_t entry;
    bool operator<(const Proposal& o) const {
      return gain != o.gain ? gain < o.gain : v > o.v;  // ties: lower variable first
    }
  };

  // Pushes v's best entry better than its current one that closes no cycle, if any.
  void propose(int v) {
    const VarCache& vc = cache_.var(v);
    const double now = vc.score(choice_[v]);
    for (std::uint32_t e = 0; e < choice_[v]; ++e) {
      if (!clearly_greater(vc.score(e), now)) break;
      if (acyclic(v, e)) {
        heap_.push({vc.score(e) - now, v, e});
        return;
      }
    }
  }

  // True if giving v the parents of entry e closes no cycle: no parent is a descendant of v.
  bool acyclic(int v, std::uint32_t e) {
    int bound = -1;  // the highest position of a parent placed after v
    for (int p : cache_.var(v).parents(e))
      if (ord_[p] > ord_[v]) bound = std::max(bound, ord_[p]);
    if (bound < 0) return true;
    forward(v, bound, found_);
    bool ok = true;
    for (int p : cache_.var(v).parents(e))
      if (mark_[p] == epoch_) ok = false;
    return ok;
  }

  // Marks (mark_ = epoch_) and lists in out the nodes reachable from `from` through
  // next(x) (its neighbours) while within(y) holds, `from` included.
  template <class Next, class Within>
  void reach(int from, Next next, Within within, std::vector<int>& out) {
    ++epoch_;
    out.clear();
    stack_.assign(1, from);
    mark_[from] = epoch_;
    while (!stack_.empty()) {
      const int x = stack_.back();
      stack_.pop_back();
      out.push_back(x);
      for (int y : next(x))
        if (mark_[y] != epoch_ && within(y)) {
          mark_[y] = epoch_;
          stack_.push_back(y);
        }
    }
  }

  // Marks and lists in out the descendants of v with ord <= bound, v included.
  void forward(int v, int bound, std::vector<int>& out) {
    reach(
        v, [this](int x) -> const std::vector<int>& { return children_[x]; },
        [&](int c) { return ord_[c] <= bound; }, out);
  }

  // Gives v the parents of entry e (known acyclic) and restores the topological order.
  void apply(int v, std::uint32_t e) {
    const auto old = cache_.var(v).parents(choice_[v]);
    const auto now = cache_.var(v).parents(e);
    for (int p : old)
      if (std::find(now.begin(), now.end(), p) == now.end()) {
        auto& ch = children_[p];
        ch.erase(std::find(ch.begin(), ch.end(), v));
      }
    for (int p : now)
      if (std::find(old.begin(), old.end(), p) == old.end()) children_[p].push_back(v);
    choice_[v] = e;
    for (int p : now)
      if (ord_[p] > ord_[v]) reorder(p, v);
  }

  // Pearce-Kelly: after adding p -> v with ord[p] > ord[v] (and no cycle), moves the nodes
  // that reach p (backward, ord > ord[v]) in front of those reachable from v (forward,
  // ord < ord[p]), reusing their positions.
  void reorder(int p, int v) {
    forward(v, ord_[p], fwd_);
    reach(
        p, [this](int x) { return cache_.var(x).parents(choice_[x]); },
        [&](int q) { return ord_[q] > ord_[v]; }, back_);
    auto by_ord = [this](int a, int b) { return ord_[a] < ord_[b]; };
    std::sort(back_.begin(), back_.end(), by_ord);
    std::sort(fwd_.begin(), fwd_.end(), by_ord);
    slots_.clear();
    for (int x : back_) slots_.push_back(ord_[x]);
    for (int x : fwd_) slots_.push_back(ord_[x]);
    std::sort(slots_.begin(), slots_.end());
    std::size_t k = 0;
    for (int x : back_) place(x, slots_[k++]);
    for (int x : fwd_) place(x, slots_[k++]);
  }

  void place(int x, int pos) {
    ord_[x] = pos;
    at_[pos] = x;
  }

  const ScoreCache& cache_;
  std::size_t n_;
  Choices choice_;
  std::vector<std::vector<int>> children_;
  std::vector<int> ord_;  // ord_[v]: v's position in a topological order of the network
  std::vector<int> at_;   // at_[pos]: the variable at that position
  std::vector<std::uint32_t> mark_;
  std::uint32_t epoch_ = 0;
  std::vector<int> stack_, found_, fwd_, back_, slots_;
  std::priority_queue<Proposal> heap_;
};

}  // namespace

GreedyDagResult greedy_dag(const ScoreCache& cache, const std::function<bool()>& should_stop) {
  return GreedyDag(cache).run(should_stop);
}

}  // namespace bnsl
