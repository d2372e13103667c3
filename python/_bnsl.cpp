// The Python extension `bnsl._bnsl`: the library's pipeline (include/bnsl/learn.hpp) behind a
// few functions; python/bnsl/__init__.py turns data frames into Data and reports into networkx
// graphs and pandas frames. Options arrive as keyword values already checked by that layer.
//
// A report stays in C++ (Report): Python reads its scores, class sizes and edge probabilities
// as numpy arrays, and one DAG's or one class's parent sets when it asks for them, so a pool of
// a hundred thousand DAGs costs nothing until it is used. Pool files are read by the library's
// reader (bnsl::read_pool_json), whatever their format.
//
// Runs release the GIL and go on in a worker thread while the calling (main) thread waits, so
// that Python's own SIGINT handler runs: Ctrl-C raises bnsl's stop flag (propagate_signal),
// the run ends as at a deadline and returns what it found, and the KeyboardInterrupt is dropped
// (the report says `interrupted`). bnsl's flag is cleared again after every run.
//
// Names, states, paths and texts are bytes in the library, in whatever encoding the CSV had.
// They reach Python as str decoded from UTF-8 with 'surrogateescape', Python's convention for
// file names (os.fsdecode): a byte that is not UTF-8 becomes U+DC80 + byte, and
// s.encode("utf-8", "surrogateescape") gives the bytes back. Python's str (encoded so) or
// bytes are taken back (Bytes below); so are bnsl's error messages, which may quote a name.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <exception>
#include <future>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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
#include "bnsl/results.hpp"
#include "bnsl/sample.hpp"
#include "bnsl/stop.hpp"

namespace py = pybind11;

