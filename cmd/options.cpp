// Declarations of every shared command-line option, and their conversion into the library's
// option structs.
#include "options.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "bnsl/cache.hpp"
#include "bnsl/error.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/results.hpp"
#include "help.hpp"

namespace bnsl::cli {

Epsilon EpsilonArgs::resolve() const {
  if (epsilon >= 0) return Epsilon::epsilon(epsilon);
  if (bayes_factor >= 0) return Epsilon::bayes_factor(bayes_factor);
  if (factor >= 0) return Epsilon::factor(factor);
  return Epsilon::bayes_factor(20);
}

CsvOptions CsvArgs::resolve() const {
  CsvOptions o = csv;
  for (const std::string& d : discretize) o.discretize.push_back(parse_discretize(d));
  if (delimiter == "\\t" || delimiter == "tab")
    o.delimiter = '\t';
  else if (delimiter.size() == 1)
    o.delimiter = delimiter[0];
  else
    throw InputError("--delimiter must be one character (or 'tab'), got '" + delimiter + "'");
  return o;
}

void add_csv_options(CLI::App& app, CsvArgs& a) {
  app.add_flag(
         "--no-header", [&a](std::int64_t) { a.csv.header = false; },
         "The CSV has no header row; columns are named V0..V(n-1)")
      ->group(kInputGroup);
  app.add_option("--delimiter", a.delimiter, "Field separator: one character, or 'tab'")
      ->type_name("CHAR")
      ->default_str(",")
      ->group(kInputGroup);
  app.add_flag("--missing-as-state", a.csv.missing_as_state,
               "Treat empty fields, NA and ? as ordinary values (default: an error)")
      ->group(kInputGroup);
  app.add_option("--discretize", a.discretize,
                 "Cut columns of numbers into intervals, as bnlearn's discretize(): "
                 "quantile:K (K intervals of about equal counts) or interval:K (K equal "
                 "widths) for every column of non-integers or of more than 20 integers, "
                 "NAME=quantile:K (or interval:K) for one column, NAME=none to read one as "
                 "categories; repeatable. Without it a column of more than 20 distinct "
                 "non-integers is an error")
      ->type_name("SPEC")
      ->group(kInputGroup);
}

Dataset read_data(const std::string& path, const CsvArgs& args, bool quiet) {
  std::vector<std::string> warnings;
  Dataset data = read_csv(path, args.resolve(), &warnings);
  if (!quiet)
    for (const std::string& w : warnings) std::cerr << "bnsl: warning: " << w << "\n";
  return data;
}

Dataset read_data(const std::string& path, const CsvArgs& args, const RunArgs& run) {
  CsvArgs timed = args;
  timed.csv.input_wait = run.time;
  return read_data(path, timed, run.quiet);
}

NetworkFiles NetworkArgs::resolve(bool have_data) const {
  NetworkFiles out = files;
  for (const std::string& list : formats) {
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = list.find(',', start);
      const std::string name =
          list.substr(start, comma == std::string::npos ? comma : comma - start);
      const NetFormat f = value_of(kNetFormatNames, name, "--format");
      if (has_parameters(f) && !have_data)
        throw InputError("--format " + name + " writes parameters: give --data DATA.csv");
      out.formats.push_back(f);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return out;
}

void add_params_options(CLI::App& app, ParamOptions& params) {
  app.add_option_function<std::string>(
         "--params",
         [&params](const std::string& t) {
           const bool keep = params.appearance_order;
           params = parse_params(t);
           params.appearance_order = keep;
         },
         "Parameters of the networks written, by bnlearn's bn.fit methods: bayes:ISS (the "
         "posterior mean under BDeu's prior of imaginary sample size ISS: each cell of a CPT of "
         "r states and q parent configurations gets ISS/(r q) pseudo-counts, so no probability "
         "is 0) or mle (relative frequencies); parent configurations never seen get the "
         "uniform distribution")
      ->check(CLI::Validator(
          [](std::string& t) {
            try {
              parse_params(t);
            } catch (const InputError& e) {
              return std::string(e.what());
            }
            return std::string();
          },
          ""))
      ->type_name("METHOD")
      ->default_str(describe(params))
      ->group(kOutputGroup);
  app.add_option_function<std::string>(
         "--state-order",
         [&params](const std::string& t) { params.appearance_order = t == "appearance"; },
         "Order of the states in the networks written: sorted (numbers numerically, then the "
         "others bytewise; intervals of --discretize in order) or appearance (first "
         "appearance in the data)")
      ->check(CLI::IsMember({"sorted", "appearance"}))
      ->type_name("ORDER")
      ->default_str("sorted")
      ->group(kOutputGroup);
}

void add_network_options(CLI::App& app, NetworkArgs& args) {
  add_params_options(app, args.files.params);
  app.add_option("--format", args.formats,
                 "Also write the best network as PREFIX.best.EXT in these formats (comma-"
                 "separated or repeated): " +
                     alternatives(kNetFormatNames) +
                     " (see bnsl convert --help); BIF (.best.bif) and DOT (.best.dot) are "
                     "always written")
      ->type_name("F[,F...]")
      ->group(kOutputGroup);
}

void add_score_options(CLI::App& app, ScoreParams& p) {
  app.add_option_function<std::string>(
         "--score", [&p](const std::string& s) { p.kind = parse_score_kind(s); },
         "Local score: " + alternatives(kScoreKindNames))
      ->check(CLI::IsMember(names_of(kScoreKindNames)))
      ->type_name("NAME")
      ->default_str(to_string(p.kind))
      ->group(kScoreGroup);
  app.add_option("--ess", p.ess, "BDeu equivalent sample size")
      ->check(finite_range(0, 1e300, true))
      ->type_name("ESS")
      ->capture_default_str()
      ->group(kScoreGroup);
}

void add_epsilon_options(CLI::App& app, EpsilonArgs& a) {
  auto* bf = app.add_option("--bayes-factor", a.bayes_factor,
                            "Keep what networks within this Bayes factor of the best may use: "
                            "epsilon = ln BF")
                 ->check(finite_range(1, 1e300))
                 ->type_name("BF")
                 ->default_str("20")
                 ->group(kScoreGroup);
  auto* eps = app.add_option("--epsilon", a.epsilon, "Score slack epsilon (log units), >= 0")
                  ->check(finite_range(0, 1e300))
                  ->type_name("EPS")
                  ->group(kScoreGroup);
  auto* rho = app.add_option("--factor", a.factor,
                             "Factor RHO >= 1 of the best score: epsilon = (RHO - 1) |best|")
                  ->check(finite_range(1, 1e300))
                  ->type_name("RHO")
                  ->group(kScoreGroup);
  bf->excludes(eps)->excludes(rho);
  eps->excludes(rho);
}

CLI::Validator finite_range(double lo, double hi, bool lo_open) {
  const std::string range = (lo_open ? "(" : "[") + number_text(lo) + ", " + number_text(hi) + "]";
  return CLI::Validator(
      [=](std::string& text) {
        char* end = nullptr;
        const double x = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return std::string();  // CLI11 says: not a number
        if (!std::isfinite(x) || x < lo || x > hi || (lo_open && x == lo))
          return "'" + text + "' is not a number in " + range;
        return std::string();
      },
      "NUMBER in " + range);
}

CLI::Validator seed_range() {
  return CLI::Validator(
      [](std::string& text) {
        std::uint64_t x = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), x);
        if (text.empty() || error != std::errc() || end != text.data() + text.size())
          return "'" + text + "' is not a seed: a whole number from 0 to 18446744073709551615";
        return std::string();
      },
      "SEED");
}

