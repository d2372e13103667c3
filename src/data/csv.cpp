// Reading a CSV file into a Dataset. The whole file is read into memory and parsed in place:
// lines and fields are string_views into that buffer, and each column maps its values to dense
// codes in order of first appearance with a hash map from value to code, so a value is hashed
// once per row and only distinct values are copied. Fields are literal text; a field enclosed
// in double quotes has them removed ("" inside means one quote, and the delimiter may appear
// inside); quoted fields cannot span lines. CRLF line breaks, a UTF-8 byte-order mark and
// line breaks at the end of the file are accepted. Every malformed input throws InputError with
// the file, 1-based line and 1-based column (in characters) of the offending field.
//
// Memory: the text, then two bytes per value while reading (16-bit codes), which become the
// Dataset's one or two column by column. Both are checked against what is available
// (util/memory.hpp) before they are allocated: a file too large stops with RuntimeError.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <tsl/robin_map.h>
#include <unistd.h>

#include "bnsl/dataset.hpp"
#include "bnsl/error.hpp"
#include "bnsl/stop.hpp"
#include "data/discretize.hpp"
#include "util/memory.hpp"

namespace bnsl {

namespace {

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};

struct StringEqual {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
};

// a == b, cheaper than memcmp for the one- or two-character values typical of data sets.
inline bool same(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  return a[0] == b[0] &&
         (a.size() == 1 || std::memcmp(a.data() + 1, b.data() + 1, a.size() - 1) == 0);
}

constexpr std::size_t kLinearStates = 8;  // up to this many states, look values up by scanning

// One column being read: its distinct values in order of first appearance, and its codes.
struct ColumnBuilder {
  // value -> code
  tsl::robin_map<std::string, std::uint32_t, StringHash, StringEqual> index;
  std::vector<std::string> states;   // code -> value
  std::vector<std::uint16_t> codes;  // one per data row read so far (< kMaxStates = 65,535)

  // Appends the code of `value`, making it a new state if unseen; false (nothing appended)
  // when a new state would exceed Dataset::kMaxStates.
  bool add(std::string_view value) {
    if (states.size() <= kLinearStates) {  // few states: comparing beats hashing
      for (std::size_t k = 0; k < states.size(); ++k) {
        if (same(states[k], value)) {
          codes.push_back(static_cast<std::uint16_t>(k));
          return true;
        }
      }
    }
    auto it = index.find(value);
    if (it != index.end()) {
      codes.push_back(static_cast<std::uint16_t>(it->second));
      return true;
    }
    if (states.size() >= Dataset::kMaxStates) return false;
    auto code = static_cast<std::uint32_t>(states.size());
    states.emplace_back(value);
    index.emplace(states.back(), code);
    codes.push_back(static_cast<std::uint16_t>(code));
    return true;
  }
};

struct CsvField {
  std::string_view text;  // the value, enclosing quotes removed
  std::size_t offset;     // byte offset of the field's first character in its line
};

bool is_missing(std::string_view value) {
  return value.empty() || value == "NA" || value == "?";
}

std::string in_quotes(std::string_view s) {
  std::string out(1, '\'');
  return out.append(s).append(1, '\'');
}

// Characters (UTF-8 code points) in s: bytes that are not continuation bytes.
std::size_t utf8_length(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string unescape_quotes(std::string_view inner) {
  std::string out;
  out.reserve(inner.size());
  for (std::size_t i = 0; i < inner.size(); ++i) {
    out += inner[i];
    if (inner[i] == '"') ++i;  // "" stands for one quote
  }
  return out;
}

// All of an open descriptor's data, polled every 0.1 s so that a signal ends the wait (the
// handlers restart system calls, so a blocking read would go on through SIGINT and SIGTERM).
// With `wait` > 0 (a command's --time), the wait for the end of the data ends then too. `name`
// is the file's name in messages.
std::string load_fd(int fd, const std::string& name, double wait) {
  const auto start = std::chrono::steady_clock::now();
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (signal_received())
      throw RuntimeError(name + ": stopped by signal " + std::to_string(received_signal()) +
                         " while waiting for its data (" + std::to_string(text.size()) +
                         " bytes read)");
    if (wait > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > wait) {
      char budget[32];
      std::snprintf(budget, sizeof budget, "%g", wait);
      throw RuntimeError(name + ": its data did not end within the --time budget, " + budget +
                         " s (" + std::to_string(text.size()) + " bytes read)");
    }
    if (ready < 0 && errno != EINTR)
      throw InputError(name, 0, 0, std::string("cannot read: ") + std::strerror(errno));
    if (ready <= 0) continue;
    if (p.revents & POLLIN) {
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n > 0) {
        text.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      if (n == 0) return text;  // every writer has closed its end
      if (errno == EAGAIN || errno == EINTR) continue;
      throw InputError(name, 0, 0, std::string("cannot read: ") + std::strerror(errno));
    }
    if (p.revents & (POLLHUP | POLLERR)) return text;
  }
}

// A FIFO (or a terminal, a socket) blocks open() until a writer comes: it is opened
// non-blocking, and read by load_fd. Until a writer has come, the read end sees neither data
// nor a hang-up; after the last writer leaves, a hang-up.
std::string load_stream(const std::string& path, double wait) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  const std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
    ::close(*f);
    delete f;
  });
  return load_fd(fd, path, wait);
}

