// See bdeu_atoms.hpp. The atoms are counted once per child, like the LL ceiling (the same
// index of every other variable); the bound is one pass over the visited rows per set, run
// only for children with mixed atoms (elsewhere it is rule 6's bound).
#include "prune/bdeu_atoms.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "prune/ll_ceiling.hpp"
#include "score/compare.hpp"

namespace bnsl::prune {

BdeuAtoms bdeu_atoms(Counter& counter, int child, std::size_t max_vars) {
  BdeuAtoms out;
  const Dataset& rows = counter.rows();
  const std::size_t n = counter.data().n_vars();
  const int r = counter.data().arity(child);
  out.r_child = r;
  if (n > max_vars || r < 2) return out;
  out.x.resize(counter.rows_counted());
  for (std::size_t i = 0; i < out.x.size(); ++i)
    out.x[i] = static_cast<std::uint16_t>(rows.code(static_cast<std::size_t>(child), i));
  std::vector<int> others;
  for (std::size_t v = 0; v < n; ++v)
    if (static_cast<int>(v) != child) others.push_back(static_cast<int>(v));
  ConfigIndex all;
  counter.build(others, all);
  std::vector<std::int64_t> slot(all.n_configs, -1);  // configuration of U -> atom
  std::vector<BdeuAtoms::Atom> atoms;
  for (std::size_t i = 0; i < out.x.size(); ++i) {
    std::int64_t& s = slot[all.idx[i]];
    if (s < 0) {
      s = static_cast<std::int64_t>(atoms.size());
      atoms.push_back({static_cast<std::uint32_t>(i), 0.0,
                       std::vector<std::uint32_t>(static_cast<std::size_t>(r), 0)});
    }
    atoms[static_cast<std::size_t>(s)].counts[out.x[i]] += counter.weight(i);
  }
  for (auto& atom : atoms) {
    double total = 0;
    int states = 0;
    for (std::uint32_t c : atom.counts)
      if (c > 0) {
        total += c;
        ++states;
      }
    if (states < 2) continue;
    for (std::uint32_t c : atom.counts)
      if (c > 0) atom.ll += c * std::log(c / total);
    out.mixed.push_back(std::move(atom));
  }
  if (out.mixed.empty()) out.x = {};  // no use: rule 8 is rule 6 for this child
  return out;
}

double dirichlet_sup(const std::vector<std::uint32_t>& counts, int r, double a_hi) {
  std::vector<std::uint32_t> order(counts);
  std::sort(order.begin(), order.end(), std::greater<>());
  double sum = 0, t = 0;
  for (std::uint32_t n_k : order)
    for (std::uint32_t m = 0; m < n_k; ++m, ++t) {
      // Row t of the sequence, the (m+1)-th of its state: (a/r + m) / (a + t). Its derivative
      // in a has the sign of t/r - m: increasing (sup at a_hi) or not (sup as a -> 0, m/t).
      if (t == 0)
        sum -= std::log(static_cast<double>(r));  // 1/r whatever a
      else if (t > r * static_cast<double>(m))
        sum += std::log((a_hi / r + m) / (a_hi + t));
      else
        sum += std::log(m / t);
    }
  return sum;
}

double bdeu_superset_bound(const BdeuAtoms& atoms, const ConfigIndex& index, double q, double ess,
                           BdeuBoundScratch& scratch) {
  const int r = atoms.r_child;
  const std::size_t configs = index.n_configs;
  scratch.seen.assign(configs * static_cast<std::size_t>(r), 0);
  for (std::size_t i = 0; i < atoms.x.size(); ++i)
    scratch.seen[static_cast<std::size_t>(index.idx[i]) * r + atoms.x[i]] = 1;
  scratch.a.assign(configs, 0.0);
  scratch.delta.assign(configs, 0.0);
  const double a_hi = ess / (2 * q);  // every proper superset has q' >= 2q
  for (const auto& atom : atoms.mixed) {
    const std::uint32_t j = index.idx[atom.row];
    scratch.a[j] += atom.ll;
    const double d = std::min(0.0, dirichlet_sup(atom.counts, r, a_hi) - atom.ll);
    scratch.delta[j] = std::min(scratch.delta[j], d);
  }
  const double ln_r = std::log(static_cast<double>(r));
  double bound = 0;
  for (std::size_t j = 0; j < configs; ++j) {
    int c = 0;
    for (int k = 0; k < r; ++k) c += scratch.seen[j * r + k];
    if (c == 0) continue;
    bound += std::min(scratch.a[j] + scratch.delta[j], -c * ln_r);
  }
  return bound;
}

bool bdeu_atom_cut(const BdeuAtoms& atoms, const ConfigIndex& index, double q, double ess,
                   double best, double eps, BdeuBoundScratch& scratch) {
  const double bound = bdeu_superset_bound(atoms, index, q, ess, scratch);
  return clearly_greater(best - bound, eps, std::max(std::fabs(best), std::fabs(bound)));
}

}  // namespace bnsl::prune
