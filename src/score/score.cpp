// LocalScorer: the convenience entry point to the local scores (one family at a time).
// Hot paths (explorers) hold a Counter per thread instead, to reuse configuration indices.
#include <cmath>

#include "bnsl/error.hpp"
#include "bnsl/score.hpp"
#include "score/counting.hpp"
#include "score/scores.hpp"

namespace bnsl {

std::string to_string(ScoreKind kind) {
  return name_of(kScoreKindNames, kind);
}

ScoreKind parse_score_kind(const std::string& text) {
  return value_of(kScoreKindNames, text, "score");
}

std::string score_name(const ScoreParams& p) {
  if (p.kind == ScoreKind::custom) return p.custom ? p.custom->name() : "custom";
  return to_string(p.kind);
}

namespace {

// The definition behind a ScoreParams: the built-in traits as definitions, or the custom one
// (null when a custom score lacks it).
const ScoreDefinition* definition(const ScoreParams& p) {
  static const TraitsScore<BicTraits> bic;
  static const TraitsScore<BdeuTraits> bdeu;
  switch (p.kind) {
    case ScoreKind::bic:
      return &bic;
    case ScoreKind::bdeu:
      return &bdeu;
    case ScoreKind::custom:
      break;
  }
  return p.custom.get();
}

}  // namespace

PruneRules prune_rules(const ScoreParams& p) {
  const ScoreDefinition* d = definition(p);
  return d ? d->rules() : PruneRules{};
}

bool score_uses_ess(const ScoreParams& p) {
  const ScoreDefinition* d = definition(p);
  return d && d->uses_ess();
}

LocalScorer::LocalScorer(const Dataset& data, ScoreParams params) : data_(data), params_(params) {
  if (score_uses_ess(params_) && !(params_.ess > 0 && std::isfinite(params_.ess)))
    throw InputError("--ess must be a finite number > 0");
  if (params_.kind == ScoreKind::custom && !params_.custom)
    throw InputError("a custom score needs its definition (ScoreParams::custom)");
}

LocalScorer::~LocalScorer() = default;

std::unique_ptr<Counter> LocalScorer::acquire() const {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!pool_.empty()) {
      auto c = std::move(pool_.back());
      pool_.pop_back();
      return c;
    }
  }
  return std::make_unique<Counter>(data_, params_);
}

void LocalScorer::release(std::unique_ptr<Counter> counter) const {
  std::lock_guard<std::mutex> lock(mutex_);
  pool_.push_back(std::move(counter));
}

FamilyScore LocalScorer::score(int child, std::span<const int> parents) const {
  auto counter = acquire();
  ConfigIndex index;
  counter->build(parents, index);
  FamilyScore f = counter->score(index, child);
  release(std::move(counter));
  return f;
}

double LocalScorer::network_score(const std::vector<std::vector<int>>& parents) const {
  auto counter = acquire();
  ConfigIndex index;
  double total = 0;
  for (std::size_t v = 0; v < parents.size(); ++v) {
    counter->build(parents[v], index);
    total += counter->score(index, static_cast<int>(v)).score;
  }
  release(std::move(counter));
  return total;
}

double LocalScorer::penalty(int child, double q) const {
  const double n = static_cast<double>(data_.n_rows());
  return n > 0 ? 0.5 * std::log(n) * (data_.arity(child) - 1) * q : 0;
}

}  // namespace bnsl
