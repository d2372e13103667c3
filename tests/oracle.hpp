// Test oracles, written independently of bnsl's scoring, exploration and pruning code.
//
//   bnsl::Dataset d = oracle::random_dataset(200, {2, 3, 4}, seed);
//   double s = oracle::score(d, 0, {1, 2}, {bnsl::ScoreKind::bdeu, 1.0});
//   oracle::Families full = oracle::full_table(d, params, max_parents);
//   oracle::OrderResult r = oracle::brute_force_orders(full);   // r.opt, r.best_with[v][mask]
//
// Counts n_jk are taken row by row through Dataset::code(v, i) and turned into BIC and BDeu by
// the formulas of docs/design.md, "Scores" (natural log): nothing here calls LocalScorer or
// explore.
//
// Brute force over DAGs (n <= 6). For a fixed variable order, the best network consistent with
// it lets every node u take its best family among subsets of its predecessors pred(u); every
// DAG is consistent with some order, so OPT = max over orders of sum_u best_u(pred(u)), and the
// best network containing family (v, P) scores
//   best_with(v, P) = max over orders with P in pred(v) of s(v, P) + sum_{u != v} best_u(pred(u)).
// A family can appear in a DAG within eps of OPT iff best_with(v, P) >= OPT - eps.
// brute_force_dags() enumerates all parent-set assignments literally (n <= 4) to check this.
//
// Convention shared with bnsl's explorers: a variable with a single observed state (arity 1)
// is never a candidate parent (adding it changes no score: q and every count stay the same),
// and its own family list holds only the empty set (every parent set scores 0 for it, so the
// empty set represents them all). full_table() applies this convention.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bnsl/cache.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/score.hpp"     // only for ScoreKind / ScoreParams (plain data)
#include "score/compare.hpp"  // the project's score tolerance

