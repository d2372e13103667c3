// The ordering search's statistics (bnsl/search.hpp, SearchStats): the summary on stderr, the
// --stats JSON, the chains' counters added up, and the pool's account of itself.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "bnsl/search.hpp"
#include "io/report_io.hpp"
#include "search/driver.hpp"

namespace bnsl {

void SearchStats::print(std::ostream& out) const {
  char head[160];
  std::snprintf(head, sizeof head, "search: %.2f s, best %.4f (found at %.2f s)\n", seconds,
                best_score, best_time);
  const double secs = seconds > 0 ? seconds : 1;
  out << head << "  orders evaluated  " << orders << " ("
      << static_cast<std::uint64_t>(orders / secs) << "/s)\n"
      << "  swaps             " << swaps_tried << " tried ("
      << static_cast<std::uint64_t>(swaps_tried / secs) << "/s), " << swaps_accepted
      << " accepted, " << insertions << " insertions, " << pulls << " parent pulls\n"
      << "  climbs            " << local_optima << " (" << restarts << " restarts, "
      << perturbations << " perturbations)\n"
      << "  seed network      " << seed_score << " (" << seed_seconds << " s)\n"
      << "  improvements      " << improvements << "\n"
      << "  enumerations      " << enumerations << "\n"
      << "  neighbours        " << neighbours_expanded << " DAGs expanded (and " << members_expanded
      << " other members of their classes), " << neighbours_admitted << " neighbours admitted ("
      << neighbours_reversed << " by an arc reversal, " << neighbours_paired
      << " by two changes that break a cycle, " << neighbours_rises
      << " better than the best before; the best climbed by " << climb_changes
      << " family changes and reversals first)\n"
      << "  neighbour walk    " << completion_seconds << " s"
      << (completion_stopped ? " (stopped early)" : "")
      << (completion_runs > resumes + 1 ? ", also when the chains stalled" : "")
      << (resumes > 0 ? ", the chains resumed after it " + std::to_string(resumes) +
                            (resumes == 1 ? " time" : " times")
                      : std::string())
      << "\n"
      << "  pool              " << pool_offers << " offers, " << pool_inserted
      << " classes admitted, " << pool_equivalent << " equivalent to a kept one, " << pool_size
      << " classes kept"
      << (pool_truncated ? " (full at " + std::to_string(pool_capacity) +
                               " (--pool-max, --pool-max-cells): classes within epsilon were "
                               "dropped, the best of each score band kept)"
                         : std::string())
      << "\n";
  if (account.within > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "  within epsilon    %zu classes over %.2f nats; the walk around the final best "
                  "%.2f s (%s)\n",
                  account.within, account.spread, account.walk_seconds,
                  account.walk_finished ? "finished" : "stopped by the deadline");
    out << line;
  }
  if (!account.note.empty()) out << "  small pool        " << account.note << "\n";
  if (chains_overrun > 0.5 || checkpoints_skipped > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "  chains' end       the last chain returned %.2f s after it; %llu checkpoints "
                  "skipped (they would have ended after it)\n",
                  chains_overrun, static_cast<unsigned long long>(checkpoints_skipped));
    out << line;
  }
  if (report_measurements > 0) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "  final report      %.2f s kept for it (%.2g s per class-cell, %.2g per listed "
                  "DAG-cell, %llu measurements)\n",
                  report_reserve, report_class_cell, report_dag_cell,
                  static_cast<unsigned long long>(report_measurements));
    out << line;
  }
  if (report_classes_cut > 0)
    out << "  report cut        the worst " << report_classes_cut << " of " << pool_size
        << " classes left out: the time left summarized the best " << pool_size - report_classes_cut
        << " only\n";
  if (start_networks > 0)
    out << "  start networks    " << start_networks
        << " pooled (learn's draft network, or the classes of the run it resumes)\n";
  if (peer_networks + peer_classes > 0)
    out << "  other processes   " << peer_networks << " best networks received, " << peer_classes
        << " classes pooled at the end\n";
}

