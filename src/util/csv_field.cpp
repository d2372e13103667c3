// CSV field quoting (util/csv_field.hpp).
#include "util/csv_field.hpp"

namespace bnsl {

std::string csv_field(std::string_view s) {
  const bool quote = s.empty() || s.find_first_of(",\"\r\n") != std::string_view::npos ||
                     s.front() == ' ' || s.front() == '\t' || s.back() == ' ' || s.back() == '\t';
  if (!quote) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace bnsl
