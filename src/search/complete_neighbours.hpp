// Completes the pool's neighbourhoods: offers every acyclic DAG that differs from a pooled one
// in a single family, or by one arc reversal whose families are in the cache, and may score
// within the pool's threshold. See complete_neighbours.cpp.
//
//   NeighbourCompletion c = complete_neighbours(cache, pool, should_stop, {.max_expanded =
//   400000});
#pragma once

#include <cstdint>
#include <functional>

#include <tsl/robin_set.h>

#include "bnsl/cache.hpp"
#include "bnsl/tunables.hpp"
#include "pool/dag_pool.hpp"

namespace bnsl {

struct NeighbourCompletion {
  std::uint64_t expanded = 0;   // DAGs whose neighbourhood was walked
  std::uint64_t offered = 0;    // acyclic neighbours within the threshold offered to the pool
  std::uint64_t admitted = 0;   // ... that the pool admitted (new to it)
  std::uint64_t reversals = 0;  // admitted ones that reverse an arc (the others change a family)
  std::uint64_t rises = 0;      // admitted ones better than every DAG before (walked next)
  std::uint64_t climbed = 0;    // family changes and reversals of the best's climb first
  std::uint64_t members = 0;    // other members of walked classes expanded (the member pass)
  std::uint64_t pairs = 0;      // admitted ones that change two families to break a cycle
  bool stopped = false;         // should_stop ended it
  bool queue_done = false;      // every queued DAG was expanded once (the passes after began)
};

// What earlier walks over the same pool expanded: DAGs whose neighbourhood was walked, and
// classes whose other members were (by their pooled DAG's hash). A later walk skips them (the
// threshold only rises, so their neighbours within it were offered then) and goes on from
// where the earlier one stopped.
struct WalkMemory {
  tsl::robin_set<std::uint64_t> expanded;
  tsl::robin_set<std::uint64_t> classes;
  tsl::robin_set<std::uint64_t> paired;  // DAGs walked by the pair pass
};

struct WalkOptions {
  std::size_t max_expanded = 0;  // DAGs queued at most (the pooled ones included)
  bool climb = true;             // the best climbs first; a new best is walked next
  bool members = true;           // the member pass
  // Members of one class it expands at most, the first included (search.walk_class_members).
  std::size_t max_members = SearchTunables{}.walk_class_members;
  bool pairs = true;             // the pair pass
  WalkMemory* memory = nullptr;  // what earlier walks did, updated
};

// Breadth first from the pooled DAGs (best first): for each DAG G and variable v, every cache
// entry of v that keeps G within the pool's threshold and G acyclic replaces v's family, and
// every arc of G not covered is reversed when the cache holds both new families and G stays
// acyclic; each such DAG is offered once, and the admitted ones are expanded in turn (at most
// max_expanded DAGs queued in all, the pooled ones included). With `climb`, the best first
// climbs by single-family changes (offered where it ends, and expanded first), and a
// neighbour better than every DAG before is expanded next (and always). Once every DAG queued
// is expanded:
// - the member pass: the other members of their classes are expanded, up to max_members per class
//   (those whose families are all in the cache), so a class one family away from a member
//   other than the one pooled is reached too;
// - then the pair pass: each queued DAG again, by a change of one family that scores above
//   its own but closes a cycle, with a change of a new parent's family that breaks it, the
//   two within the threshold together.
// What these admit is queued and walked in turn. should_stop is polled at every DAG expanded,
// every DAG admitted and every 4,096 offers.
NeighbourCompletion complete_neighbours(const ScoreCache& cache, DagPool& pool,
                                        const std::function<bool()>& should_stop,
                                        const WalkOptions& options);

}  // namespace bnsl
