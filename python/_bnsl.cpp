// The Python extension `bnsl._bnsl`: the library's pipeline (include/bnsl/learn.hpp) behind a
// few functions; python/bnsl/__init__.py turns data frames into Data and reports into networkx
// graphs and pandas frames. Options arrive as keyword values already checked by that layer.
//
// Runs release the GIL and go on in a worker thread while the calling (main) thread waits, so
// that Python's own SIGINT handler runs: Ctrl-C raises bnsl's stop flag (propagate_signal),
// the run ends as at a deadline and returns what it found, and the KeyboardInterrupt is dropped
// (the report says `interrupted`). bnsl's flag is cleared again after every run.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <exception>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bnsl/bif.hpp"
#include "bnsl/cache.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/explore.hpp"
#include "bnsl/learn.hpp"
#include "bnsl/report.hpp"
#include "bnsl/sample.hpp"
#include "bnsl/stop.hpp"

namespace py = pybind11;

namespace {

// What a run returns to Python: its report and counters, and whether Ctrl-C ended it.
struct Run {
  bnsl::PoolReport report;
  std::string stats;  // JSON
  bool interrupted = false;
};

// Runs job() on a worker thread with the GIL released; the calling thread checks for Python
// signals every 50 ms (only the main thread may) and turns a KeyboardInterrupt into bnsl's
// stop flag. Exceptions of the job are rethrown here (pybind11 maps bnsl's to ValueError and
// RuntimeError, see the module below).
template <class Job>
auto run_interruptible(Job job, bool& interrupted) {
  interrupted = false;
  bnsl::clear_signal();
  auto future = std::async(std::launch::async, std::move(job));
  for (;;) {
    std::future_status status;
    {
      py::gil_scoped_release release;
      status = future.wait_for(std::chrono::milliseconds(50));
    }
    if (status == std::future_status::ready) break;
    if (!interrupted && PyErr_CheckSignals() != 0) {
      PyErr_Clear();
      interrupted = true;
      bnsl::propagate_signal(SIGINT);
    }
  }
  bnsl::clear_signal();
  return future.get();
}

// A report run (learn, exact) within `time` seconds: job(stop) returns the report and its
// counters as JSON.
template <class Job>
Run report_run(double time, Job job) {
  Run run;
  auto [report, stats] = run_interruptible(
      [&] {
        const bnsl::StopToken stop(time);
        return job(stop);
      },
      run.interrupted);
  run.report = std::move(report);
  run.stats = std::move(stats);
  return run;
}

bnsl::Dataset make_data(const std::vector<std::string>& names,
                        const std::vector<std::vector<std::string>>& states,
                        const std::vector<std::vector<std::uint32_t>>& codes) {
  if (names.size() != states.size() || names.size() != codes.size())
    throw bnsl::InputError("data: names, states and code columns differ in number");
  bnsl::Dataset d;
  for (std::size_t v = 0; v < names.size(); ++v) {
    for (std::uint32_t c : codes[v])
      if (c >= states[v].size())
        throw bnsl::InputError("data: column '" + names[v] + "' has a code beyond its states");
    if (v > 0 && codes[v].size() != codes[0].size())
      throw bnsl::InputError("data: column '" + names[v] + "' has another number of rows");
    d.add_column(names[v], states[v], codes[v]);
  }
  return d;
}

using ArcList = std::vector<std::pair<std::string, std::string>>;
using TierList = std::vector<std::pair<std::string, int>>;

// Constraints from name lists, with the checks of the files (bnsl::make_constraints): errors
// name the list ("require", "forbid", "tiers") and the item's position from 1.
bnsl::Constraints make_constraints(const bnsl::Dataset& data, const ArcList& require,
                                   const ArcList& forbid, const TierList& tiers) {
  const auto index = [&](const std::string& name, const char* list) {
    for (std::size_t v = 0; v < data.n_vars(); ++v)
      if (data.name(v) == name) return static_cast<int>(v);
    throw bnsl::InputError(std::string(list) + ": unknown variable '" + name + "'");
  };
  const auto arcs = [&](const ArcList& list, const char* what) {
    std::vector<bnsl::NamedArc> out;
    for (const auto& [from, to] : list) {
      bnsl::NamedArc a;
      a.from = index(from, what);
      a.to = index(to, what);
      a.line = out.size() + 1;
      out.push_back(a);
    }
    return out;
  };
  std::vector<int> tier_of;
  if (!tiers.empty()) {
    tier_of.assign(data.n_vars(), -1);
    for (const auto& [name, tier] : tiers) {
      if (tier < 0) throw bnsl::InputError("tiers: the tier of '" + name + "' must be >= 0");
      tier_of[static_cast<std::size_t>(index(name, "tiers"))] = tier;
    }
  }
  return bnsl::make_constraints(arcs(require, "require"), arcs(forbid, "forbid"),
                                std::move(tier_of), {"require", "forbid", "tiers"}, data.names());
}

bnsl::Epsilon make_epsilon(std::optional<double> epsilon, double bayes_factor) {
  return epsilon ? bnsl::Epsilon::epsilon(*epsilon) : bnsl::Epsilon::bayes_factor(bayes_factor);
}

bnsl::ScoreParams make_score(const std::string& score, double ess) {
  bnsl::ScoreParams p;
  p.kind = bnsl::parse_score_kind(score);
  p.ess = ess;
  return p;
}

Run learn(const bnsl::Dataset& data, double time, const std::string& score, double ess,
          std::optional<double> epsilon, double bayes_factor, int threads, std::uint64_t seed,
          const ArcList& require, const ArcList& forbid, const TierList& tiers, bool quiet,
          std::optional<std::size_t> pool_max, std::optional<std::size_t> max_dags,
          std::optional<int> exact_max_vars) {
  bnsl::LearnOptions o;
  o.explore.score = make_score(score, ess);
  o.explore.epsilon = make_epsilon(epsilon, bayes_factor);
  o.explore.constraints = make_constraints(data, require, forbid, tiers);
  o.search.seed = seed;
  if (pool_max) o.search.pool_max = *pool_max;
  if (max_dags) o.search.max_dags = *max_dags;
  if (exact_max_vars) o.search.dp_max_n = *exact_max_vars;
  o.threads = threads;
  o.progress = !quiet;
  return report_run(time, [&](const bnsl::StopToken& stop) {
    bnsl::LearnResult r = bnsl::learn(data, o, stop);
    return std::make_pair(std::move(r.report), "{\"explore\": " + r.explore.to_json() +
                                                   ", \"search\": " + r.search.to_json() + "}");
  });
}

Run exact(const bnsl::Dataset& data, double time, const std::string& score, double ess,
          std::optional<double> epsilon, double bayes_factor, int threads, const ArcList& require,
          const ArcList& forbid, const TierList& tiers, bool quiet, const std::string& method,
          std::size_t max_solutions, bool classes, std::optional<int> max_parents, bool count) {
  bnsl::ExactLearnOptions o;
  o.score = make_score(score, ess);
  o.exact.epsilon = make_epsilon(epsilon, bayes_factor);
  o.exact.method = bnsl::parse_exact_method(method);
  o.exact.max_solutions = max_solutions;
  o.exact.classes = classes;
  o.exact.count_within = count;
  o.constraints = make_constraints(data, require, forbid, tiers);
  if (max_parents) {
    if (*max_parents < 0) throw bnsl::InputError("max_parents must be >= 0");
    o.constraints.max_parents = *max_parents;
  }
  o.threads = threads;
  o.progress = !quiet;
  return report_run(time, [&](const bnsl::StopToken& stop) {
    bnsl::ExactLearnResult r = bnsl::learn_exact(data, o, stop);
    return std::make_pair(std::move(r.report), "{\"explore\": " + r.explore.to_json() +
                                                   ", \"exact\": " + r.exact.to_json() + "}");
  });
}

bnsl::ScoreCache score_cache(const bnsl::Dataset& data, double time, const std::string& score,
                             double ess, std::optional<double> epsilon, double bayes_factor,
                             int threads, const ArcList& require, const ArcList& forbid,
                             const TierList& tiers, bool quiet) {
  bnsl::ExploreOptions o;
  o.score = make_score(score, ess);
  o.epsilon = make_epsilon(epsilon, bayes_factor);
  o.constraints = make_constraints(data, require, forbid, tiers);
  o.threads = threads;
  o.progress = !quiet;
  o.time = time;
  bnsl::apply_default_budget(o, time > 0);
  bool interrupted = false;
  return run_interruptible(
      [&] {
        bnsl::StopToken stop(time);
        return bnsl::explore(data, o, stop);
      },
      interrupted);
}

}  // namespace

