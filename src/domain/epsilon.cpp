// Epsilon: the score distance below the best within which networks are wanted.
#include "bnsl/epsilon.hpp"

#include <cmath>
#include <cstdio>

#include "bnsl/error.hpp"

namespace bnsl {

Epsilon Epsilon::epsilon(double e) {
  if (!(e >= 0) || !std::isfinite(e)) throw InputError("--epsilon must be a finite number >= 0");
  return Epsilon(Kind::epsilon, e);
}

Epsilon Epsilon::bayes_factor(double bf) {
  if (!(bf >= 1) || !std::isfinite(bf)) throw InputError("--bayes-factor must be >= 1");
  return Epsilon(Kind::bayes_factor, bf);
}

Epsilon Epsilon::factor(double rho) {
  if (!(rho >= 1) || !std::isfinite(rho)) throw InputError("--factor must be >= 1");
  return Epsilon(Kind::factor, rho);
}

double Epsilon::resolve(double best_abs) const {
  switch (kind_) {
    case Kind::epsilon:
      return value_;
    case Kind::bayes_factor:
      return std::log(value_);
    case Kind::factor:
      return (value_ - 1) * std::fabs(best_abs);
  }
  return value_;
}

std::string Epsilon::describe() const {
  char buf[96];
  switch (kind_) {
    case Kind::epsilon:
      std::snprintf(buf, sizeof buf, "epsilon %.6g", value_);
      break;
    case Kind::bayes_factor:
      std::snprintf(buf, sizeof buf, "Bayes factor %.6g (epsilon = ln %.6g = %.6g)", value_, value_,
                    std::log(value_));
      break;
    case Kind::factor:
      std::snprintf(buf, sizeof buf, "factor %.6g of the best", value_);
      break;
  }
  return buf;
}

}  // namespace bnsl
