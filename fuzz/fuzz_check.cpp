// Pool JSON as `bnsl check` reads it, against the wine data (every score recomputed), and as
// `bnsl merge` reads it.
#include <cstdint>

#include "bnsl/check.hpp"
#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::as_file(data, size, ".json");
  try {
    (void)bnsl::check_pool_file(fuzz::wine(), path);
  } catch (const bnsl::InputError&) {
  }
  try {
    (void)bnsl::read_pool_json(path);
  } catch (const bnsl::InputError&) {
  }
  return 0;
}
