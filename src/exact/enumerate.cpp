// Enumeration of every DAG scoring at least a threshold (OPT - epsilon), each exactly once, by
// branch and bound over sink decompositions, bounded by the subset DP (dp.cpp).
//
// Decomposition. A DAG G on a set R is a sink v of G[R] with parents P within R \ {v} plus
// the DAG G[R \ {v}]. Removing sinks one at a time from V down to the empty set builds G.
//
// Canonical sequence. A DAG has several sinks, so many removal sequences give the same DAG.
// We accept only the sequence that always removes the LARGEST-INDEX sink of the current G[R].
// Given G it is unique (each step is determined), so every DAG is produced exactly once, and
// every DAG is produced (the canonical sequence exists). The enumeration carries a set
// M subset of R: the nodes that must still receive a child in G[R] (must not be sinks of G[R]).
// Start: R = V, M = {}. A step picks v in R and P within R \ {v}:
//   - v must be a sink of G[R]: children of v in R would be nodes removed later, whose parents
//     lie in later (smaller) sets that exclude v, so v is always a sink; but if v is in M it
//     was required to have a child, contradiction -- so v must not be in M.
//   - v must be the largest sink: every u in R with u > v needs a child in G[R].
//   - M' = ((M union {u in R : u > v}) \ {v}) \ P: a node in P has its child v; the others
//     must get a child in G[R \ {v}], i.e. from nodes removed later.
// Claim: a complete sequence accepted by these rules is exactly the canonical sequence of its
// DAG. Induction over the steps: when v is removed from R, the nodes of M (and those above v)
// have a child in G[R] iff they are in P or have a child in G[R \ {v}] -- which the rules
// demand through M' -- and at the end R is empty, so M is empty and every demand was met.
// Conversely the canonical sequence satisfies every demand, so it is accepted. Hence the
// accepted sequences are in bijection with the DAGs. A branch whose M' equals the whole
// non-empty R' is dead (a DAG on R' has a sink) and is cut at once.
//
// Bound. The DAG finally built scores acc + s(v, P) + score(G[R \ {v}]) <= acc + s(v, P) +
// best(R \ {v}), where acc sums the families chosen so far and best() is the DP's optimum on a
// subset (families of R \ {v} have parents within it). A branch is cut when this bound is
// below the threshold; v's families are scanned best first from the first whose parents lie
// in R \ {v} (the DP's best family there), so the scan stops at the first family under the
// bound. The bound ignores M, so it is admissible: nothing within the threshold is lost.
// Cost: visited partial networks all have bound >= threshold.
//
// Classes (enumerate_within(..., classes = true)): every Markov equivalence class within the
// threshold once. An arc x -> y is covered when Pa(y) = Pa(x) + {x}; reversing a covered arc
// gives an equivalent DAG (Chickering 1995, Lemma 1) of the same score (BIC and BDeu are score
// equivalent), with families Pa'(x) = Pa(x) + {y} and Pa'(y) = Pa(x). Call a covered arc
// x -> y with x > y "descending" and "reversible here" when both new families are in the cache
// and score no less together. Rule: skip every DAG with a descending covered arc reversible
// here. Safe: from any DAG G of a class within the threshold, reversing such arcs one at a
// time lowers the number of descending arcs by one each time (the reversed arc ascends, no
// other arc changes), so it ends, at a member of G's class whose families are all in the
// cache, scoring at least G's, with no such arc: the rule keeps it. So every class keeps at
// least one member; the few classes that keep several are merged by their essential graphs
// (a hash set of canonical encodings, pool/cpdag.hpp), and the first member met stands for
// the class. Where the rule applies: the children of x are removed before x, so when x's
// family Q is chosen, every child y < x with Pa(y) = Q + {x} is known, and the branch is cut
// there (a hash of each variable's family masks finds the reversed families).
//
// Counting (count_within): the same search with the threshold fixed, each DAG reached counted
// and not kept, so that a list cut at max_solutions can say how many DAGs lie within the
// threshold (every DAG is reached exactly once: the canonical sequences above). Its cost grows
// with that number; stopped, the count is a lower bound.
//
// More than max_solutions within the threshold: the list keeps the best max_solutions (of
// classes: by their first member met). Once it holds that many, a DAG is listed only if it
// beats the worst listed, which leaves the list, and the threshold rises to the worst listed
// score, so the bound cuts more. Every DAG scoring above the final threshold is then listed
// and never left it, so a search that finishes lists exactly the DAGs (classes) above it,
// ties with it broken by the order they were met.
//
// Memory. A list that would not fit in memory as a pool stops where it is (list_memory.hpp):
// the optimum and the DAGs met so far are written, not complete, and the pool says why.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <new>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "exact/best_list.hpp"
#include "exact/dp.hpp"
#include "exact/list_memory.hpp"
#include "parallel/slowdown.hpp"
#include "pool/cpdag.hpp"
#include "score/compare.hpp"

