// The K best networks (or classes) of a cache by listings within a widening epsilon; see
// k_best.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "bnsl/epsilon.hpp"
#include "bnsl/exact.hpp"
#include "bnsl/report.hpp"
#include "bnsl/stop.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

using Choices = std::vector<std::vector<std::uint32_t>>;  // DAGs as family indices

// One listing of every DAG within eps of OPT: fills stats' opt, bound, epsilon, optimal,
// complete (every such DAG listed) and truncated (max_solutions reached).
using ListFn = std::function<Choices(const Epsilon& eps)>;

// Where the K best end in a list sorted best first that holds every DAG within some epsilon:
// the first `dags` DAGs are the K best units (DAGs, or classes when class_ids gives each
// DAG's class) and every unit tied with the K-th; `units` of them. With fewer than K units
// in the list, all of it.
struct KBestCut {
  std::size_t dags = 0;
  std::size_t units = 0;
};
KBestCut k_best_cut(const std::vector<PoolDag>& sorted, const std::vector<int>& class_ids,
                    std::size_t k);

// The K best of k_best (k > 0), best first, by rounds of `list` (the first at
// tune.k_best_first_epsilon, at most tune.k_best_rounds); stats as list leaves them, with
// epsilon = OPT minus the last listed score and the k-best counters.
std::vector<PoolDag> list_k_best(const FamilyTable& fam, const KBest& k_best, const ListFn& list,
                                 int threads, ExactStats& stats, const ExactTunables& tune = {});

}  // namespace bnsl::exact
