// Learns a network from a CSV with the installed library: consumer DATA.csv SECONDS
#include <cstdio>
#include <cstdlib>

#include "bnsl/dataset.hpp"
#include "bnsl/learn.hpp"

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  const bnsl::Dataset data = bnsl::read_csv(argv[1], {});
  bnsl::LearnOptions options;
  const bnsl::StopToken stop(std::atof(argv[2]));
  const bnsl::LearnResult r = bnsl::learn(data, options, stop);
  std::printf("%zu variables, best %.4f, %zu classes\n", data.n_vars(),
              r.report.classes.front().score, r.report.classes.size());
  return 0;
}
