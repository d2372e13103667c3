// The budget policy: how one --time budget T is cut, from the top. Every cut below is made
// once, here or in the one file named; the shares are the budget.* and search.* tunables
// (bnsl/tunables.hpp), the estimates are measured while the run goes.
//
//  1. The outputs: output_reserve(T) (below), 3% of T, between 0.1 and 1 s, is kept for writing
//     the files after the search; the search ends by T less that (run_search, learn.cpp).
//  2. learn: the exploration gets learn_explore_seconds (below), less the time spent reading
//     the data (learn.cpp): budget.explore_share of T;
//     budget.screened_explore_share when it screens more than budget.screened_share_vars
//     variables (thousands: the search starts from the greedy network and its climbs converge
//     within a small share, while the exploration keeps finding families the best networks
//     use; from 300 to 1,000 variables, screened since issue 65, the search still needs half:
//     andes screened with 0.85 ended 33 to 92 nats below, link about 800 below); up to
//     budget.dp_explore_share, less four times the DP's estimate, when the search is the subset
//     DP (n <= dp_max_n: it takes little time while the exploration decides the result). exact:
//     budget.exact_explore_share of T (learn_exact, learn.cpp), then the solver has the rest.
//     Search rounds, each followed by proposals from its best network (learn.cpp,
//     src/explore/proposals.hpp): before the exploration, budget.early_rounds on the draft
//     cache, sharing what is left of budget.early_share of T (without screening
//     budget.early_share_unscreened), out of the
//     exploration's share (with screening 0.85 rather than the 0.75 it was before them, so
//     that the exploration keeps its time: gen10000 at 600 s ends 5,719 above the true
//     network with 0.85, 1,522 below with 0.75); after it, with screening, at most
//     budget.propose_rounds (without: budget.propose_rounds_unscreened, when the exploration
//     was cut) searches of at most budget.propose_round_share of the time left
//     each, then the last search.
//  3. The exploration shares its time between the variables: each, when it starts, gets the
//     time left times the threads over the variables left (src/explore/explore.cpp, make_task).
//  4. The search keeps search.completion_share of its time for the walk around the final best,
//     and a reserve for its report measured on a sample of the pool (src/search/reserve.cpp,
//     report_cost.cpp); the chains stop by their end, that less both.
//  5. The report summarizes its classes by its own clock and cuts those it has no time to
//     describe (summarize with a SummaryLimit, src/pool/summarize.cpp).
#include <algorithm>

#include "bnsl/learn.hpp"

namespace bnsl {

double output_reserve(double budget) {
  if (budget <= 0) return 0;
  return std::clamp(0.03 * budget, 0.1, 1.0);
}

double learn_explore_seconds(const LearnOptions& options, const Dataset& data, double budget) {
  if (options.explore_share) return *options.explore_share * budget;
  ExploreOptions timed = options.explore;  // screening applies to explorations with a budget
  timed.time = budget;
  const std::size_t n = data.n_vars();
  if (auto_candidates(timed, data) > 0 && n > options.budget.screened_share_vars)
    return options.budget.screened_explore_share * budget;
  if (n > static_cast<std::size_t>(std::max(0, options.search.dp_max_n)))
    return options.budget.explore_share * budget;
  const double dp = dp_seconds_estimate(static_cast<int>(n));
  return std::max(options.budget.explore_share * budget,
                  std::min(options.budget.dp_explore_share * budget, budget - 4 * dp));
}

}  // namespace bnsl
