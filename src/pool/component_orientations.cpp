// One chain component's orientations: the exact recursion and the sampler.
//
// The DAGs of a class orient each chain component C of its CPDAG (a connected chordal graph)
// independently, as an AMO: an acyclic orientation without v-structures. An AMO of a connected
// chordal graph has exactly one source, so the AMOs of C split by their source r. Orienting
// r's edges outwards and closing under Meek's rules 1-3 forces some arcs and leaves undirected
// pieces, each connected and chordal, which the AMOs with source r orient independently
// (He, Jia & Yu, "Counting and exploring sizes of Markov equivalence classes", JMLR 2015).
// Hence, with #AMO from Clique-Picking (mec_size.cpp),
//   #AMO(C) = sum over r of #AMO_r(C),  #AMO_r(C) = product over pieces H of #AMO(H),
// and for an edge u - v of C
//   P_C(u -> v) = sum over r of #AMO_r(C) / #AMO(C) * (1 if r's closure forces u -> v,
//                 0 if it forces v -> u, P_H(u -> v) if the edge lies in its piece H).
// The recursion is memoized by vertex set; the pieces shrink at every level. A vertex set
// beyond max_subproblems throws OverBudget, and the caller draws AMOs uniformly by the same
// split instead: r with probability #AMO_r / #AMO, then an AMO of each piece. With
// constraints, the same split restricted to the roots whose forced arcs are all allowed counts
// the allowed AMOs, and draws them by sequential importance sampling (sample_allowed()).
#include "pool/component_orientations.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "pool/mec_size.hpp"
#include "pool/rooted_split.hpp"

