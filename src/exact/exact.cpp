// Exact mode's entry point: turns the cache into a family table, runs the chosen method (the
// subset DP plus sink enumeration, or the ILP) and packs the result into a PoolReport with
// `optimal` and `complete` set only when the method proved them.
#include "bnsl/exact.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "bnsl/error.hpp"
#include "exact/dp.hpp"
#include "exact/families.hpp"
#include "exact/ilp.hpp"
#include "exact/k_best.hpp"
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

// Bytes as a budget: memory that could not be read is no limit.
std::size_t byte_budget(double bytes) {
  return bytes >= static_cast<double>(std::numeric_limits<std::size_t>::max())
             ? std::numeric_limits<std::size_t>::max()
             : static_cast<std::size_t>(bytes);
}

bool dp_fits_memory(int n) {
  const double available = available_memory().bytes;
  return static_cast<double>(exact::SubsetDp::bytes_needed(n, byte_budget(available))) <= available;
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

// The subset DP, run at the first listing, then one sink enumeration per listing (k-best
// lists several times over the same tables).
class DpLister {
 public:
  DpLister(const FamilyTable& fam, const ExactOptions& options, const StopToken& stop,
           ExactStats& st)
      : fam_(fam), options_(options), stop_(stop), st_(st) {}

  Choices operator()(const Epsilon& eps) {
    if (!ran_) run();
    if (!dp_) return fallback_.empty() ? Choices{} : Choices{fallback_};
    st_.epsilon = eps.resolve(std::fabs(st_.opt));
    const double threshold = st_.opt - st_.epsilon - score_tolerance(st_.opt, st_.opt);
    const bool classes = options_.classes;
    Enumeration e = enumerate_within(fam_, *dp_, threshold, options_.max_solutions, stop_, classes);
    st_.enum_nodes += e.nodes;
    st_.enum_leaves += e.leaves;
    st_.covered_cuts += e.covered_cuts;
    st_.complete = e.complete;
    st_.truncated = e.truncated;
    st_.listed_above = e.listed_above;
    st_.memory_short = e.memory_short;
    st_.memory_left = e.memory_left;
    if (options_.count_within && !classes && options_.k_best.k == 0 && e.truncated &&
        std::isfinite(e.listed_above)) {
      const Count c = count_within(fam_, *dp_, threshold, e.dags.size(), stop_);
      st_.dags_within = c.dags;
      st_.dags_within_exact = c.finished;
      st_.count_nodes = c.nodes;
    }
    keep_optimum(fam_, e.dags, dp_->best_choice(), options_.max_solutions, classes);
    return std::move(e.dags);
  }

 private:
  void run() {
    ran_ = true;
    const auto t0 = Clock::now();
    // Without its best-family tables when they do not fit (dp.cpp) in half the memory
    // available: the cache, the enumeration's list and the pool need the rest.
    const MemoryLimit memory = available_memory();
    const std::size_t half = byte_budget(memory.bytes / 2);
    const std::size_t budget = std::min(options_.dp_max_bytes, half);
    require_memory(static_cast<double>(SubsetDp::bytes_needed(fam_.n, budget)), memory,
                   "the subset DP's tables for " + std::to_string(fam_.n) + " variables",
                   "free memory, or use --method ilp");
    dp_.emplace(fam_, options_.dp_max_bytes, options_.threads, half, options_.tune.dp_table_worth,
                options_.tune.dp_scan_samples);
    st_.dp_scans = dp_->scans();
    const bool done = dp_->run(stop_);
    st_.dp_tables = dp_->tables();
    st_.dp_bytes = dp_->bytes();
    st_.seconds_opt = Seconds(Clock::now() - t0).count();
    if (!done) {
      dp_.reset();
      fallback_ = order_network(fam_);
      if (!fallback_.empty()) st_.opt = fam_.score(fallback_);
      return;
    }
    if (std::isinf(dp_->opt()))
      throw InputError(
          "the score cache admits no DAG (some variables have only parent sets "
          "that force a cycle)");
    st_.opt = st_.bound = dp_->opt();
    st_.optimal = true;
  }

  const FamilyTable& fam_;
  const ExactOptions& options_;
  const StopToken& stop_;
  ExactStats& st_;
  bool ran_ = false;
  std::optional<SubsetDp> dp_;  // empty until run, or when stopped
  std::vector<std::uint32_t> fallback_;
};

}  // namespace
}  // namespace exact

