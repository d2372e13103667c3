// Evaluation of a learned network against a known one: structural comparison (arcs, skeleton
// edges, structural Hamming distance of DAGs and of their essential graphs) and the mean
// log-likelihood per row of held-out data; for a pool, the Brier score of its skeleton-edge
// probabilities.
//
//   bnsl::BayesNet truth = bnsl::read_bif("asia.bif");
//   bnsl::LearnedNetwork l = bnsl::read_learned("out/asia.pool.json", truth.names);
//   bnsl::StructureComparison c = bnsl::compare_structures(truth.parents, l.parents);
//   c.shd; c.shd_cpdag; c.arc_precision(); c.edge_recall();
//   bnsl::Dataset test = bnsl::read_csv("asia-test.csv", {});
//   double ll = bnsl::log_likelihood(truth, test, "asia-test.csv").mean();
//   bnsl::EdgeBrier b = bnsl::edge_brier(truth.parents, *l.edge_probabilities, l.parents,
//                                        "out/asia.pool.json", truth.names);
//   b.brier_pool; b.brier_best;   // lower is better; 0 = the true skeleton with certainty
//
// Definitions (both graphs over the same variables; a pair {u, v} is adjacent when either
// graph has an arc or edge between u and v):
//   arcs found     learned arcs u -> v that the truth has as u -> v
//   arcs reversed  learned arcs u -> v that the truth has as v -> u
//   arcs missed    true arcs whose pair is not adjacent in the learned graph
//   arcs extra     learned arcs whose pair is not adjacent in the truth
//   arc precision = found / learned arcs, arc recall = found / true arcs;
//   edges (skeletons, direction ignored): found = adjacent in both, missed, extra likewise;
//   precision and recall as for arcs. 0/0 gives NaN (JSON null, "n/a" in tables).
//   SHD (DAGs)    = missed + extra + reversed: each pair counts 1 when its mark differs.
//   SHD (CPDAGs)  the same count between the essential graphs (Tsamardinos, Brown & Aliferis
//                 2006, the definition pcalg's shd() uses): each pair counts 1 when the edge
//                 is missing, extra, or present with a different mark (u -> v, v -> u, u - v).
//                 So a reversed arc that is reversible in both (same class) costs 0, a
//                 compelled arc learned undirected costs 1.
//   edge Brier    over all n(n-1)/2 unordered pairs {u, v}: the mean of (p - t)^2, t = 1 when
//                 the truth has an arc between u and v (either direction), else 0; p the
//                 pool's probability of an edge between them (p_edge; 0 for a pair the pool
//                 does not list), or for the best network alone 1 on its edges and 0 elsewhere
//                 (so its sum is edges missed + extra). Lower is better (Brier 1950, Monthly
//                 Weather Review 78(1)); a pool scores below its best network alone when its
//                 probabilities put their uncertainty on the pairs the best DAG gets wrong.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bnsl/bif.hpp"
#include "bnsl/dataset.hpp"
#include "bnsl/report.hpp"
#include "bnsl/score.hpp"

namespace bnsl {

struct StructureComparison {
  std::size_t variables = 0;
  std::size_t true_arcs = 0, learned_arcs = 0;
  std::size_t arcs_found = 0;     // same pair, same direction
  std::size_t arcs_reversed = 0;  // same pair, opposite direction
  std::size_t arcs_missed = 0;    // true arcs whose pair the learned graph lacks
  std::size_t arcs_extra = 0;     // learned arcs whose pair the truth lacks
  std::size_t edges_found = 0, edges_missed = 0, edges_extra = 0;  // skeletons
  std::size_t shd = 0;        // DAG SHD = missed + extra + reversed
  std::size_t shd_cpdag = 0;  // SHD between the essential graphs (see above)