PYBIND11_MODULE(_bnsl, m) {
  m.doc() = "bnsl's C++ library (use the bnsl package, not this module)";
  py::register_exception<bnsl::InputError>(m, "InputError", PyExc_ValueError);

  py::class_<bnsl::Dataset>(m, "Data")
      .def_property_readonly("n_vars", &bnsl::Dataset::n_vars)
      .def_property_readonly("n_rows", &bnsl::Dataset::n_rows)
      .def_property_readonly("names", &bnsl::Dataset::names)
      .def("states", [](const bnsl::Dataset& d, std::size_t v) {
        std::vector<std::string> s;
        for (int k = 0; k < d.arity(v); ++k) s.push_back(d.state_name(v, k));
        return s;
      });
  m.def(
      "codes",
      [](const bnsl::Dataset& d, std::size_t v) {
        std::vector<int> out(d.n_rows());
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = d.code(v, i);
        return out;
      },
      py::arg("data"), py::arg("var"));
  m.def("make_data", &make_data, py::arg("names"), py::arg("states"), py::arg("codes"));
  m.def(
      "read_csv",
      [](const std::string& path, bool header, const std::string& delimiter,
         bool missing_as_state) {
        bnsl::CsvOptions o;
        o.header = header;
        if (delimiter.size() != 1) throw bnsl::InputError("delimiter must be one character");
        o.delimiter = delimiter[0];
        o.missing_as_state = missing_as_state;
        return bnsl::read_csv(path, o);
      },
      py::arg("path"), py::arg("header") = true, py::arg("delimiter") = ",",
      py::arg("missing_as_state") = false);

  py::class_<bnsl::PoolClass>(m, "Class")
      .def_readonly("score", &bnsl::PoolClass::score)
      .def_readonly("size", &bnsl::PoolClass::size)
      .def_readonly("log10_size", &bnsl::PoolClass::log10_size)
      .def_readonly("dag", &bnsl::PoolClass::dag)
      .def_readonly("arcs", &bnsl::PoolClass::arcs)
      .def_readonly("edges", &bnsl::PoolClass::edges);
  py::class_<Run>(m, "Report")
      .def_readonly("stats", &Run::stats)
      .def_readonly("interrupted", &Run::interrupted)
      .def_property_readonly("variables", [](const Run& r) { return r.report.variables; })
      .def_property_readonly("score", [](const Run& r) { return r.report.score; })
      .def_property_readonly("epsilon", [](const Run& r) { return r.report.epsilon; })
      .def_property_readonly("optimal", [](const Run& r) { return r.report.optimal; })
      .def_property_readonly("complete", [](const Run& r) { return r.report.complete; })
      .def_property_readonly("listed_above", [](const Run& r) { return r.report.listed_above; })
      .def_property_readonly("dags_within", [](const Run& r) { return r.report.dags_within; })
      .def_property_readonly("dags_within_exact",
                             [](const Run& r) { return r.report.dags_within_exact; })
      .def_property_readonly("classes", [](const Run& r) { return r.report.classes; })
      .def_property_readonly("dags",
                             [](const Run& r) {
                               std::vector<std::tuple<double, int, bnsl::ParentSets>> out;
                               for (const bnsl::PoolDag& d : r.report.dags)
                                 out.emplace_back(d.score, d.mec, d.parents);
                               return out;
                             })
      .def_property_readonly("edges",
                             [](const Run& r) {
                               std::vector<std::tuple<int, int, double, double>> out;
                               for (const bnsl::EdgeProb& e : r.report.edges)
                                 out.emplace_back(e.from, e.to, e.p, e.p_edge);
                               return out;
                             })
      .def_property_readonly("best", [](const Run& r) { return bnsl::best_network(r.report); })
      .def(
          "write",
          [](Run& r, const std::string& prefix, const bnsl::Dataset& data) {
            bnsl::write_outputs(prefix, r.report, &data);
          },
          py::arg("prefix"), py::arg("data"))
      .def(
          "bif",
          [](const Run& r, const bnsl::Dataset& data) {
            return bnsl::bif_text(bnsl::estimate_parameters(data, bnsl::best_network(r.report)));
          },
          py::arg("data"));

  py::class_<bnsl::ScoreCache>(m, "Cache")
      .def_property_readonly("n_vars", &bnsl::ScoreCache::n_vars)
      .def_property_readonly("entries", &bnsl::ScoreCache::total_entries)
      .def(
          "families",
          [](const bnsl::ScoreCache& c, std::size_t v) {
            std::vector<std::pair<double, std::vector<int>>> out;
            const bnsl::VarCache& vc = c.var(v);
            for (std::size_t i = 0; i < vc.size(); ++i) {
              const auto p = vc.parents(i);
              out.emplace_back(vc.score(i), std::vector<int>(p.begin(), p.end()));
            }
            return out;
          },
          py::arg("var"))
      .def(
          "write_jkl",
          [](const bnsl::ScoreCache& c, const std::string& path) { bnsl::write_jkl(path, c); },
          py::arg("path"));

  m.def("learn", &learn, py::arg("data"), py::arg("time"), py::arg("score"), py::arg("ess"),
        py::arg("epsilon"), py::arg("bayes_factor"), py::arg("threads"), py::arg("seed"),
        py::arg("require"), py::arg("forbid"), py::arg("tiers"), py::arg("quiet"),
        py::arg("pool_max"), py::arg("max_dags"), py::arg("exact_max_vars"));
  m.def("exact", &exact, py::arg("data"), py::arg("time"), py::arg("score"), py::arg("ess"),
        py::arg("epsilon"), py::arg("bayes_factor"), py::arg("threads"), py::arg("require"),
        py::arg("forbid"), py::arg("tiers"), py::arg("quiet"), py::arg("method"),
        py::arg("max_solutions"), py::arg("classes"), py::arg("max_parents"), py::arg("count"));
  m.def("score_cache", &score_cache, py::arg("data"), py::arg("time"), py::arg("score"),
        py::arg("ess"), py::arg("epsilon"), py::arg("bayes_factor"), py::arg("threads"),
        py::arg("require"), py::arg("forbid"), py::arg("tiers"), py::arg("quiet"));
  m.def(
      "sample",
      [](const std::string& bif, std::size_t n, std::uint64_t seed, bool is_text) {
        const bnsl::BayesNet net =
            is_text ? bnsl::parse_bif(bif, "<bif text>") : bnsl::read_bif(bif);
        return bnsl::sample(net, n, seed);
      },
      py::arg("bif"), py::arg("n"), py::arg("seed"), py::arg("is_text"));
}
