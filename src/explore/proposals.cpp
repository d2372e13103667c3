// Grow-shrink proposals from a network (proposals.hpp).
#include "explore/proposals.hpp"

#include <omp.h>

#include <algorithm>
#include <random>
#include <span>
#include <vector>

#include "bnsl/graph.hpp"
#include "score/counting.hpp"
#include "score/entry_index.hpp"
#include "util/threads.hpp"

namespace bnsl {
namespace {

// The walks of one child: every set they visit, with its exact score, into `out`.
class Walker {
 public:
  Walker(Counter& counter, int child, std::vector<int> candidates, std::vector<int> required,
         int cap, int pairs, std::uint64_t seed, VarCache& out)
      : counter_(counter),
        child_(child),
        candidates_(std::move(candidates)),
        required_(std::move(required)),
        cap_(cap),
        pairs_(pairs),
        out_(out),
        rng_(seed) {}

  // Grow from `set` (sorted, holding the required parents) while an added candidate, or else a
  // pair of them, raises the score, then shrink while a removal raises it.
  void walk(std::vector<int> set) {
    double current = score_of(set);  // builds index_ for the first grow step
    record(set, current);
    while (grow(set, current) || pair_step(set, current)) {
    }
    for (bool shrunk = true; shrunk && set.size() > required_.size();) {
      shrunk = false;
      std::vector<int> best_set;
      double best_score = current;
      for (std::size_t i = 0; i < set.size(); ++i) {
        if (std::binary_search(required_.begin(), required_.end(), set[i])) continue;
        std::vector<int> smaller = set;
        smaller.erase(smaller.begin() + static_cast<long>(i));
        const double s = score_of(smaller);
        if (s > best_score) best_score = s, best_set = std::move(smaller);
      }
      if (best_score > current) {
        set = std::move(best_set);
        current = best_score;
        record(set, current);
        shrunk = true;
      }
    }
  }

  std::uint64_t scored() const { return scored_; }
  std::uint64_t pair_steps() const { return pair_steps_; }

 private:
  // Adds the candidate that raises the score most (index_ holds `set`'s rows); false when none
  // does, with every candidate's score beside `set` in scan_, or when `set` is at the cap.
  bool grow(std::vector<int>& set, double& current) {
    scan_.clear();
    if (static_cast<int>(set.size()) >= cap_) return false;
    int best = -1;
    double best_score = current;
    for (int c : candidates_) {
      if (std::binary_search(set.begin(), set.end(), c)) continue;
      const double s = counter_.score_extension(index_, c, child_).score;
      ++scored_;
      scan_.emplace_back(s, c);
      if (s > best_score) best_score = s, best = c;
    }
    if (best < 0) return false;
    add(set, best);
    current = best_score;
    record(set, current);
    counter_.build(set, index_);  // the next step's base
    return true;
  }

  // After a grow step that found no single candidate to add: the pair that raises the score
  // most, if one does, among pairs_ candidates of that scan: all of them when there are no
  // more, else the best half by the score each gives alone (where a pair that completes a
  // nearly good parent lies) and a random draw from the rest (where parents that matter only
  // together lie: their single scores say nothing).
  bool pair_step(std::vector<int>& set, double& current) {
    if (pairs_ < 2 || static_cast<int>(set.size()) + 2 > cap_ || scan_.size() < 2) return false;
    const std::size_t k = std::min(scan_.size(), static_cast<std::size_t>(pairs_));
    if (k < scan_.size()) {
      const std::size_t best = k / 2;
      std::partial_sort(scan_.begin(), scan_.begin() + static_cast<long>(best), scan_.end(),
                        [](const auto& x, const auto& y) { return x.first > y.first; });
      for (std::size_t i = best; i < k; ++i)  // a partial Fisher-Yates shuffle of the rest
        std::swap(scan_[i], scan_[i + rng_() % (scan_.size() - i)]);
    }
    int best_a = -1, best_b = -1;
    double best_score = current;
    ConfigIndex with_a;
    for (std::size_t i = 0; i + 1 < k; ++i) {
      std::vector<int> base = set;
      add(base, scan_[i].second);
      counter_.build(base, with_a);
      for (std::size_t j = i + 1; j < k; ++j) {
        const double s = counter_.score_extension(with_a, scan_[j].second, child_).score;
        ++scored_;
        if (s > best_score) best_score = s, best_a = scan_[i].second, best_b = scan_[j].second;
      }
    }
    scan_.clear();
    if (best_a < 0) return false;
    add(set, best_a);
    add(set, best_b);
    current = best_score;
    record(set, current);
    counter_.build(set, index_);
    ++pair_steps_;
    return true;
  }

