// The exploration's journal (bnsl::CacheJournal, include/bnsl/cache.hpp): written beside the
// cache it becomes, so an earlier cache stays byte for byte until the journal is whole; a
// journal cut mid-block resumes from its complete blocks; a write that fails is kept as the
// journal's error and never cuts the cache. Oracles: the bytes of the earlier file, and the
// entries written by hand here.
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <catch2/catch.hpp>

#include "bnsl/cache.hpp"
#include "bnsl/error.hpp"
#include "temp_dir.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Variable v's entries: the empty set at -10 - v, and {(v + 1) mod 3} at -5 - v.
bnsl::VarCache entries(int v) {
  bnsl::VarCache c;
  const int parent[] = {(v + 1) % 3};
  c.add(-5.0 - v, parent);
  c.add(-10.0 - v, {});
  c.sort_best_first();
  return c;
}

bnsl::CacheProvenance provenance() {
  bnsl::CacheProvenance p;
  p.data = "0123456789abcdef";
  p.rows = 10;
  p.score = "bic";
  p.epsilon = 3;
  p.var_end = 3;
  return p;
}

}  // namespace

TEST_CASE("a journal replaces the cache only when whole", "[journal]") {
  bnsl_test::TempDir dir("journal");
  const std::string cache = dir.write("run.cache.jkl", "1\n0 1\n-1 0\n");  // an earlier run's
  const std::string old_text = slurp(cache);
  REQUIRE(bnsl::journal_path(cache) == cache + ".journal");
  {
    bnsl::CacheJournal journal(cache, 3, provenance(), false);
    CHECK(journal.path() == cache + ".journal");
    journal.append(2, entries(2));
    journal.append(0, entries(0));
    CHECK_FALSE(journal.finish());  // variable 1 is missing: a run stopped while exploring
    CHECK(slurp(cache) == old_text);
    CHECK(journal.error().empty());
  }
  REQUIRE(std::filesystem::exists(cache + ".journal"));
  const bnsl::JournalContents cut = bnsl::read_cache_journal(cache + ".journal", {});
  CHECK(cut.provenance.data == "0123456789abcdef");
  CHECK(cut.cache.var(1).empty());
  REQUIRE(cut.cache.var(2).size() == 2);
  CHECK(cut.cache.var(2).score(0) == -7.0);

  SECTION("resumed after a block cut short, then whole: renamed over the cache") {
    std::ofstream(cache + ".journal", std::ios::app) << "1 2\n-6 1 2\n-1";  // killed mid-block
    bnsl::CacheJournal journal(cache, 3, provenance(), true);
    CHECK_FALSE(journal.finish());
    CHECK(slurp(cache) == old_text);
    journal.append(1, entries(1));
    CHECK(journal.finish());
    CHECK_FALSE(std::filesystem::exists(cache + ".journal"));
    const bnsl::ScoreCache whole = bnsl::read_jkl(cache);
    REQUIRE(whole.n_vars() == 3);
    for (int v = 0; v < 3; ++v) {
      REQUIRE(whole.var(static_cast<std::size_t>(v)).size() == 2);
      CHECK(whole.var(static_cast<std::size_t>(v)).score(0) == -5.0 - v);
      CHECK(whole.var(static_cast<std::size_t>(v)).score(1) == -10.0 - v);
    }
  }
  SECTION("a new journal replaces a stale one, not the cache") {
    bnsl::CacheJournal journal(cache, 3, provenance(), false);
    CHECK(bnsl::read_cache_journal(cache + ".journal", {}).cache.var(2).empty());
    CHECK(slurp(cache) == old_text);
  }
}

TEST_CASE("a journal that cannot be written keeps the cache whole", "[journal]") {
  bnsl_test::TempDir dir("journal_full");
  const std::string cache = dir.write("run.cache.jkl", "1\n0 1\n-1 0\n");
  const std::string old_text = slurp(cache);
  bnsl::CacheJournal journal(cache, 3, provenance(), false);
  journal.append(0, entries(0));
  // A file size limit just past the journal's size: the next block fails with EFBIG, as on a
  // full disk (SIGXFSZ ignored so that write returns the error).
  rlimit before{};
  REQUIRE(getrlimit(RLIMIT_FSIZE, &before) == 0);
  const auto size = std::filesystem::file_size(cache + ".journal");
  rlimit small = before;
  small.rlim_cur = static_cast<rlim_t>(size + 8);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  REQUIRE(setrlimit(RLIMIT_FSIZE, &small) == 0);
  journal.append(1, entries(1));
  journal.append(2, entries(2));
  REQUIRE(setrlimit(RLIMIT_FSIZE, &before) == 0);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(journal.error(), Catch::Contains("run.cache.jkl.journal: cannot append"));
  CHECK_FALSE(journal.finish());
  CHECK(slurp(cache) == old_text);
  // The complete block before the failure is still readable; the one cut short is dropped.
  const bnsl::JournalContents kept = bnsl::read_cache_journal(cache + ".journal", {});
  CHECK(kept.cache.var(0).size() == 2);
  CHECK(kept.cache.var(1).empty());
  CHECK(kept.cache.var(2).empty());
}
