// The jkl score-cache text format, as read and written by GOBNILP and BLIP.
//
//   14                      number of variables n (the total, also in a slice)
//   0 96                    block header: VAR COUNT
//   -89.09382988 2 1 7      COUNT entry lines: SCORE SIZE P1 .. PSIZE
//   -104.30100571 0         (the empty parent set)
//   1 37
//   ...
//
// Blank lines and lines whose first non-blank character is '#' are ignored anywhere. Fields are
// separated by spaces or tabs; "\r\n" line ends are accepted. Scores are decimal numbers
// ("-89.09382988", "-1.0e+03"); they must be finite.
//
// Variables, in block headers and parent lists, are 0-based indices or names:
// - with a names vector given (its size must equal n), a token equal to one of the names is that
//   variable; otherwise a token that is an integer is an index; anything else is unknown;
// - without names, an integer token is an index, and a block header that is not an integer names
//   the variable whose index is the block's position in the file (the k-th block, 0-based, is
//   variable k, as in GOBNILP's files with names such as asia's "One 64"). Parents may then use
//   those names, including names of later blocks: a first pass collects all block headers.
// A file may hold blocks for only some variables (a job-array slice); the others get no entries,
// and the caller decides whether that is acceptable. Every variable's entries are sorted best
// first after reading. Errors are InputError "FILE:LINE:COL: what" with 1-based physical lines.
//
// The whole file is parsed in memory with std::string_view and std::from_chars: a 50 MB cache
// reads in well under a second, where iostream extraction per token takes many.
//
// The writer prints variables as indices, entries in the cache's order (callers sort best
// first), scores with `precision` significant digits (at least 10, at most 17), and writes to
// PATH.tmp first, renamed over PATH, so a reader never sees a half-written cache. An
// exploration's journal, a jkl file that grows block by block, is cache_journal.cpp's.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>

#include "bnsl/cache.hpp"
#include "bnsl/error.hpp"
#include "io/jkl.hpp"
#include "util/atomic_file.hpp"

namespace bnsl {

namespace {

// Bound on n, so a typo (or a corrupt file) cannot allocate gigabytes: each declared variable
// costs about 150 bytes before any block is read (its cache, name, block line), and a file of 8
// bytes declaring 14,141,818 variables took 2.2 GB (found by fuzzing, tests/fuzz/jkl/).
constexpr long long kMaxVars = 1LL << 20;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// A whitespace-separated field of a line.
struct JklToken {
  std::string_view text;
  std::size_t col;  // 1-based column of its first character
};

void split_tokens(std::string_view line, std::vector<JklToken>& out) {
  out.clear();
  std::size_t i = 0;
  while (true) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i == line.size()) return;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    out.push_back({line.substr(start, i - start), start + 1});
  }
}

bool parse_int(std::string_view s, long long& value) {
  const char* last = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), last, value);
  return !s.empty() && ec == std::errc() && ptr == last;
}

bool parse_score(std::string_view s, double& value) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  const char* last = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), last, value, std::chars_format::general);
  return !s.empty() && ec == std::errc() && ptr == last;
}

// A block header "VAR COUNT" with COUNT > 0 where an entry line was expected: the block before
// it is short. (A valid entry line with two fields has SIZE 0, and its score is not a
// non-negative integer index unless it is the very unlikely score "0 0".)
bool looks_like_header(const std::vector<JklToken>& tokens) {
  long long count = 0;
  long long index = 0;
  double score = 0;
  if (tokens.size() != 2 || !parse_int(tokens[1].text, count) || count <= 0) return false;
  if (parse_int(tokens[0].text, index)) return index >= 0;
  return !parse_score(tokens[0].text, score);
}

// Iterates over the lines that are neither blank nor comments, counting physical lines.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  bool next(std::string_view& line) {
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      line = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++line_no_;
      std::size_t i = 0;
      while (i < line.size() && is_space(line[i])) ++i;
      if (i < line.size() && line[i] != '#') return true;
    }
    return false;
  }
  std::size_t line_no() const { return line_no_; }  // of the line last returned

 private:
  std::string_view text_;
  std::size_t pos_ = 0;      // start of the next line
  std::size_t line_no_ = 0;  // 1-based physical line number
};

class JklParser {
 public:
  JklParser(std::string_view text, const std::string& file, const std::vector<std::string>& names)
      : text_(text), file_(file), given_names_(names), lines_(text) {}
  ScoreCache parse();

