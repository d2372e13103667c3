// What a pool file says of itself, checked from its JSON text, for the pool checker
// (src/check/check.cpp). The pool reader (src/io/pool_json_read.cpp) keeps what the library
// needs and drops the rest, so a header that contradicts the lists (a `class_count` of 101
// over an empty `classes`, a `dag_count` of "abc") reads without a word; here every count the
// header states is recounted from the lists, every class size and every probability is
// checked for its form and range, and the arc probabilities for their sum per edge. The
// fields no check reads are named, so that `bnsl check` says what it did not check.
//
//   const nlohmann::json j = nlohmann::json::parse(text);
//   bnsl::PoolFieldChecks f = bnsl::check_pool_fields(j);   // f.items, f.skipped
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "bnsl/check.hpp"

namespace bnsl {

struct PoolFieldChecks {
  std::vector<PoolCheckItem> items;  // "counts", "sizes", "probabilities"
  std::vector<std::string> skipped;  // "FIELD: why it is not checked"
};

// `pool` is the parsed pool file (format 2, or format 1 without a `format` field).
PoolFieldChecks check_pool_fields(const nlohmann::json& pool);

}  // namespace bnsl