std::string load_file(const std::string& path, double wait) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw InputError(path, 0, 0, "cannot read: is a directory");
  }
  if (const auto status = std::filesystem::status(path, ec);
      !ec && status.type() != std::filesystem::file_type::regular &&
      status.type() != std::filesystem::file_type::not_found)
    return load_stream(path, wait);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  auto size = std::filesystem::file_size(path, ec);
  if (!ec) {
    require_memory(static_cast<double>(size), available_memory(),
                   "reading " + path + " (" + bytes_text(static_cast<double>(size)) + ")",
                   kLessDataHint);
    text.reserve(size);
  }
  char chunk[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) text.append(chunk, n);
  if (std::ferror(file.get())) {
    throw InputError(path, 0, 0, std::string("cannot read: ") + std::strerror(errno));
  }
  return text;
}

// Parses one file's text; the text must outlive the reader.
class CsvReader {
 public:
  CsvReader(const std::string& path, const CsvOptions& options, std::string_view text,
            std::vector<std::string>* warnings)
      : path_(path), options_(options), rest_(text), warnings_(warnings) {}

  Dataset read();

 private:
  void trim_text();
  bool next_line();
  void split_line();
  std::size_t split_quoted(std::size_t pos);
  void read_names();
  void read_row();
  void check_width() const;
  std::vector<Discretization> read_numbers();
  const DiscretizeSpec* spec_for(std::size_t c) const;
  void cut(std::size_t c, const DiscretizeSpec& spec, const std::vector<double>& values,
           std::vector<Discretization>& out);
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const;
  [[noreturn]] void fail_at_name(std::size_t c, const std::string& what) const;

  const std::string& path_;
  const CsvOptions& options_;
  std::string_view rest_;               // text after line_
  bool at_end_ = false;                 // line_ is the last line
  char line_end_ = '\n';                // '\r' in a file of classic Mac OS line ends (CR only)
  std::string_view line_;               // current line, without its line break
  std::size_t line_no_ = 0;             // 1-based number of line_
  std::vector<CsvField> fields_;        // fields of line_
  std::deque<std::string> unescaped_;   // storage of quoted fields of line_ that held ""
  std::vector<std::string> names_;      // column names
  std::vector<ColumnBuilder> columns_;  // one per column
  std::vector<std::string>* warnings_;  // where warnings go (may be null)
  std::vector<std::size_t> name_cols_;  // 1-based column of each field of the first line
};