void check_exact_limits(std::size_t n_vars, const ExactOptions& options) {
  const int n = static_cast<int>(std::min<std::size_t>(n_vars, 1000));
  const ExactMethod method = resolve_exact_method(options.method, n_vars);
  // Past the ILP's limit no method proves anything: say so first, whichever method auto
  // resolves to (without CBC it is the DP, whose own limit is lower)
  if (options.method == ExactMethod::automatic && n > exact::kMaxVars)
    throw InputError("exact mode proves optima of at most " + std::to_string(exact::kMaxVars) +
                     " variables (its ILP's limit); the problem has " + std::to_string(n_vars) +
                     ": `bnsl learn` searches networks of any size, without the proof");
  if (method == ExactMethod::dp) exact::SubsetDp::check_limits(n, options.dp_max_bytes);
  if (method == ExactMethod::ilp && !ilp_available())
    throw InputError(
        "--method ilp is unavailable: bnsl was built without COIN-OR CBC (use --method dp)");
  if (method == ExactMethod::ilp && n > exact::kMaxVars)
    throw InputError("--method ilp handles at most " + std::to_string(exact::kMaxVars) +
                     " variables; the problem has " + std::to_string(n_vars) +
                     ": `bnsl learn` searches networks of any size, without the proof");
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
  // auto above exact.ilp_first_above variables: the ILP first, for exact.ilp_first_share (a
  // tenth) of the DP's estimate.
  // It often proves OPT and lists everything within seconds (uci/insurance1000, BIC BF 20: 117
  // DAGs in 2.5 s, where the DP takes 20 s at 27 variables); when it does not, the DP runs.
  double ilp_first = 0;
  if (dp && options.method == ExactMethod::automatic && ilp_available() &&
      cache.n_vars() > static_cast<std::size_t>(options.tune.ilp_first_above) &&
      options.k_best.k == 0 && !options.class_nogoods) {
    const auto t_ilp = Clock::now();
    ExactOptions o = options;
    o.method = ExactMethod::ilp;
    const double slice =
        options.tune.ilp_first_share * dp_seconds_estimate(static_cast<int>(cache.n_vars()));
    ExactStats ist;
    // dp_fits left more than twice the estimate: the slice is a positive deadline
    PoolReport r = solve_exact(cache, o, stop.within(slice), &ist);
    ilp_first = std::chrono::duration<double>(Clock::now() - t_ilp).count();
    const bool finished = ist.optimal && (ist.complete || std::isfinite(ist.listed_above));
    if (finished || stop.stop_requested()) {  // a stopped run keeps what the ILP found
      ist.seconds_ilp_first = ilp_first;
      ist.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      r.seconds = ist.seconds;
      if (stats) *stats = ist;
      return r;
    }
  }
  st.seconds_ilp_first = ilp_first;
  st.method = dp ? "dp" : "ilp";
  st.classes = options.classes;
  if (options.classes && options.k_best.k > 0)
    throw InputError("--classes lists every class within epsilon: not with --k-best");
  if (options.class_nogoods && (!options.classes || dp))
    throw InputError(
        "--class-nogoods applies to the ILP's class listing: it needs --classes "
        "and --method ilp");
  exact::FamilyTable fam =
      exact::make_family_table(cache, dp ? exact::kDpMaxVars : exact::kMaxVars);
  st.n_vars = cache.n_vars();
  st.families = fam.total();
  exact::ListFn list;
  std::optional<exact::DpLister> dp_lister;
  std::vector<std::uint32_t> start;
  if (dp) {
    dp_lister.emplace(fam, options, stop, st);
    list = [&](const Epsilon& eps) { return (*dp_lister)(eps); };
  } else {
    const auto t_start = Clock::now();
    start = exact::start_network(cache, fam, stop, options.start);
    st.seconds_start = std::chrono::duration<double>(Clock::now() - t_start).count();
    list = [&](const Epsilon& eps) {
      ExactOptions o = options;
      o.epsilon = eps;
      st.optimal = st.complete = st.truncated = false;
      st.listed_above = -std::numeric_limits<double>::infinity();
      exact::Choices c = exact::solve_ilp(fam, start, o, stop, st);
      st.seconds_opt += st.seconds_start;
      if (st.optimal && !c.empty()) start = c.front();  // the next round's first incumbent
      return c;
    };
  }
  PoolReport r;
  if (options.k_best.k > 0) {
    st.k_best = options.k_best.k;
    st.k_best_classes = options.k_best.classes;
    r.dags = exact::list_k_best(fam, options.k_best, list, options.threads, st, options.tune);
  } else {
    exact::Choices dags = list(options.epsilon);  // classes: one DAG each, by either method
    r.dags = exact::to_pool(fam, std::move(dags));
  }
  if (r.dags.empty()) throw RuntimeError("exact search stopped before it found any network");
  st.solutions = r.dags.size();
  if (!options.classes && options.k_best.k == 0 && st.optimal && st.complete) {
    st.dags_within = st.solutions;  // the complete list
    st.dags_within_exact = true;
  }
  if (st.dags_within > 0) {
    r.dags_within = st.dags_within;
    r.dags_within_exact = st.dags_within_exact;
  }
  if (options.classes) {  // each class carries its DAG; no list of DAGs beside them
    r.classes.reserve(r.dags.size());
    for (PoolDag& d : r.dags) {
      PoolClass& c = r.classes.emplace_back();
      c.score = d.score;
      c.dag = std::move(d.parents);
    }
    r.dags = {};
  }
  r.variables = cache.names_or_defaults();
  r.algorithm = st.method;
  r.k_best = options.k_best.k;
  r.k_best_classes = options.k_best.classes;
  r.optimal = st.optimal;
  r.complete = st.optimal && st.complete;
  r.memory_short = st.memory_short;
  if (st.truncated && std::isfinite(st.listed_above)) r.listed_above = st.listed_above;
  r.epsilon = st.epsilon;
  st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  r.seconds = st.seconds;
  if (stats) *stats = st;
  return r;
}

