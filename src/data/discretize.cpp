// Columns of numbers (src/data/discretize.hpp). Cutting follows bnlearn's discretize():
// "interval" divides [min, max] into K equal widths, "quantile" cuts at R's type-7 sample
// quantiles (the k-th cut point interpolates the sorted values at rank (N - 1) k / K); a value
// falls in the interval (b_k, b_k+1], the first interval also holding the minimum; labels are
// R's cut() labels. Cut points that coincide (many tied values) leave an interval of length
// zero, which bnlearn refuses and so does the caller here.
#include "data/discretize.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "bnsl/error.hpp"

namespace bnsl {

bool parse_data_number(std::string_view text, double& x) {
  if (text.empty()) return false;
  const char* first = text.data();
  const char* last = first + text.size();
  if (*first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, x, std::chars_format::general);
  return ec == std::errc() && ptr == last && std::isfinite(x);
}

DiscretizeSpec parse_discretize(const std::string& text) {
  DiscretizeSpec spec;
  std::string method = text;
  const std::size_t eq = text.rfind('=');
  if (eq != std::string::npos) {
    spec.column = text.substr(0, eq);
    method = text.substr(eq + 1);
    if (spec.column.empty())
      throw InputError("--discretize '" + text + "': no column name before '='");
  }
  const std::size_t colon = method.find(':');
  const std::string name = method.substr(0, colon);
  if (name == "none" && colon == std::string::npos) {
    spec.method = DiscretizeSpec::none;
    return spec;
  }
  if (name != "quantile" && name != "interval")
    throw InputError("--discretize '" + text +
                     "': expected quantile:K, interval:K or none (optionally NAME=...)");
  spec.method = name == "quantile" ? DiscretizeSpec::quantile : DiscretizeSpec::interval;
  int k = 0;
  const std::string count = colon == std::string::npos ? "" : method.substr(colon + 1);
  const auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), k);
  if (count.empty() || ec != std::errc() || ptr != count.data() + count.size() || k < 2 || k > 1000)
    throw InputError("--discretize '" + text +
                     "': expected a number of intervals K from 2 to 1000");
  spec.intervals = k;
  return spec;
}

std::vector<double> cut_points(const std::vector<double>& values,
                               const std::vector<std::size_t>& counts,
                               DiscretizeSpec::Method method, int intervals) {
  const int k_max = intervals;
  std::vector<double> breaks(static_cast<std::size_t>(k_max) + 1);
  const double lo = values.front(), hi = values.back();
  if (method == DiscretizeSpec::interval) {
    const double delta = (hi - lo) / k_max;
    for (int k = 0; k < k_max; ++k) breaks[k] = lo + k * delta;
  } else {
    std::size_t n = 0;
    for (std::size_t c : counts) n += c;
    // The value of rank r (0-based) in the sorted multiset.
    auto at_rank = [&](std::size_t r) {
      std::size_t seen = 0;
      for (std::size_t i = 0; i < values.size(); ++i) {
        seen += counts[i];
        if (r < seen) return values[i];
      }
      return hi;
    };
    for (int k = 1; k < k_max; ++k) {
      const double pos = static_cast<double>(n - 1) * k / k_max;
      const auto r = static_cast<std::size_t>(std::floor(pos));
      const double h = pos - static_cast<double>(r);
      const double a = at_rank(r), b = h > 0 ? at_rank(r + 1) : a;
      breaks[k] = h > 0 && a != b ? (1 - h) * a + h * b : a;
    }
    breaks[0] = lo;
  }
  breaks[k_max] = hi;
  for (int k = 1; k <= k_max; ++k)
    if (!(breaks[k] > breaks[k - 1])) return {};
  return breaks;
}

int interval_of(double x, const std::vector<double>& breaks) {
  const int k_max = static_cast<int>(breaks.size()) - 1;
  for (int k = k_max - 1; k > 0; --k)
    if (x > breaks[k]) return k;
  return 0;
}

std::vector<std::string> interval_labels(const std::vector<double>& breaks) {
  std::vector<std::string> labels;
  for (int digits : {6, 10, 17}) {
    labels.clear();
    for (std::size_t k = 0; k + 1 < breaks.size(); ++k) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s%.*g,%.*g]", k == 0 ? "[" : "(", digits, breaks[k], digits,
                    breaks[k + 1]);
      labels.emplace_back(buf);
    }
    bool distinct = true;
    for (std::size_t k = 1; k < labels.size(); ++k) distinct &= labels[k] != labels[k - 1];
    if (distinct) break;
  }
  return labels;
}

}  // namespace bnsl