namespace oracle {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

// |a - b| <= tol * max(1, |a|, |b|).
inline bool close_rel(double a, double b, double tol = 1e-9) {
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= tol * std::max({1.0, std::fabs(a), std::fabs(b)});
}

// ---------------------------------------------------------------------------------------------
// Counting and scores

// Counts of a family (child X, parents P), configurations seen in the data only.
struct Counts {
  std::size_t n_rows = 0;
  int r = 1;                                 // child arity (Dataset::arity)
  double q = 1;                              // product of parent arities, unseen configs too
  std::vector<std::vector<long long>> n_jk;  // one row per SEEN parent configuration j
};

inline long long n_j(const std::vector<long long>& row) {
  return std::accumulate(row.begin(), row.end(), 0LL);
}

inline Counts count(const bnsl::Dataset& d, int child, const std::vector<int>& parents) {
  Counts c;
  c.n_rows = d.n_rows();
  c.r = d.arity(child);
  for (int p : parents) c.q *= d.arity(p);
  if (c.q * c.r <= double(1 << 22)) {
    // Dense table over all q configurations (mixed radix, first parent most significant).
    std::vector<long long> table(static_cast<std::size_t>(c.q) * c.r, 0);
    for (std::size_t i = 0; i < d.n_rows(); ++i) {
      std::size_t j = 0;
      for (int p : parents) j = j * d.arity(p) + d.code(p, i);
      ++table[j * c.r + d.code(child, i)];
    }
    for (std::size_t j = 0; j < static_cast<std::size_t>(c.q); ++j) {
      std::vector<long long> row(table.begin() + j * c.r, table.begin() + (j + 1) * c.r);
      if (n_j(row) > 0) c.n_jk.push_back(std::move(row));
    }
    return c;
  }
  // Sparse: key is the tuple of parent codes (any q, even beyond 64 bits).
  std::map<std::vector<int>, std::vector<long long>> table;
  std::vector<int> key(parents.size());
  for (std::size_t i = 0; i < d.n_rows(); ++i) {
    for (std::size_t t = 0; t < parents.size(); ++t) key[t] = d.code(parents[t], i);
    auto& row = table[key];
    if (row.empty()) row.assign(c.r, 0);
    ++row[d.code(child, i)];
  }
  for (auto& [k, row] : table) c.n_jk.push_back(row);
  return c;
}

// sum_jk n_jk ln(n_jk / n_j)
inline double log_likelihood(const Counts& c) {
  double ll = 0;
  for (const auto& row : c.n_jk) {
    const double nj = static_cast<double>(n_j(row));
    for (long long v : row)
      if (v > 0) ll += static_cast<double>(v) * std::log(static_cast<double>(v) / nj);
  }
  return ll;
}

// (ln N / 2)(r - 1) q
inline double bic_penalty(const Counts& c) {
  return std::log(static_cast<double>(c.n_rows)) / 2.0 * (c.r - 1) * c.q;
}

inline double bic(const Counts& c) {
  return log_likelihood(c) - bic_penalty(c);
}

// sum_j [lgG(a/q) - lgG(a/q + n_j)] + sum_jk [lgG(a/(q r) + n_jk) - lgG(a/(q r))], seen j only.
inline double bdeu(const Counts& c, double ess) {
  const double aj = ess / c.q;
  const double ajk = ess / (c.q * c.r);
  double s = 0;
  for (const auto& row : c.n_jk) {
    s += std::lgamma(aj) - std::lgamma(aj + static_cast<double>(n_j(row)));
    for (long long v : row)
      if (v > 0) s += std::lgamma(ajk + static_cast<double>(v)) - std::lgamma(ajk);
  }
  return s;
}

// H(P) in nats from the parent configuration counts.
inline double entropy_parents(const Counts& c) {
  const double n = static_cast<double>(c.n_rows);
  double h = 0;
  for (const auto& row : c.n_jk) {
    const double p = static_cast<double>(n_j(row)) / n;
    h -= p * std::log(p);
  }
  return h;
}

inline double score(const Counts& c, const bnsl::ScoreParams& params) {
  switch (params.kind) {
    case bnsl::ScoreKind::bic:
      return bic(c);
    case bnsl::ScoreKind::bdeu:
      return bdeu(c, params.ess);
    case bnsl::ScoreKind::custom:
      break;
  }
  throw std::invalid_argument("oracle::score: a custom score needs its own formula");
}

inline double score(const bnsl::Dataset& d, int child, const std::vector<int>& parents,
                    const bnsl::ScoreParams& params) {
  return score(count(d, child, parents), params);
}

// ---------------------------------------------------------------------------------------------
// Random data

// Columns of codes; column v > 0 depends on 1..max_deps earlier columns through a random table,
// with each value replaced by a uniform one with probability `noise`. Codes are then renumbered
// in order of first appearance, so every code 0..arity-1 occurs (arity = distinct values).
struct RandomColumns {
  std::vector<std::vector<int>> columns;
  std::vector<int> arities;  // distinct values actually present (may be below the request)
};

inline RandomColumns random_columns(std::size_t n_rows, const std::vector<int>& arities,
                                    std::uint64_t seed, double noise = 0.25, int max_deps = 2) {
  std::mt19937_64 rng(seed);
  const std::size_t n = arities.size();
  RandomColumns out;
  out.columns.assign(n, std::vector<int>(n_rows));
  for (std::size_t v = 0; v < n; ++v) {
    const int r = arities[v];
    // Pick up to max_deps earlier columns.
    std::vector<int> earlier(v);
    std::iota(earlier.begin(), earlier.end(), 0);
    std::shuffle(earlier.begin(), earlier.end(), rng);
    const std::size_t most = std::min<std::size_t>(max_deps, v);
    const int k = static_cast<int>(
        std::uniform_int_distribution<std::size_t>(std::min<std::size_t>(1, most), most)(rng));
    earlier.resize(k);
    std::size_t q = 1;
    for (int p : earlier) q *= static_cast<std::size_t>(arities[p]);
    std::vector<int> table(q);
    for (auto& t : table) t = std::uniform_int_distribution<int>(0, r - 1)(rng);
    std::uniform_real_distribution<double> unit(0, 1);
    for (std::size_t i = 0; i < n_rows; ++i) {
      std::size_t j = 0;
      for (int p : earlier) j = j * arities[p] + out.columns[p][i];
      int x = table[j];
      if (unit(rng) < noise) x = std::uniform_int_distribution<int>(0, r - 1)(rng);
      out.columns[v][i] = x;
    }
  }
  // Renumber by first appearance (after generation, so the tables above use raw codes).
  out.arities.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<int> map(arities[v], -1);
    int next = 0;
    for (int& x : out.columns[v]) {
      if (map[x] < 0) map[x] = next++;
      x = map[x];
    }
    out.arities[v] = std::max(next, 1);
  }
  return out;
}

inline bnsl::Dataset random_dataset(std::size_t n_rows, const std::vector<int>& arities,
                                    std::uint64_t seed, double noise = 0.25, int max_deps = 2) {
  RandomColumns c = random_columns(n_rows, arities, seed, noise, max_deps);
  return bnsl::Dataset::from_codes(c.columns, c.arities);
}

// ---------------------------------------------------------------------------------------------
// Family tables and brute force over DAGs (parent sets as bitmasks over <= 20 variables)

using Mask = std::uint32_t;

inline Mask to_mask(const std::vector<int>& parents) {
  Mask m = 0;
  for (int p : parents) m |= Mask{1} << p;
  return m;
}

inline std::vector<int> from_mask(Mask m) {
  std::vector<int> out;
  for (int i = 0; m != 0; ++i, m >>= 1)
    if (m & 1) out.push_back(i);
  return out;
}

