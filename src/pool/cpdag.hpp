// Essential graphs (CPDAGs) of DAGs, and grouping of DAGs into Markov equivalence classes.
//
//   bnsl::ParentSets g = {{}, {0}, {1}};                 // 0 -> 1 -> 2
//   bnsl::Cpdag e = bnsl::essential_graph(g);            // e.undirected[1] == {0, 2}
//   bnsl::MecIndex classes(report.dags);
//   int id = classes.class_of(0);                        // 0: the first class seen
//   std::vector<int> ids = classes.classify_all(2);      // every DAG, codes on 2 threads
//
// Two DAGs are Markov equivalent iff they have the same skeleton and the same v-structures
// (Verma & Pearl 1990), iff they have the same essential graph (Chickering 1995). The
// essential graph keeps an arc directed when every DAG of the class orients it that way
// (a compelled arc) and makes it undirected otherwise (a reversible edge).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bnsl/report.hpp"

namespace bnsl {

struct Cpdag {
  std::vector<std::vector<int>> directed;    // directed[v]: sorted compelled parents of v
  std::vector<std::vector<int>> undirected;  // undirected[v]: sorted reversible neighbours of v

  std::size_t n_vars() const { return directed.size(); }
  // Canonical encoding: equal iff the CPDAGs are equal. n, then per node v: the count and
  // list of compelled parents, then the count and list of reversible neighbours u < v.
  std::vector<std::uint32_t> encode() const;
  friend bool operator==(const Cpdag&, const Cpdag&) = default;
};

// The essential graph of the DAG given as parents[v] (parent indices of v, any order).
// Throws RuntimeError when the graph has a cycle or an index out of range.
Cpdag essential_graph(const ParentSets& parents);

// The same computation with reusable scratch arrays (one per thread), producing the canonical
// encoding (Cpdag::encode) directly: no allocation per DAG once the buffers have grown.
class EssentialGraphBuilder {
 public:
  // Labels the arcs of `parents`; throws RuntimeError as essential_graph does.
  void build(const ParentSets& parents);
  Cpdag cpdag() const;                           // of the last build
  void encode(std::vector<std::uint32_t>& out);  // of the last build, into out

 private:
  int find(int v, int w) const;  // index of arc w -> v in par_, or -1
  void label_arc(int y, int a);
  void fill_unknown(int y, std::uint8_t value);

  int n_ = 0;
  std::vector<int> off_, par_;       // parents of v: par_[off_[v] .. off_[v+1]), sorted
  std::vector<std::uint8_t> label_;  // per arc: 0 unknown, 1 compelled, 2 reversible
  std::vector<int> pos_, order_, missing_, ready_, child_off_, child_, fill_, arcs_;
  std::vector<int> und_off_, und_;  // reversible neighbours u < v of each v
};

// 64-bit hash of an encoding (for bucketing; equality is always checked exactly).
std::uint64_t hash_encoding(const std::vector<std::uint32_t>& code);

// Assigns class ids 0, 1, 2, ... to the DAGs of a pool in order of their classes' first
// appearance. Classes are bucketed by hash and compared exactly: the encoding of each class's
// first DAG is kept while the kept encodings total at most max_words words (default
// kMaxWords), and recomputed from that DAG afterwards, so memory stays bounded for large pools
// of large graphs.
class MecIndex {
 public:
  static constexpr std::size_t kMaxWords = std::size_t{1} << 24;

  explicit MecIndex(const std::vector<PoolDag>& dags, std::size_t max_words = kMaxWords)
      : dags_(dags), max_words_(max_words) {}
  // Class id of dags[i]; new classes are numbered in the order of the calls that meet them.
  int class_of(std::size_t i);
  // Class ids of all DAGs in order (as class_of(0), class_of(1), ...), the encodings computed
  // in parallel blocks on `threads` threads (0: all cores).
  std::vector<int> classify_all(int threads);
  int size() const { return static_cast<int>(representative_.size()); }
  // Index of the first DAG of class `id` (the one whose call met it first).
  std::size_t representative(int id) const { return representative_[static_cast<std::size_t>(id)]; }

 private:
  int class_of(std::size_t i, std::vector<std::uint32_t>&& code);

  const std::vector<PoolDag>& dags_;
  EssentialGraphBuilder builder_;
  std::unordered_multimap<std::uint64_t, int> by_hash_;  // hash -> class id
  std::vector<std::size_t> representative_;              // class id -> first DAG index
  std::vector<std::vector<std::uint32_t>> codes_;        // class id -> encoding (may be empty)
  std::size_t max_words_;                                // cap on words_
  std::size_t words_ = 0;                                // total size of codes_
};

}  // namespace bnsl
