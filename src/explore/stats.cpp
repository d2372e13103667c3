// ExploreStats: counters of an exploration, their sum over threads, and their reports; and
// ProposalStats, learn's proposals' (proposals.hpp).
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "bnsl/explore.hpp"
#include "util/memory.hpp"

namespace bnsl {

void ExploreStats::add(const ExploreStats& o) {
  sets_scored += o.sets_scored;
  sets_generated += o.sets_generated;
  sets_swept += o.sets_swept;
  candidates_promoted += o.candidates_promoted;
  pruned_rule1 += o.pruned_rule1;
  pruned_rule2 += o.pruned_rule2;
  pruned_rule3 += o.pruned_rule3;
  pruned_rule4 += o.pruned_rule4;
  pruned_inherited += o.pruned_inherited;
  pruned_rule6 += o.pruned_rule6;
  pruned_rule8 += o.pruned_rule8;
  vars_lattice += o.vars_lattice;
  vars_ll_ceiling += o.vars_ll_ceiling;
  ll_ceiling_sum += o.ll_ceiling_sum;
  vars_out_of_time += o.vars_out_of_time;
  vars_out_of_memory += o.vars_out_of_memory;
  memory_per_var = std::max(memory_per_var, o.memory_per_var);
  vars_retried += o.vars_retried;
  quick_sets += o.quick_sets;
  quick_seconds = std::max(quick_seconds, o.quick_seconds);
  vars_explored += o.vars_explored;
  vars_resumed += o.vars_resumed;
  cache_entries += o.cache_entries;
  cache_bytes += o.cache_bytes;
}

void ExploreStats::print(std::ostream& out) const {
  out << "exploration: " << seconds << " s, epsilon " << epsilon << "\n";
  if (candidates > 0)
    out << "  screening         " << candidates << " candidate parents per variable, from "
        << "all-pairs statistics (" << pair_seconds << " s); the cache is not provably complete\n"
        << "  sweeps            " << sets_swept << " families counted, " << candidates_promoted
        << " candidates promoted\n";
  if (draft_kept > 0)
    out << "  draft             " << draft_kept
        << " families of the draft cache kept that the exploration had not met\n";
  if (quick_sets > 0)
    out << "  quick pass        " << quick_seconds << " s for the draft; " << quick_sets
        << " sets scored in the variables it cut, which were explored again (not counted "
           "below)\n";
  if (rows_counted < rows)
    out << "  rows counted      " << rows_counted << " distinct of " << rows
        << " (each weighted by its multiplicity)\n";
  out << "  variables         " << vars_explored << " explored"
      << (vars_resumed ? ", " + std::to_string(vars_resumed) + " taken from the earlier run" : "")
      << "\n"
      << "  sets generated    " << sets_generated << "\n"
      << "  sets scored       " << sets_scored << "\n"
      << "  rule 1 (subset)   " << pruned_rule1 << " dropped\n"
      << "  rule 2 (BIC)      " << pruned_rule2 << " cut before scoring, with supersets\n"
      << "  rule 3 (size)     " << pruned_rule3 << " sets whose supersets were cut\n"
      << "  rule 4 (entropy)  " << pruned_rule4 << " dropped with supersets\n"
      << "  inherited         " << pruned_inherited << " cut: a subset's supersets were cut\n"
      << "  rule 6 (BDeu)     " << pruned_rule6 << " dropped with supersets\n"
      << (pruned_rule8 ? "  rule 8 (atoms)    " + std::to_string(pruned_rule8) +
                             " sets whose supersets were cut\n"
                       : std::string())
      << (vars_lattice ? "  lattice walk      " + std::to_string(vars_lattice) +
                             " variables (every subset of their candidates, depth first)\n"
                       : std::string())
      << (vars_ll_ceiling ? "  LL ceiling        " + std::to_string(vars_ll_ceiling) +
                                " variables below 0 for rules 2 to 4 (N H(X | the rest) summing "
                                "to " +
                                std::to_string(ll_ceiling_sum) + ")\n"
                          : std::string())
      << (max_parents >= 0 ? "  in-degree limit   sets of more than " +
                                 std::to_string(max_parents) + " parents never generated\n"
                           : std::string())
      << (k_best_max_parents >= 0 ? "  rule 7 (k-best)   sets of more than " +
                                        std::to_string(k_best_max_parents) + " parents cut\n"
                                  : std::string())
      << "  out of time       " << vars_out_of_time << " variables"
      << (vars_retried ? " (" + std::to_string(vars_retried) + " explored twice)" : "") << "\n"
      << "  out of memory     " << vars_out_of_memory << " variables"
      << (memory_per_var ? " (--explore-memory: " +
                               bytes_text(static_cast<double>(memory_per_var)) + " per variable)"
                         : std::string(" (no cap)"))
      << "\n"
      << "  cache             " << cache_entries << " entries, " << cache_bytes / 1024 << " KiB\n";
}

std::string ExploreStats::to_json() const {
  nlohmann::json j = {{"sets_generated", sets_generated},
                      {"sets_scored", sets_scored},
                      {"pruned",
                       {{"rule1", pruned_rule1},
                        {"rule2", pruned_rule2},
                        {"rule3", pruned_rule3},
                        {"rule4", pruned_rule4},
                        {"rule6", pruned_rule6},
                        {"rule8", pruned_rule8},
                        {"inherited", pruned_inherited}}},
                      {"vars_lattice", vars_lattice},
                      {"vars_ll_ceiling", vars_ll_ceiling},
                      {"ll_ceiling_sum", ll_ceiling_sum},
                      {"vars_out_of_time", vars_out_of_time},
                      {"vars_out_of_memory", vars_out_of_memory},
                      {"memory_per_var", memory_per_var},
                      {"vars_retried", vars_retried},
                      {"vars_explored", vars_explored},
                      {"vars_resumed", vars_resumed},
                      {"cache_entries", cache_entries},
                      {"cache_bytes", cache_bytes},
                      {"rows", rows},
                      {"rows_counted", rows_counted},
                      {"epsilon", epsilon},
                      {"k_best_max_parents", k_best_max_parents},
                      {"seconds", seconds},
                      {"candidates", candidates},
                      {"pair_seconds", pair_seconds},
                      {"sets_swept", sets_swept},
                      {"candidates_promoted", candidates_promoted},
                      {"draft_kept", draft_kept},
                      {"quick_sets", quick_sets},
                      {"quick_seconds", quick_seconds}};
  return j.dump(2);
}

void ProposalStats::add(const ProposalStats& o) {
  rounds += o.rounds;
  vars += o.vars;
  scored += o.scored;
  admitted += o.admitted;
  seconds += o.seconds;
  search_seconds += o.search_seconds;
  early_rounds += o.early_rounds;
  early_kept += o.early_kept;
  pair_steps += o.pair_steps;
}

std::string ProposalStats::to_json() const {
  const nlohmann::json j = {{"rounds", rounds},
                            {"vars", vars},
                            {"scored", scored},
                            {"admitted", admitted},
                            {"seconds", seconds},
                            {"search_seconds", search_seconds},
                            {"early_rounds", early_rounds},
                            {"early_kept", early_kept},
                            {"pair_steps", pair_steps}};
  return j.dump(2);
}

CacheProvenance cache_provenance(const Dataset& data, const ExploreOptions& options,
                                 const ExploreStats& stats) {
  CacheProvenance p;
  p.data = data_fingerprint(data);
  p.rows = data.n_rows();
  p.score = score_name(options.score);
  p.ess = score_uses_ess(options.score) ? options.score.ess : 0;
  p.epsilon = stats.epsilon;
  p.max_parents = stats.max_parents;
  p.candidates = stats.candidates;
  p.var_begin = std::min(options.var_begin, data.n_vars());
  p.var_end = std::min(options.var_end, data.n_vars());
  p.exhaustive = stats.exhaustive();
  p.constraints = options.constraints.fingerprint();
  return p;
}

}  // namespace bnsl
