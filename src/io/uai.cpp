// The UAI model format (UAI 2008 evaluation and later competitions) for Bayesian networks,
// read and written (bnsl/network_io.hpp).
//
// Whitespace-separated integers and numbers: "BAYES", the number of variables, each one's
// domain size, the number of functions, each function's scope (its size, then variable
// indices from 0, the child LAST), then each function's table (its size, then the values with
// the last variable of the scope fastest, so the child fastest and the last parent next).
// Lines whose first word is "c" are comments (UAI 2016). A BAYES file holds one function per
// variable. The format has no names: variables read as V0..V(n-1) and states as 0..r-1, unless
// FILE.names.csv beside the file gives them (bnsl/network_io.hpp). A MARKOV file is refused:
// its factors are not the CPTs of a Bayesian network.
#include <cmath>
#include <cstdlib>

#include "bnsl/error.hpp"
#include "io/net_formats.hpp"

namespace bnsl {
namespace {

struct Word {
  std::string text;
  std::size_t line = 0, col = 0;
};

std::vector<Word> uai_words(const std::string& text) {
  std::vector<Word> out;
  std::size_t line = 1, col = 1, i = 0;
  bool line_start = true;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      col = 1;
      ++i;
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++col;
      ++i;
      continue;
    }
    Word w{"", line, col};
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) {
      w.text += text[i++];
      ++col;
    }
    if (line_start && w.text == "c") {  // a comment line
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    line_start = false;
    out.push_back(std::move(w));
  }
  out.push_back({"", line, col});
  return out;
}

class UaiParser {
 public:
  UaiParser(const std::string& text, const std::string& file)
      : file_(file), text_size_(text.size()), words_(uai_words(text)) {}
  BayesNet parse();

 private:
  [[noreturn]] void fail(const Word& w, const std::string& what) const {
    throw InputError(file_, w.line, w.col,
                     what + ", got " + (w.text.empty() ? "end of file" : "'" + w.text + "'"));
  }
  const Word& take() { return words_[pos_ < words_.size() - 1 ? pos_++ : pos_]; }
  std::size_t count(const char* what, std::size_t min, std::size_t max) {
    const Word& w = take();
    char* end = nullptr;
    const unsigned long long x = std::strtoull(w.text.c_str(), &end, 10);
    if (w.text.empty() || *end || w.text[0] == '-' || x < min || x > max)
      fail(w, std::string("expected ") + what);
    return static_cast<std::size_t>(x);
  }

  const std::string& file_;
  std::size_t text_size_;
  std::vector<Word> words_;
  std::size_t pos_ = 0;
};

BayesNet UaiParser::parse() {
  const Word& kind = take();
  if (kind.text == "MARKOV")
    fail(kind, "expected BAYES (a MARKOV network's factors are not a Bayesian network's CPTs)");
  if (kind.text != "BAYES") fail(kind, "expected BAYES");
  BayesNet net;
  const std::size_t n = count("the number of variables (1 or more)", 1, 1u << 24);
  for (std::size_t v = 0; v < n; ++v) {
    const Word& at = words_[pos_];
    const std::size_t r = count("a domain size (1 to 65,535)", 1, 65535);
    net.names.push_back(default_variable_name(v));
    net.declared_at.emplace_back(at.line, at.col);
    auto& states = net.states.emplace_back();
    for (std::size_t k = 0; k < r; ++k) states.push_back(std::to_string(k));
  }
  const Word& functions_at = words_[pos_];
  if (count("the number of functions", 0, 1u << 24) != n)
    fail(functions_at, "expected one function (CPT) per variable: " + std::to_string(n));
  net.parents.assign(n, {});
  std::vector<int> child_of(n);
  std::vector<bool> defined(n, false);
  for (std::size_t f = 0; f < n; ++f) {
    const std::size_t size = count("the size of a function's scope", 1, n);
    std::vector<int> scope;
    for (std::size_t i = 0; i < size; ++i)
      scope.push_back(static_cast<int>(count("a variable index", 0, n - 1)));
    const int child = scope.back();
    if (defined[child])
      fail(words_[pos_ - 1],
           "expected one function per child (variable " + std::to_string(child) + " twice)");
    defined[child] = true;
    child_of[f] = child;
    net.parents[child].assign(scope.begin(), scope.end() - 1);
  }
  check_network(net, file_);
  check_cpt_cells(net, text_size_, file_);
  net.allocate_cpts();
  for (std::size_t f = 0; f < n; ++f) {
    const int v = child_of[f];
    const std::size_t r = net.states[v].size(), q = net.n_configs(v);
    const Word& at = words_[pos_];
    if (count("the size of a function's table", 0, std::size_t{1} << 40) != r * q)
      fail(at, "expected " + std::to_string(r * q) + " values in the table of variable " +
                   std::to_string(v));
    for (std::size_t jl = 0; jl < q; ++jl) {
      const std::size_t j = config_from_last_fastest(net, v, jl);
      double sum = 0;
      const Word& row = words_[pos_];
      for (std::size_t k = 0; k < r; ++k) {
        const Word& w = take();
        double x = 0;
        if (!parse_number(w.text, x) || x < 0) fail(w, "expected a non-negative probability");
        net.cpt[net.cpt_offset[v] + j * r + k] = x;
        sum += x;
      }
      if (std::abs(sum - 1) > 1e-2)
        fail(row, "expected the probabilities of variable " + std::to_string(v) +
                      " to sum to 1 in every parent configuration (this one sums to " +
                      std::to_string(sum) + ")");
    }
  }
  if (!words_[pos_].text.empty()) fail(words_[pos_], "expected the end of the file");
  return net;
}

}  // namespace

BayesNet parse_uai(const std::string& text, const std::string& file) {
  return UaiParser(text, file).parse();
}

std::string uai_text(const BayesNet& net) {
  const std::size_t n = net.n_vars();
  std::string out = "BAYES\n";
  auto line = [&out](const std::vector<std::size_t>& numbers) {
    for (std::size_t i = 0; i < numbers.size(); ++i) {
      if (i) out += ' ';
      out += std::to_string(numbers[i]);
    }
    out += '\n';
  };
  line({n});
  std::vector<std::size_t> arities;
  for (std::size_t v = 0; v < n; ++v) arities.push_back(net.states[v].size());
  line(arities);
  line({n});
  for (std::size_t v = 0; v < n; ++v) {
    std::vector<std::size_t> scope{net.parents[v].size() + 1};
    scope.insert(scope.end(), net.parents[v].begin(), net.parents[v].end());
    scope.push_back(v);
    line(scope);
  }
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t r = net.states[v].size(), q = net.n_configs(v);
    out += '\n';
    line({r * q});
    for (std::size_t jl = 0; jl < q; ++jl) {
      const std::size_t j = config_from_last_fastest(net, v, jl);
      for (std::size_t k = 0; k < r; ++k) {
        if (k) out += ' ';
        append_number(out, net.prob(v, j, static_cast<int>(k)));
      }
      out += '\n';
    }
  }
  return out;
}

}  // namespace bnsl
