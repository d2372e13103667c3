// Exact structure learning by dynamic programming over variable subsets (Silander &
// Myllymaki 2006, "A simple approach for finding the globally optimal Bayesian network
// structure", sections 3.1-3.4).
//
// Every DAG on a set S has a sink v (a node with no children in S); removing it leaves a DAG on
// S \ {v}, and v's parents can be any set within S \ {v}. Hence
//   best(S) = max over v in S of  bps_v(S \ {v}) + best(S \ {v}),   best(empty) = 0,
// where bps_v(C) is the best score of a family of v whose parents lie within C. bps_v is
// computed from the cache entries alone: seed bps_v(P) with the best entry whose parent set is
// exactly P, then bps_v(C) = max over the subsets of C, in one pass per candidate c: bps_v(C) =
// max(bps_v(C), bps_v(C \ {c})) for every C holding c. Families are kept as indices into the
// variable's best-first family list, so "max score" is "min index".
//
// Guarantee: best(V) is the optimum over all DAGs whose families are cache entries (OPT), and
// the sinks stored with each best(S) reconstruct one optimal DAG. Nothing is pruned.
//
// Cost: bps tables n 2^(n-1) 32-bit indices, best(S) 2^n doubles plus 2^n sink bytes; time
// O(n^2 2^n). With the default 6 GiB the tables fit up to 26 variables (26: 4.1 GiB).
//
// Without the tables (when they do not fit): bps_v(C) is the first of v's families, best
// first, whose parents lie within C, found by scanning the list. Only families that no better
// (earlier) family's parent set is a subset of are scanned: whenever such a family fits in C,
// the better one does too, so it is never the first. The answer is the table's (the least
// index that fits), so the DP and the enumeration are unchanged. Memory 9 bytes per subset
// (28 variables: 2.3 GiB, 29: 4.5 GiB, 30: 9 GiB); 30 is a hard cap. A scan costs the
// position of the first family that fits; a table lookup a random access into 2^(n-1) entries.
// The memory left under the budget goes to tables for the variables whose scans are longest on
// average (estimated on exact.dp_scan_samples random candidate sets each, seeded), when that
// average passes exact.dp_table_worth entries (uci/steel, BIC BF 20: 113,851 families).
//
// best(S) depends on best(S \ {v}) only: the subsets are filled layer by layer (by size), each
// layer's subsets in parallel, in chunks of consecutive subsets in numeric order (Gosper's
// hack steps from one to the next; a chunk starts at its first subset, unranked).
#include "exact/dp.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <omp.h>

#include "bnsl/error.hpp"
#include "exact/subsets.hpp"
#include "util/threads.hpp"

namespace bnsl::exact {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// Removes bit v from a set (bits above v move down by one).
inline std::uint32_t squeeze(std::uint32_t set, int v) {
  const std::uint32_t low = set & ((std::uint32_t{1} << v) - 1);
  return low | ((set >> (v + 1)) << v);
}

std::string gib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return buf;
}

constexpr std::uint64_t kChunk = 1 << 14;  // subsets per parallel task

}  // namespace

std::size_t SubsetDp::table_bytes(int n) {
  const std::size_t subsets = std::size_t{1} << n;
  const std::size_t bps = static_cast<std::size_t>(n) * (subsets / 2) * sizeof(std::uint32_t);
  return bps + scan_bytes(n);
}

std::size_t SubsetDp::scan_bytes(int n) {
  return (std::size_t{1} << n) * (sizeof(double) + sizeof(std::uint8_t));
}

std::size_t SubsetDp::bytes_needed(int n, std::size_t budget) {
  return table_bytes(n) <= budget ? table_bytes(n) : scan_bytes(n);
}

void SubsetDp::check_limits(int n, std::size_t max_bytes) {
  if (n > kDpMaxVars)
    throw InputError("--method dp handles at most " + std::to_string(kDpMaxVars) +
                     " variables; the problem has " + std::to_string(n) + " (use --method ilp)");
  const std::size_t need = bytes_needed(n, max_bytes);
  if (need > max_bytes)
    throw InputError("--method dp needs " + gib(need) + " of tables for " + std::to_string(n) +
                     " variables, more than the limit of " + gib(max_bytes) +
                     " (use --method ilp)");
}

