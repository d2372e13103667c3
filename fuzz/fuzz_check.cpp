// Pool JSON as `bnsl check` reads it, against the wine data (every score recomputed), and as
// `bnsl merge` reads it.
#include <cstdint>

#include "bnsl/check.hpp"
#include "bnsl/report.hpp"
#include "bnsl/results.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::as_file(data, size, ".json");
  fuzz::tolerate([&] { return bnsl::check_pool_file(fuzz::wine(), path); });
  fuzz::tolerate([&] { return bnsl::read_pool_json(path); });
  return 0;
}