void ExactStats::print(std::ostream& out) const {
  std::ostringstream s;
  s << std::setprecision(10);
  s << "exact (" << method << "): " << n_vars << " variables, " << families << " families\n"
    << "  best score      " << opt
    << (!optimal    ? ""
        : cache_cut ? " (optimal among the cached families: the exploration was cut)"
                    : " (proven optimal)")
    << "\n";
  if (!optimal) s << "  upper bound     " << bound << "\n";
  s << std::setprecision(6) << "  epsilon         " << epsilon << "\n"
    << (classes ? "  classes listed  " : "  DAGs listed     ") << solutions
    << (complete       ? " (complete)"
        : memory_short ? " (partial: the list stopped while it fit in memory, " +
                             bytes_text(memory_left) + " available)"
        : truncated ? " (the best found: more are within epsilon than --max-solutions)"
                    : " (partial)")
    << "\n";
  if (truncated && dags_within > 0)
    s << "  within epsilon  " << (dags_within_exact ? "" : "at least ") << dags_within
      << " DAGs (counted" << (dags_within_exact ? "" : " until --time") << ")\n";
  if (std::isfinite(listed_above))
    s << "  listed above    " << std::setprecision(10) << listed_above << std::setprecision(6)
      << ": every " << (classes ? "class" : "DAG") << " scoring above it is listed (within "
      << opt - listed_above << " of the best)\n";
  if (k_best > 0) {
    const char* unit = k_best_classes ? "classes" : "DAGs";
    s << "  k best          " << k_best << " " << unit << ": " << k_best_units << " listed";
    if (k_best_units > k_best) s << " (" << k_best_units - k_best << " tied with the K-th)";
    if (k_best_short)
      s << " (fewer within the exploration's epsilon)";
    else if (k_best_units < k_best && complete)
      s << " (the cache has no more)";
    s << ", " << k_best_rounds << " listings\n";
  }
  if (method == "dp")
    s << "  dp tables       " << static_cast<double>(dp_bytes) / (1 << 20) << " MiB"
      << (dp_scans
              ? " (best families scanned; tables for " + std::to_string(dp_tables) + " variables)"
              : "")
      << "\n"
      << "  enum nodes      " << enum_nodes << "\n";
  if (method == "dp") {
    if (classes)
      s << "  classes         " << enum_leaves << " DAGs reached, " << covered_cuts
        << " families cut by the covered-arc rule\n";
  } else {
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
      << collect_enumerations << " regions enumerated, " << collect_splits
      << " enumerations split, " << collect_workers << " threads, " << collect_handed
      << " regions handed between them, " << collect_iterations << " simplex iterations, "
      << collect_rows_purged << " slack cut rows dropped, " << collect_fixed
      << " columns fixed by reduced cost";
    if (classes)
      s << ", " << collect_dags << " DAGs reached, " << collect_nogoods << " class no-goods";
    s << "\n";
  }
  if (seconds_ilp_first > 0)
    s << "  auto            the ILP first for " << seconds_ilp_first << " s"
      << (method == "dp" ? ", then the DP\n" : ": OPT and the list\n");
  s << "  time            " << seconds_opt << " s to OPT, " << seconds << " s total\n";
  out << s.str();
}

