// The ordering search's account of its pool (PoolAccount) as JSON: one rendering for the pool
// file's "pool_account" and the --stats file's "account", so that a script reads the same
// keys from either (docs/design.md, "Outputs").
#include <nlohmann/json.hpp>
#include <optional>

#include "io/report_io.hpp"

namespace bnsl {

nlohmann::ordered_json pool_account_json(const std::optional<PoolAccount>& account) {
  using ordered = nlohmann::ordered_json;
  if (!account) return ordered();
  const PoolAccount& a = *account;
  return ordered{{"classes_within_epsilon", a.within},
                 {"spread", a.spread},
                 {"classes_admitted", a.admitted},
                 {"left_epsilon", a.left_epsilon},
                 {"for_room", a.for_room},
                 {"cut", a.cut},
                 {"walk_seconds", a.walk_seconds},
                 {"walk_finished", a.walk_finished},
                 {"note", a.note.empty() ? ordered() : ordered(a.note)}};
}

}  // namespace bnsl