 private:
  // The current block: its header token, declared entry count and line.
  struct Block {
    JklToken var;
    std::size_t count;
    std::size_t line;
  };

  [[noreturn]] void fail(std::size_t line, std::size_t col, const std::string& what) const {
    throw InputError(file_, line, col, what);
  }
  void parse_n();
  void index_given_names();
  void collect_header_names();
  Block read_header(std::size_t line) const;
  void next_entry(LineReader& lines, const Block& block, std::size_t k);
  void parse_block(ScoreCache& cache);
  void parse_entry(VarCache& var, int child, std::size_t line);
  int resolve(const JklToken& token, std::size_t line) const;
  std::vector<std::string> result_names() const;

  std::string_view text_;
  const std::string& file_;                      // display name for messages
  const std::vector<std::string>& given_names_;  // may be empty
  LineReader lines_;
  std::size_t n_ = 0;
  std::unordered_map<std::string_view, int> name_index_;  // name -> variable
  bool numeric_names_ = false;  // some name is also an integer (then look names up first)
  std::vector<std::string_view> header_names_;  // without given names: names from block headers
  std::vector<JklToken> tokens_;                // fields of the current line
  std::vector<int> parents_;                    // parents of the current entry
  std::vector<std::size_t> block_line_;         // line of each variable's block, 0 if none yet
  std::vector<std::uint32_t> mark_;  // mark_[p] == stamp_: p already a parent of this entry
  std::uint32_t stamp_ = 0;
};

ScoreCache JklParser::parse() {
  parse_n();
  if (given_names_.empty()) {
    collect_header_names();
  } else {
    index_given_names();
  }
  ScoreCache cache(n_, result_names());
  block_line_.assign(n_, 0);
  mark_.assign(n_, 0);
  std::string_view line;
  while (lines_.next(line)) {
    split_tokens(line, tokens_);
    parse_block(cache);
  }
  for (std::size_t v = 0; v < n_; ++v) cache.var(v).sort_best_first();
  return cache;
}

void JklParser::parse_n() {
  std::string_view line;
  if (!lines_.next(line)) fail(1, 0, "empty file: expected the number of variables");
  split_tokens(line, tokens_);
  const std::size_t at = lines_.line_no();
  long long n = 0;
  if (!parse_int(tokens_[0].text, n) || n < 1 || n > kMaxVars) {
    fail(at, tokens_[0].col,
         "expected the number of variables (an integer from 1 to " + std::to_string(kMaxVars) +
             "), found '" + std::string(tokens_[0].text) + "'");
  }
  if (tokens_.size() > 1) {
    fail(at, tokens_[1].col,
         "trailing garbage '" + std::string(tokens_[1].text) + "' after the number of variables");
  }
  if (!given_names_.empty() && given_names_.size() != static_cast<std::size_t>(n)) {
    fail(at, tokens_[0].col,
         "the file has " + std::to_string(n) + " variables but " +
             std::to_string(given_names_.size()) + " names were given");
  }
  n_ = static_cast<std::size_t>(n);
}

void JklParser::index_given_names() {
  long long ignored = 0;
  for (std::size_t v = 0; v < given_names_.size(); ++v) {
    name_index_.emplace(given_names_[v], static_cast<int>(v));  // first of equal names wins
    numeric_names_ = numeric_names_ || parse_int(given_names_[v], ignored);
  }
}

// First pass, without given names: every block header that is not an integer names the
// variable at the block's position. Entry lines are only counted here.
void JklParser::collect_header_names() {
  header_names_.assign(n_, {});
  LineReader lines = lines_;  // the second pass re-reads the blocks from lines_
  std::string_view line;
  long long ignored = 0;
  for (std::size_t ordinal = 0; lines.next(line); ++ordinal) {
    split_tokens(line, tokens_);
    const Block block = read_header(lines.line_no());
    if (!parse_int(block.var.text, ignored)) {
      if (ordinal >= n_) {
        fail(block.line, block.var.col,
             "block '" + std::string(block.var.text) + "' is block " + std::to_string(ordinal + 1) +
                 " but the file has only " + std::to_string(n_) + " variables");
      }
      if (name_index_.emplace(block.var.text, static_cast<int>(ordinal)).second) {
        header_names_[ordinal] = block.var.text;
      }  // a repeated name resolves to its first block; the second pass reports it
    }
    for (std::size_t k = 0; k < block.count; ++k) next_entry(lines, block, k);
  }
}