void CsvReader::fail_at_name(std::size_t c, const std::string& what) const {
  throw InputError(path_, 1, name_cols_[c], what);
}

void CsvReader::fail(std::size_t offset, const std::string& what) const {
  std::size_t col = utf8_length(line_.substr(0, std::min(offset, line_.size()))) + 1;
  throw InputError(path_, line_no_, col, what);
}

// Drops a UTF-8 byte-order mark and the line breaks at the end of the file; a file whose lines
// end in CR alone (classic Mac OS) is read line by line at each CR.
void CsvReader::trim_text() {
  if (rest_.starts_with("\xEF\xBB\xBF")) rest_.remove_prefix(3);
  while (!rest_.empty() && (rest_.back() == '\n' || rest_.back() == '\r')) rest_.remove_suffix(1);
  if (rest_.find('\n') == std::string_view::npos) line_end_ = '\r';
}

bool CsvReader::next_line() {
  if (at_end_) return false;
  std::size_t nl = rest_.find(line_end_);
  if (nl == std::string_view::npos) {
    line_ = rest_;
    rest_ = {};
    at_end_ = true;
  } else {
    line_ = rest_.substr(0, nl);
    rest_.remove_prefix(nl + 1);
  }
  if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
  ++line_no_;
  return true;
}

void CsvReader::split_line() {
  fields_.clear();
  unescaped_.clear();
  std::size_t pos = 0;
  for (;;) {
    if (pos < line_.size() && line_[pos] == '"') {
      pos = split_quoted(pos);
    } else {
      std::size_t end = pos;  // fields are short: a plain loop beats memchr
      while (end < line_.size() && line_[end] != options_.delimiter) ++end;
      fields_.push_back({line_.substr(pos, end - pos), pos});
      pos = end;
    }
    if (pos == line_.size()) return;
    ++pos;  // past the delimiter
  }
}

// Splits off the quoted field starting at pos; returns the position just after it.
std::size_t CsvReader::split_quoted(std::size_t pos) {
  bool escaped = false;
  std::size_t close = pos + 1;
  for (;;) {
    close = line_.find('"', close);
    if (close == std::string_view::npos)
      fail(pos, at_end_ ? "unterminated quoted field"
                        : "a quoted field not closed on its line (line breaks inside quotes "
                          "are not read: each record is one line)");
    if (close + 1 < line_.size() && line_[close + 1] == '"') {
      escaped = true;
      close += 2;
      continue;
    }
    break;
  }
  std::string_view inner = line_.substr(pos + 1, close - pos - 1);
  if (escaped) inner = unescaped_.emplace_back(unescape_quotes(inner));
  fields_.push_back({inner, pos});
  std::size_t after = close + 1;
  if (after < line_.size() && line_[after] != options_.delimiter) {
    fail(after, "unexpected character after the closing quote of a field");
  }
  return after;
}

void CsvReader::read_names() {
  tsl::robin_map<std::string_view, std::size_t> seen;  // name -> 1-based field number
  for (std::size_t c = 0; c < fields_.size(); ++c) {
    std::string_view name = fields_[c].text;
    if (name.empty()) fail(fields_[c].offset, "empty column name");
    auto [it, inserted] = seen.emplace(name, c + 1);
    if (!inserted) {
      fail(fields_[c].offset, "duplicate column name " + in_quotes(name) + " (also field " +
                                  std::to_string(it->second) + ")");
    }
    names_.emplace_back(name);
  }
}

void CsvReader::check_width() const {
  std::size_t n = columns_.size();
  if (fields_.size() == n) return;
  std::string expected = "expected " + std::to_string(n) + " fields";
  if (line_.empty()) fail(0, "empty line; " + expected);
  std::size_t offset = fields_.size() > n ? fields_[n].offset : line_.size();
  fail(offset, expected + ", found " + std::to_string(fields_.size()));
}

