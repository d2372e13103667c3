// Shared by the fuzz targets: the input as a file (for readers that take a path), tolerate()
// for the one exception bad input may give, and the bundled wine data (datasets/wine.csv, 14
// columns, no header) for the readers that check a file against data.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"

namespace fuzz {

// A file of this process holding `data`, named with `suffix` (the readers choose the format by
// the name): under $TMPDIR, or /dev/shm when it exists (no disk writes).
inline std::string as_file(const std::uint8_t* data, std::size_t size, const std::string& suffix) {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (tmp ? tmp : "/tmp");
    std::string templ = base + "/bnsl-fuzz-XXXXXX";
    if (!mkdtemp(templ.data())) std::abort();
    return templ;
  }();
  const std::string path = dir + "/input" + suffix;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out) std::abort();
  return path;
}

// Runs `read`: bad input may end it with an InputError, and nothing else may.
template <typename Read>
void tolerate(Read&& read) {
  try {
    (void)read();
  } catch (const bnsl::InputError&) {
  }
}

inline const bnsl::Dataset& wine() {
  static const bnsl::Dataset d = bnsl::read_csv(BNSL_WINE_CSV, {.header = false});
  return d;
}

}  // namespace fuzz