JklParser::Block JklParser::read_header(std::size_t line) const {
  if (tokens_.size() != 2) {
    const std::size_t col = tokens_.size() > 2 ? tokens_[2].col : tokens_[0].col;
    fail(line, col,
         "expected a block header 'VAR COUNT', found " + std::to_string(tokens_.size()) +
             " fields (does the previous block have more entries than its COUNT?)");
  }
  long long count = 0;
  if (!parse_int(tokens_[1].text, count) || count < 0) {
    fail(
        line, tokens_[1].col,
        "bad entry count '" + std::string(tokens_[1].text) + "' (expected a non-negative integer)");
  }
  return {tokens_[0], static_cast<std::size_t>(count), line};
}

// Reads entry line k of `block` into tokens_, or reports a short block.
void JklParser::next_entry(LineReader& lines, const Block& block, std::size_t k) {
  auto declared = [&] {
    return "block for variable '" + std::string(block.var.text) + "' (line " +
           std::to_string(block.line) + ") declares " + std::to_string(block.count) + " entries";
  };
  std::string_view line;
  if (!lines.next(line)) {
    fail(block.line, block.var.col, declared() + " but the file ends after " + std::to_string(k));
  }
  split_tokens(line, tokens_);
  if (looks_like_header(tokens_)) {
    fail(lines.line_no(), 1,
         declared() + " but has only " + std::to_string(k) +
             "; this line looks like a block header");
  }
}

void JklParser::parse_block(ScoreCache& cache) {
  const Block block = read_header(lines_.line_no());
  const int v = resolve(block.var, block.line);
  if (block_line_[v] != 0) {
    fail(block.line, block.var.col,
         "second block for variable '" + std::string(block.var.text) + "' (the first is at line " +
             std::to_string(block_line_[v]) + ")");
  }
  block_line_[v] = block.line;
  VarCache& var = cache.var(static_cast<std::size_t>(v));
  // Each entry line takes at least 4 bytes, which bounds a bogus COUNT's reservation.
  const std::size_t expected = std::min(block.count, text_.size() / 4);
  var.reserve(expected, 2 * expected);
  for (std::size_t k = 0; k < block.count; ++k) {
    next_entry(lines_, block, k);
    parse_entry(var, v, lines_.line_no());
  }
}

void JklParser::parse_entry(VarCache& var, int child, std::size_t line) {
  const JklToken& first = tokens_[0];
  double score = 0;
  if (!parse_score(first.text, score)) {
    fail(line, first.col, "non-numeric score '" + std::string(first.text) + "'");
  }
  if (!std::isfinite(score)) fail(line, first.col, "the score must be a finite number");
  long long size = 0;
  if (tokens_.size() < 2 || !parse_int(tokens_[1].text, size) || size < 0) {
    const std::size_t col = tokens_.size() < 2 ? first.col + first.text.size() : tokens_[1].col;
    fail(line, col, "expected the parent-set SIZE (a non-negative integer) after the score");
  }
  const std::size_t listed = tokens_.size() - 2;
  if (static_cast<std::size_t>(size) != listed) {
    const bool extra = listed > static_cast<std::size_t>(size);
    fail(line, extra ? tokens_[2 + size].col : tokens_[1].col,
         std::string(extra ? "trailing garbage: " : "") + "SIZE is " + std::to_string(size) +
             " but " + std::to_string(listed) + " parents follow");
  }
  if (++stamp_ == 0) {  // wrapped around: clear stale marks
    std::fill(mark_.begin(), mark_.end(), 0);
    stamp_ = 1;
  }
  parents_.clear();
  for (std::size_t i = 2; i < tokens_.size(); ++i) {
    const JklToken& token = tokens_[i];
    const int p = resolve(token, line);
    if (p == child) {
      fail(line, token.col, "variable '" + std::string(token.text) + "' is its own parent");
    }
    if (mark_[p] == stamp_) {
      fail(line, token.col, "duplicate parent '" + std::string(token.text) + "'");
    }
    mark_[p] = stamp_;
    parents_.push_back(p);
  }
  var.add(score, parents_);
}

