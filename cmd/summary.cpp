// The short phase summaries of stderr (summary.hpp): the figures a user acts on, from the
// library's statistics structs; their print() is the --verbose block.
#include "summary.hpp"

#include <cmath>
#include <cstdio>

#include "outputs.hpp"
#include "util/memory.hpp"

namespace bnsl::cli {
namespace {

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", seconds);
  return text;
}

}  // namespace

std::string brief_summary(const ExploreStats& s) {
  std::ostringstream out;
  out << "bnsl: explore: " << seconds_text(s.seconds) << ", " << s.vars_explored << " variables";
  if (s.vars_out_of_time > 0) out << " (" << s.vars_out_of_time << " stopped by the budget)";
  if (s.vars_resumed > 0) out << ", " << s.vars_resumed << " from the earlier run";
  out << ", " << s.sets_scored << " sets scored; cache " << s.cache_entries << " entries, "
      << s.cache_bytes / 1024 << " KiB\n";
  if (s.candidates > 0)
    out << "bnsl: explore: screened to " << s.candidates
        << " candidate parents per variable (--candidates): the cache is not provably complete\n";
  if (s.vars_out_of_memory > 0)
    out << "bnsl: explore: out of memory in " << s.vars_out_of_memory
        << " variables (--explore-memory: " << bytes_text(static_cast<double>(s.memory_per_var))
        << " per variable)\n";
  return out.str();
}

std::string brief_summary(const SearchStats& s) {
  std::ostringstream out;
  out << "bnsl: search: " << seconds_text(s.seconds) << ", best " << score_text(s.best_score)
      << " found at " << seconds_text(s.best_time) << ", " << s.orders << " orders; " << s.pool_size
      << " classes kept\n";
  if (s.pool_truncated)
    out << "bnsl: search: the pool was full at " << s.pool_capacity
        << " classes (--pool-max, --pool-max-cells): classes within epsilon were dropped, the "
           "best of each score band kept\n";
  if (s.report_classes_cut > 0)
    out << "bnsl: search: the worst " << s.report_classes_cut << " of " << s.pool_size
        << " classes left out of the report: the time left summarized the best "
        << s.pool_size - s.report_classes_cut << " only\n";
  return out.str();
}

std::string brief_summary(const ExactStats& s) {
  // A cut exploration: what the method proved holds among the cached families only.
  const std::string among = s.cache_cut ? " among the cached families" : "";
  std::ostringstream out;
  out << "bnsl: exact (" << s.method << "): best " << score_text(s.opt)
      << (!s.optimal    ? ", upper bound " + score_text(s.bound)
          : s.cache_cut ? " (optimal" + among + ")"
                        : " (proven optimal)")
      << "; " << s.solutions << (s.classes ? " classes" : " DAGs") << " listed"
      << (s.complete    ? " (complete" + among + ")"
          : s.truncated ? " (the best: more are within epsilon than --max-solutions)"
                        : " (partial)")
      << "\n";
  if (s.truncated && s.dags_within > 0)
    out << "bnsl: exact: " << (s.dags_within_exact ? "" : "at least ") << s.dags_within
        << " DAGs within epsilon" << among << "\n";
  if (std::isfinite(s.listed_above))
    out << "bnsl: exact: every " << (s.classes ? "class" : "DAG") << among << " scoring above "
        << score_text(s.listed_above) << " is listed\n";
  if (s.k_best > 0 && s.k_best_short)
    out << "bnsl: exact: fewer than " << s.k_best << " within the exploration's epsilon\n";
  return out.str();
}

}  // namespace bnsl::cli
