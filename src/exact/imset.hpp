// Characteristic imsets (Studený, Hemmecke & Lindner 2010; Studený & Haws 2014) in the
// family-variable ILP: the class key of a DAG, and the no-good row that removes a whole Markov
// equivalence class from an LP over the family columns at once; see imset.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "exact/cluster_cuts.hpp"
#include "exact/families.hpp"

class OsiSolverInterface;

namespace bnsl::exact {

// The 2- and 3-sets S with c(S) = 1 in the DAG `choice` (some i in S has S \ {i} among its
// parents), sorted: two DAGs have the same key exactly when they are Markov equivalent.
using ImsetKey = std::vector<Mask>;
ImsetKey imset_key(const FamilyTable& fam, const std::vector<std::uint32_t>& choice);

struct ImsetKeyHash {
  std::size_t operator()(const ImsetKey& key) const;
};

// Adds to lp (over the family columns of `cols`) the no-good row of the class with imset `key`:
//   sum_{S in key} (1 - c(S)) + sum_{S not in key} c(S) >= 1   (S: 2- and 3-sets),
// with c(S) = sum_{i in S} sum_{P(i) ⊇ S \ {i}} x(i, P), the imset component at a DAG (at most
// one term is 1 there: two would be parents of each other). Every DAG outside the class
// satisfies it (its imset differs on some 2- or 3-set) and every DAG of the class violates it
// (the left side is 0). As a row: coefficient of x(v, P) the number of sets P realises outside
// the key minus those inside it (zero coefficients left out), lower bound 1 - |key|.
void add_class_nogood(const FamilyTable& fam, const ColumnLayout& cols, const ImsetKey& key,
                      OsiSolverInterface& lp);

}  // namespace bnsl::exact