int JklParser::resolve(const JklToken& token, std::size_t line) const {
  long long index = 0;
  const bool integer = parse_int(token.text, index);
  if (!name_index_.empty() && (!integer || numeric_names_)) {
    const auto it = name_index_.find(token.text);
    if (it != name_index_.end()) return it->second;
  }
  if (!integer) fail(line, token.col, "unknown variable '" + std::string(token.text) + "'");
  if (index < 0 || static_cast<std::size_t>(index) >= n_) {
    fail(line, token.col,
         "variable index " + std::string(token.text) + " out of range (n = " + std::to_string(n_) +
             ", indices are 0-based)");
  }
  return static_cast<int>(index);
}

// Given names; else names from block headers, unnamed variables named by their index; else none.
std::vector<std::string> JklParser::result_names() const {
  if (!given_names_.empty()) return given_names_;
  if (name_index_.empty()) return {};
  std::vector<std::string> names(n_);
  for (std::size_t v = 0; v < n_; ++v) {
    names[v] = header_names_[v].empty() ? std::to_string(v) : std::string(header_names_[v]);
  }
  return names;
}

// Numbers in the provenance header read back to the same double.
std::string exact_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

namespace jkl {

std::string read_stream(std::istream& in) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
  }
  return text;
}

ScoreCache parse_text(std::string_view text, const std::string& file,
                      const std::vector<std::string>& names) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte order mark
  return JklParser(text, file, names).parse();
}

void append_entry(std::string& out, double score, std::span<const std::int32_t> parents,
                  int precision) {
  char buffer[64];
  auto r =
      std::to_chars(buffer, buffer + sizeof buffer, score, std::chars_format::general, precision);
  out.append(buffer, r.ptr);
  r = std::to_chars(buffer, buffer + sizeof buffer, parents.size());
  out += ' ';
  out.append(buffer, r.ptr);
  for (std::int32_t p : parents) {
    r = std::to_chars(buffer, buffer + sizeof buffer, p);
    out += ' ';
    out.append(buffer, r.ptr);
  }
  out += '\n';
}

std::string provenance_header(const CacheProvenance& p) {
  std::string out;
  auto line = [&out](const char* key, const std::string& value) {
    out.append("# bnsl ").append(key).append(" ").append(value).append("\n");
  };
  line("data", p.data);
  line("rows", std::to_string(p.rows));
  line("score", p.score);
  line("ess", exact_number(p.ess));
  line("epsilon", exact_number(p.epsilon));
  line("max_parents", std::to_string(p.max_parents));
  line("candidates", std::to_string(p.candidates));
  line("vars", std::to_string(p.var_begin) + ":" + std::to_string(p.var_end));
  line("exhaustive", p.exhaustive ? "1" : "0");
  if (p.constraints != "none") line("constraints", p.constraints);  // optional: none
  return out;
}

}  // namespace jkl

bool CacheProvenance::same_run(const CacheProvenance& o, std::string& why) const {
  auto differs = [&why](const std::string& field, const std::string& a, const std::string& b) {
    why = field + " " + a + ", not " + b;
    return false;
  };
  if (data != o.data) return differs("data fingerprint", data, o.data);
  if (rows != o.rows) return differs("rows", std::to_string(rows), std::to_string(o.rows));
  if (score != o.score) return differs("score", score, o.score);
  if (ess != o.ess) return differs("ess", exact_number(ess), exact_number(o.ess));
  if (epsilon != o.epsilon)
    return differs("epsilon", exact_number(epsilon), exact_number(o.epsilon));
  if (max_parents != o.max_parents)
    return differs("max_parents", std::to_string(max_parents), std::to_string(o.max_parents));
  if (candidates != o.candidates)
    return differs("candidates", std::to_string(candidates), std::to_string(o.candidates));
  if (constraints != o.constraints)
    return differs("constraints (forbidden arcs, tiers)", constraints, o.constraints);
  return true;
}

