// A number as --help and the messages print it: "60", "0.5", "2.5e-07", "16777216", "1e+12"
// (nine significant digits, so that the whole numbers of the tunables' defaults show exactly),
// for defaults and ranges a person reads.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>

namespace bnsl {

inline std::string number_text(double value) {
  std::ostringstream out;
  out << std::setprecision(9) << value;
  return out.str();
}

}  // namespace bnsl
