// BigUint (big_uint.hpp): schoolbook arithmetic on base-2^32 limbs; the counts it holds have a
// few hundred digits at most, where nothing faster pays off.
#include "util/big_uint.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace bnsl {

BigUint::BigUint(std::uint64_t value) {
  while (value != 0) {
    limbs_.push_back(static_cast<std::uint32_t>(value));
    value >>= 32;
  }
}

BigUint BigUint::factorial(unsigned n) {
  BigUint f(1);
  for (unsigned k = 2; k <= n; ++k) f *= static_cast<std::uint32_t>(k);
  return f;
}

bool BigUint::parse(const std::string& text, BigUint& out) {
  if (text.empty()) return false;
  BigUint value;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return false;
    value *= 10u;
    value += static_cast<std::uint64_t>(ch - '0');
  }
  out = std::move(value);
  return true;
}

void BigUint::trim() {
  while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
}

BigUint& BigUint::operator+=(const BigUint& other) {
  if (limbs_.size() < other.limbs_.size()) limbs_.resize(other.limbs_.size(), 0);
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    const std::uint64_t sum = carry + limbs_[i] + (i < other.limbs_.size() ? other.limbs_[i] : 0);
    limbs_[i] = static_cast<std::uint32_t>(sum);
    carry = sum >> 32;
  }
  if (carry != 0) limbs_.push_back(static_cast<std::uint32_t>(carry));
  return *this;
}

BigUint& BigUint::operator-=(const BigUint& other) {
  if (*this < other) throw std::logic_error("BigUint: subtraction below zero");
  std::int64_t borrow = 0;
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    std::int64_t d = static_cast<std::int64_t>(limbs_[i]) - borrow -
                     static_cast<std::int64_t>(i < other.limbs_.size() ? other.limbs_[i] : 0);
    borrow = d < 0 ? 1 : 0;
    if (d < 0) d += std::int64_t{1} << 32;
    limbs_[i] = static_cast<std::uint32_t>(d);
  }
  trim();
  return *this;
}

BigUint& BigUint::operator*=(std::uint32_t factor) {
  std::uint64_t carry = 0;
  for (auto& limb : limbs_) {
    const std::uint64_t p = static_cast<std::uint64_t>(limb) * factor + carry;
    limb = static_cast<std::uint32_t>(p);
    carry = p >> 32;
  }
  if (carry != 0) limbs_.push_back(static_cast<std::uint32_t>(carry));
  trim();
  return *this;
}

BigUint& BigUint::operator*=(const BigUint& other) {
  if (is_zero() || other.is_zero()) {
    limbs_.clear();
    return *this;
  }
  std::vector<std::uint32_t> out(limbs_.size() + other.limbs_.size(), 0);
  for (std::size_t i = 0; i < limbs_.size(); ++i) {
    std::uint64_t carry = 0;
    for (std::size_t j = 0; j < other.limbs_.size(); ++j) {
      const std::uint64_t p =
          static_cast<std::uint64_t>(limbs_[i]) * other.limbs_[j] + out[i + j] + carry;
      out[i + j] = static_cast<std::uint32_t>(p);
      carry = p >> 32;
    }
    out[i + other.limbs_.size()] = static_cast<std::uint32_t>(carry);
  }
  limbs_ = std::move(out);
  trim();
  return *this;
}

bool operator<(const BigUint& a, const BigUint& b) {
  if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size();
  return std::lexicographical_compare(a.limbs_.rbegin(), a.limbs_.rend(), b.limbs_.rbegin(),
                                      b.limbs_.rend());
}

bool BigUint::to_u64(std::uint64_t& out) const {
  if (limbs_.size() > 2) return false;
  out = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;) out = (out << 32) | limbs_[i];
  return true;
}

std::string BigUint::to_string() const {
  if (is_zero()) return "0";
  std::vector<std::uint32_t> n = limbs_;
  std::string digits;
  constexpr std::uint32_t kChunk = 1000000000;  // nine digits at a time
  while (!n.empty()) {
    std::uint64_t rem = 0;
    for (std::size_t i = n.size(); i-- > 0;) {
      const std::uint64_t cur = (rem << 32) | n[i];
      n[i] = static_cast<std::uint32_t>(cur / kChunk);
      rem = cur % kChunk;
    }
    while (!n.empty() && n.back() == 0) n.pop_back();
    for (int d = 0; d < 9; ++d) {
      digits.push_back(static_cast<char>('0' + rem % 10));
      rem /= 10;
      if (n.empty() && rem == 0) break;
    }
  }
  std::reverse(digits.begin(), digits.end());
  return digits;
}

double BigUint::log10() const {
  if (is_zero()) return -std::numeric_limits<double>::infinity();
  // The top two limbs carry the leading 64 bits; the rest is a power of 2^32.
  const std::size_t k = limbs_.size();
  double top = limbs_[k - 1];
  std::size_t shift = k - 1;
  if (k >= 2) {
    top = top * 4294967296.0 + limbs_[k - 2];
    shift = k - 2;
  }
  return std::log10(top) + static_cast<double>(shift) * 32 * std::log10(2.0);
}

double BigUint::to_double() const {
  double x = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;) x = x * 4294967296.0 + limbs_[i];
  return x;
}

}  // namespace bnsl
