// Grouping identical rows (see row_groups.hpp): each row's codes are laid out row-major in one
// buffer and hashed (XXH3) into a map of distinct rows; the distinct rows become a Dataset
// with the same columns, names and states, and each gets the number of rows equal to it.
#include "score/row_groups.hpp"

#include <tsl/robin_map.h>
#include <xxhash.h>

#include <cstring>
#include <string>
#include <string_view>

namespace bnsl {
namespace {

struct RowHash {
  std::size_t operator()(std::string_view row) const {
    return static_cast<std::size_t>(XXH3_64bits(row.data(), row.size()));
  }
};

}  // namespace

std::optional<RowGroups> group_rows(const Dataset& data, double max_share) {
  const std::size_t n = data.n_vars(), rows = data.n_rows();
  if (n == 0 || rows < 2) return std::nullopt;
  // Row-major codes: one byte per narrow column, two per wide one.
  std::vector<std::size_t> at(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) at[v + 1] = at[v] + (data.wide(v) ? 2 : 1);
  const std::size_t width = at[n];
  std::string buffer(rows * width, '\0');
  for (std::size_t v = 0; v < n; ++v) {
    if (data.wide(v)) {
      const std::uint16_t* c = data.codes16(v);
      for (std::size_t i = 0; i < rows; ++i) std::memcpy(&buffer[i * width + at[v]], &c[i], 2);
    } else {
      const std::uint8_t* c = data.codes8(v);
      for (std::size_t i = 0; i < rows; ++i) buffer[i * width + at[v]] = static_cast<char>(c[i]);
    }
  }
  const auto limit = static_cast<std::size_t>(max_share * static_cast<double>(rows));
  tsl::robin_map<std::string_view, std::uint32_t, RowHash> group;  // row -> distinct index
  std::vector<std::size_t> first;                                  // distinct index -> row
  std::vector<std::uint32_t> weight;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::string_view row(buffer.data() + i * width, width);
    const auto [it, added] = group.try_emplace(row, static_cast<std::uint32_t>(first.size()));
    if (added) {
      if (first.size() >= limit) return std::nullopt;
      first.push_back(i);
      weight.push_back(1);
    } else {
      ++weight[it->second];
    }
  }
  RowGroups out;
  out.weight = std::move(weight);
  std::vector<std::uint32_t> codes(first.size());
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<std::string> states(static_cast<std::size_t>(data.arity(v)));
    for (int k = 0; k < data.arity(v); ++k) states[k] = data.state_name(v, k);
    for (std::size_t g = 0; g < first.size(); ++g)
      codes[g] = static_cast<std::uint32_t>(data.code(v, first[g]));
    out.rows.add_column(data.name(v), std::move(states), codes);
  }
  return out;
}

}  // namespace bnsl
