// Neighbour completion. The ordering search meets a DAG only through an order it visits and
// the best parents consistent with that order, so a DAG within epsilon whose families are all
// in the cache can be missed although the pool holds a DAG one family away from it (uci/
// water1000, BIC BF 20, `learn --time 10`: 1,013 of the 16,057 DAGs within epsilon missed, 992
// of them one family away from a pooled DAG, 21 two families away; at BF 3 all 72 missed DAGs,
// two whole classes, were one family away). This step walks those neighbourhoods breadth first,
// from the pooled classes best first, so the final best's neighbourhood is walked first however
// late it was found:
// - one family: for each pooled DAG G and variable v, every cache entry of v scoring at least
//   s(G_v) - (s(G) - threshold) keeps G within the threshold when it replaces v's family (the
//   caches are sorted best first, so these entries are a prefix of v's list); it keeps G acyclic
//   when none of its parents is a descendant of v in G. A parent before v in a topological
//   order of G is not, so the descendants of v are walked only for entries with a later parent.
//   This covers arc additions and removals (when the cache holds the family) and any other
//   change of one family.
// - arc reversals: u -> v becomes v -> u when the cache holds both new families (pa(v) - u and
//   pa(u) + v); it keeps G acyclic when no other path leads from u to v (such a path stays
//   between u and v in the topological order). Covered arcs are skipped: their reversal gives
//   an equivalent DAG, the same class.
// Each such DAG is scored from the cache by its change (O(1)), offered once if the pool's
// lock-free check may accept it; the pool scores it exactly and admits it when it is within the
// threshold and of a new class, and admitted DAGs are expanded in turn, so combinations of
// changes are reached through DAGs within the threshold. The chains' best is not always a local
// optimum of these moves (gen10000, `learn --time 3600`: the walk's first DAG, the chains'
// best, had a neighbour 16 nats better, found when the queue's cap was reached, so the walk
// ended there with a pool of one class). So the best first climbs greedily by single-family
// changes and arc reversals (climb: cheap, nothing offered on the way), and the walk starts
// from where it ends; a neighbour better than every DAG reached is still walked next, before
// the rest of the queue and outside its cap. (Seed 2 of the same run climbed by family changes
// alone: the walk then rose 12 times by reversals, 286 nats in its 42 s, and each rise dropped
// the classes it had admitted below the new threshold: 60 were left, bench/results/pool.md.)
// The pool keeps one DAG per class, and a class can be one family away from another member of
// a pooled class and two from the one kept (b -> a, c -> a is one family from b -> a, a member
// of a -> b's class, and two from a -> b). Once the queue is walked, the other members of its
// classes are expanded too (class by class in queue order, reached by covered-arc reversals),
// and what they admit is walked in turn (uci/ hepatitis, BDeu BF 20, `learn --time 20`: 32 of
// the 3,226 classes within epsilon missed, 31 of them one family from an unkept member of a
// pooled class; BIC BF 20: all 57 missed). Then a pair pass walks the queue once more for
// DAGs two families away: one change scores above its family's own but closes a cycle, the
// other, of a new parent's family, breaks the cycle and loses more than the slack alone (zoo,
// BDeu BF 20: the 9 classes still missed were all such pairs from pooled DAGs). At scale the
// queue is never exhausted and these passes never start. A heuristic step: it adds classes,
// never claims completeness.
#include "search/complete_neighbours.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include <tsl/robin_set.h>

#include "score/compare.hpp"
#include "score/entry_index.hpp"

