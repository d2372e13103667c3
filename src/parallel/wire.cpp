// Byte strings between the processes of one run (wire.hpp).
#include "parallel/wire.hpp"

namespace bnsl::wire {

std::string pack_vars(const ScoreCache& cache, std::span<const int> vars) {
  Writer w;
  w.put<std::uint64_t>(vars.size());
  for (int v : vars) {
    const VarCache& vc = cache.var(static_cast<std::size_t>(v));
    w.put<std::int32_t>(v);
    w.put<std::uint64_t>(vc.size());
    for (std::size_t e = 0; e < vc.size(); ++e) {
      w.put<double>(vc.score(e));
      w.put_span<std::int32_t>(vc.parents(e));
    }
  }
  return w.take();
}

void unpack_vars(std::string_view bytes, ScoreCache& cache) {
  Reader r(bytes);
  const auto count = r.get<std::uint64_t>();
  std::vector<int> parents;
  for (std::uint64_t k = 0; k < count; ++k) {
    const auto v = r.get<std::int32_t>();
    if (v < 0 || static_cast<std::size_t>(v) >= cache.n_vars())
      throw std::runtime_error("a message between processes names an unknown variable");
    VarCache vc;
    const auto entries = r.get<std::uint64_t>();
    for (std::uint64_t e = 0; e < entries; ++e) {
      const double score = r.get<double>();
      const std::vector<std::int32_t> ps = r.get_vector<std::int32_t>();
      parents.assign(ps.begin(), ps.end());
      vc.add(score, parents);
    }
    cache.var(static_cast<std::size_t>(v)) = std::move(vc);
  }
  if (!r.done()) throw std::runtime_error("a message between processes is too long");
}

std::string pack_network(double score, std::span<const std::uint32_t> choices) {
  Writer w;
  w.put<double>(score);
  w.put_span<std::uint32_t>(choices);
  return w.take();
}

bool unpack_network(std::string_view bytes, std::size_t n, double& score,
                    std::vector<std::uint32_t>& choices) {
  try {
    Reader r(bytes);
    score = r.get<double>();
    choices = r.get_vector<std::uint32_t>();
    return r.done() && choices.size() == n;
  } catch (const std::runtime_error&) {
    return false;
  }
}

}  // namespace bnsl::wire
