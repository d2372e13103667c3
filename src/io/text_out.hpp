// Buffered text output for files of any size (pool JSON, CSV tables): the text is handed to the
// stream in pieces of about a megabyte, so no file is ever held whole in memory, and numbers are
// formatted without a string per number.
//
//   bnsl::TextOut out(stream);
//   out << "p,q\n";
//   out.number(0.25);   // shortest text that reads back to the same double
//   out << '\n';
//   out.finish();       // hands over the rest
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace bnsl {

class TextOut {
 public:
  explicit TextOut(std::ostream& os) : os_(os) { buf_.reserve(kPiece + 4096); }
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  TextOut& operator<<(std::string_view text) {
    buf_ += text;
    if (buf_.size() >= kPiece) flush();
    return *this;
  }
  TextOut& operator<<(char c) {
    buf_ += c;
    return *this;
  }
  // Integers in decimal.
  void integer(std::int64_t x) { append_chars(x); }
  void unsigned_integer(std::uint64_t x) { append_chars(x); }
  // The shortest decimal text that reads back to x exactly (std::to_chars); `not_finite` for
  // infinities and NaN (which neither JSON nor CSV numbers can hold).
  void number(double x, std::string_view not_finite = "null") {
    if (!std::isfinite(x)) {
      *this << not_finite;
      return;
    }
    append_chars(x);
  }
  // Hands everything written so far to the stream.
  void finish() { flush(); }

 private:
  static constexpr std::size_t kPiece = std::size_t{1} << 20;

  template <typename T>
  void append_chars(T x) {
    char tmp[32];
    const auto [end, ec] = std::to_chars(tmp, tmp + sizeof tmp, x);
    buf_.append(tmp, end);
    if (buf_.size() >= kPiece) flush();
  }
  void flush() {
    os_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

  std::ostream& os_;
  std::string buf_;
};

}  // namespace bnsl
