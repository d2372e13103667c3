// The R package's glue: the library's pipeline (include/bnsl/learn.hpp) behind a few Rcpp
// functions; R/bnsl.R turns data frames into the columns given here and the lists returned
// into bnlearn's objects. The model is the Python extension (python/_bnsl.cpp): the same calls,
// budgets and constraint checks, so a run's messages are the command line's.
//
// A run goes on in a worker thread while R's (main) thread waits: R's API may be called from
// that thread only, and it polls for Ctrl-C every 50 ms. An interrupt raises bnsl's stop flag
// (propagate_signal), the run ends as at a deadline and returns what it found, and the R
// interrupt is consumed (the result says `interrupted`). bnsl's flag is cleared after every run.
#include <Rcpp.h>

#include <R_ext/Utils.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <future>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/bif.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "bnsl/sample.hpp"
#include "bnsl/stop.hpp"

namespace {

// R_CheckUserInterrupt() longjmps on an interrupt; R_ToplevelExec() keeps the jump inside it,
// so no C++ frame is skipped: it returns FALSE when the check jumped.
void check_interrupt(void*) {
  R_CheckUserInterrupt();
}
bool interrupt_pending() {
  return R_ToplevelExec(check_interrupt, nullptr) == FALSE;
}

// Runs job() on a worker thread; the calling thread polls R's interrupts every 50 ms and turns
// one into bnsl's stop flag. The job's exceptions are rethrown here (Rcpp makes them R errors).
template <class Job>
auto run_interruptible(Job job, bool& interrupted) {
  interrupted = false;
  bnsl::clear_signal();
  auto future = std::async(std::launch::async, std::move(job));
  while (future.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
    if (!interrupted && interrupt_pending()) {
      interrupted = true;
      bnsl::propagate_signal(SIGINT);
    }
  }
  bnsl::clear_signal();
  return future.get();
}

// The data: CSV text parsed by bnsl's reader (a frame the reader's rules must judge: numbers,
// missing values, no rows; its messages name `source`), or columns already coded by R/bnsl.R.
bnsl::Dataset make_data(const Rcpp::List& data) {
  const std::string text = Rcpp::as<std::string>(data["text"]);
  const std::string source = Rcpp::as<std::string>(data["source"]);
  if (!text.empty() || Rf_isNull(data["names"])) {
    bnsl::CsvOptions o;
    o.missing_as_state = Rcpp::as<bool>(data["missing_as_state"]);
    return bnsl::parse_csv(text, source, o);
  }
  const auto names = Rcpp::as<std::vector<std::string>>(data["names"]);
  const Rcpp::List states = data["states"], codes = data["codes"];
  bnsl::Dataset d;
  for (std::size_t v = 0; v < names.size(); ++v) {
    const auto s = Rcpp::as<std::vector<std::string>>(states[v]);
    const Rcpp::IntegerVector c = codes[v];
    std::vector<std::uint32_t> column(c.size());
    for (R_xlen_t i = 0; i < c.size(); ++i) {
      if (c[i] < 0 || static_cast<std::size_t>(c[i]) >= s.size())
        throw bnsl::InputError("data: column '" + names[v] + "' has a code beyond its states");
      column[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(c[i]);
    }
    d.add_column(names[v], s, column);
  }
  return d;
}

// Constraints from name lists, with the checks of the files: errors name the list
// ("whitelist", "blacklist", "tiers").
bnsl::Constraints make_constraints(const bnsl::Dataset& data, const Rcpp::List& lists) {
  const auto arcs = [&](const char* what) {
    const Rcpp::List arc_list = lists[what];
    const auto from = Rcpp::as<std::vector<std::string>>(arc_list["from"]);
    const auto to = Rcpp::as<std::vector<std::string>>(arc_list["to"]);
    bnsl::NamedArcs out;
    for (std::size_t i = 0; i < from.size(); ++i) out.emplace_back(from[i], to[i]);
    return out;
  };
  const Rcpp::List tier_list = lists["tiers"];
  const auto names = Rcpp::as<std::vector<std::string>>(tier_list["variable"]);
  const auto values = Rcpp::as<std::vector<int>>(tier_list["tier"]);
  bnsl::NamedTiers tiers;
  for (std::size_t i = 0; i < names.size(); ++i) tiers.emplace_back(names[i], values[i]);
  return bnsl::constraints_by_name(arcs("whitelist"), arcs("blacklist"), tiers,
                                   {"whitelist", "blacklist", "tiers"}, data.names());
}

bnsl::ScoreParams make_score(const std::string& score, double iss) {
  bnsl::ScoreParams p;
  p.kind = bnsl::parse_score_kind(score);
  p.ess = iss;
  return p;
}

Rcpp::CharacterVector names_of(const std::vector<int>& vars, const bnsl::PoolReport& r) {
  Rcpp::CharacterVector out(vars.size());
  for (std::size_t i = 0; i < vars.size(); ++i)
    out[static_cast<R_xlen_t>(i)] = r.variables[static_cast<std::size_t>(vars[i])];
  return out;
}

// A DAG's arcs as a data frame (from, to), by child then parent.
Rcpp::DataFrame arc_frame(const bnsl::ParentSets& dag, const bnsl::PoolReport& r) {
  std::vector<int> from, to;
  for (std::size_t v = 0; v < dag.size(); ++v)
    for (int p : dag[v]) {
      from.push_back(p);
      to.push_back(static_cast<int>(v));
    }
  return Rcpp::DataFrame::create(Rcpp::Named("from") = names_of(from, r),
                                 Rcpp::Named("to") = names_of(to, r),
                                 Rcpp::Named("stringsAsFactors") = false);
}

bool has_arc(const bnsl::ParentSets& dag, int from, int to) {
  const auto& p = dag[static_cast<std::size_t>(to)];
  return std::find(p.begin(), p.end(), from) != p.end();
}

// How a class's DAG differs from the best class's, as PREFIX.classes.csv says it: the arcs it
// adds, the ones it removes and the ones it reverses, each "A -> B; C -> D".
struct Changes {
  int count = 0;
  std::string added, removed, reversed;
};

void append_arc(std::string& list, int from, int to, const bnsl::PoolReport& r) {
  if (!list.empty()) list += "; ";
  list += r.variables[static_cast<std::size_t>(from)] + " -> " +
          r.variables[static_cast<std::size_t>(to)];
}

Changes changes(const bnsl::ParentSets& base, const bnsl::ParentSets& dag,
                const bnsl::PoolReport& r) {
  Changes c;
  for (std::size_t v = 0; v < dag.size(); ++v) {
    const int to = static_cast<int>(v);
    for (int from : dag[v]) {
      if (has_arc(base, from, to)) continue;
      ++c.count;
      append_arc(has_arc(base, to, from) ? c.reversed : c.added, from, to, r);
    }
    for (int from : base[v])
      if (!has_arc(dag, from, to) && !has_arc(dag, to, from)) {
        ++c.count;
        append_arc(c.removed, from, to, r);
      }
  }
  return c;
}

Rcpp::DataFrame class_frame(const bnsl::PoolReport& r) {
  const std::size_t n = r.classes.size();
  Rcpp::NumericVector score(n), log10_size(n);
  Rcpp::CharacterVector size(n), added(n), removed(n), reversed(n);
  Rcpp::IntegerVector differs(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bnsl::PoolClass& k = r.classes[i];
    const auto at = static_cast<R_xlen_t>(i);
    score[at] = k.score;
    size[at] = k.size;
    log10_size[at] = k.log10_size;
    const Changes c = changes(r.classes[0].dag, k.dag, r);
    differs[at] = c.count;
    added[at] = c.added;
    removed[at] = c.removed;
    reversed[at] = c.reversed;
  }
  return Rcpp::DataFrame::create(
      Rcpp::Named("score") = score, Rcpp::Named("size") = size,
      Rcpp::Named("log10_size") = log10_size, Rcpp::Named("differs") = differs,
      Rcpp::Named("added") = added, Rcpp::Named("removed") = removed,
      Rcpp::Named("reversed") = reversed, Rcpp::Named("stringsAsFactors") = false);
}

Rcpp::DataFrame edge_frame(const bnsl::PoolReport& r) {
  std::vector<int> from, to;
  Rcpp::NumericVector p(r.edges.size()), p_edge(r.edges.size());
  for (std::size_t i = 0; i < r.edges.size(); ++i) {
    from.push_back(r.edges[i].from);
    to.push_back(r.edges[i].to);
    p[static_cast<R_xlen_t>(i)] = r.edges[i].p;
    p_edge[static_cast<R_xlen_t>(i)] = r.edges[i].p_edge;
  }
  return Rcpp::DataFrame::create(Rcpp::Named("from") = names_of(from, r),
                                 Rcpp::Named("to") = names_of(to, r), Rcpp::Named("p") = p,
                                 Rcpp::Named("p_edge") = p_edge,
                                 Rcpp::Named("stringsAsFactors") = false);
}

// A report as an R list: the best DAG's arcs, the classes, the edge probabilities, the flags.
Rcpp::List report_list(const bnsl::PoolReport& r, bool interrupted, const std::string& stats) {
  const bool any = !r.dags.empty() || !r.classes.empty();
  const bnsl::ParentSets none(r.variables.size());
  const bnsl::ParentSets& best = any ? bnsl::best_network(r) : none;
  const double best_score = !r.dags.empty()      ? r.dags[0].score
                            : !r.classes.empty() ? r.classes[0].score
                                                 : NA_REAL;
  return Rcpp::List::create(
      Rcpp::Named("variables") = r.variables, Rcpp::Named("rows") = static_cast<double>(r.rows),
      Rcpp::Named("score_type") = r.score, Rcpp::Named("best_score") = best_score,
      Rcpp::Named("arcs") = arc_frame(best, r), Rcpp::Named("classes") = class_frame(r),
      Rcpp::Named("edges") = edge_frame(r), Rcpp::Named("has_p_edge") = r.has_p_edge,
      Rcpp::Named("epsilon") = r.epsilon, Rcpp::Named("optimal") = r.optimal,
      Rcpp::Named("complete") = r.complete,
      Rcpp::Named("n_dags") = static_cast<double>(r.dags.size()),
      Rcpp::Named("interrupted") = interrupted, Rcpp::Named("stats") = stats);
}

// A report run (learn, exact) within `time` seconds: job(stop) returns the report and its
// counters as JSON.
template <class Job>
Rcpp::List report_run(double time, Job job) {
  bool interrupted = false;
  auto [report, stats] = run_interruptible(
      [&] {
        const bnsl::StopToken stop(time);
        return job(stop);
      },
      interrupted);
  return report_list(report, interrupted, stats);
}

bnsl::Epsilon make_epsilon(double epsilon, double bayes_factor) {
  return Rcpp::NumericVector::is_na(epsilon) ? bnsl::Epsilon::bayes_factor(bayes_factor)
                                             : bnsl::Epsilon::epsilon(epsilon);
}

}  // namespace

// [[Rcpp::export(.bnsl_learn)]]
Rcpp::List bnsl_learn_cpp(Rcpp::List data, double time, std::string score, double iss,
                          double epsilon, double bayes_factor, int threads, double seed,
                          Rcpp::List constraints, bool quiet, int maxp) {
  const bnsl::Dataset d = make_data(data);
  bnsl::LearnOptions o;
  o.explore.score = make_score(score, iss);
  o.explore.epsilon = make_epsilon(epsilon, bayes_factor);
  o.explore.constraints = make_constraints(d, constraints);
  o.explore.max_parents = maxp;
  o.search.seed = static_cast<std::uint64_t>(seed);
  o.threads = threads;
  o.progress = !quiet;
  return report_run(time, [&](const bnsl::StopToken& stop) {
    bnsl::LearnResult r = bnsl::learn(d, o, stop);
    return std::make_pair(std::move(r.report), "{\"explore\": " + r.explore.to_json() +
                                                   ", \"search\": " + r.search.to_json() + "}");
  });
}

// [[Rcpp::export(.bnsl_exact)]]
Rcpp::List bnsl_exact_cpp(Rcpp::List data, double time, std::string score, double iss,
                          double epsilon, double bayes_factor, int threads, Rcpp::List constraints,
                          bool quiet, int maxp, std::string method, double max_solutions,
                          bool classes) {
  const bnsl::Dataset d = make_data(data);
  bnsl::ExactLearnOptions o;
  o.score = make_score(score, iss);
  o.exact.epsilon = make_epsilon(epsilon, bayes_factor);
  o.exact.method = bnsl::parse_exact_method(method);
  o.exact.max_solutions = static_cast<std::size_t>(max_solutions);
  o.exact.classes = classes;
  o.constraints = make_constraints(d, constraints);
  o.constraints.max_parents = maxp;
  o.threads = threads;
  o.progress = !quiet;
  return report_run(time, [&](const bnsl::StopToken& stop) {
    bnsl::ExactLearnResult r = bnsl::learn_exact(d, o, stop);
    return std::make_pair(std::move(r.report), "{\"explore\": " + r.explore.to_json() +
                                                   ", \"exact\": " + r.exact.to_json() + "}");
  });
}

// [[Rcpp::export(.bnsl_read_pool)]]
Rcpp::List bnsl_read_pool_cpp(std::string path) {
  return report_list(bnsl::read_pool_json(path), false, "{}");
}

// [[Rcpp::export(.bnsl_sample)]]
Rcpp::List bnsl_sample_cpp(std::string bif, double n, double seed) {
  const bnsl::Dataset d = bnsl::sample(bnsl::read_bif(bif), static_cast<std::size_t>(n),
                                       static_cast<std::uint64_t>(seed));
  Rcpp::List columns(d.n_vars());
  for (std::size_t v = 0; v < d.n_vars(); ++v) {
    Rcpp::IntegerVector codes(d.n_rows());
    for (std::size_t i = 0; i < d.n_rows(); ++i) codes[static_cast<R_xlen_t>(i)] = d.code(v, i) + 1;
    std::vector<std::string> states;
    for (int k = 0; k < d.arity(v); ++k) states.push_back(d.state_name(v, k));
    codes.attr("levels") = states;
    codes.attr("class") = "factor";
    columns[static_cast<R_xlen_t>(v)] = codes;
  }
  columns.attr("names") = d.names();
  return columns;
}