namespace bnsl::exact {
namespace {

struct CodeHash {
  std::size_t operator()(const std::vector<std::uint32_t>& code) const {
    return static_cast<std::size_t>(hash_encoding(code));
  }
};

class SinkEnumerator {
 public:
  // reserve_dags: the DAGs of the report (counting: those listed before), for the reserve
  // kept before the deadline; 0: the list's own size.
  SinkEnumerator(const FamilyTable& fam, const SubsetDp& dp, double threshold,
                 std::size_t max_solutions, const StopToken& stop, bool classes,
                 bool counting = false, std::size_t reserve_dags = 0)
      : fam_(fam),
        dp_(dp),
        threshold_(threshold),
        max_solutions_(max_solutions),
        stop_(stop),
        classes_(classes),
        counting_(counting),
        reserve_dags_(reserve_dags),
        choice_(static_cast<std::size_t>(fam.n), 0),
        parents_(static_cast<std::size_t>(fam.n), 0),
        best_(max_solutions),
        memory_(fam.n) {
    if (!classes_) return;
    index_.resize(static_cast<std::size_t>(fam.n));
    for (int v = 0; v < fam.n; ++v)
      for (std::size_t i = 0; i < fam.size(v); ++i)
        index_[static_cast<std::size_t>(v)].emplace(fam.masks[static_cast<std::size_t>(v)][i],
                                                    static_cast<std::uint32_t>(i));
  }

  Count count() {
    const std::uint32_t all = (std::uint64_t{1} << fam_.n) - 1;
    if (dp_.best(all) >= threshold_) visit(all, 0, 0.0);
    return {counted_, !halted_, out_.nodes};
  }

  Enumeration run() {
    const std::uint32_t all = (std::uint64_t{1} << fam_.n) - 1;
    if (max_solutions_ == 0) out_.truncated = true;
    if (dp_.best(all) >= threshold_ && max_solutions_ > 0) visit(all, 0, 0.0);
    out_.complete = !halted_ && !out_.truncated;
    if (out_.truncated && !halted_ && max_solutions_ > 0) out_.listed_above = best_.bar();
    drop_below(out_.dags, scores_, threshold_);
    keep_best(out_.dags, scores_, max_solutions_);  // ties with the last threshold
    return std::move(out_);
  }

 private:
  void visit(std::uint32_t rest, std::uint32_t must, double acc);
  void try_sink(int v, std::uint32_t set, std::uint32_t must, double acc);
  void take_leaf(double score);
  bool admit(double score);
  bool reversible_covered(int x, std::size_t i, std::uint32_t children) const;
  double family_score(int v, Mask m) const;  // -inf when (v, m) is not in the cache
  bool halt() {
    if (!halted_ && (++out_.nodes & 0x3ff) == 0) {
      load_.sample_thread();
      halted_ = listing_should_stop(stop_, std::max(reserve_dags_, out_.dags.size()), fam_.n,
                                    load_.factor());
    }
    return halted_;
  }

