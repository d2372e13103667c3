// Unsigned integers of any size, for exact counts that overflow 64 bits (the number of DAGs in
// a Markov equivalence class: n! for a complete graph of n nodes).
//
//   bnsl::BigUint a(20), b = bnsl::BigUint::factorial(30);
//   a *= b; a += 7; a -= bnsl::BigUint(2);
//   a.to_string();   // decimal digits
//   a.log10();       // ~ log10 of the value (-inf for 0)
//   bnsl::BigUint::parse("123", a);   // true, a == 123
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bnsl {

class BigUint {
 public:
  BigUint() = default;
  BigUint(std::uint64_t value);  // NOLINT: implicit, as for the built-in integers

  static BigUint factorial(unsigned n);
  // The value of a decimal numeral (digits only, at least one); false if `text` is not one.
  static bool parse(const std::string& text, BigUint& out);

  BigUint& operator+=(const BigUint& other);
  BigUint& operator-=(const BigUint& other);  // requires *this >= other (throws otherwise)
  BigUint& operator*=(const BigUint& other);
  BigUint& operator*=(std::uint32_t factor);
  friend BigUint operator+(BigUint a, const BigUint& b) { return a += b; }
  friend BigUint operator-(BigUint a, const BigUint& b) { return a -= b; }
  friend BigUint operator*(BigUint a, const BigUint& b) { return a *= b; }
  friend bool operator==(const BigUint& a, const BigUint& b) { return a.limbs_ == b.limbs_; }
  friend bool operator<(const BigUint& a, const BigUint& b);

  bool is_zero() const { return limbs_.empty(); }
  // The value when it fits in 64 bits; otherwise false.
  bool to_u64(std::uint64_t& out) const;
  std::string to_string() const;  // decimal
  double log10() const;           // -infinity for 0
  double to_double() const;       // nearest double (infinity beyond its range)

 private:
  void trim();
  std::vector<std::uint32_t> limbs_;  // little-endian base 2^32, no leading zero limbs
};

}  // namespace bnsl
