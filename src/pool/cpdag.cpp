// Essential graph (CPDAG) of a DAG by Chickering's edge-labelling algorithm.
//
// Method: D. M. Chickering, "A transformational characterization of equivalent Bayesian
// network structures", UAI 1995, Section 4 (procedures Order-Edges and Find-Compelled). The
// arcs are totally ordered: by the topological position of their heads, ascending, and among
// arcs into one node by the position of their tails, descending. Visiting arcs x -> y in that
// order, an arc is compelled when a compelled arc w -> x has w not adjacent to y, or when y
// has another parent z not adjacent to x (a v-structure x -> y <- z); compelled arcs w -> x with
// w a parent of y force w -> y; otherwise x -> y and every unlabelled arc into y are
// reversible. Guarantee (Chickering 1995, Theorem 4): the arcs labelled compelled are exactly
// the arcs with the same orientation in every DAG of the Markov equivalence class, i.e. the
// directed edges of the essential graph; the same graph that Meek's rules R1-R3 reach from the
// skeleton and v-structures. Cost O(|E| * max in-degree * log) after a topological sort.
// Equivalence classes are then found by hashing a canonical encoding of the essential graph
// and comparing encodings exactly on equal hashes. The graphs live in flat arrays (parents of
// v at par_[off_[v] .. off_[v+1])) reused from DAG to DAG, so classifying a pool of 100,000
// DAGs allocates per block of DAGs, not per node.
#include "pool/cpdag.hpp"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <string>

#include "bnsl/error.hpp"
#include "util/threads.hpp"

namespace bnsl {
namespace {

constexpr std::uint8_t kUnknown = 0, kCompelled = 1, kReversible = 2;

}  // namespace

void EssentialGraphBuilder::build(const ParentSets& parents) {
  n_ = static_cast<int>(parents.size());
  off_.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (int v = 0; v < n_; ++v) off_[v + 1] = off_[v] + static_cast<int>(parents[v].size());
  par_.resize(static_cast<std::size_t>(off_[n_]));
  child_off_.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (int v = 0; v < n_; ++v) {
    int* p = par_.data() + off_[v];
    for (std::size_t k = 0; k < parents[v].size(); ++k) {
      const int w = parents[v][k];
      if (w < 0 || w >= n_ || w == v)
        throw RuntimeError("DAG: invalid parent " + std::to_string(w) + " of node " +
                           std::to_string(v));
      p[k] = w;
      ++child_off_[w + 1];
    }
    std::sort(p, p + parents[v].size());
    if (std::adjacent_find(p, p + parents[v].size()) != p + parents[v].size())
      throw RuntimeError("DAG: node " + std::to_string(v) + " lists a parent twice");
  }
  // Kahn's algorithm over the children lists: pos_[v] = topological position of v.
  for (int v = 0; v < n_; ++v) child_off_[v + 1] += child_off_[v];
  child_.resize(par_.size());
  fill_.assign(child_off_.begin(), child_off_.end() - 1);
  missing_.resize(static_cast<std::size_t>(n_));
  for (int v = 0; v < n_; ++v) {
    missing_[v] = off_[v + 1] - off_[v];
    for (int a = off_[v]; a < off_[v + 1]; ++a) child_[fill_[par_[a]]++] = v;
  }
  ready_.clear();
  for (int v = 0; v < n_; ++v)
    if (missing_[v] == 0) ready_.push_back(v);
  pos_.assign(static_cast<std::size_t>(n_), -1);
  order_.resize(static_cast<std::size_t>(n_));
  int next = 0;
  while (!ready_.empty()) {
    const int v = ready_.back();
    ready_.pop_back();
    order_[next] = v;
    pos_[v] = next++;
    for (int c = child_off_[v]; c < child_off_[v + 1]; ++c)
      if (--missing_[child_[c]] == 0) ready_.push_back(child_[c]);
  }
  if (next != n_) throw RuntimeError("DAG: the graph has a directed cycle");
  // Arcs into y visited by their tails' positions, descending; heads in topological order.
  label_.assign(par_.size(), kUnknown);
  for (int y : order_) {
    arcs_.clear();
    for (int a = off_[y]; a < off_[y + 1]; ++a) arcs_.push_back(a);
    std::sort(arcs_.begin(), arcs_.end(),
              [&](int a, int b) { return pos_[par_[a]] > pos_[par_[b]]; });
    for (int a : arcs_)
      if (label_[a] == kUnknown) label_arc(y, a);
  }
}

int EssentialGraphBuilder::find(int v, int w) const {
  const int* lo = par_.data() + off_[v];
  const int* hi = par_.data() + off_[v + 1];
  const int* it = std::lower_bound(lo, hi, w);
  return it != hi && *it == w ? static_cast<int>(it - par_.data()) : -1;
}

void EssentialGraphBuilder::fill_unknown(int y, std::uint8_t value) {
  for (int a = off_[y]; a < off_[y + 1]; ++a)
    if (label_[a] == kUnknown) label_[a] = value;
}

// Find-Compelled step for the arc a = x -> y.
void EssentialGraphBuilder::label_arc(int y, int a) {
  const int x = par_[a];
  for (int k = off_[x]; k < off_[x + 1]; ++k) {
    if (label_[k] != kCompelled) continue;
    const int j = find(y, par_[k]);
    if (j < 0) {  // w -> x -> y with w, y not adjacent: every arc into y is compelled
      std::fill(label_.begin() + off_[y], label_.begin() + off_[y + 1], kCompelled);
      return;
    }
    label_[j] = kCompelled;
  }
  bool v_structure = false;
  for (int b = off_[y]; b < off_[y + 1] && !v_structure; ++b)
    if (par_[b] != x && find(x, par_[b]) < 0) v_structure = true;
  label_[a] = v_structure ? kCompelled : kReversible;
  fill_unknown(y, label_[a]);
}

Cpdag EssentialGraphBuilder::cpdag() const {
  Cpdag c;
  c.directed.resize(static_cast<std::size_t>(n_));
  c.undirected.resize(static_cast<std::size_t>(n_));
  for (int y = 0; y < n_; ++y)
    for (int a = off_[y]; a < off_[y + 1]; ++a) {
      if (label_[a] == kCompelled) {
        c.directed[y].push_back(par_[a]);
      } else {
        c.undirected[y].push_back(par_[a]);
        c.undirected[par_[a]].push_back(y);
      }
    }
  for (auto& u : c.undirected) std::sort(u.begin(), u.end());
  return c;
}

void EssentialGraphBuilder::encode(std::vector<std::uint32_t>& out) {
  // Reversible neighbours u < v of each v, as a flat list sorted per v.
  und_off_.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (int y = 0; y < n_; ++y)
    for (int a = off_[y]; a < off_[y + 1]; ++a)
      if (label_[a] == kReversible) ++und_off_[std::max(par_[a], y) + 1];
  for (int v = 0; v < n_; ++v) und_off_[v + 1] += und_off_[v];
  und_.resize(static_cast<std::size_t>(und_off_[n_]));
  fill_.assign(und_off_.begin(), und_off_.end() - 1);
  for (int y = 0; y < n_; ++y)
    for (int a = off_[y]; a < off_[y + 1]; ++a)
      if (label_[a] == kReversible) und_[fill_[std::max(par_[a], y)]++] = std::min(par_[a], y);
  out.clear();
  out.push_back(static_cast<std::uint32_t>(n_));
  for (int v = 0; v < n_; ++v) {
    const std::size_t count_at = out.size();
    out.push_back(0);
    for (int a = off_[v]; a < off_[v + 1]; ++a)
      if (label_[a] == kCompelled) out.push_back(static_cast<std::uint32_t>(par_[a]));
    out[count_at] = static_cast<std::uint32_t>(out.size() - count_at - 1);
    std::sort(und_.begin() + und_off_[v], und_.begin() + und_off_[v + 1]);
    out.push_back(static_cast<std::uint32_t>(und_off_[v + 1] - und_off_[v]));
    for (int k = und_off_[v]; k < und_off_[v + 1]; ++k)
      out.push_back(static_cast<std::uint32_t>(und_[k]));
  }
}

Cpdag essential_graph(const ParentSets& parents) {
  EssentialGraphBuilder b;
  b.build(parents);
  return b.cpdag();
}

std::vector<std::uint32_t> Cpdag::encode() const {
  std::vector<std::uint32_t> code;
  code.push_back(static_cast<std::uint32_t>(n_vars()));
  for (std::size_t v = 0; v < n_vars(); ++v) {
    code.push_back(static_cast<std::uint32_t>(directed[v].size()));
    code.insert(code.end(), directed[v].begin(), directed[v].end());
    auto below = std::lower_bound(undirected[v].begin(), undirected[v].end(), static_cast<int>(v));
    code.push_back(static_cast<std::uint32_t>(below - undirected[v].begin()));
    code.insert(code.end(), undirected[v].begin(), below);
  }
  return code;
}

std::uint64_t hash_encoding(const std::vector<std::uint32_t>& code) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ code.size();
  for (std::uint32_t w : code) {  // splitmix64 finaliser over a running combination
    std::uint64_t z = h + 0x9e3779b97f4a7c15ULL + w;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    h = z ^ (z >> 31);
  }
  return h;
}

