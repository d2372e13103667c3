// Score caches (jkl): the reader without names and with wine's 14 columns, the provenance
// header, and learn's exploration journal (PREFIX.cache.jkl, --resume).
#include <cstdint>

#include "bnsl/cache.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = fuzz::as_file(data, size, ".jkl");
  const auto& names = fuzz::wine().names();
  fuzz::tolerate([&] { return bnsl::read_jkl(path); });
  fuzz::tolerate([&] { return bnsl::read_jkl(path, names); });
  fuzz::tolerate([&] { return bnsl::read_jkl_provenance(path); });
  fuzz::tolerate([&] { return bnsl::read_cache_journal(path, names); });
  return 0;
}
