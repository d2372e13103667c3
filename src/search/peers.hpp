// The search's side of a run shared by several processes (bnsl/comm.hpp): what the monitor of
// each process's chains exchanges with the others, and the pooling of every process's classes
// at rank 0 at the end (peers.cpp).
#pragma once

#include <cstdint>
#include <limits>

#include "bnsl/cache.hpp"
#include "bnsl/comm.hpp"
#include "pool/dag_pool.hpp"
#include "search/search_internal.hpp"

namespace bnsl {

class SearchPeers {
 public:
  // exchange_seconds: at least this long between two sends of this process's best network
  // (search.exchange_seconds, bnsl/tunables.hpp).
  SearchPeers(Comm* comm, const ScoreCache& cache, double exchange_seconds);

  bool active() const { return comm_ != nullptr && comm_->distributed(); }
  bool root() const { return comm_ == nullptr || comm_->root(); }
  int processes() const { return active() ? comm_->size() : 1; }
  // Added to the chain indices, so that the processes' chains draw distinct random streams
  // (rank 0's are those of a process alone).
  std::uint64_t chain_offset() const;

  // From the monitor: pools the networks the others sent (and offers their orders to the
  // incumbent, if any), then, at most every exchange_seconds and when this process's best rose
  // above every best it has sent or received, sends its best network to every other process.
  void exchange(double now, DagPool& pool, Incumbent* incumbent);

  // Collective, at the end of the search: every network in flight is pooled, then every
  // process's classes go into rank 0's pool (on `threads` threads).
  void merge(DagPool& pool, int threads);

  std::uint64_t networks_received() const { return received_; }
  std::uint64_t classes_merged() const { return merged_; }

 private:
  void take_received(DagPool& pool, Incumbent* incumbent);

  Comm* comm_;
  const ScoreCache& cache_;
  double exchange_seconds_;
  Order identity_;
  double shared_best_ = -std::numeric_limits<double>::infinity();  // sent or received
  double last_send_ = -std::numeric_limits<double>::infinity();
  std::uint64_t received_ = 0, merged_ = 0;
};

}  // namespace bnsl