namespace bnsl::orient {

Graph induced(const Graph& g, const std::vector<int>& s) {
  Graph h(s.size());
  for (std::size_t i = 0; i < s.size(); ++i)
    for (int w : g[s[i]]) {
      auto it = std::lower_bound(s.begin(), s.end(), w);
      if (it != s.end() && *it == w) h[i].push_back(static_cast<int>(it - s.begin()));
    }
  return h;
}

const Fractions& ComponentOrientations::exact(const Key& s) {
  if (auto it = fractions_.find(s); it != fractions_.end()) return it->second;
  check_budget();
  Fractions f;
  const Split& sp = split(s);
  for (std::size_t r = 0; r < s.size(); ++r) add_rooted(s, r, sp.weight[r], f);
  return fractions_.emplace(s, std::move(f)).first->second;
}

Fractions ComponentOrientations::rooted(const Key& s, std::size_t r) {
  Fractions f;
  add_rooted(s, r, 1.0, f);
  return f;
}

BigUint ComponentOrientations::rooted_count(const Key& s, std::size_t r) {
  BigUint c(1);
  for (const Key& piece : split(s).pieces[r]) c *= count(piece);
  return c;
}

const BigUint& ComponentOrientations::count(const Key& s) {
  if (auto it = counts_.find(s); it != counts_.end()) return it->second;
  return counts_.emplace(s, count_amos(induced(g_, s))).first->second;
}

bool ComponentOrientations::unconstrained(const Key& s) const {
  if (!allowed_) return true;
  for (int a : s)
    for (int b : g_[static_cast<std::size_t>(a)])
      if (a < b && std::binary_search(s.begin(), s.end(), b) &&
          (!(*allowed_)(a, b) || !(*allowed_)(b, a)))
        return false;
  return true;
}

bool ComponentOrientations::allowed(const Arcs& arcs) const {
  return !allowed_ || std::all_of(arcs.begin(), arcs.end(),
                                  [&](const auto& a) { return (*allowed_)(a.first, a.second); });
}

const std::vector<BigUint>& ComponentOrientations::allowed_rooted_counts(const Key& s) {
  if (auto it = allowed_counts_.find(s); it != allowed_counts_.end()) return it->second;
  check_budget();
  std::vector<BigUint> counts(s.size());
  for (std::size_t r = 0; r < s.size(); ++r) {
    const Split& sp = split(s);  // (a reference into splits_, stable as it grows)
    if (!allowed(sp.arcs[r])) continue;
    BigUint c(1);
    for (const Key& piece : sp.pieces[r]) {
      c *= allowed_count(piece);
      if (c.is_zero()) break;
    }
    counts[r] = std::move(c);
  }
  return allowed_counts_.emplace(s, std::move(counts)).first->second;
}

BigUint ComponentOrientations::allowed_count(const Key& s) {
  if (unconstrained(s)) return count(s);
  BigUint c;
  for (const BigUint& x : allowed_rooted_counts(s)) c += x;
  return c;
}

const Fractions& ComponentOrientations::allowed_exact(const Key& s) {
  if (unconstrained(s)) return exact(s);
  if (auto it = allowed_fractions_.find(s); it != allowed_fractions_.end()) return it->second;
  const std::vector<BigUint>& rooted = allowed_rooted_counts(s);
  const BigUint total = allowed_count(s);
  Fractions f = zero_fractions(s);
  if (!total.is_zero()) {
    const double log10_total = total.log10();
    for (std::size_t r = 0; r < s.size(); ++r)
      if (!rooted[r].is_zero())
        add_allowed_rooted(s, r, std::pow(10.0, rooted[r].log10() - log10_total), f);
  }
  return allowed_fractions_.emplace(s, std::move(f)).first->second;
}

Fractions ComponentOrientations::allowed_rooted(const Key& s, std::size_t r) {
  Fractions f = zero_fractions(s);
  if (unconstrained(s))
    add_rooted(s, r, 1.0, f);
  else if (!allowed_rooted_counts(s)[r].is_zero())
    add_allowed_rooted(s, r, 1.0, f);
  return f;
}

BigUint ComponentOrientations::allowed_rooted_count(const Key& s, std::size_t r) {
  return unconstrained(s) ? rooted_count(s, r) : allowed_rooted_counts(s)[r];
}

void ComponentOrientations::sample(const Key& s, std::mt19937_64& rng,
                                   std::vector<std::pair<int, int>>& arcs) {
  const Split& sp = split(s);
  double u = std::uniform_real_distribution<double>(0, 1)(rng);
  std::size_t r = 0;
  while (r + 1 < s.size() && u >= sp.weight[r]) u -= sp.weight[r++];
  sample_rooted(s, r, rng, arcs);
}

double ComponentOrientations::sample_allowed(const Key& s, std::mt19937_64& rng, Arcs& arcs) {
  const Split& sp = split(s);
  double mass = 0;
  for (std::size_t r = 0; r < s.size(); ++r)
    if (sp.ok[r]) mass += sp.weight[r];
  if (!(mass > 0)) return -std::numeric_limits<double>::infinity();
  double u = std::uniform_real_distribution<double>(0, mass)(rng);
  std::size_t pick = 0;
  for (std::size_t r = 0; r < s.size(); ++r) {
    if (!sp.ok[r]) continue;
    pick = r;
    if (u < sp.weight[r]) break;
    u -= sp.weight[r];
  }
  arcs.insert(arcs.end(), sp.arcs[pick].begin(), sp.arcs[pick].end());
  double log_weight = std::log(mass);
  for (const Key& piece : sp.pieces[pick]) {
    log_weight += sample_allowed(piece, rng, arcs);
    if (std::isinf(log_weight)) break;
  }
  return log_weight;
}

void ComponentOrientations::sample_rooted(const Key& s, std::size_t r, std::mt19937_64& rng,
                                          std::vector<std::pair<int, int>>& arcs) {
  const Split& sp = split(s);
  arcs.insert(arcs.end(), sp.arcs[r].begin(), sp.arcs[r].end());
  for (const Key& piece : sp.pieces[r]) sample(piece, rng, arcs);
}

void ComponentOrientations::check_budget() const {
  if (fractions_.size() + allowed_counts_.size() >= max_subproblems_) throw OverBudget();
}

Fractions ComponentOrientations::zero_fractions(const Key& s) const {
  Fractions f;
  for (int a : s)
    for (int b : g_[static_cast<std::size_t>(a)])
      if (a < b && std::binary_search(s.begin(), s.end(), b)) f[{a, b}] = 0;
  return f;
}

void ComponentOrientations::add_allowed_rooted(const Key& s, std::size_t r, double w,
                                               Fractions& f) {
  const Split& sp = split(s);
  for (const auto& [a, b] : sp.arcs[r])
    if (a < b) f[{a, b}] += w;
  for (const Key& piece : sp.pieces[r])
    for (const auto& [edge, p] : allowed_exact(piece)) f[edge] += w * p;
}

void ComponentOrientations::add_rooted(const Key& s, std::size_t r, double w, Fractions& f) {
  const Split& sp = split(s);
  for (const auto& [a, b] : sp.arcs[r])
    if (a < b)
      f[{a, b}] += w;
    else
      f[{b, a}] += 0;
  for (const Key& piece : sp.pieces[r])
    for (const auto& [edge, p] : exact(piece)) f[edge] += w * p;
}

const ComponentOrientations::Split& ComponentOrientations::split(const Key& s) {
  if (auto it = splits_.find(s); it != splits_.end()) return it->second;
  const Graph h = induced(g_, s);
  const double total = count(s).log10();
  Split sp;
  for (std::size_t r = 0; r < s.size(); ++r) {
    const RootedSplit rs = rooted_split(h, static_cast<int>(r));
    std::vector<std::pair<int, int>> arcs;
    for (const auto& [a, b] : rs.arcs) arcs.emplace_back(s[a], s[b]);
    std::vector<Key> pieces;
    double log10_count = 0;
    for (const auto& p : rs.pieces) {
      Key piece;
      for (int i : p) piece.push_back(s[i]);
      log10_count += count(piece).log10();
      pieces.push_back(std::move(piece));
    }
    sp.weight.push_back(std::pow(10.0, log10_count - total));
    sp.ok.push_back(allowed(arcs));
    sp.arcs.push_back(std::move(arcs));
    sp.pieces.push_back(std::move(pieces));
  }
  return splits_.emplace(s, std::move(sp)).first->second;
}

}  // namespace bnsl::orient
