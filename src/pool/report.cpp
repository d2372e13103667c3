// The pool report's best network (bnsl/report.hpp).
#include "bnsl/report.hpp"

namespace bnsl {

const ParentSets& best_network(const PoolReport& report) {
  if ((report.preferred || report.dags.empty()) && !report.classes.empty())
    return report.classes[0].dag;
  return report.dags.at(0).parents;
}

}  // namespace bnsl
