// Forbidden arcs and tiers (bnsl/constraints.hpp): the checks, and the files read by the
// readers of src/io/arcs.cpp.
#include "bnsl/constraints.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "bnsl/arcs.hpp"
#include "bnsl/cache.hpp"
#include "bnsl/error.hpp"

namespace bnsl {

bool Constraints::allowed(int from, int to) const {
  if (!tiers.empty()) {
    const int a = tiers[static_cast<std::size_t>(from)], b = tiers[static_cast<std::size_t>(to)];
    if (a >= 0 && b >= 0 && a > b) return false;
  }
  return !std::binary_search(forbidden.begin(), forbidden.end(), std::pair<int, int>(from, to));
}

std::optional<std::pair<int, int>> Constraints::violation(
    const std::vector<std::vector<int>>& parents) const {
  if (empty()) return std::nullopt;
  for (std::size_t v = 0; v < parents.size(); ++v)
    for (int p : parents[v])
      if (!allowed(p, static_cast<int>(v))) return std::pair<int, int>(p, static_cast<int>(v));
  return std::nullopt;
}

std::size_t Constraints::apply(ScoreCache& cache) const {
  if (empty()) return 0;
  std::size_t dropped = 0;
  for (std::size_t v = 0; v < cache.n_vars(); ++v) {
    VarCache& vc = cache.var(v);
    std::vector<bool> keep(vc.size(), true);
    bool any = false;
    for (std::size_t i = 0; i < vc.size(); ++i)
      for (int p : vc.parents(i))
        if (!allowed(p, static_cast<int>(v))) {
          keep[i] = false;
          any = true;
          ++dropped;
          break;
        }
    if (any) vc.filter(keep);
  }
  return dropped;
}

std::string Constraints::describe() const {
  if (empty()) return "none";
  std::string s;
  if (!forbidden.empty())
    s = std::to_string(forbidden.size()) + " forbidden arc" + (forbidden.size() == 1 ? "" : "s");
  if (!tiers.empty()) {
    int top = -1;
    std::size_t placed = 0;
    for (int t : tiers)
      if (t >= 0) {
        top = std::max(top, t);
        ++placed;
      }
    std::vector<char> used(static_cast<std::size_t>(top + 1), 0);
    for (int t : tiers)
      if (t >= 0) used[static_cast<std::size_t>(t)] = 1;
    const auto count = std::count(used.begin(), used.end(), 1);
    if (!s.empty()) s += ", ";
    s += std::to_string(count) + " tier" + (count == 1 ? "" : "s") + " over " +
         std::to_string(placed) + " variable" + (placed == 1 ? "" : "s");
  }
  return s;
}

std::string Constraints::fingerprint() const {
  if (empty()) return "none";
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  const std::uint64_t sizes[2] = {forbidden.size(), tiers.size()};
  XXH3_64bits_update(state, sizes, sizeof sizes);
  for (const auto& [from, to] : forbidden) {
    const std::int32_t arc[2] = {from, to};
    XXH3_64bits_update(state, arc, sizeof arc);
  }
  for (int t : tiers) {
    const std::int32_t tier = t;
    XXH3_64bits_update(state, &tier, sizeof tier);
  }
  const std::uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

Constraints read_constraints(const std::string& forbid_file, const std::string& tiers_file,
                             const std::vector<std::string>& names) {
  Constraints c;
  if (!forbid_file.empty()) {
    for (const NamedArc& a : read_arcs(forbid_file, names, false))
      c.forbidden.emplace_back(a.from, a.to);
    std::sort(c.forbidden.begin(), c.forbidden.end());
  }
  if (!tiers_file.empty()) c.tiers = read_tiers(tiers_file, names);
  return c;
}

}  // namespace bnsl
