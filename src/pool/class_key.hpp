// A DAG's Markov equivalence class without its essential graph: two DAGs are equivalent iff
// they have the same skeleton and the same v-structures (Verma & Pearl 1990), so a set hash of
// the skeleton's edges and of the v-structures identifies the class, and a direct comparison of
// both confirms a match.
//
//   auto pa = [&](std::size_t v) { return std::span<const std::int32_t>(g[v]); };
//   std::uint64_t k = class_key(g.size(), pa);           // equal for equivalent DAGs
//   bool same = markov_equivalent(g.size(), pa, pb);     // exact
//   std::uint64_t k2 = class_key_near(k, changed, pa, pb, children_a);  // pb near pa
//
// The key is the XOR of a 64-bit hash of every edge {u, w} and of every v-structure a -> c <- b
// (a < b, not adjacent); each appears once per DAG, so the XOR hashes the two sets. Its cost is
// O(sum over v of |pa(v)|^2 log |pa|), with no graph built: the pool classified every offered
// DAG by its essential graph, O(n + arcs) with large constants, a third of the search's time at
// 10,000 variables (bench/results/search.md). A false key match needs two inequivalent DAGs
// with one 64-bit key, and markov_equivalent rules it out.
//
// `parents(v)` returns v's parents as a sorted range of int32 (a cache entry's parents, or a
// ParentSets row), for v < n.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace bnsl {

namespace class_key_detail {

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline std::uint64_t edge_hash(std::uint32_t lo, std::uint32_t hi) {
  return mix((std::uint64_t{lo} << 32) | hi);
}

inline std::uint64_t vstructure_hash(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return mix(mix((std::uint64_t{a} << 32) | b) ^ (0x5bd1e995ULL + c));
}

template <class Range>
bool holds(const Range& sorted, std::int32_t x) {
  return std::binary_search(sorted.begin(), sorted.end(), x);
}

// Is there an arc between a and b, either way?
template <class Parents>
bool adjacent(const Parents& parents, std::int32_t a, std::int32_t b) {
  return holds(parents(static_cast<std::size_t>(b)), a) ||
         holds(parents(static_cast<std::size_t>(a)), b);
}

// Calls f(a, b) for every v-structure a -> c <- b (a < b) at c.
template <class Parents, class F>
void for_each_vstructure(const Parents& parents, std::size_t c, F&& f) {
  const auto pa = parents(c);
  for (auto i = pa.begin(); i != pa.end(); ++i)
    for (auto j = std::next(i); j != pa.end(); ++j)
      if (!adjacent(parents, *i, *j)) f(*i, *j);
}

// The edges into c and the v-structures at c, hashed.
template <class Parents>
std::uint64_t contribution(const Parents& parents, std::size_t c) {
  const auto cu = static_cast<std::uint32_t>(c);
  std::uint64_t key = 0;
  for (const std::int32_t p : parents(c)) {
    const auto pu = static_cast<std::uint32_t>(p);
    key ^= edge_hash(std::min(pu, cu), std::max(pu, cu));
  }
  for_each_vstructure(parents, c, [&](std::int32_t a, std::int32_t b) {
    key ^= vstructure_hash(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), cu);
  });
  return key;
}

}  // namespace class_key_detail

template <class Parents>
std::uint64_t class_key(std::size_t n, const Parents& parents) {
  std::uint64_t key = 0;
  for (std::size_t c = 0; c < n; ++c) key ^= class_key_detail::contribution(parents, c);
  return key;
}

// The key of DAG d from the key of DAG r, when they differ only in the parents of `changed`
// (ascending): those nodes' contributions are swapped, and a v-structure a -> c <- b at a node c
// of unchanged parents appears or goes where the adjacency of a and b differs, which needs a or
// b changed, so c is a child of a changed node in r (`children_r(a)`). O(changed nodes' parent
// pairs + their children's parents) instead of O(n).
template <class ParentsR, class ParentsD, class ChildrenR>
std::uint64_t class_key_near(std::uint64_t key_r, std::span<const std::int32_t> changed,
                             const ParentsR& r, const ParentsD& d, const ChildrenR& children_r) {
  using namespace class_key_detail;
  std::uint64_t key = key_r;
  for (const std::int32_t c : changed) {
    const auto cs = static_cast<std::size_t>(c);
    key ^= contribution(r, cs) ^ contribution(d, cs);
  }
  for (const std::int32_t a : changed)
    for (const std::int32_t c : children_r(static_cast<std::size_t>(a))) {
      if (holds(changed, c)) continue;                               // counted above
      for (const std::int32_t b : r(static_cast<std::size_t>(c))) {  // = d(c)
        if (b == a || (b < a && holds(changed, b))) continue;        // each pair once
        if (adjacent(r, a, b) != adjacent(d, a, b))
          key ^= vstructure_hash(static_cast<std::uint32_t>(std::min(a, b)),
                                 static_cast<std::uint32_t>(std::max(a, b)),
                                 static_cast<std::uint32_t>(c));
      }
    }
  return key;
}

// Exact: the same skeleton (as many arcs, and every arc of b an edge of a) and the same
// v-structures (as many, and every one of b one of a). No allocation.
template <class ParentsA, class ParentsB>
bool markov_equivalent(std::size_t n, const ParentsA& a, const ParentsB& b) {
  using namespace class_key_detail;
  std::size_t arcs_a = 0, arcs_b = 0;
  for (std::size_t v = 0; v < n; ++v) {
    arcs_a += static_cast<std::size_t>(std::distance(a(v).begin(), a(v).end()));
    for (const std::int32_t p : b(v)) {
      ++arcs_b;
      if (!adjacent(a, p, static_cast<std::int32_t>(v))) return false;
    }
  }
  if (arcs_a != arcs_b) return false;
  // The skeletons are equal, so adjacency in b is adjacency in a.
  std::size_t vs_a = 0, vs_b = 0;
  bool same = true;
  for (std::size_t c = 0; c < n && same; ++c) {
    for_each_vstructure(a, c, [&](std::int32_t, std::int32_t) { ++vs_a; });
    const auto pa = a(c);
    for_each_vstructure(b, c, [&](std::int32_t x, std::int32_t y) {
      ++vs_b;
      same = same && holds(pa, x) && holds(pa, y);
    });
  }
  return same && vs_a == vs_b;
}

}  // namespace bnsl
