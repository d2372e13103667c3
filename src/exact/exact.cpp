// Exact mode's entry point: turns the cache into a family table, runs the chosen method (the
// subset DP plus sink enumeration, or the ILP) and packs the result into a PoolReport with
// `optimal` and `complete` set only when the method proved them.
#include "bnsl/exact.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bnsl/error.hpp"
#include "exact/dp.hpp"
#include "exact/families.hpp"
#include "exact/ilp.hpp"
#include "exact/start.hpp"
#include "score/compare.hpp"
#include "util/memory.hpp"

namespace bnsl {

std::string to_string(ExactMethod method) {
  return name_of(kExactMethodNames, method);
}

ExactMethod parse_exact_method(const std::string& text) {
  return value_of(kExactMethodNames, text, "exact method");
}

bool ilp_available() {
#ifdef BNSL_HAVE_CBC
  return true;
#else
  return false;
#endif
}

ExactMethod default_exact_method() {
  return ExactMethod::automatic;
}

bool dp_fits_memory(int n) {
  return static_cast<double>(exact::SubsetDp::bytes_needed(n)) <= available_memory().bytes;
}

ExactMethod resolve_exact_method(ExactMethod method, std::size_t n_vars) {
  if (method != ExactMethod::automatic) return method;
  if (n_vars <= static_cast<std::size_t>(kAutoDpMaxVars) || !ilp_available())
    return ExactMethod::dp;
  return ExactMethod::ilp;
}

namespace exact {
namespace {

using Seconds = std::chrono::duration<double>;

std::vector<std::vector<std::uint32_t>> solve_dp(const FamilyTable& fam,
                                                 const ExactOptions& options, const StopToken& stop,
                                                 ExactStats& st) {
  const auto t0 = Clock::now();
  require_memory(static_cast<double>(SubsetDp::bytes_needed(fam.n)), available_memory(),
                 "the subset DP's tables for " + std::to_string(fam.n) + " variables",
                 "free memory, or use --method ilp");
  SubsetDp dp(fam, options.dp_max_bytes, options.threads);
  st.dp_bytes = SubsetDp::bytes_needed(fam.n);
  if (!dp.run(stop)) {
    st.seconds_opt = Seconds(Clock::now() - t0).count();
    auto fallback = order_network(fam);
    if (fallback.empty()) return {};
    st.opt = fam.score(fallback);
    return {fallback};
  }
  if (std::isinf(dp.opt()))
    throw InputError(
        "the score cache admits no DAG (some variables have only parent sets "
        "that force a cycle)");
  st.opt = st.bound = dp.opt();
  st.optimal = true;
  st.seconds_opt = Seconds(Clock::now() - t0).count();
  st.epsilon = options.epsilon.resolve(std::fabs(st.opt));
  const double threshold = st.opt - st.epsilon - score_tolerance(st.opt, st.opt);
  Enumeration e = enumerate_within(fam, dp, threshold, options.max_solutions, stop);
  st.enum_nodes = e.nodes;
  st.complete = e.complete;
  st.truncated = e.truncated;
  keep_optimum(e.dags, dp.best_choice(), options.max_solutions);
  return std::move(e.dags);
}

}  // namespace
}  // namespace exact

void check_exact_limits(std::size_t n_vars, const ExactOptions& options) {
  const int n = static_cast<int>(std::min<std::size_t>(n_vars, 1000));
  const ExactMethod method = resolve_exact_method(options.method, n_vars);
  if (method == ExactMethod::dp) exact::SubsetDp::check_limits(n, options.dp_max_bytes);
  if (method == ExactMethod::ilp && !ilp_available())
    throw InputError(
        "--method ilp is unavailable: bnsl was built without COIN-OR CBC (use --method dp)");
  if (method == ExactMethod::ilp && n > exact::kMaxVars)
    throw InputError("--method ilp handles at most " + std::to_string(exact::kMaxVars) +
                     " variables; the problem has " + std::to_string(n_vars));
}

PoolReport solve_exact(const ScoreCache& cache, const ExactOptions& options, const StopToken& stop,
                       ExactStats* stats) {
  const auto t0 = Clock::now();
  check_exact_limits(cache.n_vars(), options);
  ExactStats st;
  bool dp = resolve_exact_method(options.method, cache.n_vars()) == ExactMethod::dp;
  // auto with too little time left for the DP (stopped, it has only the identity order's
  // network): the ILP, whose ordering-search start and bound are worth having.
  // So is one whose tables would not fit in the memory available.
  if (dp && options.method == ExactMethod::automatic && ilp_available() &&
      (!dp_fits(static_cast<int>(cache.n_vars()), stop.remaining()) ||
       !dp_fits_memory(static_cast<int>(cache.n_vars()))))
    dp = false;
  st.method = dp ? "dp" : "ilp";
  exact::FamilyTable fam =
      exact::make_family_table(cache, dp ? exact::kDpMaxVars : exact::kMaxVars);
  st.n_vars = cache.n_vars();
  st.families = fam.total();
  std::vector<std::vector<std::uint32_t>> choices;
  if (dp) {
    choices = exact::solve_dp(fam, options, stop, st);
  } else {
    const auto t_start = Clock::now();
    const auto start = exact::start_network(cache, fam, stop);
    st.seconds_start = std::chrono::duration<double>(Clock::now() - t_start).count();
    choices = exact::solve_ilp(fam, start, options, stop, st);
    st.seconds_opt += st.seconds_start;
  }
  if (choices.empty()) throw RuntimeError("exact search stopped before it found any network");
  PoolReport r;
  r.variables = cache.names_or_defaults();
  r.algorithm = st.method;
  r.dags = exact::to_pool(fam, std::move(choices));
  r.optimal = st.optimal;
  r.complete = st.optimal && st.complete;
  r.epsilon = st.epsilon;
  st.solutions = r.dags.size();
  st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.seconds = st.seconds;
  if (stats) *stats = st;
  return r;
}

void ExactStats::print(std::ostream& out) const {
  std::ostringstream s;
  s << std::setprecision(10);
  s << "exact (" << method << "): " << n_vars << " variables, " << families << " families\n"
    << "  best score      " << opt << (optimal ? " (proven optimal)" : "") << "\n";
  if (!optimal) s << "  upper bound     " << bound << "\n";
  s << std::setprecision(6) << "  epsilon         " << epsilon << "\n"
    << "  DAGs listed     " << solutions
    << (complete    ? " (complete)"
        : truncated ? " (truncated by --max-solutions)"
                    : " (partial)")
    << "\n";
  if (method == "dp")
    s << "  dp tables       " << static_cast<double>(dp_bytes) / (1 << 20) << " MiB\n"
      << "  enum nodes      " << enum_nodes << "\n";
  else
    s << "  ilp solves      " << ilp_solves << ", nodes " << ilp_nodes << ", cluster cuts "
      << cluster_cuts << ", cycle cuts " << cycle_cuts << "\n"
      << "  cut rows        " << cut_nonzeros << " nonzeros"
      << (cut_budget_hit ? " (budget reached: CBC's tree separates at integral points only)" : "")
      << "\n"
      << "  start           " << std::setprecision(10) << start_score << std::setprecision(6)
      << " (" << seconds_start << " s of ordering search)\n"
      << "  root LP         bound " << std::setprecision(10) << root_bound << std::setprecision(6)
      << ", " << root_rounds << " rounds, " << root_lp_columns << " families priced in, "
      << root_families << " left to CBC (" << seconds_root << " s)\n"
      << "  collection      " << collect_families << " families usable within epsilon, "
      << collect_enumerations << " regions enumerated\n";
  s << "  time            " << seconds_opt << " s to OPT, " << seconds << " s total\n";
  out << s.str();
}

std::string ExactStats::to_json() const {
  nlohmann::json j = {{"method", method},
                      {"n_vars", n_vars},
                      {"families", families},
                      {"optimal", optimal},
                      {"complete", complete},
                      {"truncated", truncated},
                      {"epsilon", epsilon},
                      {"solutions", solutions},
                      {"dp_bytes", dp_bytes},
                      {"enum_nodes", enum_nodes},
                      {"ilp_solves", ilp_solves},
                      {"ilp_nodes", ilp_nodes},
                      {"cluster_cuts", cluster_cuts},
                      {"cycle_cuts", cycle_cuts},
                      {"cut_nonzeros", cut_nonzeros},
                      {"cut_budget_hit", cut_budget_hit},
                      {"collect_families", collect_families},
                      {"collect_enumerations", collect_enumerations},
                      {"seconds_start", seconds_start},
                      {"root_families", root_families},
                      {"root_lp_columns", root_lp_columns},
                      {"root_rounds", root_rounds},
                      {"seconds_root", seconds_root},
                      {"seconds_opt", seconds_opt},
                      {"seconds", seconds}};
  j["best_score"] = std::isfinite(opt) ? nlohmann::json(opt) : nlohmann::json(nullptr);
  j["bound"] = std::isfinite(bound) ? nlohmann::json(bound) : nlohmann::json(nullptr);
  j["start_score"] =
      std::isfinite(start_score) ? nlohmann::json(start_score) : nlohmann::json(nullptr);
  j["root_bound"] =
      std::isfinite(root_bound) ? nlohmann::json(root_bound) : nlohmann::json(nullptr);
  return j.dump(2);
}

}  // namespace bnsl
