// One CSV field as RFC 4180 writes it, for every CSV bnsl writes (samples, name sidecars,
// adjacency matrices, tables): quoted when it is empty, holds a comma, a double quote or a line
// break, or starts or ends with a space or tab (which readers may trim); a double quote inside
// is doubled. Every CSV reader of bnsl reads such a field back to `s`.
//
//   out << bnsl::csv_field("col one") << ',' << bnsl::csv_field("a,b");  // col one,"a,b"
#pragma once

#include <string>
#include <string_view>

namespace bnsl {

std::string csv_field(std::string_view s);

}  // namespace bnsl