std::string ExactStats::to_json() const {
  nlohmann::json j = {{"method", method},
                      {"n_vars", n_vars},
                      {"families", families},
                      {"optimal", optimal},
                      {"cache_cut", cache_cut},
                      {"complete", complete},
                      {"truncated", truncated},
                      {"memory_short", memory_short},
                      {"epsilon", epsilon},
                      {"solutions", solutions},
                      {"dags_within_exact", dags_within_exact},
                      {"count_nodes", count_nodes},
                      {"classes", classes},
                      {"enum_leaves", enum_leaves},
                      {"covered_cuts", covered_cuts},
                      {"k_best", k_best},
                      {"k_best_classes", k_best_classes},
                      {"k_best_units", k_best_units},
                      {"k_best_rounds", k_best_rounds},
                      {"k_best_short", k_best_short},
                      {"dp_bytes", dp_bytes},
                      {"dp_scans", dp_scans},
                      {"dp_tables", dp_tables},
                      {"enum_nodes", enum_nodes},
                      {"ilp_solves", ilp_solves},
                      {"ilp_nodes", ilp_nodes},
                      {"cluster_cuts", cluster_cuts},
                      {"cycle_cuts", cycle_cuts},
                      {"cut_nonzeros", cut_nonzeros},
                      {"cut_budget_hit", cut_budget_hit},
                      {"collect_families", collect_families},
                      {"collect_enumerations", collect_enumerations},
                      {"collect_splits", collect_splits},
                      {"collect_nogoods", collect_nogoods},
                      {"collect_dags", collect_dags},
                      {"collect_workers", collect_workers},
                      {"collect_handed", collect_handed},
                      {"collect_iterations", collect_iterations},
                      {"collect_rows_purged", collect_rows_purged},
                      {"collect_fixed", collect_fixed},
                      {"seconds_start", seconds_start},
                      {"root_families", root_families},
                      {"root_lp_columns", root_lp_columns},
                      {"root_rounds", root_rounds},
                      {"seconds_root", seconds_root},
                      {"seconds_opt", seconds_opt},
                      {"seconds_ilp_first", seconds_ilp_first},
                      {"seconds", seconds}};
  j["best_score"] = std::isfinite(opt) ? nlohmann::json(opt) : nlohmann::json(nullptr);
  j["bound"] = std::isfinite(bound) ? nlohmann::json(bound) : nlohmann::json(nullptr);
  j["dags_within"] = dags_within > 0 ? nlohmann::json(dags_within) : nlohmann::json(nullptr);
  j["listed_above"] =
      std::isfinite(listed_above) ? nlohmann::json(listed_above) : nlohmann::json(nullptr);
  j["start_score"] =
      std::isfinite(start_score) ? nlohmann::json(start_score) : nlohmann::json(nullptr);
  j["root_bound"] =
      std::isfinite(root_bound) ? nlohmann::json(root_bound) : nlohmann::json(nullptr);
  return j.dump(2);
}

}  // namespace bnsl