std::string SearchStats::to_json() const {
  nlohmann::json j = {{"orders", orders},
                      {"swaps_tried", swaps_tried},
                      {"swaps_accepted", swaps_accepted},
                      {"insertions", insertions},
                      {"pulls", pulls},
                      {"restarts", restarts},
                      {"perturbations", perturbations},
                      {"local_optima", local_optima},
                      {"improvements", improvements},
                      {"enumerations", enumerations},
                      {"neighbours_expanded", neighbours_expanded},
                      {"members_expanded", members_expanded},
                      {"neighbours_admitted", neighbours_admitted},
                      {"neighbours_reversed", neighbours_reversed},
                      {"neighbours_paired", neighbours_paired},
                      {"neighbours_rises", neighbours_rises},
                      {"climb_changes", climb_changes},
                      {"completion_stopped", completion_stopped},
                      {"completion_seconds", completion_seconds},
                      {"completion_runs", completion_runs},
                      {"resumes", resumes},
                      {"pool_offers", pool_offers},
                      {"pool_inserted", pool_inserted},
                      {"pool_equivalent", pool_equivalent},
                      {"pool_size", pool_size},
                      {"pool_capacity", pool_capacity},
                      {"pool_truncated", pool_truncated},
                      {"start_networks", start_networks},
                      {"peer_networks", peer_networks},
                      {"peer_classes", peer_classes},
                      {"report_class_cell", report_class_cell},
                      {"report_dag_cell", report_dag_cell},
                      {"report_measurements", report_measurements},
                      {"report_reserve", report_reserve},
                      {"report_classes_cut", report_classes_cut},
                      {"chains_overrun", chains_overrun},
                      {"checkpoints_skipped", checkpoints_skipped},
                      {"account", pool_account_json(account)},
                      {"seed_score", seed_score},
                      {"seed_seconds", seed_seconds},
                      {"best_score", best_score},
                      {"best_time", best_time},
                      {"seconds", seconds}};
  return j.dump(2);
}

// Why a pool holds less than a tenth of what it admitted and of its capacity (PoolAccount::note).
std::string small_pool_note(const PoolAccount& a, const DagPool::Losses& losses,
                            std::size_t capacity) {
  char text[512];
  std::string note = std::to_string(a.within) + (a.within == 1 ? " class" : " classes") +
                     " within epsilon of " + std::to_string(a.admitted) + " admitted";
  if (a.left_epsilon > 0) {
    std::snprintf(text, sizeof text,
                  "; %llu fell more than epsilon below the best as it rose (its last such rise, "
                  "by %.4g nats, left %llu behind)",
                  static_cast<unsigned long long>(a.left_epsilon), losses.last_rise,
                  static_cast<unsigned long long>(losses.last_trimmed));
    note += text;
  }
  if (a.for_room > 0)
    note += "; " + std::to_string(a.for_room) + " were dropped or turned away for room (" +
            std::to_string(capacity) + " classes at most)";
  if (a.cut > 0)
    note += "; " + std::to_string(a.cut) + " were left out of the report for lack of time";
  std::snprintf(
      text, sizeof text, "; the neighbour walk around the final best ran %.2f s and %s",
      a.walk_seconds,
      a.walk_finished ? "finished (it walked all it could)" : "was stopped by the deadline");
  return note + text;
}

void add_stats(SearchStats& to, const SearchStats& s) {
  to.orders += s.orders;
  to.swaps_tried += s.swaps_tried;
  to.swaps_accepted += s.swaps_accepted;
  to.insertions += s.insertions;
  to.pulls += s.pulls;
  to.restarts += s.restarts;
  to.perturbations += s.perturbations;
  to.local_optima += s.local_optima;
  to.enumerations += s.enumerations;
  to.pool_offers += s.pool_offers;
  to.pool_inserted += s.pool_inserted;
}

}  // namespace bnsl