SubsetDp::SubsetDp(const FamilyTable& fam, std::size_t max_bytes, int threads, std::size_t memory,
                   double table_worth, int scan_samples)
    : fam_(fam),
      n_(fam.n),
      threads_(resolve_threads(threads)),
      table_worth_(table_worth),
      scan_samples_(std::max(scan_samples, 1)) {
  check_limits(n_, max_bytes);
  const std::size_t budget = std::min(max_bytes, memory);
  scan_ = table_bytes(n_) > budget;
  if (scan_ && budget > scan_bytes(n_)) table_budget_ = budget - scan_bytes(n_);
}

std::size_t SubsetDp::bytes() const {
  if (!scan_) return table_bytes(n_);
  const std::size_t per_table = (std::size_t{1} << (n_ - 1)) * sizeof(std::uint32_t);
  return scan_bytes(n_) + static_cast<std::size_t>(tables_) * per_table;
}

// Scanning: tables, within table_budget_, for the variables with the longest average scans.
void SubsetDp::choose_tables() {
  const std::uint32_t others = (std::uint32_t{1} << (n_ - 1)) - 1;  // candidates, squeezed
  std::vector<std::pair<double, int>> cost(static_cast<std::size_t>(n_));
  parallel_for(n_, threads_, 1, [&](long v) {
    std::mt19937_64 rng(0x5eed0000u + static_cast<std::uint64_t>(v));  // seeded per variable
    double steps = 0;
    for (int k = 0; k < scan_samples_; ++k) {
      const auto squeezed = static_cast<std::uint32_t>(rng()) & others;
      // unsqueeze: bit v of the candidates is never set
      const std::uint32_t low = squeezed & ((std::uint32_t{1} << v) - 1);
      const std::uint32_t candidates = low | ((squeezed >> v) << (v + 1));
      steps += static_cast<double>(scan_position(static_cast<int>(v), candidates) + 1);
    }
    cost[static_cast<std::size_t>(v)] = {steps / scan_samples_, static_cast<int>(v)};
  });
  std::sort(cost.begin(), cost.end(), std::greater<>());
  const std::size_t per_table = (std::size_t{1} << (n_ - 1)) * sizeof(std::uint32_t);
  std::vector<int> chosen;
  for (const auto& [steps, v] : cost)
    if (steps > table_worth_ && (chosen.size() + 1) * per_table <= table_budget_)
      chosen.push_back(v);
  tables_ = static_cast<int>(chosen.size());
  parallel_for(static_cast<long>(chosen.size()), threads_, 1,
               [&](long k) { fill_best_family(chosen[static_cast<std::size_t>(k)]); });
}

void SubsetDp::fill_scan_list(int v) {
  auto& masks = scan_masks_[static_cast<std::size_t>(v)];
  auto& families = scan_families_[static_cast<std::size_t>(v)];
  for (std::size_t i = 0; i < fam_.size(v); ++i) {
    const auto m = static_cast<std::uint32_t>(fam_.masks[v][i]);
    bool dominated = false;
    for (const std::uint32_t better : masks)
      if ((better & ~m) == 0) {
        dominated = true;
        break;
      }
    if (dominated) continue;
    masks.push_back(m);
    families.push_back(static_cast<std::uint32_t>(i));
  }
}

void SubsetDp::fill_best_family(int v) {
  const std::uint32_t size = std::uint32_t{1} << (n_ - 1);
  std::vector<std::uint32_t>& t = best_family_[v];
  t.assign(size, kNone);
  for (std::size_t i = fam_.size(v); i-- > 0;)  // best last, so it wins
    t[squeeze(static_cast<std::uint32_t>(fam_.masks[v][i]), v)] = static_cast<std::uint32_t>(i);
  // One pass per candidate bit b: every set with b takes the min of itself and the set without
  // b. After the passes of bits 0..b, t[C] is the min over the subsets of C that differ from C
  // in those bits only; after all, over every subset (the tables the min over each C's
  // immediate subsets, in increasing order of C, gives). The passes commute: those of the low
  // bits run block by block within the cache, the others stream over the table (vectorized).
  std::uint32_t* const data = t.data();
  const auto pass = [data](std::uint32_t step, std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t base = from; base < to; base += 2 * step)
      for (std::uint32_t j = base; j < base + step; ++j)
        data[j + step] = std::min(data[j + step], data[j]);
  };
  const std::uint32_t block = std::min(size, std::uint32_t{1} << 14);  // 64 KiB
  for (std::uint32_t from = 0; from < size; from += block)
    for (std::uint32_t step = 1; step < block; step <<= 1) pass(step, from, from + block);
  for (std::uint32_t step = block; step < size; step <<= 1) pass(step, 0, size);
}