void add_run_options(CLI::App& app, RunArgs& a) {
  app.add_option("--time", a.time, "Wall-clock budget in seconds (0: no limit)")
      ->check(finite_range(0, 1e9))
      ->type_name("SECONDS")
      ->capture_default_str()
      ->group(kBudgetGroup);
  app.add_option("--threads", a.threads, "Worker threads (0: all cores)")
      ->check(CLI::Range(0, 4096))
      ->type_name("N")
      ->capture_default_str()
      ->group(kBudgetGroup);
  app.add_flag("-q,--quiet", a.quiet, "No progress or summary on stderr")->group(kOutputGroup);
  app.add_flag("-v,--verbose", a.verbose,
               "Every counter in the summary on stderr (pruning rules, moves, the pool's "
               "offers), not one short block per phase; --stats has them all as JSON")
      ->group(kOutputGroup);
  app.add_option("--stats", a.stats_file, "Write run statistics as JSON to this file")
      ->type_name("FILE")
      ->group(kOutputGroup);
  app.add_option_function<std::vector<std::string>>(
         "--set",
         [&a](const std::vector<std::string>& all) {
           for (const std::string& s : all) set_tunable(a.tunables, s);
         },
         "Set a tunable for this run (repeatable): a share, a rate or a count of the "
         "exploration, the search or the budget policy; the list, with defaults and ranges, "
         "follows the options")
      ->type_name("NAME=VALUE")
      ->group(kAdvancedGroup);
}

