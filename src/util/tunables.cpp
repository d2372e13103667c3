// The tunables' tables (bnsl/tunables.hpp): each part's X-macro list becomes rows of one table
// (name, default, range, why) and one setter per row, so that a name on the command line
// reaches its field, checked against its range.
#include "bnsl/tunables.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <type_traits>

#include "bnsl/error.hpp"
#include "util/nearest.hpp"
#include "util/number_text.hpp"

namespace bnsl {
namespace {

template <class T>
constexpr bool kInteger = std::is_integral_v<T>;

struct Row {
  TunableInfo info;
  void (*set)(Tunables&, double);
  double (*get)(const Tunables&);
};

#define BNSL_TUNABLE_ROW(part, type, name, value, lo, hi, why)                                     \
  Row{TunableInfo{#part "." #name, static_cast<double>(type{value}), lo, hi, kInteger<type>, why}, \
      [](Tunables& t, double x) { t.part.name = static_cast<type>(x); },                           \
      [](const Tunables& t) { return static_cast<double>(t.part.name); }},
#define BNSL_EXPLORE_ROW(...) BNSL_TUNABLE_ROW(explore, __VA_ARGS__)
#define BNSL_SEARCH_ROW(...) BNSL_TUNABLE_ROW(search, __VA_ARGS__)
#define BNSL_BUDGET_ROW(...) BNSL_TUNABLE_ROW(budget, __VA_ARGS__)
#define BNSL_POOL_ROW(...) BNSL_TUNABLE_ROW(pool, __VA_ARGS__)
#define BNSL_EXACT_ROW(...) BNSL_TUNABLE_ROW(exact, __VA_ARGS__)

const auto kRows = std::to_array<Row>({BNSL_EXPLORE_TUNABLES(BNSL_EXPLORE_ROW) BNSL_SEARCH_TUNABLES(
    BNSL_SEARCH_ROW) BNSL_BUDGET_TUNABLES(BNSL_BUDGET_ROW) BNSL_POOL_TUNABLES(BNSL_POOL_ROW)
                                           BNSL_EXACT_TUNABLES(BNSL_EXACT_ROW)});

const auto kInfos = [] {
  std::array<TunableInfo, kRows.size()> out{};
  for (std::size_t i = 0; i < kRows.size(); ++i) out[i] = kRows[i].info;
  return out;
}();

const Row& row(std::string_view name) {
  for (const Row& r : kRows)
    if (r.info.name == name) return r;
  std::array<std::string_view, kRows.size()> names{};
  for (std::size_t i = 0; i < kRows.size(); ++i) names[i] = kRows[i].info.name;
  const std::string nearest = nearest_name(name, names);
  throw InputError("--set: unknown tunable '" + std::string(name) + "'" +
                   (nearest.empty() ? "" : "; did you mean '" + nearest + "'?") +
                   " (`bnsl learn --help-all` lists them)");
}

}  // namespace

std::span<const TunableInfo> tunable_table() {
  return kInfos;
}

void set_tunable(Tunables& t, std::string_view name, double value) {
  const Row& r = row(name);
  const TunableInfo& i = r.info;
  if (!std::isfinite(value) || value < i.lo || value > i.hi ||
      (i.integer && value != std::floor(value)))
    throw InputError("--set " + std::string(name) + ": '" + number_text(value) + "' is not " +
                     (i.integer ? "a whole number" : "a number") + " in [" + number_text(i.lo) +
                     ", " + number_text(i.hi) + "]");
  r.set(t, value);
}

void set_tunable(Tunables& t, std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw InputError("--set '" + std::string(assignment) + "': NAME=VALUE expected");
  const std::string name(assignment.substr(0, eq)), text(assignment.substr(eq + 1));
  const Row& r = row(name);  // an unknown name before a bad value
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size())
    throw InputError("--set " + name + ": '" + text + "' is not a number");
  set_tunable(t, r.info.name, value);
}

std::vector<std::string> changed_tunables(const Tunables& t) {
  std::vector<std::string> out;
  for (const Row& r : kRows)
    if (const double x = r.get(t); x != r.info.value)
      out.push_back(std::string(r.info.name) + "=" + number_text(x));
  return out;
}

}  // namespace bnsl