inline std::string mask_str(Mask m) {
  std::string s = "{";
  for (int p : from_mask(m)) {
    if (s.size() > 1) s += ',';
    s += std::to_string(p);
  }
  return s + "}";
}

// Per variable, its candidate families (parent mask, local score).
using Families = std::vector<std::vector<std::pair<Mask, double>>>;

// Every parent set of size <= max_parents (< 0: any size), scored by the oracle; arity-1
// variables are never parents and have only the empty set (see the convention above).
// score_of(counts) gives a family's score (e.g. a test's own formula for a custom score).
template <class ScoreOf>
inline Families full_table_by(const bnsl::Dataset& d, ScoreOf score_of, int max_parents) {
  const int n = static_cast<int>(d.n_vars());
  if (n > 20) throw std::invalid_argument("oracle::full_table: too many variables");
  Mask usable = 0;
  for (int u = 0; u < n; ++u)
    if (d.arity(u) > 1) usable |= Mask{1} << u;
  Families fam(n);
  for (int v = 0; v < n; ++v) {
    if (d.arity(v) <= 1) {
      fam[v].emplace_back(0, score_of(count(d, v, {})));
      continue;
    }
    const Mask cand = usable & ~(Mask{1} << v);
    for (Mask m = 0; m < (Mask{1} << n); ++m) {
      if ((m & ~cand) != 0) continue;
      if (max_parents >= 0 && std::popcount(m) > max_parents) continue;
      fam[v].emplace_back(m, score_of(count(d, v, from_mask(m))));
    }
  }
  return fam;
}

inline Families full_table(const bnsl::Dataset& d, const bnsl::ScoreParams& params,
                           int max_parents) {
  return full_table_by(
      d, [&params](const Counts& c) { return score(c, params); }, max_parents);
}

struct OrderResult {
  double opt = kNegInf;                        // best network score
  std::vector<std::vector<double>> best_with;  // [v][mask]: best network with (v, mask); -inf
                                               // when mask is not a family of v
};

// Whether the graph of parent lists (parents[v]: v's parents) is acyclic: Kahn's algorithm.
inline bool acyclic(const std::vector<std::vector<int>>& parents) {
  const std::size_t n = parents.size();
  std::vector<int> indeg(n, 0);
  std::vector<std::vector<int>> children(n);
  for (std::size_t v = 0; v < n; ++v)
    for (int p : parents[v]) {
      children[static_cast<std::size_t>(p)].push_back(static_cast<int>(v));
      ++indeg[v];
    }
  std::vector<int> ready;
  for (std::size_t v = 0; v < n; ++v)
    if (!indeg[v]) ready.push_back(static_cast<int>(v));
  std::size_t seen = 0;
  while (!ready.empty()) {
    const int v = ready.back();
    ready.pop_back();
    ++seen;
    for (int c : children[static_cast<std::size_t>(v)])
      if (--indeg[static_cast<std::size_t>(c)] == 0) ready.push_back(c);
  }
  return seen == n;
}

// Whether the DAG of `choices` (an entry of each variable of `cache`) is a local optimum of
// single-family changes: every entry of v clearly better than its chosen one has a parent
// that v reaches through the chosen arcs, so taking it would close a cycle.
inline bool no_better_acyclic_family(const bnsl::ScoreCache& cache,
                                     const std::vector<std::uint32_t>& choices) {
  const std::size_t n = choices.size();
  std::vector<std::vector<int>> children(n);
  for (std::size_t v = 0; v < n; ++v)
    for (int p : cache.var(v).parents(choices[v]))
      children[static_cast<std::size_t>(p)].push_back(static_cast<int>(v));
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<char> reach(n, 0);
    std::vector<int> stack{static_cast<int>(v)};
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      for (int c : children[static_cast<std::size_t>(x)])
        if (!reach[static_cast<std::size_t>(c)])
          reach[static_cast<std::size_t>(c)] = 1, stack.push_back(c);
    }
    const bnsl::VarCache& vc = cache.var(v);
    for (std::uint32_t e = 0; e < choices[v]; ++e) {
      if (!bnsl::clearly_greater(vc.score(e), vc.score(choices[v]))) break;
      bool cycle = false;
      for (int p : vc.parents(e)) cycle = cycle || reach[static_cast<std::size_t>(p)];
      if (!cycle) return false;
    }
  }
  return true;
}

// best_sub[v][S] = best score of a family of v whose parents lie within S.
inline std::vector<std::vector<double>> best_within(const Families& fam) {
  const int n = static_cast<int>(fam.size());
  std::vector<std::vector<double>> best(n, std::vector<double>(std::size_t{1} << n, kNegInf));
  for (int v = 0; v < n; ++v) {
    for (const auto& [m, s] : fam[v]) best[v][m] = std::max(best[v][m], s);
    for (Mask s = 0; s < (Mask{1} << n); ++s)  // subsets come before supersets
      for (int i = 0; i < n; ++i)
        if (s & (Mask{1} << i)) best[v][s] = std::max(best[v][s], best[v][s & ~(Mask{1} << i)]);
  }
  return best;
}

