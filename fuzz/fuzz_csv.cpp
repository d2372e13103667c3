// The CSV reader under every option combination: the first byte chooses them (bit 0 a header,
// bit 1 missing values as states, bits 2-4 the delimiter), the rest is the file.
#include <cstdint>
#include <string_view>

#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static constexpr char kDelimiters[] = {',', ';', '\t', '|', ' ', ':', '"', '\n'};
  bnsl::CsvOptions o;
  o.header = (data[0] & 1) != 0;
  o.missing_as_state = (data[0] & 2) != 0;
  o.delimiter = kDelimiters[(data[0] >> 2) & 7];  // '"' and '\n' are refused
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const bnsl::Dataset d = bnsl::parse_csv(text, "fuzz.csv", o);
    (void)bnsl::data_fingerprint(d);
    for (std::size_t v = 0; v < d.n_vars(); ++v)
      if (d.n_rows() > 0) (void)d.state_name(v, d.code(v, d.n_rows() - 1));
  } catch (const bnsl::InputError&) {
  }
  return 0;
}
