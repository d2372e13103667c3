// The in-memory data set: a complete discrete table stored column by column, each value
// replaced by a dense code 0..r-1 of its column (r = number of distinct values observed).
// Column-major codes are what counting wants: a family's counts read a few whole columns
// sequentially. Columns with at most 256 states use one byte per value, wider ones two bytes
// (at most Dataset::kMaxStates = 65,535 states), which keeps large data sets cache-friendly.
// Reading CSV files into this representation is in csv.cpp.
#include <cstdint>
#include <cstdio>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <xxhash.h>

#include "bnsl/dataset.hpp"

namespace bnsl {

namespace {

constexpr std::size_t kMaxNarrowStates = 256;  // codes 0..255 fit in one byte

template <typename T, typename Code>
std::vector<T> convert_codes(std::span<const Code> codes) {
  return std::vector<T>(codes.begin(), codes.end());
}

}  // namespace

int Dataset::code(std::size_t v, std::size_t i) const {
  return wide_[v] ? static_cast<int>(col16_[v][i]) : static_cast<int>(col8_[v][i]);
}

bool Dataset::is_discretized(std::size_t v) const {
  for (const Discretization& d : discretized_)
    if (d.column == v) return true;
  return false;
}

void Dataset::add_column(std::string name, std::vector<std::string> states,
                         const std::vector<std::uint32_t>& codes) {
  add_codes(std::move(name), std::move(states), std::span<const std::uint32_t>(codes));
}

void Dataset::add_column(std::string name, std::vector<std::string> states,
                         std::span<const std::uint16_t> codes) {
  add_codes(std::move(name), std::move(states), codes);
}

template <typename Code>
void Dataset::add_codes(std::string name, std::vector<std::string> states,
                        std::span<const Code> codes) {
  if (states.size() > kMaxStates) {
    throw std::invalid_argument("Dataset::add_column: column '" + name + "' has " +
                                std::to_string(states.size()) + " states, more than 65535");
  }
  if (n_vars() > 0 && codes.size() != n_rows_) {
    throw std::invalid_argument("Dataset::add_column: column '" + name + "' has " +
                                std::to_string(codes.size()) + " rows, expected " +
                                std::to_string(n_rows_));
  }
  for (const Code c : codes) {
    if (c >= states.size()) {
      throw std::invalid_argument("Dataset::add_column: code " + std::to_string(c) +
                                  " out of range in column '" + name + "'");
    }
  }
  bool is_wide = states.size() > kMaxNarrowStates;
  n_rows_ = codes.size();
  names_.push_back(std::move(name));
  states_.push_back(std::move(states));
  wide_.push_back(is_wide);
  col8_.push_back(is_wide ? std::vector<std::uint8_t>{} : convert_codes<std::uint8_t>(codes));
  col16_.push_back(is_wide ? convert_codes<std::uint16_t>(codes) : std::vector<std::uint16_t>{});
}

std::string data_fingerprint(const Dataset& data) {
  XXH3_state_t* state = XXH3_createState();
  if (!state) throw std::bad_alloc();
  XXH3_64bits_reset(state);
  // Each string with its length first, so that ("ab", "c") and ("a", "bc") differ.
  auto add_text = [state](const std::string& text) {
    const std::uint64_t size = text.size();
    XXH3_64bits_update(state, &size, sizeof size);
    XXH3_64bits_update(state, text.data(), text.size());
  };
  const std::uint64_t shape[2] = {data.n_vars(), data.n_rows()};
  XXH3_64bits_update(state, shape, sizeof shape);
  for (std::size_t v = 0; v < data.n_vars(); ++v) {
    add_text(data.name(v));
    const std::uint64_t arity = static_cast<std::uint64_t>(data.arity(v));
    XXH3_64bits_update(state, &arity, sizeof arity);
    for (int c = 0; c < data.arity(v); ++c) add_text(data.state_name(v, c));
    // The codes as 16-bit values whatever the column's storage, so the width is not hashed.
    std::vector<std::uint16_t> codes(data.n_rows());
    for (std::size_t i = 0; i < data.n_rows(); ++i)
      codes[i] = static_cast<std::uint16_t>(data.code(v, i));
    XXH3_64bits_update(state, codes.data(), codes.size() * sizeof(std::uint16_t));
  }
  const std::uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string default_variable_name(std::size_t v) {
  // Appended, not "V" + std::to_string(v): GCC 12 warns -Wrestrict on that (a false positive).
  return std::string("V").append(std::to_string(v));
}

Dataset Dataset::from_codes(const std::vector<std::vector<int>>& columns,
                            const std::vector<int>& arities, std::vector<std::string> names) {
  if (arities.size() != columns.size() || (!names.empty() && names.size() != columns.size())) {
    throw std::invalid_argument("Dataset::from_codes: columns, arities and names differ in size");
  }
  Dataset data;
  for (std::size_t v = 0; v < columns.size(); ++v) {
    if (arities[v] < 1) throw std::invalid_argument("Dataset::from_codes: arity below 1");
    std::vector<std::string> states(static_cast<std::size_t>(arities[v]));
    for (int k = 0; k < arities[v]; ++k) states[k] = std::to_string(k);
    std::vector<std::uint32_t> codes;
    codes.reserve(columns[v].size());
    for (int c : columns[v]) {
      if (c < 0) throw std::invalid_argument("Dataset::from_codes: negative code");
      codes.push_back(static_cast<std::uint32_t>(c));
    }
    std::string name = names.empty() ? default_variable_name(v) : std::move(names[v]);
    data.add_column(std::move(name), std::move(states), codes);
  }
  return data;
}

}  // namespace bnsl