std::optional<CacheProvenance> read_jkl_provenance(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  CacheProvenance p;
  std::vector<std::string> seen;
  std::string text;
  std::vector<JklToken> tokens;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    split_tokens(text, tokens);
    if (tokens.empty()) continue;
    if (tokens[0].text.front() != '#') break;  // the header ends at the first other line
    if (tokens[0].text != "#" || tokens.size() < 2 || tokens[1].text != "bnsl") continue;
    if (tokens.size() != 4)
      throw InputError(path, line, tokens[0].col, "expected '# bnsl KEY VALUE'");
    const std::string key(tokens[2].text);
    const JklToken& value = tokens[3];
    auto fail = [&](const char* what) {
      throw InputError(
          path, line, value.col,
          "provenance '" + key + "': expected " + what + ", got '" + std::string(value.text) + "'");
    };
    long long i = 0;
    double x = 0;
    auto integer = [&](long long lo) {
      if (!parse_int(value.text, i) || i < lo) fail("an integer");
      return i;
    };
    auto number = [&] {
      if (!parse_score(value.text, x)) fail("a number");
      return x;
    };
    if (key == "data") {
      p.data = std::string(value.text);
    } else if (key == "rows") {
      p.rows = static_cast<std::size_t>(integer(0));
    } else if (key == "score") {
      p.score = std::string(value.text);
    } else if (key == "ess") {
      p.ess = number();
    } else if (key == "epsilon") {
      p.epsilon = number();
    } else if (key == "max_parents") {
      p.max_parents = static_cast<int>(integer(-1));
    } else if (key == "candidates") {
      p.candidates = static_cast<int>(integer(0));
    } else if (key == "vars") {
      const std::string_view v = value.text;
      const std::size_t colon = v.find(':');
      long long a = 0, b = 0;
      if (colon == std::string_view::npos || !parse_int(v.substr(0, colon), a) ||
          !parse_int(v.substr(colon + 1), b) || a < 0 || b < a)
        fail("A:B with 0 <= A <= B");
      p.var_begin = static_cast<std::size_t>(a);
      p.var_end = static_cast<std::size_t>(b);
    } else if (key == "constraints") {
      p.constraints = std::string(value.text);
    } else if (key == "exhaustive") {
      if (value.text != "0" && value.text != "1") fail("0 or 1");
      p.exhaustive = value.text == "1";
    } else {
      continue;  // a key of a later version
    }
    seen.push_back(key);
  }
  if (in.bad()) throw RuntimeError(path + ": read failed");
  if (seen.empty()) return std::nullopt;
  for (const char* key : {"data", "rows", "score", "ess", "epsilon", "max_parents", "candidates",
                          "vars", "exhaustive"})
    if (std::find(seen.begin(), seen.end(), key) == seen.end())
      throw InputError(path, 0, 0, std::string("provenance header: no '") + key + "' line");
  return p;
}

void write_jkl(std::ostream& out, const ScoreCache& cache, const JklWriteOptions& options) {
  constexpr std::size_t kFlushBytes = 1 << 16;
  const int precision = std::clamp(options.precision, 10, 17);
  const std::size_t end = std::min(options.var_end, cache.n_vars());
  std::string buffer = options.provenance ? jkl::provenance_header(*options.provenance) : "";
  buffer += std::to_string(cache.n_vars()) + '\n';
  for (std::size_t v = options.var_begin; v < end; ++v) {
    const VarCache& var = cache.var(v);
    buffer += std::to_string(v) + ' ' + std::to_string(var.size()) + '\n';
    for (std::size_t i = 0; i < var.size(); ++i) {
      if (!std::isfinite(var.score(i))) {
        throw RuntimeError("write_jkl: variable " + std::to_string(v) + " entry " +
                           std::to_string(i) + " has a non-finite score");
      }
      jkl::append_entry(buffer, var.score(i), var.parents(i), precision);
      if (buffer.size() >= kFlushBytes) {
        out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        buffer.clear();
      }
    }
  }
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  out.flush();
  if (!out) throw RuntimeError("write_jkl: write failed");
}

void write_jkl(const std::string& path, const ScoreCache& cache, const JklWriteOptions& options) {
  write_file_atomically(path, [&](std::ostream& out) { write_jkl(out, cache, options); });
}

ScoreCache read_jkl(const std::string& path, const std::vector<std::string>& names) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0 && in) {
    text.resize(static_cast<std::size_t>(size));
    in.read(text.data(), size);
    text.resize(static_cast<std::size_t>(in.gcount()));
  } else {
    in.clear();
    text = jkl::read_stream(in);
  }
  if (in.bad()) throw RuntimeError(path + ": read failed");
  return jkl::parse_text(text, path, names);
}

ScoreCache read_jkl(std::istream& in, const std::string& display_name,
                    const std::vector<std::string>& names) {
  const std::string text = jkl::read_stream(in);
  if (in.bad()) throw RuntimeError(display_name + ": read failed");
  return jkl::parse_text(text, display_name, names);
}

}  // namespace bnsl
