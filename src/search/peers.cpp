// The search across processes (bnsl/comm.hpp, SearchOptions::comm). Every process searches
// the same cache with its own chains; what they share is small and asynchronous:
// - the best network: when a process's best rises above every best it has sent or received,
//   its monitor sends it (score and one cache entry index per variable: 4n bytes) to every
//   other process, at most once every search.exchange_seconds (bnsl/tunables.hpp). The
//   receivers pool it, so their pools' thresholds follow the best of all, and offer its topological
//   order to their incumbent (problems of incumbent_min_n variables or more), where their restarts
//   start: all processes intensify around the best any has found, each with its own random
//   perturbations.
// - at the end, every process's classes (the pool snapshot: a score and 4n bytes each) go to
//   rank 0, whose pool admits them as it admits its own chains' (one per class, within epsilon,
//   the score bands of a full pool), before the neighbour walk's result is reported.
// A received network's score is recomputed from the cache, which every process holds whole.
#include "search/peers.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "parallel/wire.hpp"
#include "score/compare.hpp"
#include "util/threads.hpp"

namespace bnsl {
namespace {

// The network's score if `choices` indexes an acyclic network of the cache, else NaN (with its
// topological order in `topo`).
double valid_score(const ScoreCache& cache, const Choices& choices, const Order& identity,
                   Order& topo) {
  for (std::size_t v = 0; v < choices.size(); ++v)
    if (choices[v] >= cache.var(v).size()) return std::nan("");
  topo = topological_order(cache, choices, identity);
  if (topo.size() != choices.size()) return std::nan("");
  return dag_score(cache, choices);
}

}  // namespace

SearchPeers::SearchPeers(Comm* comm, const ScoreCache& cache, double exchange_seconds)
    : comm_(comm), cache_(cache), exchange_seconds_(exchange_seconds), identity_(cache.n_vars()) {
  for (std::size_t i = 0; i < identity_.size(); ++i) identity_[i] = static_cast<int>(i);
}

std::uint64_t SearchPeers::chain_offset() const {
  return active() ? static_cast<std::uint64_t>(comm_->rank()) << 40 : 0;
}

void SearchPeers::take_received(DagPool& pool, Incumbent* incumbent) {
  double score = 0;
  Choices choices;
  Order topo;
  while (auto m = comm_->receive()) {
    if (!wire::unpack_network(m->second, cache_.n_vars(), score, choices)) continue;
    const double exact = valid_score(cache_, choices, identity_, topo);
    if (std::isnan(exact)) continue;
    ++received_;
    if (exact > shared_best_) shared_best_ = exact;
    pool.offer(exact, dag_hash(choices), choices);
    if (incumbent) incumbent->offer(topo, exact);
  }
}

void SearchPeers::exchange(double now, DagPool& pool, Incumbent* incumbent) {
  if (!active()) return;
  take_received(pool, incumbent);
  if (now - last_send_ < exchange_seconds_) return;
  last_send_ = now;
  const double best = pool.best();
  if (!std::isfinite(best) || (std::isfinite(shared_best_) && !clearly_greater(best, shared_best_)))
    return;
  shared_best_ = best;
  const std::string bytes = wire::pack_network(best, pool.best_choices());
  for (int r = 0; r < comm_->size(); ++r)
    if (r != comm_->rank()) comm_->post(r, bytes);
}

void SearchPeers::merge(DagPool& pool, int threads) {
  if (!active()) return;
  comm_->flush();
  take_received(pool, nullptr);
  wire::Writer w;
  const std::vector<PooledDag> mine = comm_->root() ? std::vector<PooledDag>{} : pool.snapshot();
  w.put<std::uint64_t>(mine.size());
  for (const PooledDag& d : mine) {
    w.put<double>(d.score);
    w.put_span<std::uint32_t>(d.choices);
  }
  const std::vector<std::string> parts = comm_->gather(w.take());
  std::vector<Choices> dags;
  for (std::size_t r = 1; r < parts.size(); ++r) {
    wire::Reader rd(parts[r]);
    const auto count = rd.get<std::uint64_t>();
    for (std::uint64_t k = 0; k < count; ++k) {
      rd.get<double>();  // recomputed below
      dags.push_back(rd.get_vector<std::uint32_t>());
    }
  }
  parallel_for(static_cast<long>(dags.size()), threads, 64, [&](long i) {
    const Choices& c = dags[static_cast<std::size_t>(i)];
    if (c.size() != cache_.n_vars()) return;
    Order topo;
    const double exact = valid_score(cache_, c, identity_, topo);
    if (!std::isnan(exact)) pool.offer(exact, dag_hash(c), c);
  });
  merged_ = dags.size();
}

}  // namespace bnsl