bool SubsetDp::fill_best_networks(const StopToken& stop) {
  const std::size_t subsets = std::size_t{1} << n_;
  best_.assign(subsets, kNegInf);
  sink_.assign(subsets, 0xff);
  best_[0] = 0;
  const auto fill = [this](std::uint32_t s) {
    double best = kNegInf;
    int sink = 0xff;
    for (std::uint32_t rest = s; rest != 0; rest &= rest - 1) {
      const int v = std::countr_zero(rest);
      const std::uint32_t without = s & ~(std::uint32_t{1} << v);
      if (best_[without] == kNegInf) continue;
      const std::uint32_t f = best_family(v, without);
      if (f == kNone) continue;
      const double value = fam_.scores[v][f] + best_[without];
      if (value > best) best = value, sink = v;
    }
    best_[s] = best;
    sink_[s] = static_cast<std::uint8_t>(sink);
  };
  for (int k = 1; k <= n_; ++k) {  // each layer reads the one below only
    const std::uint64_t count = binomial(n_, k);
    const auto chunks = static_cast<long>((count + kChunk - 1) / kChunk);
    parallel_for(chunks, threads_, 1, [&](long c) {
      if (stop.stop_requested()) return;
      const std::uint64_t first = static_cast<std::uint64_t>(c) * kChunk;
      const std::uint64_t end = std::min(count, first + kChunk);
      std::uint32_t s = unrank_subset(first, k);
      for (std::uint64_t r = first;;) {
        fill(s);
        if (++r == end) break;
        s = next_subset(s);
      }
    });
    if (stop.stop_requested()) return false;
  }
  return true;
}

bool SubsetDp::run(const StopToken& stop) {
  best_family_.assign(static_cast<std::size_t>(n_), {});
  if (scan_) {
    scan_masks_.assign(static_cast<std::size_t>(n_), {});
    scan_families_.assign(static_cast<std::size_t>(n_), {});
    parallel_for(n_, threads_, 1, [this](long v) { fill_scan_list(static_cast<int>(v)); });
    choose_tables();
  } else {
    tables_ = n_;
    parallel_for(n_, threads_, 1, [this](long v) { fill_best_family(static_cast<int>(v)); });
  }
  if (stop.stop_requested()) return false;
  return fill_best_networks(stop);
}

std::uint32_t SubsetDp::best_family(int v, std::uint32_t candidates) const {
  const auto& table = best_family_[static_cast<std::size_t>(v)];
  if (!table.empty()) return table[squeeze(candidates, v)];
  const std::size_t k = scan_position(v, candidates);
  const auto& families = scan_families_[static_cast<std::size_t>(v)];
  return k < families.size() ? families[k] : kNone;
}

std::size_t SubsetDp::scan_position(int v, std::uint32_t candidates) const {
  const auto& masks = scan_masks_[static_cast<std::size_t>(v)];
  std::size_t k = 0;
  while (k < masks.size() && (masks[k] & ~candidates) != 0) ++k;
  return k;
}

std::vector<std::uint32_t> SubsetDp::best_choice() const {
  std::vector<std::uint32_t> choice(static_cast<std::size_t>(n_), kNone);
  std::uint32_t s = static_cast<std::uint32_t>(best_.size() - 1);
  while (s != 0) {
    const int v = sink_[s];
    s &= ~(std::uint32_t{1} << v);
    choice[v] = best_family(v, s);
  }
  return choice;
}

}  // namespace bnsl::exact