namespace {

int parse_candidates(const std::string& text) {
  std::size_t used = 0;
  int c = -1;
  try {
    c = std::stoi(text, &used);
  } catch (...) {
    used = 0;
  }
  if (used != text.size() || c < 1)
    throw InputError("--candidates expects a positive number, 'auto' or 'all', got '" + text + "'");
  return c;
}

}  // namespace

void add_explore_options(CLI::App& app, ExploreOptions& o, std::string& vars) {
  app.add_option_function<std::string>(
         "--explore", [&o](const std::string& m) { o.method = parse_explore_method(m); },
         "Parent-set exploration: is (independence selection, BIC*-guided), greedy, hybrid "
         "(is with 1 step in 32 taken greedily: finds parents that only matter together), or "
         "seq (all sets up to --max-parents)")
      ->check(CLI::IsMember(names_of(kExploreMethodNames)))
      ->type_name("NAME")
      ->default_str(to_string(o.method))
      ->group(kScoreGroup);
  app.add_option("--max-parents", o.max_parents,
                 "In-degree limit (default: none for is/greedy/hybrid, whose sizes the "
                 "pruning rules cap; 3 for seq)")
      ->check(CLI::Range(0, 64))
      ->type_name("K")
      ->group(kScoreGroup);
  app.add_option_function<std::string>(
         "--candidates",
         [&o](const std::string& c) {
           if (c == "auto")
             o.candidates = ExploreOptions::kAutoCandidates;
           else if (c == "all")
             o.candidates = 0;
           else
             o.candidates = parse_candidates(c);
         },
         "Screening: explore each variable's parent sets among its C best single parents, "
         "ranked by all-pairs statistics ('all': every variable; 'auto': " +
             std::to_string(ExploreTunables{}.narrow_screen_candidates) + " above " +
             std::to_string(ExploreTunables{}.auto_screen_vars) + " variables, " +
             std::to_string(ExploreTunables{}.auto_screen_candidates) + " above " +
             std::to_string(ExploreTunables{}.narrow_screen_vars) +
             ", else all). A screened cache is not provably complete")
      ->default_str(o.candidates == ExploreOptions::kAutoCandidates ? "auto"
                    : o.candidates == 0                             ? "all"
                                                                    : std::to_string(o.candidates))
      ->type_name("C")
      ->group(kAdvancedGroup);
  app.add_option("--time-per-var", o.time_per_var,
                 "Budget per variable in seconds, instead of one shared --time")
      ->check(finite_range(0, 1e9))
      ->type_name("SECONDS")
      ->group(kBudgetGroup);
  app.add_option("--vars", vars,
                 "Explore only variables A..B-1 ('A:B', 0-based), or slice K of N equal slices "
                 "('K/N', K from 0: a job array's task K of N); for job arrays and bnsl merge")
      ->type_name("RANGE")
      ->group(kInputGroup);
}

