// Preferred arcs (bnsl::prefer_arcs, src/pool/prefer_arcs.cpp; the arc-list reader,
// src/io/arcs.cpp): each class shows a member of most preferred weight, against brute force
// over every DAG of 5 nodes grouped by skeleton and v-structures (tests/oracle.hpp); and the
// reader's errors name the line and column. With constraints, the classes count and show only
// members that satisfy them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bnsl/arcs.hpp"
#include "bnsl/constraints.hpp"
#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "oracle.hpp"

namespace {

using oracle::ClassKey;
using oracle::Dag;
using oracle::Mask;

double weight(const Dag& g, const std::vector<bnsl::NamedArc>& arcs) {
  double w = 0;
  for (const auto& a : arcs)
    if (g[static_cast<std::size_t>(a.to)] >> a.from & 1) w += a.weight;
  return w;
}

bnsl::ParentSets to_parents(const Dag& g) {
  bnsl::ParentSets p;
  for (Mask m : g) p.push_back(oracle::from_mask(m));
  return p;
}

Dag to_dag(const bnsl::ParentSets& p) {
  Dag g;
  for (const auto& ps : p) g.push_back(oracle::to_mask(ps));
  return g;
}

std::string error_of(const std::string& text, bool weighted) {
  try {
    bnsl::parse_arcs(text, "p.csv", {"a", "b", "c"}, weighted);
  } catch (const bnsl::InputError& e) {
    return e.what();
  }
  return "";
}

// Every DAG of 5 nodes (all parent masks per node, acyclic ones), by equivalence class.
std::map<ClassKey, std::vector<Dag>> classes_of_five() {
  oracle::Families any(5);
  for (int v = 0; v < 5; ++v)
    for (Mask m = 0; m < 32; ++m)
      if (!(m >> v & 1)) any[static_cast<std::size_t>(v)].emplace_back(m, 0.0);
  std::map<ClassKey, std::vector<Dag>> classes;
  for (const auto& d : oracle::all_dags(any)) classes[oracle::class_key(d.dag)].push_back(d.dag);
  return classes;
}

}  // namespace

TEST_CASE("prefer arcs: each class shows a member of most weight (brute force, 5 nodes)",
          "[pool][prefer]") {
  const std::map<ClassKey, std::vector<Dag>> classes = classes_of_five();
  REQUIRE(classes.size() == 8782);  // equivalence classes of DAGs on 5 labelled nodes
  std::mt19937_64 rng(3);
  std::size_t improved = 0, rounds = 0;
  for (int round = 0; round < 30; ++round) {
    std::vector<bnsl::NamedArc> arcs;
    for (int k = 0; k < 4; ++k) {
      const int from = static_cast<int>(rng() % 5),
                to = static_cast<int>((from + 1 + rng() % 4) % 5);
      bool dup = false;
      for (const auto& a : arcs) dup |= a.from == from && a.to == to;
      if (!dup) arcs.push_back({from, to, 0.5 + static_cast<double>(rng() % 4)});
    }
    // A pool of 40 random classes, each shown by a random member.
    bnsl::PoolReport r;
    for (int v = 0; v < 5; ++v) r.variables.push_back("V" + std::to_string(v));
    std::vector<ClassKey> keys;
    for (int c = 0; c < 40; ++c) {
      auto it = classes.begin();
      std::advance(it, static_cast<long>(rng() % classes.size()));
      bool seen = false;
      for (const auto& k : keys) seen |= k == it->first;
      if (seen) continue;
      keys.push_back(it->first);
      const Dag& m = it->second[rng() % it->second.size()];
      r.dags.push_back({-1.0 * static_cast<double>(keys.size()), to_parents(m), -1});
    }
    bnsl::summarize(r, 1);
    const bnsl::PreferSummary s = bnsl::prefer_arcs(r, arcs);
    CHECK(s.partial == 0);
    REQUIRE(r.classes.size() == keys.size());
    for (std::size_t c = 0; c < keys.size(); ++c) {
      const Dag shown = to_dag(r.classes[c].dag);
      CHECK(oracle::class_key(shown) == keys[c]);  // still a member of its class
      double best = -1e300;
      for (const Dag& m : classes.at(keys[c])) best = std::max(best, weight(m, arcs));
      CHECK(weight(shown, arcs) == Approx(best));
      improved += weight(shown, arcs) > weight(to_dag(r.dags[r.classes[c].first].parents), arcs);
    }
    CHECK(bnsl::best_network(r) == r.classes[0].dag);
    ++rounds;
  }
  CHECK(rounds == 30);
  CHECK(improved > 50);  // the preference changed many classes' DAGs
}

