// Required and forbidden arcs, tiers and the in-degree limit (bnsl/constraints.hpp): the checks.
// The files they come from are read by src/io/arcs.cpp.
#include "bnsl/constraints.hpp"

#include <tsl/robin_map.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "bnsl/error.hpp"

namespace bnsl {

bool Constraints::allowed(int from, int to) const {
  if (!tiers.empty()) {
    const int a = tiers[static_cast<std::size_t>(from)], b = tiers[static_cast<std::size_t>(to)];
    if (a >= 0 && b >= 0 && a > b) return false;
  }
  if (std::binary_search(required.begin(), required.end(), std::pair<int, int>(to, from)))
    return false;
  return !std::binary_search(forbidden.begin(), forbidden.end(), std::pair<int, int>(from, to));
}

std::vector<int> Constraints::required_parents(int v) const {
  std::vector<int> out;
  for (const auto& [from, to] : required)
    if (to == v) out.push_back(from);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::vector<int>> Constraints::required_by_child(std::size_t n) const {
  std::vector<std::vector<int>> out(n);
  for (const auto& [from, to] : required) out[static_cast<std::size_t>(to)].push_back(from);
  for (auto& r : out) std::sort(r.begin(), r.end());
  return out;
}

std::size_t Constraints::max_required_parents() const {
  std::vector<std::size_t> count;
  std::size_t most = 0;
  for (const auto& arc : required) {
    const auto to = static_cast<std::size_t>(arc.second);
    if (count.size() <= to) count.resize(to + 1, 0);
    most = std::max(most, ++count[to]);
  }
  return most;
}

std::optional<Constraints::Violation> Constraints::violation(
    const std::vector<std::vector<int>>& parents) const {
  if (empty()) return std::nullopt;
  for (std::size_t v = 0; v < parents.size(); ++v)
    for (int p : parents[v])
      if (!allowed(p, static_cast<int>(v))) return Violation{p, static_cast<int>(v), false};
  for (const auto& [from, to] : required) {
    const auto& ps = parents[static_cast<std::size_t>(to)];
    if (std::find(ps.begin(), ps.end(), from) == ps.end()) return Violation{from, to, true};
  }
  if (max_parents >= 0)
    for (std::size_t v = 0; v < parents.size(); ++v)
      if (parents[v].size() > static_cast<std::size_t>(max_parents))
        return Violation{parents[v].front(), static_cast<int>(v), false, true};
  return std::nullopt;
}

void Constraints::check_required_within(int limit, const std::vector<std::string>& names) const {
  if (limit < 0) return;
  const std::vector<std::vector<int>> required_of = required_by_child(names.size());
  for (std::size_t v = 0; v < names.size(); ++v)
    if (required_of[v].size() > static_cast<std::size_t>(limit))
      throw InputError("variable " + names[v] + " has " + std::to_string(required_of[v].size()) +
                       " required parents, more than the in-degree limit of " +
                       std::to_string(limit) + " (--max-parents)");
}

std::string Constraints::describe() const {
  if (empty()) return "none";
  std::string s;
  const auto arcs = [&s](std::size_t count, const char* kind) {
    if (count == 0) return;
    if (!s.empty()) s += ", ";
    s += std::to_string(count) + " " + kind + " arc" + (count == 1 ? "" : "s");
  };
  arcs(required.size(), "required");
  arcs(forbidden.size(), "forbidden");
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
  if (max_parents >= 0)
    s += (s.empty() ? "" : ", ") + std::string("at most ") + std::to_string(max_parents) +
         " parent" + (max_parents == 1 ? "" : "s") + " per variable";
  return s;
}

std::string Constraints::fingerprint() const {
  if (arcs_empty()) return "none";
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
  // Required arcs last, and only when there are some: the fingerprints of constraints without
  // them stay those that caches already record.
  if (!required.empty()) {
    const std::uint64_t count = required.size();
    XXH3_64bits_update(state, &count, sizeof count);
    for (const auto& [from, to] : required) {
      const std::int32_t arc[2] = {from, to};
      XXH3_64bits_update(state, arc, sizeof arc);
    }
  }
  const std::uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

namespace {

// Whether `to` reaches `from` through the arcs of `children`: the arc from -> to would close a
// cycle. Fills `path` with the cycle's variables from `to` to `from`.
bool reaches(const std::vector<std::vector<int>>& children, int to, int from,
             std::vector<int>& path) {
  std::vector<int> parent(children.size(), -2), stack{to};
  parent[static_cast<std::size_t>(to)] = -1;
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    if (x == from) {
      path.clear();
      for (int y = from; y != -1; y = parent[static_cast<std::size_t>(y)]) path.push_back(y);
      std::reverse(path.begin(), path.end());
      return true;
    }
    for (int c : children[static_cast<std::size_t>(x)])
      if (parent[static_cast<std::size_t>(c)] == -2) {
        parent[static_cast<std::size_t>(c)] = x;
        stack.push_back(c);
      }
  }
  return false;
}

}  // namespace

Constraints make_constraints(const std::vector<NamedArc>& required,
                             const std::vector<NamedArc>& forbidden, std::vector<int> tiers,
                             const ConstraintFiles& sources,
                             const std::vector<std::string>& names) {
  Constraints c;
  for (const NamedArc& a : forbidden) c.forbidden.emplace_back(a.from, a.to);
  std::sort(c.forbidden.begin(), c.forbidden.end());
  c.forbidden.erase(std::unique(c.forbidden.begin(), c.forbidden.end()), c.forbidden.end());
  c.tiers = std::move(tiers);
  // Each required arc is checked against the forbidden arcs, the tiers and the arcs before it
  // (a cycle); errors name its line.
  std::vector<std::vector<int>> children(names.size());
  std::vector<int> path;
  const auto name = [&](int v) { return "'" + names[static_cast<std::size_t>(v)] + "'"; };
  const std::string& file = sources.require;
  for (const NamedArc& a : required) {
    const std::string arc = name(a.from) + " -> " + name(a.to);
    for (const NamedArc& f : forbidden)
      if (f.from == a.from && f.to == a.to)
        throw InputError(file, a.line, 1,
                         "the required arc " + arc + " is forbidden by " + sources.forbid +
                             " line " + std::to_string(f.line));
    if (!c.tiers.empty()) {
      const int tf = c.tiers[static_cast<std::size_t>(a.from)];
      const int tt = c.tiers[static_cast<std::size_t>(a.to)];
      if (tf >= 0 && tt >= 0 && tf > tt)
        throw InputError(file, a.line, 1,
                         "the required arc " + arc + " goes from tier " + std::to_string(tf) +
                             " into the earlier tier " + std::to_string(tt) + " of " +
                             sources.tiers);
    }
    if (a.from == a.to) throw InputError(file, a.line, 1, "the required arc " + arc + " is a loop");
    if (std::find(children[static_cast<std::size_t>(a.from)].begin(),
                  children[static_cast<std::size_t>(a.from)].end(),
                  a.to) != children[static_cast<std::size_t>(a.from)].end())
      continue;  // listed twice
    if (reaches(children, a.to, a.from, path)) {
      std::string cycle;
      for (int v : path) cycle += name(v) + " -> ";
      throw InputError(file, a.line, 1,
                       "the required arc " + arc + " closes the cycle " + cycle + name(a.to));
    }
    children[static_cast<std::size_t>(a.from)].push_back(a.to);
    c.required.emplace_back(a.from, a.to);
  }
  std::sort(c.required.begin(), c.required.end());
  return c;
}

Constraints constraints_by_name(const NamedArcs& required, const NamedArcs& forbidden,
                                const NamedTiers& tiers, const ConstraintFiles& sources,
                                const std::vector<std::string>& names) {
  tsl::robin_map<std::string_view, int> index_of;
  for (std::size_t v = 0; v < names.size(); ++v) index_of.emplace(names[v], static_cast<int>(v));
  const auto index = [&](const std::string& name, const std::string& list) {
    const auto it = index_of.find(name);
    if (it == index_of.end()) throw InputError(list + ": unknown variable '" + name + "'");
    return it->second;
  };
  const auto arcs = [&](const NamedArcs& list, const std::string& what) {
    std::vector<NamedArc> out;
    for (const auto& [from, to] : list) {
      NamedArc a;
      a.from = index(from, what);
      a.to = index(to, what);
      a.line = out.size() + 1;
      out.push_back(a);
    }
    return out;
  };
  std::vector<int> tier_of;
  if (!tiers.empty()) tier_of.assign(names.size(), -1);
  for (const auto& [name, tier] : tiers) {
    if (tier < 0) throw InputError(sources.tiers + ": the tier of '" + name + "' must be >= 0");
    tier_of[static_cast<std::size_t>(index(name, sources.tiers))] = tier;
  }
  return make_constraints(arcs(required, sources.require), arcs(forbidden, sources.forbid),
                          std::move(tier_of), sources, names);
}

}  // namespace bnsl
