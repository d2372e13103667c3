// Decomposable local scores of a variable given a parent set: BIC and BDeu (natural log,
// higher is better), from one counting pass over the data, and the traits that define a score.
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

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "bnsl/dataset.hpp"
#include "bnsl/names.hpp"

namespace bnsl {

// Everything one counting pass yields about a family (X, P).
struct FamilyScore {
  double score = 0;        // the selected score (BIC, BDeu or a custom one)
  double ll = 0;           // log-likelihood sum_jk n_jk ln(n_jk / n_j), <= 0; = -N H(X|P)
  double penalty = 0;      // BIC penalty (ln N / 2)(r - 1) q, >= 0 (computed for BDeu too)
  double h_parents = 0;    // H(P) in nats, from the parent configuration counts
  double q = 1;            // product of parent arities (may exceed any integer type)
  std::size_t r_plus = 1;  // parent configurations seen in the data
  std::size_t cells = 1;   // nonzero cells n_jk: (configuration, child state) pairs seen
  double bic() const { return ll - penalty; }
};

// The pruning rules proven safe for a score (docs/design.md, "Pruning"). Rule 1, the subset
// rule, holds for every decomposable score and is always applied; the others only where proven.
struct PruneRules {
  bool bic = false;   // rules 2, 3 and 4: the score is exactly LL - pen
  bool bdeu = false;  // rule 6: the score is at most -c ln r_X (c = nonzero cells)
};

// A score as one unit: its traits. The counting loops (src/score/counting.cpp) take the traits
// as a template parameter: for every parent configuration seen they pass its child counts to
// config_term (when per_config), and family() turns the pass's summary (ll, penalty, q, r_plus,
// cells; score = ll - penalty) and the sum of the terms into the family's score. The built-in
// scores are BicTraits and BdeuTraits (src/score/scores.hpp). A score of one's own needs only
// its traits (custom_score below); members left out take the defaults shown:
//
//   struct MyScore {
//     static constexpr std::string_view name = "my";         // required
//     static double family(const FamilyScore& f, double config_sum) { ... }  // required
//     static constexpr bool per_config = false;              // config_term is called
//     static double config_term(const std::uint32_t* counts, int r, std::uint32_t n_j,
//                               double q, double ess);       // one configuration's term
//     static constexpr bool uses_ess = false;                // ScoreParams::ess must be > 0
//     static constexpr PruneRules rules = {};                // unproven: rule 1 only
//   };
class ScoreDefinition {
 public:
  virtual ~ScoreDefinition() = default;
  virtual std::string name() const = 0;
  virtual PruneRules rules() const = 0;
  virtual bool uses_ess() const = 0;
  virtual bool per_config() const = 0;
  virtual double config_term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q,
                             double ess) const = 0;
  virtual double family(const FamilyScore& f, double config_sum) const = 0;
};

// bic and bdeu are built in (their traits are compiled into the counting loops); custom is a
// ScoreDefinition given in ScoreParams::custom (slower: a virtual call per configuration).
enum class ScoreKind { bic, bdeu, custom };
inline constexpr std::array<Named<ScoreKind>, 2> kScoreKindNames{
    {{ScoreKind::bic, "bic"}, {ScoreKind::bdeu, "bdeu"}}};

std::string to_string(ScoreKind kind);  // "bic", "bdeu" ("?" for custom: see score_name)
ScoreKind parse_score_kind(const std::string& text);  // "bic" | "bdeu"; throws InputError

struct ScoreParams {
  ScoreKind kind = ScoreKind::bic;
  double ess = 1.0;  // equivalent sample size alpha (> 0), for scores that use one (BDeu)
  std::shared_ptr<const ScoreDefinition> custom{};  // kind == custom: the score
};

std::string score_name(const ScoreParams& params);  // "bic", "bdeu" or the custom name
PruneRules prune_rules(const ScoreParams& params);  // the rules proven for the score
bool score_uses_ess(const ScoreParams& params);     // the report records params.ess

// The ScoreDefinition of a traits type (see above).
template <class Traits>
class TraitsScore final : public ScoreDefinition {
 public:
  std::string name() const override { return std::string(Traits::name); }
  PruneRules rules() const override {
    if constexpr (requires { Traits::rules; })
      return Traits::rules;
    else
      return {};
  }
  bool uses_ess() const override {
    if constexpr (requires { Traits::uses_ess; })
      return Traits::uses_ess;
    else
      return false;
  }
  bool per_config() const override {
    if constexpr (requires { Traits::per_config; })
      return Traits::per_config;
    else
      return false;
  }
  double config_term(const std::uint32_t* counts, int r, std::uint32_t n_j, double q,
                     double ess) const override {
    if constexpr (requires { Traits::config_term(counts, r, n_j, q, ess); })
      return Traits::config_term(counts, r, n_j, q, ess);
    else
      return 0;
  }
  double family(const FamilyScore& f, double config_sum) const override {
    return Traits::family(f, config_sum);
  }
};

// ScoreParams for a score of one's own, defined by its traits.
template <class Traits>
ScoreParams custom_score(double ess = 1.0) {
  ScoreParams p;
  p.kind = ScoreKind::custom;
  p.ess = ess;
  p.custom = std::make_shared<TraitsScore<Traits>>();
  return p;
}

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
  mutable std::mutex mutex_;                            // guards pool_
  mutable std::vector<std::unique_ptr<Counter>> pool_;  // idle counters
};

}  // namespace bnsl
