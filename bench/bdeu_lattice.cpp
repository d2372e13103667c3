// bdeu_lattice: every parent set of every variable of a small data set, scored under BDeu by
// brute force, and what an ε-safe cache must keep of them (issue 62's probe). Independent of
// bnsl's library: its own CSV reader and its own BDeu, so it also checks bnsl's scores.
//
//   bdeu_lattice DATA.csv [--no-header] [--ess A] [--epsilon E] [--lb L] [--jkl OUT.jkl]
//                [--child I] [--threads T]
//
// For each child X it scores all 2^(n-1) subsets of the other variables (a depth-first walk
// that refines the rows' configurations one variable at a time: O(N) a set), then counts per
// size:
//   all        the sets scored;
//   local      sets no proper subset beats by more than ε (s(Π) ≥ max_{Π'⊊Π} s(Π') − ε):
//              no rule that compares a set with its subsets may drop them, so every local
//              ε-safe cache holds at least these;
//   global     (with --lb L, a network's score, so L ≤ OPT) local sets with
//              s_X(Π) + Σ_{v≠X} max_v ≥ L − ε: a network using Π for X scores at most the
//              left side, so the others cannot be in any network within ε of the optimum.
// --jkl writes the global sets (local sets without --lb) as a jkl cache that `bnsl exact`
// reads: a complete ε-safe cache by exhaustion, for rows whose lattice fits (n ≤ about 24 at
// a few hundred rows).
#include <omp.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Data {
  std::vector<std::string> names;
  std::vector<std::vector<std::uint16_t>> cols;  // cols[v][row]
  std::vector<int> arity;
  std::size_t rows = 0;
};

Data read_csv(const std::string& path, bool header) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "bdeu_lattice: cannot read " << path << "\n";
    std::exit(2);
  }
  Data d;
  std::vector<std::map<std::string, int>> codes;
  std::string line;
  bool first = true;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ',')) fields.push_back(f);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    if (first) {
      codes.resize(fields.size());
      d.cols.resize(fields.size());
      for (std::size_t v = 0; v < fields.size(); ++v)
        d.names.push_back(header ? fields[v] : "V" + std::to_string(v));
      first = false;
      if (header) continue;
    }
    if (fields.size() != codes.size()) {
      std::cerr << "bdeu_lattice: " << path << ": a row of " << fields.size() << " fields, not "
                << codes.size() << "\n";
      std::exit(2);
    }
    for (std::size_t v = 0; v < fields.size(); ++v) {
      auto it = codes[v].emplace(fields[v], static_cast<int>(codes[v].size())).first;
      d.cols[v].push_back(static_cast<std::uint16_t>(it->second));
    }
    ++d.rows;
  }
  for (auto& c : codes) d.arity.push_back(static_cast<int>(c.size()));
  return d;
}

// Scores the subsets of `others` as X's parents, in increasing order of their masks (bit i =
// others[i]): a depth-first walk whose children add a variable below the node's lowest, so
// every subset of a set is scored before it. A set is *local* when no proper subset beats it by
// more than ε; best_[mask] is the best score over the subsets of mask.
class Lattice {
 public:
  Lattice(const Data& d, int child, std::vector<int> others, double ess, double eps)
      : d_(d), x_(child), others_(std::move(others)), ess_(ess), eps_(eps) {
    const std::size_t n = d_.rows;
    best_.assign(std::size_t{1} << others_.size(), -INFINITY);
    cell_.assign(n * d_.arity[x_] + 1, 0);
    total_.assign(n + 1, 0);
    remap_.assign(n * 64 + 1, -1);
  }

  void run() {
    std::vector<int> config(d_.rows, 0);
    visit(config, 1.0, 0, others_.size());
  }
  double best() const { return best_.back(); }
  // The local sets: (mask, score), in increasing order of mask.
  const std::vector<std::pair<std::uint64_t, double>>& local() const { return local_; }

 private:
  // The rows' configurations of (config's set) ∪ {v}, compact ids.
  std::vector<int> refine(const std::vector<int>& config, int v) {
    const int rv = d_.arity[v];
    const auto& vs = d_.cols[v];
    const std::size_t need = (d_.rows + 1) * static_cast<std::size_t>(rv);
    if (need > remap_.size()) remap_.assign(need, -1);
    std::vector<int> next(d_.rows);
    int n = 0;
    for (std::size_t row = 0; row < d_.rows; ++row) {
      int& id = remap_[static_cast<std::size_t>(config[row]) * rv + vs[row]];
      if (id < 0) id = n++;
      next[row] = id;
    }
    for (std::size_t row = 0; row < d_.rows; ++row)
      remap_[static_cast<std::size_t>(config[row]) * rv + vs[row]] = -1;
    return next;
  }