namespace bnsl {
namespace {

// Whether u reaches v in the DAG of `children` other than by the arc u -> v itself (reversing
// that arc would then close a cycle); `mark`/`stamp` as in climb.
bool other_path(const std::vector<std::vector<std::uint32_t>>& children, std::size_t u,
                std::size_t v, std::vector<std::uint32_t>& mark, std::uint32_t stamp,
                std::vector<std::uint32_t>& stack) {
  stack.clear();
  for (const std::uint32_t c : children[u])
    if (c != v && mark[c] != stamp) {
      mark[c] = stamp;
      stack.push_back(c);
    }
  while (!stack.empty()) {
    const std::uint32_t x = stack.back();
    stack.pop_back();
    for (const std::uint32_t c : children[x]) {
      if (c == v) return true;
      if (mark[c] != stamp) {
        mark[c] = stamp;
        stack.push_back(c);
      }
    }
  }
  return false;
}

// A greedy climb over single-family changes and arc reversals. Each variable in turn takes its
// best cache entry above its current one (a prefix of its list) whose parents are not its
// descendants; then each arc u -> v whose reversal (both new families cached) clearly gains
// and closes no cycle is reversed; until neither move improves. Returns the changes made.
// Cheap next to a walk's expansion, which offers (and the pool encodes) every neighbour within
// the threshold: a reversal costs two lookups, and the cycle test runs only for a gain.
std::uint64_t climb(const ScoreCache& cache, EntryIndex& index, Choices& g) {
  const std::size_t n = g.size();
  std::vector<std::vector<std::uint32_t>> children(n);
  for (std::size_t v = 0; v < n; ++v)
    for (const std::int32_t u : cache.var(v).parents(g[v]))
      children[static_cast<std::size_t>(u)].push_back(static_cast<std::uint32_t>(v));
  std::vector<std::uint32_t> mark(n, 0), stack;
  std::uint32_t stamp = 0;
  std::uint64_t changes = 0;
  for (bool improved = true; improved;) {
    improved = false;
    for (std::size_t v = 0; v < n; ++v) {
      const VarCache& vc = cache.var(v);
      const double own = vc.score(g[v]);
      bool walked = false;
      for (std::size_t i = 0; i < g[v] && clearly_greater(vc.score(i), own); ++i) {
        if (!walked) {  // the descendants of v, marked with `stamp`
          walked = true;
          ++stamp;
          stack.assign(1, static_cast<std::uint32_t>(v));
          mark[v] = stamp;
          while (!stack.empty()) {
            const std::uint32_t x = stack.back();
            stack.pop_back();
            for (const std::uint32_t c : children[x])
              if (mark[c] != stamp) {
                mark[c] = stamp;
                stack.push_back(c);
              }
          }
        }
        bool acyclic = true;
        for (const std::int32_t u : vc.parents(i)) acyclic = acyclic && mark[u] != stamp;
        if (!acyclic) continue;
        for (const std::int32_t u : vc.parents(g[v])) {
          auto& c = children[static_cast<std::size_t>(u)];
          c.erase(std::find(c.begin(), c.end(), static_cast<std::uint32_t>(v)));
        }
        for (const std::int32_t u : vc.parents(i))
          children[static_cast<std::size_t>(u)].push_back(static_cast<std::uint32_t>(v));
        g[v] = static_cast<std::uint32_t>(i);
        ++changes;
        improved = true;
        break;
      }
    }
    std::vector<std::int32_t> family;
    for (std::size_t v = 0; v < n; ++v) {
      const VarCache& cv = cache.var(v);
      for (const std::int32_t uu : cv.parents(g[v])) {
        const auto u = static_cast<std::size_t>(uu);
        const VarCache& cu = cache.var(u);
        family.clear();
        for (const std::int32_t p : cv.parents(g[v]))
          if (p != uu) family.push_back(p);
        const long jv = index.find(v, family);
        if (jv < 0) continue;
        const auto pu = cu.parents(g[u]);
        family.assign(pu.begin(), pu.end());
        family.insert(std::upper_bound(family.begin(), family.end(), static_cast<std::int32_t>(v)),
                      static_cast<std::int32_t>(v));
        const long ju = index.find(u, family);
        if (ju < 0) continue;
        const double gain = cv.score(static_cast<std::size_t>(jv)) - cv.score(g[v]) +
                            cu.score(static_cast<std::size_t>(ju)) - cu.score(g[u]);
        if (!clearly_greater(gain, 0.0)) continue;  // covered arcs gain nothing
        if (++stamp == 0) {
          std::fill(mark.begin(), mark.end(), 0);
          stamp = 1;
        }
        if (other_path(children, u, v, mark, stamp, stack)) continue;
        auto& cu_children = children[u];
        cu_children.erase(
            std::find(cu_children.begin(), cu_children.end(), static_cast<std::uint32_t>(v)));
        children[v].push_back(static_cast<std::uint32_t>(u));
        g[v] = static_cast<std::uint32_t>(jv);
        g[u] = static_cast<std::uint32_t>(ju);
        ++changes;
        improved = true;
        break;  // v's family changed: its parents are read again on the next round
      }
    }
  }
  return changes;
}

// The members of d's class whose families are all in the cache, d first, at most max: breadth
// first over reversals of covered arcs (u -> v with parents(v) = parents(u) + {u}), which keep
// a DAG in its class and reach every member from any other (Chickering 1995); a member with a
// family missing from the cache is neither listed nor walked through. Hashes come with them.
void cached_members(const ScoreCache& cache, EntryIndex& index, const PooledDag& d, std::size_t max,
                    std::vector<std::pair<std::uint64_t, Choices>>& out) {
  out.assign(1, {d.hash, d.choices});
  tsl::robin_set<std::uint64_t> seen{d.hash};
  std::vector<std::int32_t> fu, fv;
  for (std::size_t head = 0; head < out.size() && out.size() < max; ++head) {
    const std::size_t n = out[head].second.size();
    for (std::size_t v = 0; v < n && out.size() < max; ++v) {
      const Choices& g = out[head].second;  // re-read: out grows below
      const auto pv = cache.var(v).parents(g[v]);
      for (const std::int32_t uu : pv) {
        const auto u = static_cast<std::size_t>(uu);
        const auto pu = cache.var(u).parents(out[head].second[u]);
        fv.clear();  // parents(v) - u, which must equal parents(u) for u -> v to be covered
        for (const std::int32_t p : pv)
          if (p != uu) fv.push_back(p);
        if (!std::equal(fv.begin(), fv.end(), pu.begin(), pu.end())) continue;
        fu.assign(pu.begin(), pu.end());
        fu.insert(std::upper_bound(fu.begin(), fu.end(), static_cast<std::int32_t>(v)),
                  static_cast<std::int32_t>(v));
        const long jv = index.find(v, fv), ju = index.find(u, fu);
        if (jv < 0 || ju < 0) continue;
        const Choices& cur = out[head].second;
        const auto v32 = static_cast<std::uint32_t>(v), u32 = static_cast<std::uint32_t>(u);
        const std::uint64_t h = out[head].first ^ entry_hash(v32, cur[v]) ^
                                entry_hash(v32, static_cast<std::uint32_t>(jv)) ^
                                entry_hash(u32, cur[u]) ^
                                entry_hash(u32, static_cast<std::uint32_t>(ju));
        if (!seen.insert(h).second) continue;  // a 64-bit collision only skips a member
        Choices next = cur;
        next[v] = static_cast<std::uint32_t>(jv);
        next[u] = static_cast<std::uint32_t>(ju);
        out.emplace_back(h, std::move(next));
        if (out.size() >= max) break;
      }
    }
  }
}

// The walk of one complete_neighbours() call: the queue of DAGs to expand (the pool's at the
// start, best first, then what they admit), the scratch of one expansion (the DAG's children
// lists, topological positions, descendant marks) and the pair pass's cuts, with one method
// per pass.
class NeighbourWalk {
 public:
  NeighbourWalk(const ScoreCache& cache, DagPool& pool, const std::function<bool()>& should_stop,
                const WalkOptions& options)
      : cache_(cache),
        pool_(pool),
        should_stop_(should_stop),
        options_(options),
        done_(options.memory ? *options.memory : local_),
        n_(cache.n_vars()),
        queue_(pool.snapshot()),
        index_(cache),
        child_start_(n_ + 1),
        mark_(n_, 0),
        pos_(n_),
        indegree_(n_),
        slot_(n_, 0),
        slot_step_(n_, 0) {
    for (const PooledDag& d : queue_) reached_.insert(d.hash);
  }

