// The DAGs of a Markov equivalence class, listed from one of them.
//
//   std::vector<bnsl::ParentSets> m = bnsl::class_members(dag, 1000);   // dag first
//   m = bnsl::class_members(dag, 1000, &report.constraints);  // only those satisfying them
//
// Every DAG of a class is reached from any other by reversals of covered arcs whose
// intermediate DAGs stay in the class (Chickering 1995, theorem 2; u -> v is covered when
// parents(v) = parents(u) + {u}): the members are walked breadth first from `dag`, which comes
// first, up to `max` of them. Parent lists are sorted. No score is needed: BIC and BDeu give
// every member of a class the same score.
//
// With constraints (forbidden arcs, tiers), only the members that satisfy them are listed (the
// class of the constrained space; `dag` must satisfy them). Those need not be connected by
// reversals among themselves (the path between two may pass through a DAG holding a forbidden
// arc), so the walk still goes over the whole class and lists the compliant members it meets.
// A huge class with few compliant members would keep it walking, so it visits at most
// max(64 max, pool.member_visits) DAGs, and fewer for many variables (at most
// pool.member_families parent lists in all; bnsl/tunables.hpp); beyond that the list may miss
// compliant members.
#pragma once

#include <cstddef>
#include <vector>

#include "bnsl/report.hpp"
#include "bnsl/stop.hpp"

namespace bnsl {

// With `until`, the walk also ends at that moment (`dag` is always listed).
std::vector<ParentSets> class_members(const ParentSets& dag, std::size_t max,
                                      const Constraints* constraints = nullptr,
                                      const Clock::time_point* until = nullptr,
                                      const PoolTunables& tune = {});

// Whether the arc u -> v of dag (parent lists sorted) is covered: parents(v) = parents(u) + {u}.
bool covered_arc(const ParentSets& dag, int u, int v);

// Fills report.dags with the members of report.classes (each class's `dag` first), class by
// class in order, at most max_dags in all, each with its class's score and id, and counts them
// (count_members: a summarized report may list its members after its summary); with
// report.constraints, only the members that satisfy them, each class's walk ending once it has
// listed as many as the class holds (edge_orientations counts them). With `until`, the listing
// ends at that moment too (the first class's DAG is always listed): the cost of walking past
// members that break the constraints varies from class to class, so only a clock bounds it.
void list_members(PoolReport& report, std::size_t max_dags,
                  const Clock::time_point* until = nullptr, const PoolTunables& tune = {});

// Each class's `members` (its DAGs listed in report.dags) and `first` (the index of the first),
// from the listed DAGs' class ids.
void count_members(PoolReport& report);

}  // namespace bnsl