  // ln Γ(a/r + c) − ln Γ(a/r) and ln Γ(a) − ln Γ(a + c) for c = 0..N, a = ess/q: one table per q.
  struct Tables {
    std::vector<double> cell, total;
  };
  const Tables& tables(double q) {
    auto it = tables_.find(q);
    if (it != tables_.end()) return it->second;
    const double a = ess_ / q, ar = a / d_.arity[x_];
    Tables t;
    for (std::size_t c = 0; c <= d_.rows; ++c) {
      t.cell.push_back(std::lgamma(ar + c) - std::lgamma(ar));
      t.total.push_back(std::lgamma(a) - std::lgamma(a + c));
    }
    return tables_.emplace(q, std::move(t)).first->second;
  }

  double bdeu(const std::vector<int>& config, double q) {
    const Tables& t = tables(q);
    const int r = d_.arity[x_];
    const auto& xs = d_.cols[x_];
    for (std::size_t i = 0; i < d_.rows; ++i) {
      ++cell_[static_cast<std::size_t>(config[i]) * r + xs[i]];
      ++total_[config[i]];
    }
    double s = 0.0;
    for (std::size_t i = 0; i < d_.rows; ++i) {
      auto& c = cell_[static_cast<std::size_t>(config[i]) * r + xs[i]];
      s += t.cell[c];
      c = 0;
      auto& n = total_[config[i]];
      s += t.total[n];
      n = 0;
    }
    return s;
  }

  // Visits Π (= mask; its rows' configurations `config`; q the product of its arities) and the
  // sets Π ∪ W, W ⊆ others_[0..low).
  void visit(const std::vector<int>& config, double q, std::uint64_t mask, std::size_t low) {
    const double s = bdeu(config, q);
    double below = -INFINITY;
    for (std::size_t i = 0; i < others_.size(); ++i)
      if (mask >> i & 1) below = std::max(below, best_[mask ^ (std::uint64_t{1} << i)]);
    if (mask == 0 || s >= below - eps_) local_.emplace_back(mask, s);
    best_[mask] = std::max(s, below);
    for (std::size_t i = 0; i < low; ++i)
      visit(refine(config, others_[i]), q * d_.arity[others_[i]], mask | (std::uint64_t{1} << i),
            i);
  }

  const Data& d_;
  int x_;
  std::vector<int> others_;
  double ess_, eps_;
  std::vector<double> best_;
  std::vector<std::pair<std::uint64_t, double>> local_;
  std::vector<int> cell_, total_, remap_;
  std::map<double, Tables> tables_;
};

