// A number as --help and the messages print it: "60", "0.5", "2.5e-07" (six significant digits,
// the stream's default), for defaults and ranges a person reads.
#pragma once

#include <sstream>
#include <string>

namespace bnsl {

inline std::string number_text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

}  // namespace bnsl