void CsvReader::read_row() {
  split_line();
  check_width();
  for (std::size_t c = 0; c < fields_.size(); ++c) {
    const CsvField& f = fields_[c];
    if (!options_.missing_as_state && is_missing(f.text)) {
      fail(f.offset, "missing value " + in_quotes(f.text) + " in column " + in_quotes(names_[c]) +
                         " (use --missing-as-state to treat it as a state)");
    }
    if (!columns_[c].add(f.text)) {
      fail(f.offset, "column " + in_quotes(names_[c]) + " has more than 65,535 distinct values");
    }
  }
}

// The spec naming column c, else the one for every column, else none.
const DiscretizeSpec* CsvReader::spec_for(std::size_t c) const {
  const DiscretizeSpec* all = nullptr;
  for (const DiscretizeSpec& spec : options_.discretize) {
    if (spec.column == names_[c]) return &spec;
    if (spec.column.empty()) all = &spec;
  }
  return all;
}

// Replaces column c's values (numbers, `values` by code) by their intervals, in order.
void CsvReader::cut(std::size_t c, const DiscretizeSpec& spec, const std::vector<double>& values,
                    std::vector<Discretization>& out) {
  ColumnBuilder& col = columns_[c];
  std::vector<std::size_t> count(values.size(), 0);
  for (std::uint16_t code : col.codes) ++count[code];
  std::vector<std::size_t> by_value(values.size());
  for (std::size_t k = 0; k < by_value.size(); ++k) by_value[k] = k;
  std::sort(by_value.begin(), by_value.end(),
            [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> sorted;
  std::vector<std::size_t> counts;
  for (std::size_t k : by_value) {
    if (!sorted.empty() && sorted.back() == values[k]) {
      counts.back() += count[k];
      continue;
    }
    sorted.push_back(values[k]);
    counts.push_back(count[k]);
  }
  const char* method = spec.method == DiscretizeSpec::quantile ? "quantile" : "interval";
  std::vector<double> breaks = sorted.size() < 2
                                   ? std::vector<double>{}
                                   : cut_points(sorted, counts, spec.method, spec.intervals);
  if (breaks.empty())
    fail_at_name(c, "column " + in_quotes(names_[c]) + ": " + method + ":" +
                        std::to_string(spec.intervals) +
                        " gives an interval of length zero (too few distinct values or too "
                        "many ties): use fewer intervals, or the other method");
  const std::vector<std::string> labels = interval_labels(breaks);
  // Codes of the intervals that hold a row, in order.
  std::vector<int> interval(values.size());
  std::vector<bool> used(labels.size(), false);
  for (std::size_t k = 0; k < values.size(); ++k) {
    interval[k] = interval_of(values[k], breaks);
    used[interval[k]] = true;
  }
  std::vector<std::uint16_t> code_of(labels.size(), 0);
  std::vector<std::string> states;
  for (std::size_t k = 0; k < labels.size(); ++k)
    if (used[k]) {
      code_of[k] = static_cast<std::uint16_t>(states.size());
      states.push_back(labels[k]);
    }
  for (std::uint16_t& code : col.codes) code = code_of[interval[code]];
  col.states = std::move(states);
  col.index.clear();
  out.push_back({c, method, std::move(breaks)});
}

// Columns of numbers: cut the ones a spec names (or the spec for all covers), refuse
// non-integers of many values read as categories, warn of integers of many values.
std::vector<Discretization> CsvReader::read_numbers() {
  std::vector<Discretization> cuts;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const ColumnBuilder& col = columns_[c];
    const DiscretizeSpec* spec = spec_for(c);
    std::vector<double> values(col.states.size());
    bool numbers = true, integers = true;
    for (std::size_t k = 0; k < values.size() && numbers; ++k) {
      numbers = parse_data_number(col.states[k], values[k]);
      integers = integers && numbers && values[k] == std::floor(values[k]);
    }
    const bool many = col.states.size() > kMaxNumberStates;
    if (spec && spec->column == names_[c] && spec->method != DiscretizeSpec::none && !numbers)
      fail_at_name(c, "column " + in_quotes(names_[c]) +
                          " holds values that are not numbers: --discretize cuts only columns "
                          "of numbers");
    if (spec && spec->method != DiscretizeSpec::none && numbers &&
        (spec->column == names_[c] || !integers || many)) {
      cut(c, *spec, values, cuts);
      continue;
    }
    if (spec || !numbers || !many) continue;
    const std::string what =
        "column " + in_quotes(names_[c]) + " holds " + std::to_string(col.states.size()) +
        " distinct " + (integers ? "integers" : "numbers") + ", each read as a category of its own";
    if (!integers)
      fail_at_name(c, what + " (more than " + std::to_string(kMaxNumberStates) +
                          "): cut them into intervals with --discretize quantile:K or "
                          "interval:K (all such columns), or --discretize " +
                          names_[c] + "=quantile:K (this one); --discretize " + names_[c] +
                          "=none reads them as categories");
    if (warnings_)
      warnings_->push_back(path_ + ":1:" + std::to_string(name_cols_[c]) + ": " + what +
                           " (--discretize " + names_[c] +
                           "=quantile:K cuts them into K intervals)");
  }
  return cuts;
}

Dataset CsvReader::read() {
  trim_text();
  if (rest_.empty()) {
    line_no_ = 1;
    fail(0, "empty file");
  }
  next_line();
  split_line();
  columns_.resize(fields_.size());
  std::size_t rows = static_cast<std::size_t>(std::count(rest_.begin(), rest_.end(), '\n')) + 1;
  // 16-bit codes while reading; each column then becomes the Dataset's (one byte per value,
  // two in columns of more than 256 states) as its codes are freed, so they peak first.
  const double values = static_cast<double>(rows) * static_cast<double>(columns_.size());
  require_memory(2 * values, available_memory(),
                 "reading " + path_ + " (" + std::to_string(rows) + " rows of " +
                     std::to_string(columns_.size()) + " columns)",
                 kLessDataHint);
  for (auto& column : columns_) column.codes.reserve(rows);
  std::size_t chars = 0, counted = 0;  // characters in line_[0, counted): linear in the line
  for (const CsvField& f : fields_) {
    chars += utf8_length(line_.substr(counted, f.offset - counted));
    counted = f.offset;
    name_cols_.push_back(chars + 1);
  }
  if (options_.header) {
    read_names();
  } else {
    for (std::size_t c = 0; c < columns_.size(); ++c) names_.push_back(default_variable_name(c));
    read_row();
  }
  while (next_line()) read_row();
  if (columns_[0].codes.empty()) {
    line_ = {};
    ++line_no_;
    fail(0, "no data rows after the header");
  }
  std::vector<Discretization> cuts = read_numbers();
  Dataset data;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    data.add_column(std::move(names_[c]), std::move(columns_[c].states),
                    std::span<const std::uint16_t>(columns_[c].codes));
    columns_[c] = ColumnBuilder{};  // free memory as we go
  }
  data.set_source(path_, options_.header ? name_cols_ : std::vector<std::size_t>{});
  data.set_discretized(std::move(cuts));
  return data;
}

}  // namespace

Dataset read_csv(const std::string& path, const CsvOptions& options,
                 std::vector<std::string>* warnings) {
  if (path == kStdinPath)  // blocking as the caller left it: poll() tells when read() has data
    return parse_csv(load_fd(STDIN_FILENO, kStdinName, options.input_wait), kStdinName, options,
                     warnings);
  return parse_csv(load_file(path, options.input_wait), path, options, warnings);
}

Dataset parse_csv(std::string_view text, const std::string& file, const CsvOptions& options,
                  std::vector<std::string>* warnings) {
  char d = options.delimiter;
  if (d == '"' || d == '\n' || d == '\r') {
    throw InputError("invalid CSV delimiter: must not be a quote or a line break");
  }
  return CsvReader(file, options, text, warnings).read();
}

}  // namespace bnsl
