// BIF networks (bnsl sample, eval --truth, generate's outputs read back).
#include <cstdint>
#include <string>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)bnsl::parse_bif(text, "fuzz.bif");
  } catch (const bnsl::InputError&) {
  }
  return 0;
}
