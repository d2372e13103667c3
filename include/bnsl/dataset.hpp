// A complete discrete data set, stored column by column with dense codes.
//
//   bnsl::CsvOptions opt;             // header, comma-separated
//   bnsl::Dataset d = bnsl::read_csv("alarm.csv", opt);
//   d.n_vars(); d.n_rows(); d.arity(3); d.name(3); d.state_name(3, d.code(3, 0));
//
// Each column's values are arbitrary strings, mapped to codes 0..r-1 in order of first
// appearance, so the arity r of a column is the number of distinct values seen in it. Columns
// with at most 256 states are stored as 8-bit codes, wider ones as 16-bit codes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace bnsl {

struct CsvOptions {
  bool header = true;             // first line names the columns; otherwise V0..V(n-1)
  char delimiter = ',';           // field separator
  bool missing_as_state = false;  // treat "", "NA" and "?" as ordinary values, not errors
};

class Dataset {
 public:
  static constexpr std::size_t kMaxStates = 65535;  // per column

  Dataset() = default;

  std::size_t n_vars() const { return names_.size(); }
  std::size_t n_rows() const { return n_rows_; }
  const std::string& name(std::size_t v) const { return names_[v]; }
  const std::vector<std::string>& names() const { return names_; }
  int arity(std::size_t v) const { return static_cast<int>(states_[v].size()); }
  const std::string& state_name(std::size_t v, int code) const { return states_[v][code]; }
  bool wide(std::size_t v) const { return wide_[v]; }

  // Code of variable v in row i (0-based); slow path, for tests and output.
  int code(std::size_t v, std::size_t i) const;
  // Contiguous codes of column v; valid only when !wide(v) (resp. wide(v)).
  const std::uint8_t* codes8(std::size_t v) const { return col8_[v].data(); }
  const std::uint16_t* codes16(std::size_t v) const { return col16_[v].data(); }

  // Builds a data set from code columns (each value < arities[v]); names default to V0...
  // State names are the decimal codes. Used by tests, sampling and benchmarks.
  static Dataset from_codes(const std::vector<std::vector<int>>& columns,
                            const std::vector<int>& arities, std::vector<std::string> names = {});

  // Appends a column; `codes` dense in [0, states.size()).
  void add_column(std::string name, std::vector<std::string> states,
                  const std::vector<std::uint32_t>& codes);
  // The same from 16-bit codes (what the CSV reader holds: half the memory while it reads).
  void add_column(std::string name, std::vector<std::string> states,
                  std::span<const std::uint16_t> codes);

 private:
  template <typename Code>
  void add_codes(std::string name, std::vector<std::string> states, std::span<const Code> codes);

  std::size_t n_rows_ = 0;
  std::vector<std::string> names_;
  std::vector<std::vector<std::string>> states_;
  std::vector<bool> wide_;
  std::vector<std::vector<std::uint8_t>> col8_;    // empty for wide columns
  std::vector<std::vector<std::uint16_t>> col16_;  // empty for narrow columns
};

// The name of column `v` when the data give none: "V<v>" (a CSV read with --no-header; a
// score cache without names).
std::string default_variable_name(std::size_t v);

// A fingerprint of the data as read: 16 hex digits of a 64-bit hash (XXH3) of the column
// names, each column's state names in code order, and every code. Equal data give equal
// fingerprints; a score cache records it (CacheProvenance) so that caches computed in parts
// can be checked to come from the same data before they are merged.
std::string data_fingerprint(const Dataset& data);

// Reads a CSV file. Throws InputError("FILE:LINE:COL: ...") on: missing or unreadable file,
// empty file, header without rows, ragged row, missing value (unless missing_as_state), more
// than 65,535 states in one column, duplicate column names.
Dataset read_csv(const std::string& path, const CsvOptions& options);
// The same for a file's text already in memory; `file` names it in errors.
Dataset parse_csv(std::string_view text, const std::string& file, const CsvOptions& options);

}  // namespace bnsl