  const FamilyTable& fam_;
  const SubsetDp& dp_;
  double threshold_;
  std::size_t max_solutions_;
  const StopToken& stop_;
  Slowdown load_;                      // of this thread's enumeration: scales the report's reserve
  bool classes_;                       // one DAG per equivalence class
  bool counting_;                      // count DAGs, keep none (count())
  std::size_t reserve_dags_;           // see the constructor
  std::uint64_t counted_ = 0;          // counting: DAGs reached
  std::vector<std::uint32_t> choice_;  // family index per removed variable
  std::vector<Mask> parents_;          // parent mask per removed variable
  std::vector<std::unordered_map<Mask, std::uint32_t>> index_;  // classes: family by mask
  EssentialGraphBuilder builder_;                               // classes: encodings
  std::vector<std::uint32_t> code_;
  std::unordered_set<std::vector<std::uint32_t>, CodeHash> seen_;  // classes listed
  Enumeration out_;
  std::vector<double> scores_;      // of out_.dags
  BestScores best_;                 // past max_solutions: the best listed
  ListMemory memory_;               // stops the list while it fits in memory as a pool
  std::size_t next_forget_ = 1024;  // out_.dags's size at which to drop those below threshold_
  bool halted_ = false;
};

void SinkEnumerator::visit(std::uint32_t set, std::uint32_t must, double acc) {
  if (halt()) return;
  if (set == 0) {
    if (const double score = fam_.score(choice_); score >= threshold_) take_leaf(score);
    return;
  }
  for (std::uint32_t cand = set & ~must; cand != 0 && !halted_; cand &= cand - 1)
    try_sink(std::countr_zero(cand), set, must, acc);
}

void SinkEnumerator::try_sink(int v, std::uint32_t set, std::uint32_t must, double acc) {
  const std::uint32_t bit = std::uint32_t{1} << v;
  const std::uint32_t rest = set & ~bit;
  const double rest_best = dp_.best(rest);
  // v's first family (best first) with parents in rest: the DP's best family there, the least
  // index (dp.cpp), so the families before it need no scan.
  const std::uint32_t first = dp_.best_family(v, rest);
  if (first == SubsetDp::kNone || acc + fam_.scores[v][first] + rest_best < threshold_) return;
  const std::uint32_t above = set & ~((bit << 1) - 1);
  const std::uint32_t need = (must | above) & ~bit;
  const auto& masks = fam_.masks[v];
  const auto& scores = fam_.scores[v];
  // classes: v's children y < v, removed before it (descending arcs v -> y)
  std::uint32_t children = 0;
  if (classes_) {
    const std::uint32_t all = static_cast<std::uint32_t>((std::uint64_t{1} << fam_.n) - 1);
    for (std::uint32_t y = all & ~set & (bit - 1); y != 0; y &= y - 1)
      if (parents_[static_cast<std::size_t>(std::countr_zero(y))] & bit)
        children |= std::uint32_t{1} << std::countr_zero(y);
  }
  for (std::size_t i = first; i < masks.size() && !halted_; ++i) {
    if (acc + scores[i] + rest_best < threshold_) break;  // best first: the rest is worse
    if ((masks[i] & ~Mask{rest}) != 0) continue;
    const std::uint32_t need_rest = need & ~static_cast<std::uint32_t>(masks[i]);
    if (rest != 0 && need_rest == rest) continue;  // no node of rest may be a sink: dead
    if (children != 0 && reversible_covered(v, i, children)) {
      ++out_.covered_cuts;
      continue;
    }
    choice_[v] = static_cast<std::uint32_t>(i);
    parents_[static_cast<std::size_t>(v)] = masks[i];
    visit(rest, need_rest, acc + scores[i]);
  }
}

double SinkEnumerator::family_score(int v, Mask m) const {
  const auto& index = index_[static_cast<std::size_t>(v)];
  const auto it = index.find(m);
  return it == index.end() ? -std::numeric_limits<double>::infinity()
                           : fam_.scores[static_cast<std::size_t>(v)][it->second];
}

// Whether family i of x makes a descending covered arc x -> y, y among `children` (y < x),
// whose reversal keeps the DAG in the cache and its score (see the file's comment).
bool SinkEnumerator::reversible_covered(int x, std::size_t i, std::uint32_t children) const {
  const Mask q = fam_.masks[static_cast<std::size_t>(x)][i];
  const Mask with_x = q | (Mask{1} << x);
  for (std::uint32_t c = children; c != 0; c &= c - 1) {
    const int y = std::countr_zero(c);
    if (parents_[static_cast<std::size_t>(y)] != with_x) continue;
    const double now =
        fam_.scores[static_cast<std::size_t>(x)][i] +
        fam_.scores[static_cast<std::size_t>(y)][choice_[static_cast<std::size_t>(y)]];
    const double reversed = family_score(x, q | (Mask{1} << y)) + family_score(y, q);
    if (std::isfinite(reversed) && reversed >= now - score_tolerance(now, now)) return true;
  }
  return false;
}

// Whether the list takes a DAG (class) of this score (BestScores::admit); past max_solutions
// the bar raises the threshold (see the file's comment).
bool SinkEnumerator::admit(double score) {
  const bool taken = best_.admit(score);
  out_.truncated = best_.dropped();
  threshold_ = std::max(threshold_, best_.bar());
  return taken;
}

void SinkEnumerator::take_leaf(double score) {
  if (counting_) {
    ++counted_;
    return;
  }
  if (classes_) {
    ++out_.leaves;
    builder_.build(fam_.parents(choice_));
    builder_.encode(code_);
    if (!seen_.insert(code_).second) return;
  }
  if (!admit(score)) return;
  try {
    out_.dags.push_back(choice_);
    scores_.push_back(score);
  } catch (const std::bad_alloc&) {  // the guard below did not foresee it: stop as it would
    halted_ = out_.memory_short = true;
    return;
  }
  if (memory_.short_of(best_.listed())) {  // list_memory.hpp
    halted_ = out_.memory_short = true;
    out_.memory_left = memory_.left();
  }
  if (out_.dags.size() >= next_forget_) {  // DAGs that left the list: kept under twice the rest
    drop_below(out_.dags, scores_, threshold_);
    next_forget_ = std::max<std::size_t>(1024, 2 * out_.dags.size());
  }
}

}  // namespace

Enumeration enumerate_within(const FamilyTable& fam, const SubsetDp& dp, double threshold,
                             std::size_t max_solutions, const StopToken& stop, bool classes) {
  return SinkEnumerator(fam, dp, threshold, max_solutions, stop, classes).run();
}

Count count_within(const FamilyTable& fam, const SubsetDp& dp, double threshold,
                   std::size_t report_dags, const StopToken& stop) {
  return SinkEnumerator(fam, dp, threshold, 0, stop, false, true, report_dags).count();
}

}  // namespace bnsl::exact