int MecIndex::class_of(std::size_t i) {
  std::vector<std::uint32_t> code;
  builder_.build(dags_[i].parents);
  builder_.encode(code);
  return class_of(i, std::move(code));
}

int MecIndex::class_of(std::size_t i, std::vector<std::uint32_t>&& code) {
  const std::uint64_t h = hash_encoding(code);
  auto [first, last] = by_hash_.equal_range(h);
  std::vector<std::uint32_t> other;
  for (auto it = first; it != last; ++it) {
    const int id = it->second;
    if (codes_[id].empty()) {  // not kept: recompute from the class's first DAG
      builder_.build(dags_[representative_[id]].parents);
      builder_.encode(other);
    }
    if ((codes_[id].empty() ? other : codes_[id]) == code) return id;
  }
  const int id = size();
  by_hash_.emplace(h, id);
  representative_.push_back(i);
  if (words_ + code.size() <= max_words_) {
    words_ += code.size();
    codes_.push_back(std::move(code));
  } else {
    codes_.emplace_back();
  }
  return id;
}

std::vector<int> MecIndex::classify_all(int threads) {
  constexpr std::size_t kBlock = 1024;
  threads = resolve_threads(threads);
  std::vector<int> ids(dags_.size());
  std::vector<std::vector<std::uint32_t>> codes(std::min(kBlock, dags_.size()));
  for (std::size_t begin = 0; begin < dags_.size(); begin += kBlock) {
    const std::size_t end = std::min(dags_.size(), begin + kBlock);
    FirstError error;
#pragma omp parallel num_threads(threads)
    {
      EssentialGraphBuilder b;
#pragma omp for schedule(dynamic, 16)
      for (std::size_t i = begin; i < end; ++i)
        error.run([&] {
          b.build(dags_[i].parents);
          b.encode(codes[i - begin]);
        });
    }
    error.rethrow();
    for (std::size_t i = begin; i < end; ++i) ids[i] = class_of(i, std::move(codes[i - begin]));
  }
  return ids;
}

}  // namespace bnsl
