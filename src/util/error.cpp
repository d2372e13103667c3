// Error messages in the compiler convention "FILE:LINE:COL: what", so editors and users can
// jump to the offending spot; the line and column parts are left out when they are unknown (0).
#include "bnsl/error.hpp"

namespace bnsl {

namespace {

std::string located(const std::string& file, std::size_t line, std::size_t col,
                    const std::string& what) {
  std::string out = file;
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (col > 0) out += ':' + std::to_string(col);
  }
  out += ": ";
  out += what;
  return out;
}

}  // namespace

InputError::InputError(const std::string& file, std::size_t line, std::size_t col,
                       const std::string& what)
    : std::runtime_error(located(file, line, col, what)) {}

}  // namespace bnsl
