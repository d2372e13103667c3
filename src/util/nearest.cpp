// The nearest name (nearest.hpp): edit distance by one row of the dynamic programme.
#include "util/nearest.hpp"

#include <algorithm>
#include <vector>

namespace bnsl {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string nearest_name(std::string_view name, std::span<const std::string_view> names) {
  std::string_view nearest;
  std::size_t best = std::max<std::size_t>(2, name.size() / 3) + 1;
  for (std::string_view candidate : names) {
    const std::size_t d = name.size() >= 2 && candidate.substr(0, name.size()) == name
                              ? 1
                              : edit_distance(name, candidate);
    if (d < best) {
      best = d;
      nearest = candidate;
    }
  }
  return std::string(nearest);
}

}  // namespace bnsl
