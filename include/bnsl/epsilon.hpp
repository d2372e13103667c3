// How far below the best a network may score and still be wanted: epsilon in log-score units.
//
//   bnsl::Epsilon e = bnsl::Epsilon::bayes_factor(20);   // epsilon = ln 20 (the default)
//   double eps = e.resolve(best_abs);                     // |best| used only by factor()
//
// bayes_factor(BF): eps = ln BF (3 / 20 / 150: positive / strong / very strong evidence).
// epsilon(E): eps = E.  factor(RHO): eps = (RHO - 1) * |best|; where the best network is
// not yet known (pruning a cache) an upper bound of |best| is used, which keeps pruning safe.
#pragma once

#include <string>

namespace bnsl {

class Epsilon {
 public:
  enum class Kind { epsilon, bayes_factor, factor };

  static Epsilon epsilon(double e);
  static Epsilon bayes_factor(double bf);
  static Epsilon factor(double rho);
  Epsilon() : Epsilon(bayes_factor(20)) {}

  Kind kind() const { return kind_; }
  double value() const { return value_; }
  // The epsilon, given an upper bound on |score of the best network| (used by factor only).
  double resolve(double best_abs) const;
  std::string describe() const;  // e.g. "ln 20 = 2.9957"

 private:
  Epsilon(Kind kind, double value) : kind_(kind), value_(value) {}
  Kind kind_;
  double value_;
};

}  // namespace bnsl
