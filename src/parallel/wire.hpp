// Byte strings between the processes of one run (bnsl/comm.hpp): plain values appended in the
// machine's representation (every process runs the same binary), and the two things that
// travel: score-cache entries of some variables, and networks as cache entry indices.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bnsl/cache.hpp"

namespace bnsl::wire {

class Writer {
 public:
  template <typename T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <typename T>
  void put_span(std::span<const T> v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(v.size());
    bytes_.append(reinterpret_cast<const char*>(v.data()), v.size_bytes());
  }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    need(sizeof v);
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  template <typename T>
  std::vector<T> get_vector() {
    const auto n = get<std::uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) need(bytes_.size() - at_ + 1);  // cut short
    std::vector<T> v(n);
    if (n) std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(T));
    at_ += n * sizeof(T);
    return v;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  void need(std::size_t n) const {
    if (bytes_.size() - at_ < n)
      throw std::runtime_error("a message between processes is cut short");
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

// The entries of variables `vars` of `cache`.
std::string pack_vars(const ScoreCache& cache, std::span<const int> vars);
// Stores the variables packed by pack_vars into `cache` (replacing their entries).
void unpack_vars(std::string_view bytes, ScoreCache& cache);

// A network: its score and each variable's cache entry index.
std::string pack_network(double score, std::span<const std::uint32_t> choices);
// False if the bytes are not a network of `n` variables.
bool unpack_network(std::string_view bytes, std::size_t n, double& score,
                    std::vector<std::uint32_t>& choices);

}  // namespace bnsl::wire
