// Order-consistent enumeration (docs/design.md, "The DAG pool"; Liao et al. 2019 enumerate
// all networks within a factor of the optimum; here restricted to one order). For a fixed order
// the consistent DAGs are exactly the independent choices, per node, of a cache entry whose
// parents all precede it, and a DAG's score is s_best(order) - sum of per-node losses, where
// loss = (best consistent entry's score) - (chosen entry's score) >= 0. So all consistent DAGs
// within slack = s_best(order) - threshold are the combinations of per-node choices whose
// summed loss is <= slack. We enumerate them by depth-first search over the nodes that have
// alternatives within the slack, sorted by their cheapest deviation, choosing for each the
// next node to deviate; alternatives are sorted by loss, so every loop breaks at the first
// one that no longer fits, and the node loop breaks when even the cheapest deviation of the
// remaining nodes does not fit. Each visited combination is distinct and offered once.
// Guarantee: unless truncated, every DAG consistent with the order whose score is at least
// the pool threshold (read as it rises) has been offered. Consistent DAGs are acyclic.
// Only cache entries are chosen, and no node is assumed to have the empty set: with required
// arcs every entry of a node holds its required parents, and an order that puts one of them
// after it has no consistent DAG at all (then nothing is offered and `best` is -infinity).
#include "search/order_enum.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "score/compare.hpp"

namespace bnsl {
namespace {

struct Alt {
  std::uint32_t entry;
  double loss;
};

struct NodeAlts {
  int v;
  std::vector<Alt> alts;  // deviations from the best consistent entry, by increasing loss
};

class OrderEnumerator {
 public:
  OrderEnumerator(const ScoreCache& cache, std::span<const int> order, DagPool& pool,
                  const std::function<bool()>& should_stop, const ChoicesRef& ref,
                  std::uint64_t max_offers)
      : cache_(cache),
        order_(order),
        pool_(pool),
        should_stop_(should_stop),
        ref_(ref),
        max_offers_(max_offers) {}

  OrderEnumResult run() {
    const std::size_t n = order_.size();
    pos_.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) pos_[order_[i]] = static_cast<int>(i);
    choices_.assign(n, 0);
    double base = 0;
    for (std::size_t v = 0; v < n; ++v) {
      choices_[v] = first_consistent(static_cast<int>(v), 0);
      if (choices_[v] == cache_.var(v).size()) {  // no entry fits: no consistent DAG
        result_.best = -std::numeric_limits<double>::infinity();
        return result_;
      }
      base += cache_.var(v).score(choices_[v]);
    }
    result_.best = base;
    base_ = base;
    hash_ = dag_hash(choices_);
    offer(0);  // first, so that the pool's threshold bounds the slack below
    const double slack = base - pool_.threshold();
    if (slack < 0 || stopped_) return result_;
    collect_alternatives(slack);
    descend(0, 0.0);
    return result_;
  }

 private:
  bool consistent(int v, std::uint32_t e) const {
    for (int p : cache_.var(v).parents(e))
      if (pos_[p] >= pos_[v]) return false;
    return true;
  }

  std::uint32_t first_consistent(int v, std::uint32_t from) const {
    const VarCache& vc = cache_.var(v);
    for (std::uint32_t e = from; e < vc.size(); ++e)
      if (consistent(v, e)) return e;
    return static_cast<std::uint32_t>(vc.size());  // none
  }

  void collect_alternatives(double slack) {
    for (std::size_t v = 0; v < order_.size(); ++v) {
      const VarCache& vc = cache_.var(v);
      const double best = vc.score(choices_[v]);
      NodeAlts node{static_cast<int>(v), {}};
      for (std::uint32_t e = choices_[v] + 1; e < vc.size(); ++e) {
        const double loss = best - vc.score(e);
        if (clearly_greater(loss, slack)) break;  // entries are sorted best first
        if (consistent(static_cast<int>(v), e)) node.alts.push_back({e, std::max(0.0, loss)});
      }
      if (!node.alts.empty()) nodes_.push_back(std::move(node));
    }
    std::stable_sort(nodes_.begin(), nodes_.end(), [](const NodeAlts& a, const NodeAlts& b) {
      return a.alts.front().loss < b.alts.front().loss;
    });
  }

  // Offers the current combination, whose summed loss is `loss`.
  void offer(double loss) {
    const double score = base_ - loss;
    ++result_.offered;
    if (pool_.may_accept(score) && pool_.offer(score, hash_, choices_, ref_)) ++result_.admitted;
    if ((result_.offered & 1023) == 0 && should_stop_ && should_stop_()) stopped_ = true;
    if (max_offers_ && result_.offered >= max_offers_) stopped_ = true;
    if (stopped_) result_.truncated = true;
  }

  // Combinations deviating only at nodes_[j..], j >= first, on top of summed loss `loss`.
  void descend(std::size_t first, double loss) {
    for (std::size_t j = first; j < nodes_.size() && !stopped_; ++j) {
      const double room = base_ - loss - pool_.threshold();
      if (nodes_[j].alts.front().loss > room) break;  // nodes sorted by cheapest deviation
      const int v = nodes_[j].v;
      const std::uint32_t keep = choices_[v];
      for (const Alt& a : nodes_[j].alts) {
        if (a.loss > base_ - loss - pool_.threshold() || stopped_) break;
        set_choice(v, a.entry);
        offer(loss + a.loss);
        descend(j + 1, loss + a.loss);
      }
      set_choice(v, keep);
    }
  }

  void set_choice(int v, std::uint32_t e) {
    hash_ ^= entry_hash(static_cast<std::uint32_t>(v), choices_[v]) ^
             entry_hash(static_cast<std::uint32_t>(v), e);
    choices_[v] = e;
  }

  const ScoreCache& cache_;
  std::span<const int> order_;
  DagPool& pool_;
  const std::function<bool()>& should_stop_;
  const ChoicesRef& ref_;
  std::uint64_t max_offers_;
  std::vector<int> pos_;
  Choices choices_;
  std::vector<NodeAlts> nodes_;
  double base_ = 0;
  std::uint64_t hash_ = 0;
  bool stopped_ = false;
  OrderEnumResult result_;
};

}  // namespace

OrderEnumResult enumerate_order(const ScoreCache& cache, std::span<const int> order, DagPool& pool,
                                const std::function<bool()>& should_stop, const ChoicesRef& ref,
                                std::uint64_t max_offers) {
  OrderEnumerator e(cache, order, pool, should_stop, ref, max_offers);
  return e.run();
}

}  // namespace bnsl