void add_memory_option(CLI::App& app, std::size_t& bytes) {
  app.add_option_function<double>(
         "--explore-memory",
         [&bytes](double mib) { bytes = static_cast<std::size_t>(mib * 1024 * 1024); },
         "Memory cap of one variable's parent-set exploration, MiB; a variable that "
         "reaches it stops as at its deadline (0: no cap; auto: half the memory "
         "available (MemAvailable, cgroup limit, ulimit -v), split between the threads)")
      ->check(finite_range(0, 1e12))
      ->type_name("MIB")
      ->default_str(bytes == ExploreOptions::kAutoMemory ? "auto" : std::to_string(bytes))
      ->group(kAdvancedGroup);
}

void parse_vars(const std::string& text, std::size_t n_vars, ExploreOptions& o) {
  if (text.empty()) return;
  const auto sep = text.find_first_of(":/");
  auto number = [&](const std::string& s, std::size_t fallback) -> std::size_t {
    if (s.empty()) return fallback;
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(s, &used);
    } catch (...) {
      used = 0;
    }
    if (used != s.size() || s[0] == '-')
      throw InputError(
          "--vars expects A:B (0-based variable indices) or K/N (slice K of N, "
          "0-based), got '" +
          text + "'");
    return static_cast<std::size_t>(v);
  };
  if (sep == std::string::npos) {
    o.var_begin = number(text, 0);
    o.var_end = o.var_begin + 1;
    return;
  }
  if (text[sep] == '/') {  // slice K of N: variables [n K / N, n (K + 1) / N)
    const std::size_t k = number(text.substr(0, sep), 0), parts = number(text.substr(sep + 1), 0);
    if (parts == 0 || k >= parts || parts > n_vars)
      throw InputError("--vars " + text + ": K/N needs 0 <= K < N <= " + std::to_string(n_vars) +
                       " (the data's variables)");
    o.var_begin = n_vars * k / parts;
    o.var_end = n_vars * (k + 1) / parts;
    return;
  }
  o.var_begin = number(text.substr(0, sep), 0);
  o.var_end = number(text.substr(sep + 1), static_cast<std::size_t>(-1));
}