// pool.prefer_members 1: each class's own DAG alone is walked, so every class a preference
// touches (one of its reversible edges carries a preferred arc: a class of two members or
// more) is searched partly, by climbing, and still shows one of its members.
TEST_CASE("prefer arcs: pool.prefer_members caps the members walked per class",
          "[pool][prefer][tunables]") {
  const std::map<ClassKey, std::vector<Dag>> classes = classes_of_five();
  std::mt19937_64 rng(5);
  bnsl::PoolReport r;
  for (int v = 0; v < 5; ++v) r.variables.push_back("V" + std::to_string(v));
  std::vector<ClassKey> keys;
  for (auto it = classes.begin(); keys.size() < 40; std::advance(it, 97)) {
    keys.push_back(it->first);
    const Dag& m = it->second[rng() % it->second.size()];
    r.dags.push_back({-1.0 * static_cast<double>(keys.size()), to_parents(m), -1});
  }
  bnsl::summarize(r, 1);
  const std::vector<bnsl::NamedArc> arcs{{0, 1, 1.0}, {2, 3, 1.0}, {4, 0, 1.0}};
  bnsl::PoolReport whole = r;
  const bnsl::PreferSummary all = bnsl::prefer_arcs(whole, arcs);
  CHECK(all.partial == 0);
  bnsl::PoolTunables tune;
  tune.prefer_members = 1;
  const bnsl::PreferSummary one = bnsl::prefer_arcs(r, arcs, tune);
  REQUIRE(one.classes > 0);
  CHECK(one.classes == all.classes);
  CHECK(one.partial == one.classes);
  for (std::size_t c = 0; c < keys.size(); ++c)
    CHECK(oracle::class_key(to_dag(r.classes[c].dag)) == keys[c]);
}

TEST_CASE("prefer arcs: with tiers, sizes count and members shown satisfy them (5 nodes)",
          "[pool][prefer][constraints]") {
  const std::map<ClassKey, std::vector<Dag>> classes = classes_of_five();
  std::mt19937_64 rng(5);
  std::size_t cut = 0;  // classes some of whose members the constraints exclude
  for (int round = 0; round < 20; ++round) {
    bnsl::Constraints c;  // three tiers over some variables, and a forbidden arc
    for (int v = 0; v < 5; ++v) c.tiers.push_back(static_cast<int>(rng() % 4) - 1);
    const int a = static_cast<int>(rng() % 5), b = static_cast<int>((a + 1 + rng() % 4) % 5);
    c.forbidden = {{a, b}};
    std::vector<bnsl::NamedArc> arcs;
    for (int k = 0; k < 4; ++k) {
      const int from = static_cast<int>(rng() % 5),
                to = static_cast<int>((from + 1 + rng() % 4) % 5);
      arcs.push_back({from, to, 0.5 + static_cast<double>(rng() % 4)});
    }
    const auto satisfying = [&](const ClassKey& k) {
      std::vector<Dag> out;
      for (const Dag& m : classes.at(k))
        if (!c.violation(to_parents(m))) out.push_back(m);
      return out;
    };
    bnsl::PoolReport r;
    for (int v = 0; v < 5; ++v) r.variables.push_back("V" + std::to_string(v));
    r.constraints = c;
    std::vector<ClassKey> keys;
    while (keys.size() < 30) {
      auto it = classes.begin();
      std::advance(it, static_cast<long>(rng() % classes.size()));
      const std::vector<Dag> ok = satisfying(it->first);
      if (ok.empty() || std::find(keys.begin(), keys.end(), it->first) != keys.end()) continue;
      keys.push_back(it->first);
      cut += ok.size() < it->second.size();
      const Dag& m = ok[rng() % ok.size()];
      r.dags.push_back({-1.0 * static_cast<double>(keys.size()), to_parents(m), -1});
    }
    bnsl::summarize(r, 1);
    CHECK(r.sizes_estimated == 0);
    REQUIRE(r.classes.size() == keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
      CHECK(r.classes[k].size == std::to_string(satisfying(keys[k]).size()));
    const bnsl::PreferSummary s = bnsl::prefer_arcs(r, arcs);
    CHECK(s.partial == 0);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const Dag shown = to_dag(r.classes[k].dag);
      CHECK(oracle::class_key(shown) == keys[k]);
      CHECK(!c.violation(r.classes[k].dag));
      double best = -1e300;
      for (const Dag& m : satisfying(keys[k])) best = std::max(best, weight(m, arcs));
      CHECK(weight(shown, arcs) == Approx(best));
    }
  }
  CHECK(cut > 100);
}

TEST_CASE("prefer arcs: the reader names the line and column of what is wrong", "[io][prefer]") {
  const auto ok = bnsl::parse_arcs("from,to,weight\n# note\n\na,b,2.5\n\"c\", a\n", "p.csv",
                                   {"a", "b", "c"}, true);
  REQUIRE(ok.size() == 2);
  CHECK(ok[0].from == 0);
  CHECK(ok[0].to == 1);
  CHECK(ok[0].weight == 2.5);
  CHECK(ok[1].from == 2);
  CHECK(ok[1].weight == 1);
  CHECK(error_of("", true).find("p.csv:1:1: empty file") != std::string::npos);
  CHECK(error_of("to,from\na,b\n", true).find("p.csv:1:1: expected the header") !=
        std::string::npos);
  CHECK(error_of("from,to\na,zz\n", false).find("p.csv:2:3: unknown variable 'zz'") !=
        std::string::npos);
  CHECK(error_of("from,to\na,a\n", false).find("p.csv:2:3: an arc from 'a' to itself") !=
        std::string::npos);
  CHECK(error_of("from,to\na,b\nb,c\na,b\n", false).find("p.csv:4:1:") != std::string::npos);
  CHECK(error_of("from,to,weight\na,b,x1\n", true).find("p.csv:2:5: expected a finite") !=
        std::string::npos);
  CHECK(error_of("from,to\na,b,3\n", false).find("p.csv:2:5: expected from,to") !=
        std::string::npos);
  CHECK(error_of("from,to\na\n", false).find("p.csv:2:") != std::string::npos);
  CHECK(error_of("from,to\n\"a,b\n", false).find("p.csv:2:1: unbalanced quote") !=
        std::string::npos);
}
