// Learned structures as `bnsl eval` reads them, matched against wine's column names: the first
// byte chooses the format (a pool JSON, a BIF network or a "child: parents" structure file).
#include <cstdint>

#include "bnsl/eval.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kSuffixes[] = {".json", ".bif", ".txt"};
  const std::string path = fuzz::as_file(data + 1, size - 1, kSuffixes[data[0] % 3]);
  fuzz::tolerate([&] { return bnsl::read_learned(path, fuzz::wine().names()); });
  return 0;
}