void add_search_options(CLI::App& app, SearchOptions& o, std::string& trace) {
  app.add_option_function<std::string>(
         "--algo", [&o](const std::string& a) { o.algo = parse_search_algo(a); },
         "Ordering search: asobs (acyclic selection) or obs")
      ->check(CLI::IsMember(names_of(kSearchAlgoNames)))
      ->type_name("NAME")
      ->default_str(to_string(o.algo))
      ->group(kSearchGroup);
  app.add_option("--seed", o.seed,
                 "Random seed; chain c of the search uses a stream derived "
                 "from (seed, c)")
      ->check(seed_range())
      ->type_name("N")
      ->capture_default_str()
      ->group(kSearchGroup);
  app.add_option("--pool-max", o.pool_max,
                 "Most equivalence classes kept in the pool; when more lie within epsilon, the "
                 "best of each of 16 score bands spanning epsilon are kept (problems solved "
                 "exactly keep the best)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->type_name("N")
      ->capture_default_str()
      ->group(kPoolGroup);
  app.add_option("--max-dags", o.max_dags,
                 "Most DAGs of those classes listed in the pool file, best classes first")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->type_name("N")
      ->capture_default_str()
      ->group(kPoolGroup);
  app.add_option("--pool-max-cells", o.pool_max_cells,
                 "Also keep at most this many classes x variables and list at most this many "
                 "DAGs x variables (but at least 1,000 of each), so pools of large networks "
                 "stay small in memory and quick to report: 10,000,000 is 9,606 DAGs of munin's "
                 "1,041 variables (0: no such cap)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 50))
      ->type_name("N")
      ->capture_default_str()
      ->group(kAdvancedGroup);
  app.add_option("--checkpoint", o.checkpoint,
                 "Seconds between refreshes of the output files during the search (0: none)")
      ->check(finite_range(0, 1e9))
      ->type_name("SECONDS")
      ->capture_default_str()
      ->group(kAdvancedGroup);
  app.add_option("--exact-max-vars", o.dp_max_n,
                 "Up to this many variables, solve exactly instead of searching: the subset "
                 "DP of `bnsl exact` proves the optimum over the cache and lists every network "
                 "within epsilon (22 variables: seconds, 214 MB); 0: always search orders")
      ->check(CLI::Range(0, 22))
      ->type_name("N")
      ->capture_default_str()
      ->group(kSearchGroup);
  app.add_option("--trace", trace,
                 "Write the anytime curve to this file: one line 'elapsed_seconds best_score' "
                 "per rise of the best score (seconds since the command started)")
      ->type_name("FILE")
      ->group(kAdvancedGroup);
}

Constraints ConstraintArgs::resolve_for_cache(const std::string& path,
                                              const std::vector<std::string>& names) const {
  Constraints c = resolve(names);
  const std::optional<CacheProvenance> p = read_jkl_provenance(path);
  const std::string explored = p ? p->constraints : "unknown";
  if (!c.required.empty() && explored != c.fingerprint())
    throw InputError(path, 0, 0,
                     "required arcs need a cache explored with them (this one: constraints " +
                         explored + ", not " + c.fingerprint() +
                         "): score it with `bnsl score --require` and the same files");
  if (p && p->constraints != "none" && p->constraints != c.fingerprint())
    throw InputError(path, 0, 0,
                     "the cache was explored under other constraints (" + p->constraints +
                         ", not " + c.fingerprint() +
                         "): give the --require, --forbid and --tiers files it was scored with");
  return c;
}

void add_constraint_options(CLI::App& app, ConstraintArgs& a) {
  app.add_option("--require", a.files.require,
                 "CSV of arcs every network must hold (header from,to; variable names as in the "
                 "data; bnlearn's whitelist): every scored parent set of a child holds its "
                 "required parents, and the pruning rules are applied among such sets; they "
                 "count towards --max-parents. Exit 2 if they close a cycle, or one is forbidden "
                 "or goes against the tiers")
      ->type_name("FILE")
      ->group(kKnowledgeGroup);
  app.add_option("--forbid", a.files.forbid,
                 "CSV of arcs no network may hold (header from,to; variable names as in the "
                 "data; bnlearn's blacklist): never scored as parents, absent from every network "
                 "reported; equivalence classes then count only their DAGs without them")
      ->type_name("FILE")
      ->group(kKnowledgeGroup);
  app.add_option("--tiers", a.files.tiers,
                 "CSV of tiers (header variable,tier; tier an integer from 0, earliest first): "
                 "no arc from a later tier into an earlier one (e.g. age and sex in 0, exposure "
                 "in 1, outcome in 2); variables not listed are in no tier")
      ->type_name("FILE")
      ->group(kKnowledgeGroup);
}

void add_output_options(CLI::App& app, OutputOptions& options) {
  app.add_flag("--matrices", options.matrices,
               "Also write PREFIX.best.adjacency.csv and PREFIX.probabilities.csv: the best "
               "network's adjacency matrix and the arc probabilities, n x n, with a header row of "
               "the variables' names (Benchpress's layout; row: from, column: to)")
      ->group(kOutputGroup);
}

void add_prefer_option(CLI::App& app, std::string& file) {
  app.add_option("--prefer-arcs", file,
                 "CSV of preferred arcs (header from,to or from,to,weight; variable names as in "
                 "the data): each equivalence class reported, and the best network written as "
                 "BIF and DOT, is the DAG of its class holding the most weight of them")
      ->type_name("FILE")
      ->group(kKnowledgeGroup);
}

void add_pool_options(CLI::App& app, PoolArgs& a, ScoreParams& score) {
  add_csv_options(app, a.csv);
  add_run_options(app, a.run);
  add_score_options(app, score);
  add_epsilon_options(app, a.eps);
  add_prefer_option(app, a.prefer_file);
  add_output_options(app, a.output);
  add_constraint_options(app, a.constraints);
  add_network_options(app, a.networks);
}

void add_exact_options(CLI::App& app, ExactOptions& o) {
  app.add_option_function<std::string>(
         "--method", [&o](const std::string& m) { o.method = parse_exact_method(m); },
         "auto: dp up to " + std::to_string(kAutoDpMaxVars) +
             " variables, else ilp; ilp: integer programming with COIN-OR CBC; dp: subset "
             "dynamic programming, up to about 26 variables (each method checks the other)")
      ->check(CLI::IsMember(names_of(kExactMethodNames)))
      ->type_name("NAME")
      ->default_str(to_string(o.method))
      ->group(kSearchGroup);
  app.add_option("--max-solutions", o.max_solutions,
                 "List at most this many networks: when more lie within epsilon, the pool holds "
                 "the best this many (incomplete; the search goes on until it has them, or "
                 "--time), and the summary gives the score above which it lists every one")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->type_name("N")
      ->capture_default_str()
      ->group(kPoolGroup);
  app.add_flag("--count", o.count_within,
               "When more networks lie within epsilon than --max-solutions and the DP's search "
               "for the best of them finished: enumerate them all again, counting without "
               "keeping them, until --time (the pool's dags_within, exact or a lower bound; a "
               "count of billions takes hours: give --time)")
      ->group(kPoolGroup);
  CLI::Option* dags = app.add_option_function<std::size_t>(
      "--k-best",
      [&o](std::size_t k) {
        o.k_best = {k, false};
      },
      "List the K best networks (and any tied with the K-th) instead of every network within "
      "epsilon. From a CSV the exploration starts as wide as the epsilon options say (default "
      "ln 20) and widens when fewer than K networks lie within it");
  dags->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))->type_name("K")->group(kPoolGroup);
  CLI::Option* classes = app.add_option_function<std::size_t>(
      "--k-best-classes",
      [&o](std::size_t k) {
        o.k_best = {k, true};
      },
      "List every DAG of the K best equivalence classes (and of any class tied with the K-th), "
      "as --k-best does for DAGs");
  classes->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40))
      ->type_name("K")
      ->group(kPoolGroup);
  dags->excludes(classes);
  CLI::Option* each = app.add_flag(
      "--classes", o.classes,
      "List each equivalence class within epsilon once, by one of its DAGs (the pool's classes "
      "give their sizes), instead of every DAG; --max-solutions then counts classes. With the "
      "DP, most members of a class are never visited");
  each->excludes(dags)->excludes(classes)->group(kPoolGroup);
  app.add_flag("--class-nogoods", o.class_nogoods,
               "With --classes --method ilp: the ILP's collection lists by its LP search alone, "
               "and each class listed adds a no-good row on its characteristic imset, so the "
               "search does not meet the class's other DAGs again (default: they are met and "
               "skipped). A cross-check, slower where the search meets many classes")
      ->needs(each)
      ->group(kAdvancedGroup);
}

void add_explore_share_option(CLI::App& app, std::optional<double>& share) {
  app.add_option_function<double>(
         "--explore-share", [&share](double s) { share = s; },
         "Share of --time spent exploring parent sets; the search gets the rest (default " +
             number_text(BudgetTunables{}.explore_share) + "; " +
             number_text(BudgetTunables{}.screened_explore_share) + " with screening, above " +
             std::to_string(BudgetTunables{}.screened_share_vars) +
             " variables; up to --exact-max-vars variables, where the search is the fast "
             "subset DP, up to " +
             number_text(BudgetTunables{}.dp_explore_share) + ")")
      ->check(finite_range(0, 1))
      ->type_name("SHARE")
      ->group(kAdvancedGroup);
}

}  // namespace bnsl::cli