  NeighbourCompletion run();

 private:
  enum Move { kFamily, kReversal, kPair };
  // The pair pass's cut of a parent w of v's new family (see break_cycles).
  struct Cut {
    std::vector<std::uint32_t> entries;
    std::vector<std::uint64_t> reach;  // a bit per vertex
    bool walked = false;
  };

  void climb_best();
  void new_stamp();
  void enqueue(PooledDag&& d);
  bool offer(const Choices& g, std::uint64_t h, double score,
             std::initializer_list<std::pair<std::size_t, std::uint32_t>> changes, Move move);
  bool break_cycles(const Choices& g, std::uint64_t g_hash, double g_score, double slack,
                    std::size_t v, std::uint32_t i);
  void index_graph(const Choices& g);
  void mark_descendants(std::size_t v);
  void expand(const Choices& g, std::uint64_t g_hash, double g_score, bool pairs);
  void expand_families(const Choices& g, std::uint64_t g_hash, double g_score, bool pairs);
  void expand_reversals(const Choices& g, std::uint64_t g_hash, double g_score);
  void walk_queued();
  void walk_members();
  void walk_pairs();

  const ScoreCache& cache_;
  DagPool& pool_;
  const std::function<bool()>& should_stop_;
  const WalkOptions& options_;
  WalkMemory local_;
  WalkMemory& done_;
  const std::size_t n_;
  NeighbourCompletion out_;
  std::vector<PooledDag> queue_;
  tsl::robin_set<std::uint64_t> reached_;  // DAG hashes offered or pooled at the start
  EntryIndex index_;
  // The DAG being expanded: children lists (compressed rows), topological positions, and
  // marks of the descendants of one variable (`stamp_`).
  std::vector<std::uint32_t> child_start_, children_, mark_, stack_, pos_, indegree_;
  std::vector<std::int32_t> family_;
  std::uint32_t stamp_ = 0;
  // The best DAG reached: a neighbour above it is a new best, walked next (`rise_`).
  double top_ = -std::numeric_limits<double>::infinity();
  std::optional<PooledDag> rise_;
  // The pair pass, per v: for each w met (slot_[w], current when slot_step_[w] is the pass's
  // count of (DAG, v) steps), its cut.
  std::vector<Cut> cuts_;
  std::vector<std::uint32_t> slot_;
  std::vector<std::uint64_t> slot_step_;
  std::uint64_t step_ = 0;
  std::size_t used_ = 0;
  // The passes' positions in the queue: expanded (q_), members expanded (m_), paired (p_).
  std::size_t q_ = 0, m_ = 0, p_ = 0;
  std::vector<std::pair<std::uint64_t, Choices>> members_;
};

// The best first climbs; the walk starts from where it ends.
void NeighbourWalk::climb_best() {
  if (!options_.climb || queue_.empty()) return;
  Choices g = queue_.front().choices;
  out_.climbed = climb(cache_, index_, g);
  const std::uint64_t h = dag_hash(g);
  if (out_.climbed > 0 && reached_.insert(h).second) {
    const double score = dag_score(cache_, g);
    ++out_.offered;
    if (pool_.offer(score, h, g)) {
      ++out_.admitted;
      queue_.insert(queue_.begin(), PooledDag{score, h, std::move(g)});
    }
  }
}

void NeighbourWalk::new_stamp() {
  if (++stamp_ == 0) {  // wrapped: clear the marks
    std::fill(mark_.begin(), mark_.end(), 0);
    stamp_ = 1;
  }
}

void NeighbourWalk::enqueue(PooledDag&& d) {
  if (queue_.size() < options_.max_expanded) queue_.push_back(std::move(d));
}

// Offers G with the given families changed (score by the change); false once stopped.
bool NeighbourWalk::offer(const Choices& g, std::uint64_t h, double score,
                          std::initializer_list<std::pair<std::size_t, std::uint32_t>> changes,
                          Move move) {
  if (!reached_.insert(h).second) return true;
  Choices next = g;
  for (const auto& [v, entry] : changes) next[v] = entry;
  ++out_.offered;
  const bool admitted = pool_.offer(score, h, next);
  if (admitted) {
    ++out_.admitted;
    out_.reversals += move == kReversal;
    out_.pairs += move == kPair;
    // A new best: walked next, whatever the queue holds.
    if (options_.climb && clearly_greater(score, top_)) {
      top_ = score;
      ++out_.rises;
      if (rise_) enqueue(std::move(*rise_));
      rise_ = PooledDag{score, h, std::move(next)};
    } else {
      enqueue({score, h, std::move(next)});
    }
  }
  // Tested every 4,096 offers and at each admission: each class admitted adds to the final
  // report, whose reserve the stop test watches (a walk can admit thousands of classes of
  // hundreds of variables between two tests every 4,096 offers).
  if ((admitted || (out_.offered & 4095) == 0) && should_stop_()) out_.stopped = true;
  return !out_.stopped;
}

// The pair pass: v's family changed to entry i, which scores above v's own, closes cycles
// through the new parents that are descendants of v (marked with `stamp_`); a second change,
// of the family of one of those parents w to an entry j, that breaks every cycle and keeps
// the sum of both changes within the slack is offered, though it may lose more than the
// slack alone. (A pair whose changes both fit in the slack alone, one of them acyclic, is
// reached through it.) G with both changes, G', is acyclic exactly when
// (a) no parent in j is v or a descendant of v in G, and
// (b) every other new parent of v descended from v in G does so only through w.
// A cycle of G' runs through v or w, whose parents are the only new ones. One through v
// comes back to v from a new parent u; the path v ~> u in G' either avoids w, and is one in
// G (excluded by b), or enters w from a parent p in j, and v ~> p avoids w and is one in G
// (excluded by a). One through w but not v comes back from a parent p in j along arcs of G,
// so p descends from w, and so from v, in G (excluded by a).
//
// Per v, for each w met: w's entries that drop every parent descended from v and v, (a), down
// to the lowest score the gain of v's first entry with w could pay for (the entries of v come
// best first, so the first asks the most), and the descendants of v in G without w, for (b),
// walked when first needed. Offers the pairs of v's change to entry i (cyclic alone) with a
// change of w; false once stopped.
bool NeighbourWalk::break_cycles(const Choices& g, std::uint64_t g_hash, double g_score,
                                 double slack, std::size_t v, std::uint32_t i) {
  const VarCache& vc = cache_.var(v);
  const double dv = vc.score(i) - vc.score(g[v]);
  // Only the first of the new parents descended from v in G's topological order can be w:
  // (b) makes the others descend from w.
  auto w = static_cast<std::uint32_t>(n_);
  bool others = false;
  for (const std::int32_t u : vc.parents(i))
    if (mark_[u] == stamp_) {
      others = others || w < n_;
      if (w == n_ || pos_[u] < pos_[w]) w = static_cast<std::uint32_t>(u);
    }
  if (w == n_) return true;
  const VarCache& wc = cache_.var(w);
  const double own = wc.score(g[w]);
  const double limit = own - slack - dv - 1e-9 * std::max(1.0, std::fabs(own));
  if (slot_step_[w] != step_) {  // w's first entry of v
    slot_step_[w] = step_;
    slot_[w] = static_cast<std::uint32_t>(used_++);
    if (cuts_.size() < used_) cuts_.emplace_back();
    Cut& c = cuts_[slot_[w]];
    c.walked = false;
    c.entries.clear();
    for (std::size_t j = 0; j < wc.size() && wc.score(j) >= limit; ++j) {
      if (j == g[w]) continue;
      bool cut = true;
      for (const std::int32_t p : wc.parents(j))
        cut = cut && mark_[p] != stamp_ && static_cast<std::size_t>(p) != v;  // (a)
      if (cut) c.entries.push_back(static_cast<std::uint32_t>(j));
    }
  }
  Cut& c = cuts_[slot_[w]];
  if (others) {  // (b)
    if (!c.walked) {
      c.walked = true;
      c.reach.assign((n_ + 63) / 64, 0);
      const auto set = [&](std::uint32_t x) {
        const bool was = (c.reach[x / 64] >> (x % 64)) & 1;
        c.reach[x / 64] |= std::uint64_t{1} << (x % 64);
        return !was;
      };
      set(static_cast<std::uint32_t>(w));  // never entered
      stack_.assign(1, static_cast<std::uint32_t>(v));
      set(static_cast<std::uint32_t>(v));
      while (!stack_.empty()) {
        const std::uint32_t x = stack_.back();
        stack_.pop_back();
        for (std::uint32_t k = child_start_[x]; k < child_start_[x + 1]; ++k)
          if (set(children_[k])) stack_.push_back(children_[k]);
      }
    }
    for (const std::int32_t u : vc.parents(i))
      if (static_cast<std::uint32_t>(u) != w && ((c.reach[u / 64] >> (u % 64)) & 1)) return true;
  }
  for (const std::uint32_t j : c.entries) {
    if (wc.score(j) < limit) break;
    const double score = g_score + dv - own + wc.score(j);
    if (!pool_.may_accept(score)) continue;
    const auto vv = static_cast<std::uint32_t>(v);
    const std::uint64_t h =
        g_hash ^ entry_hash(vv, g[v]) ^ entry_hash(vv, i) ^ entry_hash(w, g[w]) ^ entry_hash(w, j);
    if (!offer(g, h, score, {{v, i}, {w, j}}, kPair)) return false;
  }
  return true;
}

// Children lists of G (compressed rows) and a topological order (Kahn), as positions.
void NeighbourWalk::index_graph(const Choices& g) {
  std::fill(child_start_.begin(), child_start_.end(), 0);
  for (std::size_t v = 0; v < n_; ++v) {
    indegree_[v] = static_cast<std::uint32_t>(cache_.var(v).parents(g[v]).size());
    for (const std::int32_t u : cache_.var(v).parents(g[v])) ++child_start_[u + 1];
  }
  for (std::size_t v = 0; v < n_; ++v) child_start_[v + 1] += child_start_[v];
  children_.resize(child_start_[n_]);
  {
    std::vector<std::uint32_t> fill(child_start_.begin(), child_start_.end() - 1);
    for (std::size_t v = 0; v < n_; ++v)
      for (const std::int32_t u : cache_.var(v).parents(g[v]))
        children_[fill[u]++] = static_cast<std::uint32_t>(v);
  }
  stack_.clear();
  for (std::size_t v = 0; v < n_; ++v)
    if (indegree_[v] == 0) stack_.push_back(static_cast<std::uint32_t>(v));
  for (std::uint32_t next_pos = 0; !stack_.empty(); ++next_pos) {
    const std::uint32_t x = stack_.back();
    stack_.pop_back();
    pos_[x] = next_pos;
    for (std::uint32_t k = child_start_[x]; k < child_start_[x + 1]; ++k)
      if (--indegree_[children_[k]] == 0) stack_.push_back(children_[k]);
  }
}

// Marks v and its descendants in G with a new stamp.
void NeighbourWalk::mark_descendants(std::size_t v) {
  new_stamp();
  stack_.assign(1, static_cast<std::uint32_t>(v));
  mark_[v] = stamp_;
  while (!stack_.empty()) {
    const std::uint32_t x = stack_.back();
    stack_.pop_back();
    for (std::uint32_t k = child_start_[x]; k < child_start_[x + 1]; ++k)
      if (mark_[children_[k]] != stamp_) {
        mark_[children_[k]] = stamp_;
        stack_.push_back(children_[k]);
      }
  }
}

// Offers every neighbour of G (one family, one reversal) the pool may accept, or in the pair
// pass (`pairs`) every pair of changes that breaks the cycles of one (break_cycles).
void NeighbourWalk::expand(const Choices& g, std::uint64_t g_hash, double g_score, bool pairs) {
  index_graph(g);
  expand_families(g, g_hash, g_score, pairs);
  if (!pairs) expand_reversals(g, g_hash, g_score);
}

// One family: every entry of v within the slack whose parents are not descendants of v.
void NeighbourWalk::expand_families(const Choices& g, std::uint64_t g_hash, double g_score,
                                    bool pairs) {
  const double slack = g_score - pool_.threshold();
  for (std::size_t v = 0; v < n_ && !out_.stopped; ++v) {
    const VarCache& vc = cache_.var(v);
    const double own = vc.score(g[v]);
    const double limit = own - slack - 1e-9 * std::max(1.0, std::fabs(own));
    bool walked = false;  // the descendants of v are marked with `stamp_`
    ++step_;              // the pair pass's cuts of the v before are stale
    used_ = 0;
    for (std::size_t i = 0; i < vc.size() && vc.score(i) >= limit; ++i) {
      if (i == g[v]) continue;
      if (pairs && !clearly_greater(vc.score(i), own)) break;  // the pair pass: gains only
      const double score = g_score - own + vc.score(i);
      if (!pool_.may_accept(score)) continue;
      bool acyclic = true;
      for (const std::int32_t u : vc.parents(i)) {
        if (pos_[u] < pos_[v]) continue;  // not a descendant of v
        if (!walked) {
          walked = true;
          mark_descendants(v);
        }
        if (mark_[u] == stamp_) {
          acyclic = false;
          break;
        }
      }
      const auto vv = static_cast<std::uint32_t>(v);
      const auto ii = static_cast<std::uint32_t>(i);
      if (!acyclic) {
        if (pairs && !break_cycles(g, g_hash, g_score, slack, v, ii)) break;
        continue;
      }
      if (pairs) continue;  // offered when G was expanded
      const std::uint64_t h = g_hash ^ entry_hash(vv, g[v]) ^ entry_hash(vv, ii);
      if (!offer(g, h, score, {{v, ii}}, kFamily)) break;
    }
  }
}

// Arc reversals: u -> v becomes v -> u when both new families are cached, the arc is not
// covered, and no other path leads from u to v.
void NeighbourWalk::expand_reversals(const Choices& g, std::uint64_t g_hash, double g_score) {
  for (std::size_t v = 0; v < n_ && !out_.stopped; ++v) {
    const auto pv = cache_.var(v).parents(g[v]);
    for (const std::int32_t uu : pv) {
      const auto u = static_cast<std::size_t>(uu);
      const auto pu = cache_.var(u).parents(g[u]);
      if (pu.size() + 1 == pv.size()) {  // covered: pa(v) = pa(u) + u
        bool covered = true;
        for (std::size_t a = 0, b = 0; b < pv.size() && covered; ++b) {
          if (pv[b] == uu) continue;
          covered = a < pu.size() && pu[a++] == pv[b];
        }
        if (covered) continue;
      }
      family_.clear();
      for (const std::int32_t p : pv)
        if (p != uu) family_.push_back(p);
      const long jv = index_.find(v, family_);
      if (jv < 0) continue;
      family_.assign(pu.begin(), pu.end());
      family_.insert(std::upper_bound(family_.begin(), family_.end(), static_cast<std::int32_t>(v)),
                     static_cast<std::int32_t>(v));
      const long ju = index_.find(u, family_);
      if (ju < 0) continue;
      const double score = g_score - cache_.var(v).score(g[v]) + cache_.var(v).score(jv) -
                           cache_.var(u).score(g[u]) + cache_.var(u).score(ju);
      if (!pool_.may_accept(score)) continue;
      // Another path u ~> v runs through vertices between them in the topological order.
      new_stamp();
      stack_.clear();
      bool acyclic = true;
      for (std::uint32_t k = child_start_[u]; k < child_start_[u + 1]; ++k) {
        const std::uint32_t c = children_[k];
        if (c != v && pos_[c] < pos_[v]) {
          mark_[c] = stamp_;
          stack_.push_back(c);
        }
      }
      while (!stack_.empty() && acyclic) {
        const std::uint32_t x = stack_.back();
        stack_.pop_back();
        for (std::uint32_t k = child_start_[x]; k < child_start_[x + 1]; ++k) {
          const std::uint32_t c = children_[k];
          if (c == v) {
            acyclic = false;
            break;
          }
          if (pos_[c] < pos_[v] && mark_[c] != stamp_) {
            mark_[c] = stamp_;
            stack_.push_back(c);
          }
        }
      }
      if (!acyclic) continue;
      const auto vv = static_cast<std::uint32_t>(v), u32 = static_cast<std::uint32_t>(u);
      const auto jv32 = static_cast<std::uint32_t>(jv), ju32 = static_cast<std::uint32_t>(ju);
      const std::uint64_t h = g_hash ^ entry_hash(vv, g[v]) ^ entry_hash(vv, jv32) ^
                              entry_hash(u32, g[u]) ^ entry_hash(u32, ju32);
      if (!offer(g, h, score, {{v, jv32}, {u, ju32}}, kReversal)) break;
    }
  }
}

// The queue pass: the next queued DAG expanded.
void NeighbourWalk::walk_queued() {
  const PooledDag& d = queue_[q_++];
  if (!(d.score >= pool_.threshold())) return;   // the threshold rose past it
  if (done_.expanded.count(d.hash) > 0) return;  // by an earlier walk
  ++out_.expanded;
  const Choices g = d.choices;  // a copy: the queue grows while it is expanded
  const std::uint64_t h = d.hash;
  expand(g, h, d.score, false);
  if (!out_.stopped) done_.expanded.insert(h);
}

// The member pass: the other members of the next queued DAG's class expanded.
void NeighbourWalk::walk_members() {
  const PooledDag d = queue_[m_++];
  if (!(d.score >= pool_.threshold()) || done_.classes.count(d.hash) > 0) return;
  cached_members(cache_, index_, d, options_.max_members, members_);
  for (std::size_t k = 1; k < members_.size() && !out_.stopped; ++k) {  // [0] is d
    if (done_.expanded.count(members_[k].first) > 0) continue;
    ++out_.members;
    expand(members_[k].second, members_[k].first, d.score, false);
    if (!out_.stopped) done_.expanded.insert(members_[k].first);
    if (should_stop_()) out_.stopped = true;
  }
  if (!out_.stopped) done_.classes.insert(d.hash);
}

// The pair pass: the next queued DAG expanded by pairs of changes.
void NeighbourWalk::walk_pairs() {
  const PooledDag& d = queue_[p_++];
  if (!(d.score >= pool_.threshold()) || done_.paired.count(d.hash) > 0) return;
  const Choices g = d.choices;
  const std::uint64_t h = d.hash;
  expand(g, h, d.score, true);
  if (!out_.stopped) done_.paired.insert(h);
}

// The queue's DAGs are expanded in order; once every one is, the other members of their
// classes are, class by class in queue order, and then the queue's DAGs again by pairs of
// changes. What these admit joins the queue and is expanded first.
NeighbourCompletion NeighbourWalk::run() {
  climb_best();
  if (!queue_.empty()) top_ = queue_.front().score;
  for (;;) {
    if (rise_) {  // found while walking the DAG before: walked now
      queue_.insert(queue_.begin() + static_cast<std::ptrdiff_t>(q_), std::move(*rise_));
      rise_.reset();
    }
    if (out_.stopped) break;
    if (should_stop_()) {
      out_.stopped = true;
      break;
    }
    if (q_ >= queue_.size()) out_.queue_done = true;  // once: the passes after the queue began
    if (q_ < queue_.size())
      walk_queued();
    else if (options_.members && m_ < queue_.size())
      walk_members();
    else if (options_.pairs && p_ < queue_.size())
      walk_pairs();
    else
      break;
  }
  return out_;
}

}  // namespace

NeighbourCompletion complete_neighbours(const ScoreCache& cache, DagPool& pool,
                                        const std::function<bool()>& should_stop,
                                        const WalkOptions& options) {
  return NeighbourWalk(cache, pool, should_stop, options).run();
}

}  // namespace bnsl
