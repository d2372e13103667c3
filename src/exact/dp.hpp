// Exact dynamic programming over variable subsets (Silander & Myllymaki 2006) and the
// enumeration of every DAG within epsilon of its optimum. See dp.cpp and enumerate.cpp.
//
//   exact::FamilyTable fam = exact::make_family_table(cache);
//   exact::SubsetDp dp(fam, max_bytes, threads);   // throws InputError when too large
//   if (dp.run(stop)) { dp.opt(); dp.best_choice(); }
//   exact::Enumeration e = exact::enumerate_within(fam, dp, dp.opt() - eps, limit, stop);
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "bnsl/stop.hpp"
#include "bnsl/tunables.hpp"
#include "exact/families.hpp"

namespace bnsl::exact {

inline constexpr int kDpMaxVars = 30;  // hard cap of the subset tables' 32-bit indexing

class SubsetDp {
 public:
  // With best-family tables when they fit in min(max_bytes, memory); else without them, each
  // best family found by scanning the variable's families, but with tables for the variables
  // whose scans are longest as far as the memory left allows (see dp.cpp). Throws InputError
  // when even that exceeds max_bytes. table_worth: the average scan length (families tried)
  // above which a variable gets a table (tests lower it), estimated on scan_samples random
  // candidate sets (exact.dp_table_worth, exact.dp_scan_samples).
  SubsetDp(const FamilyTable& fam, std::size_t max_bytes, int threads,
           std::size_t memory = std::numeric_limits<std::size_t>::max(),
           double table_worth = ExactTunables{}.dp_table_worth,
           int scan_samples = ExactTunables{}.dp_scan_samples);

  // Bytes for n variables with the best-family tables, and without them.
  static std::size_t table_bytes(int n);
  static std::size_t scan_bytes(int n);
  // Bytes for n variables of the way chosen under a budget: with tables if they fit in it.
  static std::size_t bytes_needed(int n,
                                  std::size_t budget = std::numeric_limits<std::size_t>::max());
  // Throws the InputError the constructor would throw for n variables.
  static void check_limits(int n, std::size_t max_bytes);
  // Best families found by scanning, not by table, for some variables; tables for how many.
  bool scans() const { return scan_; }
  int tables() const { return tables_; }
  std::size_t bytes() const;  // of the tables filled (after run)

  // Fills the tables; false if stopped first (then nothing is valid).
  bool run(const StopToken& stop);

  // Best network on the variables of `set` whose parents all lie in `set` (-inf if none).
  double best(std::uint32_t set) const { return best_[set]; }
  double opt() const { return best_.back(); }
  // Family index (into fam) of v's best family with parents inside `candidates`; kNone if v
  // has none there. `candidates` must not contain v.
  std::uint32_t best_family(int v, std::uint32_t candidates) const;
  // The optimal network as family indices, reconstructed through the stored sinks.
  std::vector<std::uint32_t> best_choice() const;

  static constexpr std::uint32_t kNone = 0xffffffffu;

 private:
  void fill_best_family(int v);
  void fill_scan_list(int v);
  void choose_tables();
  // Scanning: the position in v's scan list of the first family within candidates (the
  // list's size when none is).
  std::size_t scan_position(int v, std::uint32_t candidates) const;
  bool fill_best_networks(const StopToken& stop);

  const FamilyTable& fam_;
  int n_;
  int threads_;
  bool scan_ = false;
  std::size_t table_budget_ = 0;  // scanning: bytes the best-family tables may take
  double table_worth_;
  int scan_samples_;
  int tables_ = 0;                                       // variables with a table
  std::vector<std::vector<std::uint32_t>> best_family_;  // [v][candidates without bit v]
                                                         // (empty: v is scanned)
  // Scanning: per variable, its families no better family's parent set is a subset of
  // (parent masks, and their family indices), best first.
  std::vector<std::vector<std::uint32_t>> scan_masks_, scan_families_;
  std::vector<double> best_;        // [set]: best network on set
  std::vector<std::uint8_t> sink_;  // [set]: sink of that network
};

struct Enumeration {
  std::vector<std::vector<std::uint32_t>> dags;  // family index per variable
  bool complete = false;   // the search finished, and every DAG within the threshold is listed
  bool truncated = false;  // more than max_solutions within the threshold: the best are listed
  // truncated and finished: every DAG (class) scoring above this is listed (-inf otherwise)
  double listed_above = -std::numeric_limits<double>::infinity();
  std::uint64_t nodes = 0;         // partial networks visited
  std::uint64_t leaves = 0;        // classes: DAGs reached (one or more per class)
  std::uint64_t covered_cuts = 0;  // classes: families cut by the covered-arc rule
  bool memory_short = false;       // stopped: the list would not fit in memory as a pool
  double memory_left = 0;          // ... bytes available then
};

// Every DAG scoring >= threshold, each exactly once, by branch and bound over sink
// decompositions bounded by dp.best(). dp must have run. With `classes`, every Markov
// equivalence class instead, each once (one DAG of it; max_solutions counts classes): see
// enumerate.cpp for the covered-arc rule that skips most members of a class.
Enumeration enumerate_within(const FamilyTable& fam, const SubsetDp& dp, double threshold,
                             std::size_t max_solutions, const StopToken& stop,
                             bool classes = false);

struct Count {
  std::uint64_t dags = 0;  // DAGs scoring >= threshold reached
  bool finished = false;   // all of them (else stopped: a lower bound)
  std::uint64_t nodes = 0;
};

// How many DAGs score >= threshold: the enumeration of enumerate_within, counting instead of
// listing. It stops on `stop` or when the deadline comes within the report reserve of
// report_dags DAGs (the list the run will write). dp must have run.
Count count_within(const FamilyTable& fam, const SubsetDp& dp, double threshold,
                   std::size_t report_dags, const StopToken& stop);

}  // namespace bnsl::exact
