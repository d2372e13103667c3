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

// How a column of numbers is cut into intervals on reading (bnlearn's discretize() methods):
// quantile: K intervals holding about equally many rows (cut at the empirical quantiles);
// interval: K intervals of equal width between the column's minimum and maximum; none: the
// column is read as categories, as it is. `column` names the column, or is empty for every
// column of numbers not named by another spec.
struct DiscretizeSpec {
  enum Method { none, quantile, interval } method = quantile;
  int intervals = 0;   // K >= 2 (quantile, interval)
  std::string column;  // empty: every column of numbers
};
// "quantile:K", "interval:K", "none", or "NAME=quantile:K" ...; InputError otherwise.
DiscretizeSpec parse_discretize(const std::string& text);

// A column cut on reading: its cut points b0 < b1 < ... < bK; state k is the interval
// (b_k, b_k+1], the first one closed on the left, labelled as R's cut() labels it:
// "[b0,b1]", "(b1,b2]", ... with the cut points printed to 6 significant digits.
struct Discretization {
  std::size_t column = 0;
  std::string method;          // "quantile" or "interval"
  std::vector<double> breaks;  // K + 1 cut points
};

struct CsvOptions {
  bool header = true;             // first line names the columns; otherwise V0..V(n-1)
  char delimiter = ',';           // field separator
  bool missing_as_state = false;  // treat "", "NA" and "?" as ordinary values, not errors
  std::vector<DiscretizeSpec> discretize = {};  // columns of numbers to cut into intervals
  // A pipe or FIFO as the file: seconds to wait for the end of its data, after which reading
  // fails (RuntimeError); 0: until it ends or SIGINT or SIGTERM arrives.
  double input_wait = 0;
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

  // Where the data came from, for messages: the file, and the 1-based column of each name in
  // its header row (line 1); "" and 0 when unknown (no header, or built in memory).
  const std::string& source() const { return source_; }
  std::size_t header_column(std::size_t v) const {
    return v < header_columns_.size() ? header_columns_[v] : 0;
  }
  void set_source(std::string file, std::vector<std::size_t> header_columns) {
    source_ = std::move(file);
    header_columns_ = std::move(header_columns);
  }
  // The columns cut into intervals on reading, with their cut points; the codes of such a
  // column number its intervals in order.
  const std::vector<Discretization>& discretized() const { return discretized_; }
  void set_discretized(std::vector<Discretization> d) { discretized_ = std::move(d); }
  // Whether column v was cut into intervals on reading.
  bool is_discretized(std::size_t v) const;

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
  std::string source_;
  std::vector<std::size_t> header_columns_;
  std::vector<Discretization> discretized_;
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
// than 65,535 states in one column, duplicate column names, and a column of numbers that are
// not all integers with more than kMaxNumberStates distinct values (at its header cell:
// numbers read as categories; --discretize cuts them into intervals) unless a discretize spec
// covers it. A column of integers with more than kMaxNumberStates values is read, and
// `warnings` (when given) gets a line saying so.
// The path "-" is standard input (named "<stdin>" in messages), read until it ends, a signal
// or CsvOptions::input_wait, as a pipe is.
inline constexpr std::size_t kMaxNumberStates = 20;
inline constexpr const char* kStdinPath = "-";
inline constexpr const char* kStdinName = "<stdin>";
Dataset read_csv(const std::string& path, const CsvOptions& options,
                 std::vector<std::string>* warnings = nullptr);
// The same for a file's text already in memory; `file` names it in errors.
Dataset parse_csv(std::string_view text, const std::string& file, const CsvOptions& options,
                  std::vector<std::string>* warnings = nullptr);

}  // namespace bnsl
