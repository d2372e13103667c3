// Conversion of a score cache into per-variable bitmask family lists sorted best first, and the
// small graph helpers the exact methods share (score of a choice, cycle detection, reporting).
#include "exact/families.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <string>

#include "bnsl/error.hpp"
#include "exact/imset.hpp"

namespace bnsl::exact {

void FamilyTable::set_vars(int vars) {
  n = vars;
  masks.assign(static_cast<std::size_t>(vars), {});
  scores.assign(static_cast<std::size_t>(vars), {});
  entry.assign(static_cast<std::size_t>(vars), {});
}

std::size_t FamilyTable::total() const {
  std::size_t t = 0;
  for (const auto& m : masks) t += m.size();
  return t;
}

double FamilyTable::score(const std::vector<std::uint32_t>& choice) const {
  double s = 0;
  for (int v = 0; v < n; ++v) s += scores[v][choice[v]];
  return s;
}

ParentSets FamilyTable::parents(const std::vector<std::uint32_t>& choice) const {
  ParentSets out(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v)
    for (int u = 0; u < n; ++u)
      if (masks[v][choice[v]] >> u & 1) out[v].push_back(u);
  return out;
}

namespace {

void add_variable(const VarCache& vc, int v, int n, FamilyTable& fam) {
  std::vector<std::uint32_t> order(vc.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return vc.score(a) > vc.score(b); });
  for (std::uint32_t i : order) {
    Mask m = 0;
    for (int p : vc.parents(i)) {
      if (p < 0 || p >= n || p == v)
        throw InputError("score cache: variable " + std::to_string(v) + " has parent " +
                         std::to_string(p) + " (must be another variable in 0.." +
                         std::to_string(n - 1) + ")");
      m |= Mask{1} << p;
    }
    fam.masks[v].push_back(m);
    fam.scores[v].push_back(vc.score(i));
    fam.entry[v].push_back(i);
  }
}

}  // namespace

FamilyTable make_family_table(const ScoreCache& cache, int max_vars) {
  const int n = static_cast<int>(cache.n_vars());
  if (n > max_vars)
    throw InputError("exact mode handles at most " + std::to_string(max_vars) +
                     " variables with this method; the cache has " + std::to_string(n));
  FamilyTable fam;
  fam.set_vars(n);
  for (int v = 0; v < n; ++v) {
    if (cache.var(v).empty())
      throw InputError("score cache: variable " + std::to_string(v) +
                       " has no candidate parent sets, so no network exists");
    add_variable(cache.var(v), v, n, fam);
  }
  return fam;
}

FamilyTable select_families(const FamilyTable& fam,
                            const std::function<bool(int, std::size_t)>& keep,
                            std::vector<std::vector<std::uint32_t>>& original) {
  FamilyTable out;
  out.set_vars(fam.n);
  original.assign(static_cast<std::size_t>(fam.n), {});
  for (int v = 0; v < fam.n; ++v)
    for (std::size_t i = 0; i < fam.size(v); ++i)
      if (keep(v, i)) {
        out.masks[v].push_back(fam.masks[v][i]);
        out.scores[v].push_back(fam.scores[v][i]);
        out.entry[v].push_back(fam.entry[v][i]);
        original[v].push_back(static_cast<std::uint32_t>(i));
      }
  return out;
}

// Best network consistent with the order 0, 1, ..., n-1: a valid answer when an exact method
// was stopped before finding any network. Empty if some variable has no family there.
std::vector<std::uint32_t> order_network(const FamilyTable& fam) {
  std::vector<std::uint32_t> choice(static_cast<std::size_t>(fam.n));
  for (int v = 0; v < fam.n; ++v) {
    const Mask before = (Mask{1} << v) - 1;
    std::size_t i = 0;
    while (i < fam.size(v) && (fam.masks[v][i] & ~before) != 0) ++i;
    if (i == fam.size(v)) return {};
    choice[v] = static_cast<std::uint32_t>(i);
  }
  return choice;
}

Mask find_cycle(const FamilyTable& fam, const std::vector<std::uint32_t>& choice) {
  // Repeatedly remove nodes all of whose parents are removed; the rest contains a cycle.
  const int n = fam.n;
  Mask done = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (int v = 0; v < n; ++v)
      if (!(done >> v & 1) && (fam.masks[v][choice[v]] & ~done) == 0) {
        done |= Mask{1} << v;
        progress = true;
      }
  }
  if (n == kMaxVars ? done == ~Mask{0} : done == (Mask{1} << n) - 1) return 0;
  // Walk parent links inside the remaining nodes until a node repeats: that closes a cycle.
  int v = std::countr_zero(~done);
  std::vector<int> seen_at(static_cast<std::size_t>(n), -1);
  std::vector<int> path;
  while (seen_at[v] < 0) {
    seen_at[v] = static_cast<int>(path.size());
    path.push_back(v);
    v = std::countr_zero(fam.masks[v][choice[v]] & ~done);  // a remaining parent exists
  }
  Mask cycle = 0;
  for (std::size_t k = static_cast<std::size_t>(seen_at[v]); k < path.size(); ++k)
    cycle |= Mask{1} << path[k];
  return cycle;
}

std::vector<PoolDag> to_pool(const FamilyTable& fam,
                             std::vector<std::vector<std::uint32_t>> choices) {
  std::vector<std::pair<double, std::size_t>> order;
  order.reserve(choices.size());
  for (std::size_t k = 0; k < choices.size(); ++k) order.emplace_back(fam.score(choices[k]), k);
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first > b.first;
    return choices[a.second] < choices[b.second];
  });
  std::vector<PoolDag> out;
  out.reserve(order.size());
  for (const auto& [s, k] : order) out.push_back(PoolDag{s, fam.parents(choices[k]), -1});
  return out;
}

void keep_optimum(const FamilyTable& fam, std::vector<std::vector<std::uint32_t>>& dags,
                  const std::vector<std::uint32_t>& best, std::size_t max_solutions, bool classes) {
  if (std::find(dags.begin(), dags.end(), best) != dags.end()) return;
  if (classes) {
    const ImsetKey key = imset_key(fam, best);
    for (const auto& d : dags)
      if (imset_key(fam, d) == key) return;
  }
  if (!dags.empty() && dags.size() >= max_solutions) {  // the worst leaves
    auto worst = dags.begin();
    double worst_score = fam.score(*worst);
    for (auto it = dags.begin(); it != dags.end(); ++it)
      if (const double s = fam.score(*it); s < worst_score) worst = it, worst_score = s;
    dags.erase(worst);
  }
  dags.push_back(best);
}

}  // namespace bnsl::exact
