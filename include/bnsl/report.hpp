// The result of a learning run: a pool of DAGs within epsilon of the best, grouped into Markov
// equivalence classes, with edge probabilities (the files that report it: bnsl/results.hpp).
//
//   bnsl::PoolReport r;
//   r.score = "bic"; r.variables = data.names(); r.rows = data.n_rows(); r.epsilon = 2.9957;
//   r.dags = {{-54209.3, parents0}, {-54210.1, parents1}};    // sorted best first
//   bnsl::summarize(r);   // the classes, their sizes and the edge probabilities
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bnsl/constraints.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/graph.hpp"
#include "bnsl/stop.hpp"
#include "bnsl/tunables.hpp"

namespace bnsl {

struct PoolDag {
  double score = 0;
  ParentSets parents;
  int mec = -1;  // equivalence class id (filled by summarize)
};

// One Markov equivalence class of the pool, best first. Score-equivalent scores (BIC, BDeu)
// give every DAG of a class the same score, so a class holds `size` DAGs of score `score`; the
// pool lists `members` of them in `dags` (all of them when the list is not cut by max_dags).
struct PoolClass {
  double score = 0;         // the score of its DAGs
  std::string size;         // the number of DAGs in the class, exactly (decimal)
  double log10_size = 0;    // log10 of size
  ParentSets dag;           // one of its DAGs
  std::size_t members = 0;  // DAGs of the class listed in PoolReport::dags
  std::size_t first = 0;    // index in PoolReport::dags of the first of them (if members > 0)
  // The class's essential graph (CPDAG): compelled arcs (from, to) and reversible edges
  // (u, v) with u < v, each list sorted.
  std::vector<std::pair<int, int>> arcs, edges;
};

// Edge probabilities weigh each class by size * exp(score - best): BIC and BDeu approximate
// the log marginal likelihood, so this is (approximately) the posterior mass of the class's
// DAGs under a uniform prior over the DAGs of the pool's classes.
struct EdgeProb {
  int from = 0, to = 0;  // arc from -> to
  double p = 0;          // posterior mass of the DAGs with this arc (p_arc) ...
  double p_edge = 0;     // ... and with the edge in either direction
};

// What prefer_arcs() did: the preferred arcs, the classes one of whose reversible edges carries
// one, how many of them now show another member, and how many were too large to search whole
// (their member is a local optimum).
struct PreferSummary {
  std::size_t arcs = 0, classes = 0, changed = 0, partial = 0;
};

// What the ordering search says of its pool (`search`, `learn`): how many classes lie within
// epsilon of the best and over how many nats, what became of the other classes it admitted
// (the best rose past them, or there was no room), and the neighbour walk around the final
// best. `note` says why the pool is small when it holds less than a tenth of what it admitted
// and of its capacity (empty otherwise).
struct PoolAccount {
  std::size_t within = 0;          // classes within epsilon of the best: the report's classes
  double spread = 0;               // the best class's score minus the worst one's (nats)
  std::uint64_t admitted = 0;      // classes the pool admitted during the search
  std::uint64_t left_epsilon = 0;  // ... that fell more than epsilon below the best as it rose
  std::uint64_t for_room = 0;      // classes within epsilon dropped or turned away for room
  std::uint64_t cut = 0;           // pooled classes the report left out for lack of time
  double walk_seconds = 0;         // the neighbour walk around the final best
  bool walk_finished = false;      // ... walked all it could (not stopped by the deadline)
  std::string note;
};

struct PoolReport {
  std::string score = "bic";  // "bic" | "bdeu"
  std::optional<double> ess;  // BDeu only
  std::vector<std::string> variables;
  std::vector<Discretization> discretized;  // columns cut into intervals on reading
  std::size_t rows = 0;
  double epsilon = 0;
  bool optimal = false;       // best score proven optimal
  bool complete = false;      // every class within epsilon of the optimum is listed
  bool memory_short = false;  // exact mode: the listing stopped, the list would not fit in memory
  // Exact mode past --max-solutions, its search finished: every DAG (class) scoring above this
  // is listed, and none below (the list holds the best within epsilon).
  std::optional<double> listed_above;
  // Exact mode, DAG lists: how many DAGs lie within epsilon, when known (the complete list's
  // size, or the count of `bnsl exact --count` past --max-solutions); dags_within_exact false:
  // that count stopped at the deadline, and it is a lower bound.
  std::optional<std::uint64_t> dags_within;
  bool dags_within_exact = false;
  std::vector<PoolDag> dags;       // DAGs of the classes, sorted best first
  int mec_count = 0;               // filled by summarize: classes.size()
  std::vector<PoolClass> classes;  // best first, by class id (summarize derives them from
                                   // dags when empty)
  std::vector<EdgeProb> edges;     // filled by summarize: arcs with p > 0, by decreasing p
  // False for a file read whose edges have no p_edge (written before p_edge existed; every
  // p_edge then reads 0).
  bool has_p_edge = true;
  // Reversible edges' orientations: chain components estimated from sampled members (0: all
  // exact), and the members drawn for each.
  std::size_t orientation_sampled = 0, orientation_samples = 0;
  // Classes whose size under the constraints is estimated (sampled).
  std::size_t sizes_estimated = 0;
  // A k-best list (bnsl exact --k-best, --k-best-classes): K asked (0: an epsilon list) and
  // what it counts. `dags` then holds the K best DAGs, or every DAG of the K best classes,
  // and those tied with the K-th; epsilon is OPT minus the last one's score, so a complete
  // report is also the complete list within epsilon.
  std::size_t k_best = 0;
  bool k_best_classes = false;
  std::optional<PreferSummary> preferred;  // set by prefer_arcs()
  // Required and forbidden arcs and tiers (bnsl/constraints.hpp): every DAG of the report
  // satisfies them, and its classes are classes of the constrained space: sizes, listed
  // members and edge orientations count only the DAGs of each Markov equivalence class that
  // satisfy them (a required arc is an edge of the class whose reverse is not allowed).
  Constraints constraints;
  std::string algorithm;  // e.g. "asobs", "ilp"
  double seconds = 0;     // wall time of the run
  // The ordering search's final report: what its pool is (PoolAccount).
  std::optional<PoolAccount> account;
};

// Completes the classes and computes the edge probabilities. When report.classes is empty,
// the classes are those of report.dags (in order of first appearance, each with its first
// DAG); otherwise each class is described from its `dag`. Then: each class's CPDAG and size
// (src/pool/mec_size.cpp), the class id of every listed DAG (a DAG of no listed class throws
// RuntimeError), and edge probabilities from the classes, a reversible edge's orientation
// weighed by the fraction of the class's DAGs that have it (src/pool/orientations.cpp). On
// `threads` threads (0: all cores).
void summarize(PoolReport& report, int threads = 0);

// How long a summary may take, by its own clock: class i (best first; the first always) is
// described only while Clock::now() + (i + 1) * seconds_per_class is before `end`, where
// seconds_per_class is what writing a described class costs after the summary (its JSON and
// freeing it). The default limit never cuts.
// After SIGINT or SIGTERM (seen while it runs), it describes classes for at most
// after_signal seconds more.
struct SummaryLimit {
  Clock::time_point end = Clock::time_point::max();
  double seconds_per_class = 0;
  double after_signal = std::numeric_limits<double>::infinity();
};

// summarize() within `limit`: the classes from the first one not described by then on are
// cut, with the listed DAGs of those classes, and the edge probabilities are those of the
// classes kept. Returns how many classes were cut. A report whose listed DAGs carry no class
// ids (they must be classified among every class) is summarized whole.
std::size_t summarize(PoolReport& report, int threads, const SummaryLimit& limit);

// After summarize(): each class shows the member that agrees most with `arcs` (the sum of the
// weights of the preferred arcs it holds), found among its members (src/pool/prefer_arcs.cpp);
// the best network written as BIF and DOT is the first class's DAG. Scores, sizes and edge
// probabilities do not change. tune: the members walked (pool.prefer_members, prefer_total).
PreferSummary prefer_arcs(PoolReport& report, const std::vector<NamedArc>& arcs,
                          const PoolTunables& tune = {});

// The best network the files show: dags[0], or the first class's DAG with preferences (the
// member of the best class that agrees most with them) or when no DAG is listed. The report
// must hold a DAG or a class.
const ParentSets& best_network(const PoolReport& report);

// The number of DAGs in the pool's classes (the sum of their sizes), exactly, in decimal: the
// number of DAGs a complete pool lists.
std::string class_dag_count(const PoolReport& report);

}  // namespace bnsl
