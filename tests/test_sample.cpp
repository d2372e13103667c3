// Forward sampling (bnsl/sample.hpp): on asia (8 binary nodes), the empirical frequencies of
// 200,000 rows match the distribution computed here by exact enumeration of all 2^8 joint
// states from the CPTs (every single-variable marginal and several pairwise joints), within
// 5 standard errors sqrt(p (1 - p) / N) of each probability; the same seed gives the same
// rows, another seed different ones; a written CSV reads back to the same data.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <utility>

#include "bnsl/bif.hpp"
#include "bnsl/sample.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kDatasets = BNSL_DATASETS_DIR;

// P(x) for every joint state x of a network of binary variables (bit v of x = state of v),
// as the product of CPT entries looked up here.
std::vector<double> joint_by_enumeration(const bnsl::BayesNet& net) {
  const std::size_t n = net.n_vars();
  std::vector<double> joint(std::size_t{1} << n);
  for (std::size_t x = 0; x < joint.size(); ++x) {
    double p = 1;
    for (std::size_t v = 0; v < n; ++v) {
      std::size_t j = 0, mult = 1;
      for (int pa : net.parents[v]) {  // first parent fastest
        j += ((x >> pa) & 1) * mult;
        mult *= 2;
      }
      p *= net.cpt[net.cpt_offset[v] + j * 2 + ((x >> v) & 1)];
    }
    joint[x] = p;
  }
  return joint;
}

// P(v = a, w = b) from the joint (v == w: the marginal P(v = a), b ignored).
double joint_prob(const std::vector<double>& joint, int v, int a, int w, int b) {
  double p = 0;
  for (std::size_t x = 0; x < joint.size(); ++x)
    if (static_cast<int>((x >> v) & 1) == a && static_cast<int>((x >> w) & 1) == (v == w ? a : b))
      p += joint[x];
  return p;
}

double empirical(const bnsl::Dataset& d, int v, int a, int w, int b) {
  std::size_t hits = 0;
  for (std::size_t i = 0; i < d.n_rows(); ++i)
    hits += d.code(v, i) == a && d.code(w, i) == (v == w ? a : b);
  return static_cast<double>(hits) / static_cast<double>(d.n_rows());
}

void check_frequency(const bnsl::Dataset& d, const std::vector<double>& joint, int v, int a, int w,
                     int b) {
  const double p = joint_prob(joint, v, a, w, b);
  const double f = empirical(d, v, a, w, b);
  const double se = std::sqrt(p * (1 - p) / static_cast<double>(d.n_rows()));
  INFO("P(" << d.name(v) << "=" << a << ", " << d.name(w) << "=" << b << ") = " << p
            << ", frequency " << f << ", 5 SE = " << 5 * se);
  CHECK(std::fabs(f - p) <= 5 * se + 1e-12);
}

}  // namespace

TEST_CASE("sample: asia frequencies match the CPT joint within 5 standard errors", "[sample]") {
  const bnsl::BayesNet net = bnsl::read_bif(kDatasets + "/asia.bif");
  REQUIRE(net.n_vars() == 8);
  for (std::size_t v = 0; v < 8; ++v) REQUIRE(net.arity(v) == 2);
  const std::vector<double> joint = joint_by_enumeration(net);
  double total = 0;
  for (double p : joint) total += p;
  REQUIRE(total == Approx(1.0).epsilon(1e-9));

  const bnsl::Dataset d = bnsl::sample(net, 200000, 20261122);
  REQUIRE(d.n_rows() == 200000);
  REQUIRE(d.names() == net.names);
  for (int v = 0; v < 8; ++v) check_frequency(d, joint, v, 0, v, 0);  // marginals
  const auto idx = [&](const char* name) { return net.index_of(name); };
  const std::vector<std::pair<int, int>> pairs = {
      {idx("smoke"), idx("lung")},  {idx("smoke"), idx("bronc")}, {idx("asia"), idx("tub")},
      {idx("either"), idx("xray")}, {idx("tub"), idx("lung")},    {idx("lung"), idx("dysp")}};
  for (auto [v, w] : pairs)
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) check_frequency(d, joint, v, a, w, b);
}

TEST_CASE("sample: the same seed gives the same rows", "[sample]") {
  const bnsl::BayesNet net = bnsl::read_bif(kDatasets + "/child.bif");
  const bnsl::Dataset a = bnsl::sample(net, 2000, 7), b = bnsl::sample(net, 2000, 7);
  const bnsl::Dataset c = bnsl::sample(net, 2000, 8), prefix = bnsl::sample(net, 500, 7);
  std::size_t differ = 0;
  for (std::size_t v = 0; v < net.n_vars(); ++v)
    for (std::size_t i = 0; i < a.n_rows(); ++i) {
      REQUIRE(a.code(v, i) == b.code(v, i));
      if (i < prefix.n_rows()) REQUIRE(prefix.code(v, i) == a.code(v, i));
      differ += a.code(v, i) != c.code(v, i);
    }
  CHECK(differ > 0);
}

TEST_CASE("sample: written CSV reads back to the same rows and state names", "[sample]") {
  const bnsl::BayesNet net = bnsl::read_bif(kDatasets + "/child.bif");
  const bnsl::Dataset d = bnsl::sample(net, 300, 3);
  const fs::path path = fs::temp_directory_path() / "bnsl_test_sample.csv";
  bnsl::write_csv(path.string(), d);
  const bnsl::Dataset back = bnsl::read_csv(path.string(), {});
  fs::remove(path);
  REQUIRE(back.names() == d.names());
  REQUIRE(back.n_rows() == d.n_rows());
  for (std::size_t v = 0; v < d.n_vars(); ++v)
    for (std::size_t i = 0; i < d.n_rows(); ++i)
      REQUIRE(back.state_name(v, back.code(v, i)) == d.state_name(v, d.code(v, i)));
}