namespace {

// Bytes to and from Python as the module's text says.
struct Bytes {
  std::string s;
};

py::str decode(std::string_view s) {
  PyObject* o =
      PyUnicode_DecodeUTF8(s.data(), static_cast<py::ssize_t>(s.size()), "surrogateescape");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

py::list decode(const std::vector<std::string>& v) {
  py::list out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = decode(v[i]);
  return out;
}

std::vector<std::string> strings(const std::vector<Bytes>& v) {
  std::vector<std::string> out;
  out.reserve(v.size());
  for (const Bytes& b : v) out.push_back(b.s);
  return out;
}

}  // namespace

namespace pybind11::detail {
template <>
struct type_caster<Bytes> {
  PYBIND11_TYPE_CASTER(Bytes, const_name("str"));
  bool load(handle src, bool) {
    object bytes;
    if (PyUnicode_Check(src.ptr())) {
      bytes = reinterpret_steal<object>(
          PyUnicode_AsEncodedString(src.ptr(), "utf-8", "surrogateescape"));
      if (!bytes) {  // a surrogate that no byte stands for
        PyErr_Clear();
        return false;
      }
    } else if (PyBytes_Check(src.ptr())) {
      bytes = reinterpret_borrow<object>(src);
    } else {
      return false;
    }
    value.s.assign(PyBytes_AS_STRING(bytes.ptr()),
                   static_cast<std::size_t>(PyBytes_GET_SIZE(bytes.ptr())));
    return true;
  }
  static handle cast(const Bytes& b, return_value_policy, handle) { return decode(b.s).release(); }
};
}  // namespace pybind11::detail

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

// A data set from columns already coded (the DataFrame path of python/bnsl/_data.py, which
// sends a frame here only when the CSV reader's rules hold; otherwise it parses the frame as
// CSV text, so that the reader's errors are raised).
bnsl::Dataset make_data(
    const std::vector<Bytes>& name_bytes, const std::vector<std::vector<Bytes>>& states,
    const std::vector<py::array_t<std::uint16_t, py::array::c_style | py::array::forcecast>>&
        codes) {
  if (name_bytes.size() != states.size() || name_bytes.size() != codes.size())
    throw bnsl::InputError("data: names, states and code columns differ in number");
  const std::vector<std::string> names = strings(name_bytes);
  bnsl::Dataset d;
  for (std::size_t v = 0; v < names.size(); ++v) {
    const std::span<const std::uint16_t> column(codes[v].data(),
                                                static_cast<std::size_t>(codes[v].size()));
    for (std::uint16_t c : column)
      if (c >= states[v].size())
        throw bnsl::InputError("data: column '" + names[v] + "' has a code beyond its states");
    if (v > 0 && column.size() != d.n_rows())
      throw bnsl::InputError("data: column '" + names[v] + "' has another number of rows");
    d.add_column(names[v], strings(states[v]), column);
  }
  return d;
}

bnsl::CsvOptions csv_options(bool header, const std::string& delimiter, bool missing_as_state) {
  bnsl::CsvOptions o;
  o.header = header;
  if (delimiter.size() != 1) throw bnsl::InputError("delimiter must be one character");
  o.delimiter = delimiter[0];
  o.missing_as_state = missing_as_state;
  return o;
}

using ArcList = std::vector<std::pair<Bytes, Bytes>>;
using TierList = std::vector<std::pair<Bytes, int>>;

bnsl::NamedArcs named(const ArcList& arcs) {
  bnsl::NamedArcs out;
  for (const auto& [from, to] : arcs) out.emplace_back(from.s, to.s);
  return out;
}

// Constraints from name lists, with the checks of the files: errors name the list ("require",
// "forbid", "tiers") and the item's position from 1.
bnsl::Constraints make_constraints(const bnsl::Dataset& data, const ArcList& require,
                                   const ArcList& forbid, const TierList& tiers) {
  bnsl::NamedTiers named_tiers;
  for (const auto& [name, tier] : tiers) named_tiers.emplace_back(name.s, tier);
  return bnsl::constraints_by_name(named(require), named(forbid), named_tiers,
                                   {"require", "forbid", "tiers"}, data.names());
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

// A vector's values as a new numpy array.
template <class T, class Get>
py::array_t<T> array_of(std::size_t n, Get get) {
  py::array_t<T> out(static_cast<py::ssize_t>(n));
  auto a = out.template mutable_unchecked<1>();
  for (std::size_t i = 0; i < n; ++i) a(static_cast<py::ssize_t>(i)) = get(i);
  return out;
}

const bnsl::PoolDag& dag_at(const Run& r, std::size_t i) {
  if (i >= r.report.dags.size()) throw py::index_error("DAG index out of range");
  return r.report.dags[i];
}

const bnsl::PoolClass& class_at(const Run& r, std::size_t i) {
  if (i >= r.report.classes.size()) throw py::index_error("class index out of range");
  return r.report.classes[i];
}

// The report's fields; its DAGs and classes one at a time, and their scores, sizes and the
// edge probabilities as arrays.
void bind_report(py::module_& m) {
  py::class_<Run>(m, "Report")
      .def_readonly("stats", &Run::stats)
      .def_readonly("interrupted", &Run::interrupted)
      .def_property_readonly("variables", [](const Run& r) { return decode(r.report.variables); })
      .def_property_readonly("rows", [](const Run& r) { return r.report.rows; })
      .def_property_readonly("score", [](const Run& r) { return r.report.score; })
      .def_property_readonly("ess", [](const Run& r) { return r.report.ess; })
      .def_property_readonly("epsilon", [](const Run& r) { return r.report.epsilon; })
      .def_property_readonly("optimal", [](const Run& r) { return r.report.optimal; })
      .def_property_readonly("complete", [](const Run& r) { return r.report.complete; })
      .def_property_readonly("listed_above", [](const Run& r) { return r.report.listed_above; })
      .def_property_readonly("dags_within", [](const Run& r) { return r.report.dags_within; })
      .def_property_readonly("dags_within_exact",
                             [](const Run& r) { return r.report.dags_within_exact; })
      .def_property_readonly("n_dags", [](const Run& r) { return r.report.dags.size(); })
      .def_property_readonly("n_classes", [](const Run& r) { return r.report.classes.size(); })
      .def("dag_scores",
           [](const Run& r) {
             return array_of<double>(r.report.dags.size(),
                                     [&](std::size_t i) { return r.report.dags[i].score; });
           })
      .def("dag_classes",
           [](const Run& r) {
             return array_of<std::int64_t>(r.report.dags.size(),
                                           [&](std::size_t i) { return r.report.dags[i].mec; });
           })
      .def(
          "dag", [](const Run& r, std::size_t i) { return dag_at(r, i).parents; }, py::arg("i"))
      .def("class_scores",
           [](const Run& r) {
             return array_of<double>(r.report.classes.size(),
                                     [&](std::size_t i) { return r.report.classes[i].score; });
           })
      .def("class_log10_sizes",
           [](const Run& r) {
             return array_of<double>(r.report.classes.size(),
                                     [&](std::size_t i) { return r.report.classes[i].log10_size; });
           })
      .def(
          "class_info",
          [](const Run& r, std::size_t i) {
            const bnsl::PoolClass& k = class_at(r, i);
            return py::make_tuple(k.score, k.size, k.log10_size, k.dag, k.arcs, k.edges, k.members,
                                  k.first);
          },
          py::arg("i"))
      .def("edges",
           [](const Run& r) {
             const auto& e = r.report.edges;
             py::dict out;
             out["from"] =
                 array_of<std::int64_t>(e.size(), [&](std::size_t i) { return e[i].from; });
             out["to"] = array_of<std::int64_t>(e.size(), [&](std::size_t i) { return e[i].to; });
             out["p"] = array_of<double>(e.size(), [&](std::size_t i) { return e[i].p; });
             out["p_edge"] = array_of<double>(e.size(), [&](std::size_t i) { return e[i].p_edge; });
             return out;
           })
      .def_property_readonly("has_p_edge", [](const Run& r) { return r.report.has_p_edge; })
      .def_property_readonly("best",
                             [](const Run& r) -> bnsl::ParentSets {
                               if (r.report.dags.empty() && r.report.classes.empty()) return {};
                               return bnsl::best_network(r.report);
                             })
      .def(
          "write",
          [](Run& r, const Bytes& prefix, const bnsl::Dataset* data) {
            bnsl::write_outputs(prefix.s, r.report, data);
          },
          py::arg("prefix"), py::arg("data").none(true))
      .def(
          "bif",
          [](const Run& r, const bnsl::Dataset& data) {
            return decode(
                bnsl::bif_text(bnsl::estimate_parameters(data, bnsl::best_network(r.report))));
          },
          py::arg("data"));
}

}  // namespace

PYBIND11_MODULE(_bnsl, m) {
  m.doc() = "bnsl's C++ library (use the bnsl package, not this module)";
  m.attr("__version__") = BNSL_VERSION;
  // bnsl's errors as register_exception and pybind11 would raise them (InputError, a
  // ValueError; RuntimeError), their messages decoded as names are.
  static PyObject* input_error =
      py::exception<bnsl::InputError>(m, "InputError", PyExc_ValueError).release().ptr();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const bnsl::InputError& e) {
      PyErr_SetObject(input_error, decode(e.what()).ptr());
    } catch (const bnsl::RuntimeError& e) {
      PyErr_SetObject(PyExc_RuntimeError, decode(e.what()).ptr());
    }
  });

  py::class_<bnsl::Dataset>(m, "Data")
      .def_property_readonly("n_vars", &bnsl::Dataset::n_vars)
      .def_property_readonly("n_rows", &bnsl::Dataset::n_rows)
      .def_property_readonly("names", [](const bnsl::Dataset& d) { return decode(d.names()); })
      .def("states", [](const bnsl::Dataset& d, std::size_t v) {
        py::list s;
        for (int k = 0; k < d.arity(v); ++k) s.append(decode(d.state_name(v, k)));
        return s;
      });
  m.def(
      "codes",
      [](const bnsl::Dataset& d, std::size_t v) {
        return array_of<std::int32_t>(d.n_rows(), [&](std::size_t i) { return d.code(v, i); });
      },
      py::arg("data"), py::arg("var"));
  m.def("make_data", &make_data, py::arg("names"), py::arg("states"), py::arg("codes"));
  m.def(
      "read_csv",
      [](const Bytes& path, bool header, const std::string& delimiter, bool missing_as_state) {
        return bnsl::read_csv(path.s, csv_options(header, delimiter, missing_as_state));
      },
      py::arg("path"), py::arg("header") = true, py::arg("delimiter") = ",",
      py::arg("missing_as_state") = false);
  m.def(
      "parse_csv",
      [](const Bytes& text, const Bytes& name, bool missing_as_state) {
        return bnsl::parse_csv(text.s, name.s, csv_options(true, ",", missing_as_state));
      },
      py::arg("text"), py::arg("name"), py::arg("missing_as_state") = false);

  bind_report(m);
  m.def(
      "read_pool",
      [](const Bytes& path) {
        Run run;
        run.report = bnsl::read_pool_json(path.s);
        run.stats = "{}";
        return run;
      },
      py::arg("path"));

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
          [](const bnsl::ScoreCache& c, const Bytes& path) { bnsl::write_jkl(path.s, c); },
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
      [](const Bytes& bif, std::size_t n, std::uint64_t seed, bool is_text) {
        const bnsl::BayesNet net =
            is_text ? bnsl::parse_bif(bif.s, "<bif text>") : bnsl::read_bif(bif.s);
        return bnsl::sample(net, n, seed);
      },
      py::arg("bif"), py::arg("n"), py::arg("seed"), py::arg("is_text"));
}
