// Errors that the command line maps to exit codes.
//
//   try { auto d = bnsl::read_csv("x.csv", {}); }
//   catch (const bnsl::InputError& e) { std::cerr << "bnsl: error: " << e.what(); }  // exit 2
//
// InputError: the user's input is malformed (exit status 2). Its message already reads
// "FILE:LINE:COL: what was expected" (line/column omitted when they do not apply).
// RuntimeError: the input was fine but something failed while running (exit status 1).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace bnsl {

class InputError : public std::runtime_error {
 public:
  // file: path as the user gave it; line, col: 1-based, 0 when unknown.
  InputError(const std::string& file, std::size_t line, std::size_t col, const std::string& what);
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace bnsl