double arg_double(const char* s) {
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (!end || *end) {
    std::cerr << "bdeu_lattice: not a number: " << s << "\n";
    std::exit(2);
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path, jkl;
  bool header = true;
  double ess = 1.0, eps = std::log(20.0), lb = NAN;
  int only = -1, threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::cerr << "bdeu_lattice: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--no-header")
      header = false;
    else if (a == "--ess")
      ess = arg_double(value());
    else if (a == "--epsilon")
      eps = arg_double(value());
    else if (a == "--lb")
      lb = arg_double(value());
    else if (a == "--jkl")
      jkl = value();
    else if (a == "--child")
      only = static_cast<int>(arg_double(value()));
    else if (a == "--threads")
      threads = static_cast<int>(arg_double(value()));
    else if (path.empty() && a[0] != '-')
      path = a;
    else {
      std::cerr << "usage: bdeu_lattice DATA.csv [--no-header] [--ess A] [--epsilon E] [--lb L]"
                   " [--jkl OUT.jkl] [--child I] [--threads T]\n";
      return 2;
    }
  }
  if (path.empty()) {
    std::cerr << "bdeu_lattice: no data file\n";
    return 2;
  }
  const Data d = read_csv(path, header);
  const int n = static_cast<int>(d.names.size());
  if (n > 31) {
    std::cerr << "bdeu_lattice: " << n << " variables; the lattice is walked up to 31\n";
    return 2;
  }
  std::cerr << path << ": " << n << " variables, " << d.rows << " rows, BDeu ESS " << ess
            << ", epsilon " << eps << "\n";

  std::vector<int> children;
  for (int x = 0; x < n; ++x)
    if (only < 0 || x == only) children.push_back(x);
  struct Child {
    std::vector<int> others;
    std::vector<std::pair<std::uint64_t, double>> local;
    double best = -INFINITY;
  };
  std::vector<Child> all(children.size());
  // --threads 0 (the default): OpenMP's default team (OMP_NUM_THREADS, else every core).
  if (threads <= 0) threads = omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (std::size_t c = 0; c < children.size(); ++c) {
    const int x = children[c];
    Child& ch = all[c];
    for (int v = 0; v < n; ++v)
      if (v != x) ch.others.push_back(v);
    Lattice lattice(d, x, ch.others, ess, eps);
    lattice.run();
    ch.local = lattice.local();
    ch.best = lattice.best();
    // The atoms: rows grouped by every other variable; rule 8's bound (a), (b) on every
    // proper superset of the empty set: min(sum of the mixed atoms' log-likelihoods,
    // -(states seen) ln r).
    std::map<std::vector<std::uint16_t>, std::vector<int>> atoms;
    std::vector<int> seen(d.arity[x], 0);
    for (std::size_t row = 0; row < d.rows; ++row) {
      std::vector<std::uint16_t> key;
      for (int v : ch.others) key.push_back(d.cols[v][row]);
      auto& counts = atoms[key];
      counts.resize(d.arity[x], 0);
      ++counts[d.cols[x][row]];
      seen[d.cols[x][row]] = 1;
    }
    double ll = 0.0;
    int mixed = 0;
    for (const auto& [key, counts] : atoms) {
      int states = 0, total = 0;
      for (int c : counts) {
        states += c > 0;
        total += c;
      }
      if (states < 2) continue;
      ++mixed;
      for (int c : counts)
        if (c > 0) ll += c * std::log(static_cast<double>(c) / total);
    }
    int states = 0;
    for (int s : seen) states += s;
    const double bound = std::min(ll, -states * std::log(static_cast<double>(d.arity[x])));
#pragma omp critical
    std::cerr << "  " << d.names[x] << ": best " << ch.best << ", " << ch.local.size()
              << " local sets; " << atoms.size() << " atoms, " << mixed
              << " mixed; rule 8 (a, b) on every superset of the empty set: " << bound << "\n";
  }

  double sum_best = 0.0;
  for (const auto& ch : all) sum_best += ch.best;
  const bool global = !std::isnan(lb) && only < 0;
  std::vector<long long> n_local(n, 0), n_global(n, 0);
  long long total_local = 0, total_global = 0;
  std::vector<std::vector<std::pair<std::uint64_t, double>>> kept(all.size());
  for (std::size_t c = 0; c < all.size(); ++c) {
    const Child& ch = all[c];
    for (const auto& [mask, score] : ch.local) {
      ++total_local;
      ++n_local[__builtin_popcountll(mask)];
      if (!global || score + (sum_best - ch.best) >= lb - eps) {
        kept[c].emplace_back(mask, score);
        ++n_global[__builtin_popcountll(mask)];
        ++total_global;
      }
    }
  }
  std::printf("# %s: %d variables, %zu rows, BDeu ESS %g, epsilon %.6f\n", path.c_str(), n, d.rows,
              ess, eps);
  std::printf("# sets scored: %zu children x 2^%d\n", children.size(), n - 1);
  std::printf("# sum of the children's best scores (an upper bound of OPT): %.6f\n", sum_best);
  if (global) std::printf("# lower bound L (a network's score): %.6f\n", lb);
  std::printf("size\tlocal%s\n", global ? "\tglobal" : "");
  for (int k = 0; k < n; ++k)
    if (n_local[k]) {
      std::printf("%d\t%lld", k, n_local[k]);
      if (global) std::printf("\t%lld", n_global[k]);
      std::printf("\n");
    }
  std::printf("total\t%lld", total_local);
  if (global) std::printf("\t%lld", total_global);
  std::printf("\n");

  if (!jkl.empty()) {
    std::ofstream out(jkl);
    out.precision(17);
    out << all.size() << "\n";
    for (std::size_t c = 0; c < all.size(); ++c) {
      const Child& ch = all[c];
      out << d.names[children[c]] << " " << kept[c].size() << "\n";
      for (const auto& [mask, score] : kept[c]) {
        out << score << " " << __builtin_popcountll(mask);
        for (std::size_t i = 0; i < ch.others.size(); ++i)
          if (mask >> i & 1) out << " " << d.names[ch.others[i]];
        out << "\n";
      }
    }
  }
  return 0;
}
