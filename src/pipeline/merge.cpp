// Merging caches computed in parts and pools of independent runs (bnsl/merge.hpp).
//
// Caches: each part's provenance header (CacheProvenance, written by `bnsl score`) must match
// the first part's (same data fingerprint, rows, score, ESS, epsilon, in-degree limit and
// screening), the parts' variable ranges must tile 0..n without overlap, and a part may hold
// entries only for its own variables. The merged cache takes each variable's entries from the
// part that explored it; nothing is re-scored (the parts come from the same data and score).
//
// Pools: one DAG of every class is re-scored from the data (check/rescore.hpp), so a pool
// written by an older or foreign run cannot bring a wrong score in; a class met in several
// pools is kept once (by essential graph); the classes within epsilon of the merged best are
// kept, up to the capacity of a search's pool and past it as a search's full pool keeps them
// (score bands, pool/dag_pool.hpp: banded_selection), and their members listed as a search
// lists them; sizes and edge probabilities are recomputed by summarize().
#include "bnsl/merge.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "bnsl/error.hpp"
#include "bnsl/results.hpp"
#include "bnsl/score.hpp"
#include "bnsl/search.hpp"
#include "check/rescore.hpp"
#include "pool/class_members.hpp"
#include "pool/cpdag.hpp"
#include "pool/dag_pool.hpp"
#include "score/compare.hpp"

namespace bnsl {
namespace {

std::string range_text(std::size_t begin, std::size_t end) {
  return std::to_string(begin) + ":" + std::to_string(end);
}

struct Part {
  std::string path;
  CacheProvenance provenance;
};

}  // namespace

CacheMerge merge_caches(const std::vector<std::string>& paths) {
  if (paths.empty()) throw InputError("merge: no caches given");
  std::vector<Part> parts;
  for (const std::string& path : paths) {
    std::optional<CacheProvenance> p = read_jkl_provenance(path);
    if (!p)
      throw InputError(path, 0, 0,
                       "no provenance header ('# bnsl ...' lines): only caches written by "
                       "`bnsl score` can be checked and merged");
    std::string why;
    if (!parts.empty() && !parts.front().provenance.same_run(*p, why))
      throw InputError(path, 0, 0, "not from the same run as " + parts.front().path + ": " + why);
    parts.push_back({path, std::move(*p)});
  }
  std::vector<std::size_t> order(parts.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return parts[a].provenance.var_begin < parts[b].provenance.var_begin;
  });

  CacheMerge merged;
  merged.provenance = parts.front().provenance;
  merged.provenance.exhaustive = true;
  std::size_t covered = 0;  // variables [0, covered) have their part
  for (std::size_t k : order) {
    const Part& part = parts[k];
    const CacheProvenance& p = part.provenance;
    const std::string vars = "variables " + range_text(p.var_begin, p.var_end);
    if (p.var_begin < covered)
      throw InputError(part.path, 0, 0,
                       vars + " overlap another part's (up to " + std::to_string(covered) + ")");
    if (p.var_begin > covered)
      throw InputError(part.path, 0, 0,
                       "no part covers variables " + range_text(covered, p.var_begin) +
                           " (this part has " + range_text(p.var_begin, p.var_end) + ")");
    ScoreCache cache = read_jkl(part.path);
    if (merged.cache.n_vars() == 0) {
      merged.cache = ScoreCache(cache.n_vars());
    } else if (cache.n_vars() != merged.cache.n_vars()) {
      throw InputError(part.path, 0, 0,
                       std::to_string(cache.n_vars()) + " variables, the other parts " +
                           std::to_string(merged.cache.n_vars()));
    }
    if (p.var_end > cache.n_vars())
      throw InputError(part.path, 0, 0, vars + " of " + std::to_string(cache.n_vars()));
    for (std::size_t v = 0; v < cache.n_vars(); ++v) {
      const bool own = v >= p.var_begin && v < p.var_end;
      if (!own && !cache.var(v).empty())
        throw InputError(part.path, 0, 0,
                         "entries for variable " + std::to_string(v) + ", outside its " + vars);
      if (own) merged.cache.var(v) = std::move(cache.var(v));
    }
    merged.provenance.exhaustive = merged.provenance.exhaustive && p.exhaustive;
    covered = p.var_end;
  }
  if (covered < merged.cache.n_vars())
    throw InputError("merge: no part covers variables " +
                     range_text(covered, merged.cache.n_vars()));
  merged.provenance.var_begin = 0;
  merged.provenance.var_end = merged.cache.n_vars();
  return merged;
}