  double arc_precision() const { return ratio(arcs_found, learned_arcs); }
  double arc_recall() const { return ratio(arcs_found, true_arcs); }
  double edge_precision() const { return ratio(edges_found, edges_found + edges_extra); }
  double edge_recall() const { return ratio(edges_found, edges_found + edges_missed); }
  static double ratio(std::size_t a, std::size_t b) {
    return b == 0 ? std::nan("") : static_cast<double>(a) / static_cast<double>(b);
  }
};

// Both graphs as parents[v] over the same variables 0..n-1. Throws RuntimeError when the sizes
// differ or either graph has a cycle.
StructureComparison compare_structures(const ParentSets& truth, const ParentSets& learned);

// SHD between two DAGs, and between their essential graphs (definitions above).
std::size_t dag_shd(const ParentSets& a, const ParentSets& b);
std::size_t cpdag_shd(const ParentSets& a, const ParentSets& b);

// The probability that the skeleton edge {u, v} is present, in either direction.
struct PairProbability {
  int u = 0, v = 0;  // variable indices, in either order
  double p = 0;      // probability of an arc u -> v or v -> u
};

// A learned structure read for evaluation, with its variables in the order of `names`.
struct LearnedNetwork {
  std::string kind;             // "bif" | "pool" | "structure"
  ParentSets parents;           // parents[v], v indexing the names given to read_learned
  std::optional<BayesNet> net;  // the BIF as read (its parameters), for kind "bif"
  // For kind "pool" with p_edge fields: one entry per entry of the pool's `edges` list (so a
  // pair appears once or twice, as i -> j and j -> i), p = its p_edge; pairs not listed have
  // probability 0. None for other kinds and for pools written without p_edge.
  std::optional<std::vector<PairProbability>> edge_probabilities;
};

// Reads PATH by its name: *.bif a network (structure and parameters), *.json a pool file (its
// best DAG, dags[0], and its edge probabilities), anything else a structure file of lines
// "child: p1 p2" (variable names separated by blanks or commas; '#' starts a comment; blank
// lines ignored; a variable not listed as a child has no parents). Variables are matched to
// `names` by name. Throws InputError (FILE:LINE:COL where it applies) on a name unknown to
// `names`, a BIF or pool whose variables are not exactly `names` (in any order), a child
// listed twice, a cycle, or a pool edge whose p_edge is below its p or missing on some
// entries only (a pool with no p_edge at all, written before it existed, has no edge
// probabilities).
LearnedNetwork read_learned(const std::string& path, const std::vector<std::string>& names);
LearnedNetwork parse_structure(const std::string& text, const std::string& file,
                               const std::vector<std::string>& names);

// The Brier score of skeleton-edge probabilities (definition above) and of the best DAG's
// skeleton, against the true DAG; `pairs` = n(n-1)/2, the means are the sums / pairs (NaN
// for fewer than 2 variables). The means are tiny on thousands of variables, hence the sums.
struct EdgeBrier {
  std::size_t pairs = 0;  // unordered pairs of variables, n(n-1)/2
  double brier_pool = 0;  // pool_sum / pairs
  double brier_best = 0;  // best_sum / pairs
  double pool_sum = 0;    // sum over all pairs of (p_edge - t)^2
  double best_sum = 0;    // the same for the best DAG: edges missed + extra
};

// `truth` and `best` as parents[v] over the same n variables; `pool` lists probabilities of
// pairs in either order, a pair possibly twice (both directed entries of a pool's edges
// list): it counts once. Visits only the listed pairs and the true and best edges (pairs in
// none contribute 0), in O(m log m) for m of them, never n^2. Throws InputError naming
// `file` (and the variables by `names`, when given) on a pair listed twice with p differing
// by more than 1e-9, a p outside [0, 1] (by more than 1e-9), an index out of range or u = v;
// RuntimeError when the sizes of truth and best differ.
EdgeBrier edge_brier(const ParentSets& truth, const std::vector<PairProbability>& pool,
                     const ParentSets& best, const std::string& file,
                     const std::vector<std::string>& names = {});

// Log-likelihood of data rows under a network's parameters.
struct TestLikelihood {
  std::size_t rows = 0;
  double total = 0;           // sum over rows of ln P(row); -inf when zero_rows > 0
  std::size_t zero_rows = 0;  // rows of probability 0 under the network
  double mean() const { return rows ? total / static_cast<double>(rows) : std::nan(""); }
};

// Columns are matched to the network's variables by name and values to its state names.
// Throws InputError naming `file` on a variable of the network that the data lacks, a column
// the network lacks, or a value that is not a state of its variable (with its data row,
// 1-based, not counting the header).
TestLikelihood log_likelihood(const BayesNet& net, const Dataset& data, const std::string& file);

// Parameters for the DAG `parents` (indices into domain.names) estimated from `train` with
// estimate_parameters(pseudo_count), on the state lists of `domain` (the true network), with
// any states seen only in the training data appended: so a test value the true network knows
// but the training rows never showed gets the pseudo-counted probability, not an error.
// Columns matched by name; throws InputError naming `file` on a missing or extra column.
BayesNet estimate_on_domain(const BayesNet& domain, const ParentSets& parents, const Dataset& train,
                            const std::string& file, double pseudo_count = 0.5);

// A domain (names and state lists, no parents, no parameters) for evaluating without a true
// network: train's columns and states, each extended by the states of the same-named column of
// `test` that train never showed (so every test value is a state). Throws InputError naming
// `test_file` when test's columns are not train's.
BayesNet data_domain(const Dataset& train, const Dataset& test, const std::string& test_file);

// One evaluation, as `bnsl eval` runs it (src/eval/eval.cpp): the learned network against
// the true one (when given; for a pool with edge probabilities, also their Brier score),
// scored on --data, and its held-out log-likelihood on --test with parameters from --train
// (estimated on the learned structure) or else the learned BIF's.
struct EvalRequest {
  std::string truth_path;     // the true network (BIF); empty: none
  std::string learned_path;   // .bif, .pool.json (best DAG, p_edge) or a structure file; required
  std::string test_path;      // held-out CSV: mean log-likelihood per row; empty: none
  std::string train_path;     // CSV the learned structure's parameters are estimated from
  std::string data_path;      // CSV both structures are scored on (arities as observed)
  CsvOptions csv;             // how every CSV is read
  ScoreParams score;          // the score on data_path
  double pseudo_count = 0.5;  // per CPT cell, when estimating from train_path
};

struct EvalReport {
  std::string truth_path, learned_path, learned_kind;
  std::size_t variables = 0, learned_arcs = 0;
  std::optional<StructureComparison> structure;  // with a true network
  std::optional<EdgeBrier> edge_brier;  // with a true network and a pool with edge probabilities
  struct DataScores {
    std::string file;
    std::size_t rows = 0;
    ScoreParams score;
    std::optional<double> truth;  // the true network's score (with one)
    double learned = 0;
  };
  std::optional<DataScores> data;  // with data_path
  struct TestScores {
    std::string file;
    std::size_t rows = 0;
    std::optional<TestLikelihood> truth, learned;  // learned: none without parameters
    std::string parameters;  // whence the learned ones: "train", "learned-bif" or "none"
  };
  std::optional<TestScores> test;  // with test_path
  std::vector<std::string> notes;  // e.g. that the learned network has no parameters
  // The JSON object of `bnsl eval --json` (NaN and infinities as null).
  std::string to_json() const;
};

// Throws InputError on a request that cannot be evaluated (--train without --test; without a
// true network, neither test_path nor data_path; a learned file without parameters and no
// train_path when only a test log-likelihood is asked) and on bad files.
EvalReport evaluate(const EvalRequest& request);

}  // namespace bnsl
