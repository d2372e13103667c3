// The names of an enumeration, declared once as a table next to it (value <-> name): printing,
// parsing with a message that lists the names, and the list the command line checks against.
//
//   inline constexpr std::array<Named<ScoreKind>, 2> kScoreKindNames{
//       {{ScoreKind::bic, "bic"}, {ScoreKind::bdeu, "bdeu"}}};
//   name_of(kScoreKindNames, ScoreKind::bic);            // "bic"
//   value_of(kScoreKindNames, "bdeu", "score");         // ScoreKind::bdeu
//   value_of(kScoreKindNames, "x", "score");            // InputError: unknown score 'x'
//                                                       //   (expected bic or bdeu)
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "bnsl/error.hpp"

namespace bnsl {

template <class E>
struct Named {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
std::string name_of(const std::array<Named<E>, N>& table, E value) {
  for (const auto& entry : table)
    if (entry.value == value) return std::string(entry.name);
  return "?";
}

template <class E, std::size_t N>
std::vector<std::string> names_of(const std::array<Named<E>, N>& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.emplace_back(entry.name);
  return names;
}

// "a, b or c"
template <class E, std::size_t N>
std::string alternatives(const std::array<Named<E>, N>& table) {
  std::string text;
  for (std::size_t i = 0; i < N; ++i) {
    if (i > 0) text += i + 1 == N ? " or " : ", ";
    text += table[i].name;
  }
  return text;
}

// Throws InputError "unknown WHAT 'TEXT' (expected a, b or c)".
template <class E, std::size_t N>
E value_of(const std::array<Named<E>, N>& table, const std::string& text, const std::string& what) {
  for (const auto& entry : table)
    if (entry.name == text) return entry.value;
  throw InputError("unknown " + what + " '" + text + "' (expected " + alternatives(table) + ")");
}

}  // namespace bnsl