  static void add(std::vector<int>& set, int c) {
    set.insert(std::lower_bound(set.begin(), set.end(), c), c);
  }
  double score_of(const std::vector<int>& set) {
    counter_.build(set, index_);
    ++scored_;
    return counter_.score(index_, child_).score;
  }
  void record(const std::vector<int>& set, double score) {
    if (out_.find(set) < 0) out_.add(score, set);
  }

  Counter& counter_;
  const int child_;
  const std::vector<int> candidates_, required_;
  const int cap_, pairs_;
  VarCache& out_;
  ConfigIndex index_;
  std::vector<std::pair<double, int>> scan_;  // the last grow step's scores, by candidate
  std::mt19937_64 rng_;                       // the pair step's draws
  std::uint64_t scored_ = 0, pair_steps_ = 0;
};

// Marks in `seen` (cleared by the caller's epoch) the descendants of v in the network whose
// children lists are `children`, not going past topological position `limit` (a descendant
// later than every candidate leads to none of them).
void mark_descendants(int v, const std::vector<std::vector<int>>& children,
                      const std::vector<int>& position, int limit, std::vector<int>& seen,
                      int epoch, std::vector<int>& stack) {
  stack.assign(1, v);
  while (!stack.empty()) {
    const int u = stack.back();
    stack.pop_back();
    for (int c : children[static_cast<std::size_t>(u)]) {
      auto& s = seen[static_cast<std::size_t>(c)];
      if (s == epoch || position[static_cast<std::size_t>(c)] > limit) continue;
      s = epoch;
      stack.push_back(c);
    }
  }
}

// Adds to v's `candidates` (sorted, unique) `extra` other variables drawn at random, or every
// other variable when there are no more than that. Descendants among them are removed
// afterwards with the rest.
void draw_extra(int v, std::size_t n, int extra_option, std::uint64_t seed,
                std::vector<int>& candidates) {
  const std::size_t extra = static_cast<std::size_t>(std::max(extra_option, 0));
  if (extra == 0) return;
  // v is never its own candidate
  const std::size_t others = n > candidates.size() + 1 ? n - 1 - candidates.size() : 0;
  const auto held = [&](int u) {
    return u == v || std::binary_search(candidates.begin(), candidates.end(), u);
  };
  std::vector<int> drawn;
  if (others <= extra) {
    for (std::size_t u = 0; u < n; ++u)
      if (!held(static_cast<int>(u))) drawn.push_back(static_cast<int>(u));
  } else {
    std::mt19937_64 rng(seed);
    // Rejection: with more than `extra` variables left, each try succeeds often enough.
    for (std::size_t tries = 0; drawn.size() < extra && tries < 8 * extra; ++tries) {
      const int u = static_cast<int>(rng() % n);
      if (!held(u) && std::find(drawn.begin(), drawn.end(), u) == drawn.end()) drawn.push_back(u);
    }
  }
  candidates.insert(candidates.end(), drawn.begin(), drawn.end());
  std::sort(candidates.begin(), candidates.end());
}

}  // namespace

namespace {

// Whether `into` holds a proper subset of `family` scoring more than `bar` (rule 1): by its
// 2^k - 1 subsets up to kSubsetLookups parents, else by a scan of the list.
bool beaten_by_subset(const VarCache& into, const VarEntryIndex& index,
                      std::span<const std::int32_t> family, double bar) {
  constexpr std::size_t kSubsetLookups = 12;
  const std::size_t k = family.size();
  if (k > kSubsetLookups) {
    for (std::size_t j = 0; j < into.size(); ++j) {
      const auto sub = into.parents(j);
      if (into.score(j) > bar && sub.size() < k &&
          std::includes(family.begin(), family.end(), sub.begin(), sub.end()))
        return true;
    }
    return false;
  }
  std::vector<std::int32_t> sub;
  for (std::uint32_t mask = 0; mask + 1 < (1u << k); ++mask) {
    sub.clear();
    for (std::size_t b = 0; b < k; ++b)
      if (mask >> b & 1) sub.push_back(family[b]);
    const long at = index.find(sub);
    if (at >= 0 && into.score(static_cast<std::size_t>(at)) > bar) return true;
  }
  return false;
}

}  // namespace

std::uint64_t merge_families(const ScoreCache& from, ScoreCache& to, std::size_t begin,
                             std::size_t end, double eps) {
  std::uint64_t kept = 0;
  for (std::size_t v = begin; v < end; ++v) {
    const VarCache& add = from.var(v);
    VarCache& into = to.var(v);
    if (add.empty()) continue;
    const std::size_t before = into.size();
    // By parent set: VarCache::find and a scan for subsets are linear in the list, and a merge
    // of thousands of families into thousands made the exploration of audio, jester, plants and
    // netflix end 0.6 to 2.3 s after its budget.
    VarEntryIndex index(into);
    std::vector<std::size_t> by_size(add.size());  // a subset joins before its supersets
    for (std::size_t i = 0; i < by_size.size(); ++i) by_size[i] = i;
    std::stable_sort(by_size.begin(), by_size.end(), [&](std::size_t a, std::size_t b) {
      return add.parents(a).size() < add.parents(b).size();
    });
    for (const std::size_t i : by_size) {
      const auto family = add.parents(i);
      if (index.find(family) >= 0 || beaten_by_subset(into, index, family, add.score(i) + eps))
        continue;
      into.add(add.score(i), family);
      index.add(into.size() - 1);
    }
    if (into.size() > before) into.sort_best_first();
    kept += into.size() - before;
  }
  return kept;
}

ProposalStats propose_families(const Dataset& data, const std::vector<std::vector<int>>& net,
                               const ProposalOptions& options, const StopToken& stop,
                               ScoreCache& cache) {
  ProposalStats stats;
  stats.rounds = 1;
  const StopToken clock(0);
  const std::size_t n = cache.n_vars();
  if (net.size() != n || n == 0) return stats;
  std::vector<std::vector<int>> children(n);
  for (std::size_t v = 0; v < n; ++v)
    for (int p : net[v]) children[static_cast<std::size_t>(p)].push_back(static_cast<int>(v));
  const std::vector<int> order = topological_order(net);
  if (order.size() != n) return stats;  // not a DAG: nothing to propose from
  std::vector<int> position(n);
  for (std::size_t i = 0; i < n; ++i)
    position[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  const std::vector<std::vector<int>> required = options.constraints
                                                     ? options.constraints->required_by_child(n)
                                                     : std::vector<std::vector<int>>(n);
  int cap = options.max_grow;
  if (options.max_parents >= 0) cap = std::min(cap, options.max_parents);
  ScoreCache proposed(n);
  FirstError failure;
  std::uint64_t scored = 0, walked = 0, pair_steps = 0;
#pragma omp parallel num_threads(resolve_threads(options.threads)) \
    reduction(+ : scored, walked, pair_steps)
  {
    Counter counter(data, options.score);
    std::vector<int> seen(n, -1), stack;
#pragma omp for schedule(dynamic, 16)
    for (long i = 0; i < static_cast<long>(n); ++i)
      failure.run([&] {
        const int v = static_cast<int>(i);
        if (stop.stop_requested() || data.arity(static_cast<std::size_t>(v)) < 2) return;
        const VarCache& entries = cache.var(static_cast<std::size_t>(v));
        std::vector<int> candidates;  // every parent its cached sets name, and its parents
        for (std::size_t e = 0; e < entries.size(); ++e)
          for (int p : entries.parents(e)) candidates.push_back(p);
        for (int p : net[static_cast<std::size_t>(v)]) candidates.push_back(p);
        if (options.candidates && static_cast<std::size_t>(v) < options.candidates->size())
          for (int p : (*options.candidates)[static_cast<std::size_t>(v)]) candidates.push_back(p);
        std::sort(candidates.begin(), candidates.end());
        candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
        const std::uint64_t seed =
            options.seed ^ (0x9e3779b97f4a7c15ULL * (static_cast<std::uint64_t>(v) + 1));
        draw_extra(v, n, options.extra, seed, candidates);
        const auto& req = required[static_cast<std::size_t>(v)];
        int limit = -1;
        for (int c : candidates) limit = std::max(limit, position[static_cast<std::size_t>(c)]);
        mark_descendants(v, children, position, limit, seen, v, stack);
        std::erase_if(candidates, [&](int c) {
          return seen[static_cast<std::size_t>(c)] == v ||
                 data.arity(static_cast<std::size_t>(c)) < 2 ||
                 std::binary_search(req.begin(), req.end(), c) ||
                 (options.constraints && !options.constraints->allowed(c, v));
        });
        if (candidates.empty()) return;
        Walker walker(counter, v, candidates, req, std::max(cap, static_cast<int>(req.size())),
                      options.pairs, seed + 1, proposed.var(static_cast<std::size_t>(v)));
        walker.walk(req);
        const auto& own = net[static_cast<std::size_t>(v)];
        if (own.size() > req.size()) walker.walk(own);
        scored += walker.scored();
        pair_steps += walker.pair_steps();
        ++walked;
      });
  }
  failure.rethrow();
  stats.scored = scored;
  stats.vars = walked;
  stats.pair_steps = pair_steps;
  stats.admitted = merge_families(proposed, cache, 0, n, options.eps);
  stats.seconds = clock.elapsed();
  return stats;
}

}  // namespace bnsl
