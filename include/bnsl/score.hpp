// Decomposable local scores of a variable given a parent set: BIC and BDeu (natural log,
// higher is better), from one counting pass over the data.
//
//   bnsl::LocalScorer scorer(data, {bnsl::ScoreKind::bic});
//   std::vector<int> pa = {3, 5};
//   bnsl::FamilyScore f = scorer.score(0, pa);   // f.score, f.ll, f.penalty, f.h_parents ...
//
// For variable X with r observed states and parent set P with q = product of parent arities,
// counts n_jk (parent configuration j, child state k), n_j = sum_k n_jk, N rows:
//   BIC  = sum_jk n_jk ln(n_jk / n_j) - (ln N / 2)(r - 1) q
//   BDeu = sum_j [lnG(a/q) - lnG(a/q + n_j)] + sum_jk [lnG(a/(q r) + n_jk) - lnG(a/(q r))]
// Configurations never seen in the data contribute nothing (they still count in q).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "bnsl/dataset.hpp"

namespace bnsl {

enum class ScoreKind { bic, bdeu };

std::string to_string(ScoreKind kind);
ScoreKind parse_score_kind(const std::string& text);  // "bic" | "bdeu"; throws InputError

struct ScoreParams {
  ScoreKind kind = ScoreKind::bic;
  double ess = 1.0;  // BDeu equivalent sample size alpha (> 0)
};

// Everything one counting pass yields about a family (X, P).
struct FamilyScore {
  double score = 0;      // the selected score (BIC or BDeu)
  double ll = 0;         // log-likelihood sum_jk n_jk ln(n_jk / n_j), <= 0; = -N H(X|P)
  double penalty = 0;    // BIC penalty (ln N / 2)(r - 1) q, >= 0 (computed for BDeu too)
  double h_parents = 0;  // H(P) in nats, from the parent configuration counts
  double q = 1;          // product of parent arities (may exceed any integer type)
  std::size_t r_plus = 1;  // parent configurations seen in the data
  std::size_t cells = 1;   // nonzero cells n_jk: (configuration, child state) pairs seen
  double bic() const { return ll - penalty; }
};

class Counter;

// Scores families of one data set. Thread-safe: each call borrows a Counter (scratch buffers
// and log tables) from a small pool, so repeated calls allocate nothing. Explorers that
// reuse a parent's configuration index hold a Counter (src/score/counting.hpp) directly.
class LocalScorer {
 public:
  LocalScorer(const Dataset& data, ScoreParams params);
  ~LocalScorer();
  LocalScorer(const LocalScorer&) = delete;
  LocalScorer& operator=(const LocalScorer&) = delete;

  FamilyScore score(int child, std::span<const int> parents) const;

  // Sum of local scores of a DAG given as parents[v] for every variable v.
  double network_score(const std::vector<std::vector<int>>& parents) const;

  const Dataset& data() const { return data_; }
  const ScoreParams& params() const { return params_; }
  // BIC penalty (ln N / 2)(r_child - 1) q for a parent set with arity product q.
  double penalty(int child, double q) const;

 private:
  std::unique_ptr<Counter> acquire() const;
  void release(std::unique_ptr<Counter> counter) const;

  const Dataset& data_;
  ScoreParams params_;
  mutable std::mutex mutex_;                        // guards pool_
  mutable std::vector<std::unique_ptr<Counter>> pool_;  // idle counters
};

}  // namespace bnsl