PoolReport merge_pools(const Dataset& data, const std::vector<std::string>& paths,
                       const PoolMergeOptions& options) {
  if (paths.empty()) throw InputError("merge: no pools given");
  std::vector<PoolReport> pools;
  for (const std::string& path : paths) {
    PoolReport p = read_pool_json(path);
    if (p.variables != data.names())
      throw InputError(path, 0, 0,
                       "its variables are not the data's columns (a pool of other data, or "
                       "data read with another --no-header or --delimiter)");
    const PoolReport& first = pools.empty() ? p : pools.front();
    if (p.score != first.score || p.ess != first.ess)
      throw InputError(path, 0, 0,
                       "score " + p.score + ", not " + first.score + " as in " + paths.front() +
                           " (or another ESS)");
    if (!options.epsilon && p.epsilon != first.epsilon)
      throw InputError(path, 0, 0,
                       "epsilon differs from " + paths.front() +
                           "'s: give the merged pool's with --epsilon, --bayes-factor or "
                           "--factor");
    if (p.constraints != first.constraints)
      throw InputError(path, 0, 0,
                       "its constraints (" + p.constraints.describe() + ") are not those of " +
                           paths.front() + " (" + first.constraints.describe() +
                           "): the classes of pools learned under other required or "
                           "forbidden arcs or tiers do not mix");
    pools.push_back(std::move(p));
  }

  ScoreParams params;
  params.kind = parse_score_kind(pools.front().score);
  if (params.kind == ScoreKind::bdeu) {
    if (!pools.front().ess || !(*pools.front().ess > 0))
      throw InputError(paths.front(), 0, 0, "bdeu score without a positive 'ess'");
    params.ess = *pools.front().ess;
  }
  const LocalScorer scorer(data, params);
  FamilyMemo memo;
  std::vector<PoolDag> reps;  // one DAG of each input class, re-scored
  double proven = -std::numeric_limits<double>::infinity();  // the best an input proved optimal
  for (std::size_t k = 0; k < pools.size(); ++k) {
    for (std::size_t i = 0; i < pools[k].dags.size(); ++i)
      if (const std::string why = graph_problem(pools[k].dags[i].parents, data.names());
          !why.empty())
        throw InputError(paths[k], 0, 0, "listed DAG " + std::to_string(i + 1) + ": " + why);
    for (std::size_t i = 0; i < pools[k].classes.size(); ++i)
      if (const std::string why = graph_problem(pools[k].classes[i].dag, data.names());
          !why.empty())
        throw InputError(paths[k], 0, 0, "class " + std::to_string(i + 1) + ": " + why);
    if (pools[k].classes.empty()) summarize(pools[k], options.threads);  // a list of DAGs only
    if (pools[k].optimal && !pools[k].classes.empty())
      proven = std::max(proven, rescore(scorer, pools[k].classes.front().dag, memo));
    for (PoolClass& c : pools[k].classes) {
      PoolDag d;
      d.parents = std::move(c.dag);
      for (auto& p : d.parents) std::sort(p.begin(), p.end());
      d.score = rescore(scorer, d.parents, memo);
      reps.push_back(std::move(d));
    }
  }
  std::stable_sort(reps.begin(), reps.end(),
                   [](const PoolDag& a, const PoolDag& b) { return a.score > b.score; });
  MecIndex index(reps);
  const std::vector<int> ids = index.classify_all(options.threads);

  PoolReport r;
  r.score = pools.front().score;
  r.ess = pools.front().ess;
  r.variables = data.names();
  r.rows = data.n_rows();
  r.algorithm = "merge";
  r.constraints = pools.front().constraints;
  const double best = reps.empty() ? 0 : reps.front().score;
  r.epsilon = options.epsilon ? options.epsilon->resolve(std::fabs(best)) : pools.front().epsilon;
  SearchOptions capacity;
  capacity.pool_max = options.pool_max;
  capacity.max_dags = options.max_dags;
  capacity.pool_max_cells = options.pool_max_cells;
  // The distinct classes within epsilon, best first; past the capacity, those a search's full
  // pool keeps (its score bands: the whole range, not only the best).
  std::vector<std::size_t> within;
  std::vector<double> scores;
  for (std::size_t i = 0; i < reps.size(); ++i) {
    if (clearly_greater(best - r.epsilon, reps[i].score)) break;
    if (static_cast<std::size_t>(ids[i]) != within.size()) continue;  // a class met before
    within.push_back(i);
    scores.push_back(reps[i].score);
  }
  const std::size_t bands = pool_bands(capacity.exhaustive_max_n, capacity.dp_max_n, data.n_vars(),
                                       capacity.pool_tune.bands);
  for (const std::size_t k :
       banded_selection(scores, r.epsilon, capacity.pool_capacity(data.n_vars()), bands)) {
    PoolClass c;
    c.score = reps[within[k]].score;
    c.dag = std::move(reps[within[k]].parents);
    r.classes.push_back(std::move(c));
  }
  list_members(r, capacity.dag_capacity(data.n_vars()), nullptr, capacity.pool_tune);
  r.optimal = !r.classes.empty() && std::isfinite(proven) && score_equal(proven, best);
  r.complete = false;
  summarize(r, options.threads);
  return r;
}

}  // namespace bnsl
