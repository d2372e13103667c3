// `bnsl check DATA.csv PREFIX.pool.json`: runs the independent pool checker
// (include/bnsl/check.hpp) and prints one line per check on stdout, then a "not checked:" line
// for each statement of the file that no check reads; exit 0 when all hold, 1 on any
// mismatch, 2 on bad input.
#include <iostream>
#include <memory>

#include "bnsl/check.hpp"
#include "bnsl/dataset.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace bnsl::cli {
namespace {

void print_item(const PoolCheckItem& item) {
  constexpr std::size_t kShown = 20;
  std::cout << item.name << ": " << (item.problems.empty() ? "ok" : "FAILED");
  if (!item.detail.empty()) std::cout << " (" << item.detail << ")";
  std::cout << "\n";
  for (std::size_t i = 0; i < item.problems.size() && i < kShown; ++i)
    std::cout << "  " << item.problems[i] << "\n";
  if (item.problems.size() > kShown)
    std::cout << "  ... and " << item.problems.size() - kShown << " more\n";
}

struct CheckCommand {
  std::string data_path, pool_path;
  CsvArgs csv;
  ConstraintArgs constraints;
  double tolerance = 0;  // relative; 0: the project's score tolerance

  int execute() {
    Dataset data = read_data(data_path, csv, false);
    PoolCheckOptions o;
    o.tolerance = tolerance;
    o.data_name = data_path;
    const Constraints given = constraints.resolve(data.names());
    if (constraints.given()) o.constraints = &given;
    const PoolCheck c = check_pool_file(data, pool_path, o);
    std::cout << "check: " << pool_path << " against " << data_path << " (" << c.score << ", "
              << data.n_vars() << " variables, " << data.n_rows() << " rows, " << c.dags
              << " DAGs)\n";
    for (const auto& item : c.items) print_item(item);
    for (const std::string& what : c.skipped) std::cout << "not checked: " << what << "\n";
    const std::size_t failures = c.failures();
    std::cout << (failures == 0 ? "result: OK\n"
                                : "result: FAILED (" + std::to_string(failures) +
                                      (failures == 1 ? " problem)\n" : " problems)\n"));
    return failures == 0 ? 0 : 1;
  }
};

}  // namespace

Action register_check(CLI::App& app) {
  auto cmd = std::make_shared<CheckCommand>();
  CLI::App* sub = app.add_subcommand(
      "check",
      "Re-score every DAG of a pool file from the data and check acyclicity, order, "
      "distinctness, epsilon, scores, classes, the header's counts and edge probabilities, and "
      "list what it did not check. Exit 0 when all hold, 1 on any mismatch, 2 on bad input. "
      "With --require, --forbid or --tiers, also that no DAG breaks them.");
  sub->add_option("data", cmd->data_path, "CSV the pool was learned from")->required();
  sub->add_option("pool", cmd->pool_path, "PREFIX.pool.json to check")->required();
  add_csv_options(*sub, cmd->csv);
  sub->add_option("--tolerance", cmd->tolerance,
                  "Relative tolerance for score equality (default: 1e-9, the project's)")
      ->check(finite_range(0, 1));
  add_constraint_options(*sub, cmd->constraints);
  sub->get_option("--require")
      ->description(
          "CSV of required arcs (header from,to): every DAG of the pool must hold them, and the "
          "pool must have been learned under the same --require, --forbid and --tiers");
  sub->get_option("--forbid")
      ->description(
          "CSV of forbidden arcs (header from,to): no DAG of the pool may hold one, and the pool "
          "must have been learned under the same --forbid and --tiers");
  sub->get_option("--tiers")->description(
      "CSV of tiers (header variable,tier): no DAG of the pool may hold an arc from a later "
      "tier into an earlier one");
  return [sub, cmd]() { return sub->parsed() ? cmd->execute() : -1; };
}

}  // namespace bnsl::cli