// The order brute force (n <= 8). Needs the empty set among every variable's families.
inline OrderResult brute_force_orders(const Families& fam) {
  const int n = static_cast<int>(fam.size());
  if (n > 8) throw std::invalid_argument("oracle::brute_force_orders: n > 8");
  const auto best = best_within(fam);
  OrderResult r;
  r.best_with.assign(n, std::vector<double>(std::size_t{1} << n, kNegInf));
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<Mask> pred(n);
  do {
    Mask seen = 0;
    double total = 0;
    for (int u : order) {
      pred[u] = seen;
      total += best[u][seen];
      seen |= Mask{1} << u;
    }
    r.opt = std::max(r.opt, total);
    for (int v = 0; v < n; ++v) {
      const double rest = total - best[v][pred[v]];
      for (const auto& [m, s] : fam[v])
        if ((m & ~pred[v]) == 0) r.best_with[v][m] = std::max(r.best_with[v][m], s + rest);
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return r;
}

inline bool acyclic(const std::vector<Mask>& parents) {
  const int n = static_cast<int>(parents.size());
  Mask done = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (int v = 0; v < n; ++v)
      if (!(done & (Mask{1} << v)) && (parents[v] & ~done) == 0) {
        done |= Mask{1} << v;
        progress = true;
      }
  }
  return done == (Mask{1} << n) - 1;
}

// Literal enumeration of every parent-set assignment; keeps the acyclic ones. Small n only.
inline OrderResult brute_force_dags(const Families& fam) {
  const int n = static_cast<int>(fam.size());
  double combos = 1;
  for (const auto& f : fam) combos *= static_cast<double>(f.size());
  if (combos > 2e6) throw std::invalid_argument("oracle::brute_force_dags: too many DAGs");
  OrderResult r;
  r.best_with.assign(n, std::vector<double>(std::size_t{1} << n, kNegInf));
  std::vector<std::size_t> pick(n, 0);
  std::vector<Mask> parents(n);
  for (;;) {
    for (int v = 0; v < n; ++v) parents[v] = fam[v][pick[v]].first;
    if (acyclic(parents)) {
      double total = 0;
      for (int v = 0; v < n; ++v) total += fam[v][pick[v]].second;
      r.opt = std::max(r.opt, total);
      for (int v = 0; v < n; ++v)
        r.best_with[v][parents[v]] = std::max(r.best_with[v][parents[v]], total);
    }
    int v = 0;
    while (v < n && ++pick[v] == fam[v].size()) pick[v++] = 0;
    if (v == n) break;
  }
  return r;
}

// Every DAG of a family table with its score, best first (literal enumeration, small n only),
// and its Markov equivalence class as skeleton and v-structures (a -> c <- b, a and b not
// adjacent; Verma & Pearl 1990): equal keys iff equivalent.
using Dag = std::vector<Mask>;  // parent mask per variable
struct Scored {
  Dag dag;
  double score;
};

inline std::vector<Scored> all_dags(const Families& fam) {
  const std::size_t n = fam.size();
  std::vector<Scored> out;
  std::vector<std::size_t> pick(n, 0);
  Dag parents(n);
  for (;;) {
    double total = 0;
    for (std::size_t v = 0; v < n; ++v) {
      parents[v] = fam[v][pick[v]].first;
      total += fam[v][pick[v]].second;
    }
    if (acyclic(parents)) out.push_back({parents, total});
    std::size_t v = 0;
    while (v < n && ++pick[v] == fam[v].size()) pick[v++] = 0;
    if (v == n) break;
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Scored& a, const Scored& b) { return a.score > b.score; });
  return out;
}

using ClassKey = std::pair<std::set<std::pair<int, int>>, std::set<std::tuple<int, int, int>>>;
inline ClassKey class_key(const Dag& g) {
  const int n = static_cast<int>(g.size());
  ClassKey key;
  const auto adjacent = [&](int a, int b) { return (g[a] >> b & 1) != 0 || (g[b] >> a & 1) != 0; };
  for (int c = 0; c < n; ++c)
    for (int a = 0; a < n; ++a) {
      if (!(g[c] >> a & 1)) continue;
      key.first.insert({std::min(a, c), std::max(a, c)});
      for (int b = a + 1; b < n; ++b)
        if ((g[c] >> b & 1) && !adjacent(a, b)) key.second.insert({a, c, b});
    }
  return key;
}

}  // namespace oracle
