// The characteristic imset of a DAG G (Studený, Hemmecke & Lindner 2010): c(S) = 1 for a node
// set S of 2 or more nodes when some i in S has S \ {i} among its parents in G. Two DAGs are
// Markov equivalent exactly when their imsets are equal, and the imset is determined by its
// components on sets of 2 and 3 nodes (Studený & Haws 2014, §2.4: i and j are adjacent iff
// c({i, j}) = 1; i -> k <- j is an immorality iff c({i, j, k}) = 1 and c({i, j}) = 0; the
// skeleton and the immoralities determine the class, Verma & Pearl 1990). So the 2- and 3-set
// components are a class key, and a linear function of the family variables: the ILP's
// collection of classes (collect.cpp) recognises a class it has met by its key, and with
// ExactOptions::class_nogoods adds, for each class it lists, one no-good row that removes every
// DAG of that class from the search. (Linking explicit imset columns to the family columns by
// equality rows, as Studený & Haws do, gives the same rows; in trial runs on uci/wine, BIC BF
// 20, it made the collection about twice as slow again.)
#include "exact/imset.hpp"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <unordered_set>

#ifdef BNSL_HAVE_CBC
#include <OsiSolverInterface.hpp>

#include "exact/lp_rows.hpp"
#endif

namespace bnsl::exact {
namespace {

// Calls f(S) for each 2- and 3-set S that family `parents` of v realises: {u, v} for each
// parent u, {a, b, v} for each pair of parents.
template <typename F>
void realised_sets(int v, Mask parents, F&& f) {
  const Mask self = Mask{1} << v;
  for (Mask a = parents; a; a &= a - 1) {
    const Mask ua = a & -a;
    f(self | ua);
    for (Mask b = a & (a - 1); b; b &= b - 1) f(self | ua | (b & -b));
  }
}

}  // namespace

ImsetKey imset_key(const FamilyTable& fam, const std::vector<std::uint32_t>& choice) {
  ImsetKey key;
  for (int v = 0; v < fam.n; ++v)
    realised_sets(v, fam.masks[v][choice[v]], [&](Mask s) { key.push_back(s); });
  std::sort(key.begin(), key.end());
  // In a DAG no set is realised twice (two nodes of S each with the rest among its parents
  // would be parents of each other); a cyclic choice may, and its key is still well defined.
  key.erase(std::unique(key.begin(), key.end()), key.end());
  return key;
}

std::size_t ImsetKeyHash::operator()(const ImsetKey& key) const {
  return static_cast<std::size_t>(XXH3_64bits(key.data(), key.size() * sizeof(Mask)));
}

#ifdef BNSL_HAVE_CBC

void add_class_nogood(const FamilyTable& fam, const ColumnLayout& cols, const ImsetKey& key,
                      OsiSolverInterface& lp) {
  const std::unordered_set<Mask> in(key.begin(), key.end());
  std::vector<int> columns;
  std::vector<double> coefs;
  for (int v = 0; v < fam.n; ++v)
    for (std::size_t i = 0; i < fam.size(v); ++i) {
      double c = 0;
      realised_sets(v, fam.masks[v][i], [&](Mask s) { c += in.count(s) ? -1.0 : 1.0; });
      if (c == 0) continue;
      columns.push_back(static_cast<int>(cols.offset[v] + i));
      coefs.push_back(c);
    }
  RowBatch row;
  row.add(columns, coefs, 1.0 - static_cast<double>(key.size()),
          std::numeric_limits<double>::max());
  row.flush(lp);
}

#endif  // BNSL_HAVE_CBC

}  // namespace bnsl::exact
