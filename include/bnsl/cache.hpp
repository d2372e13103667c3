// Parent-set score caches: for every variable, candidate parent sets with their local
// scores, best first. Stored compactly: one score array and one parent arena per variable.
//
//   bnsl::ScoreCache cache(n, names);
//   int pa[] = {1, 7};
//   cache.var(0).add(-89.09, pa);
//   cache.var(0).sort_best_first();
//   bnsl::write_jkl("out.jkl", cache);          // GOBNILP / BLIP "jkl" text format
//   bnsl::ScoreCache back = bnsl::read_jkl("out.jkl", names);
//
// jkl format: first line n; then per variable a line "VAR COUNT" followed by COUNT lines
// "SCORE SIZE P1 ... PSIZE". Variables are 0-based column indices or names. Lines starting
// with '#' are comments; bnsl writes its provenance header in them (CacheProvenance).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bnsl/constraints.hpp"

namespace bnsl {

// The candidate parent sets of one variable.
class VarCache {
 public:
  std::size_t size() const { return scores_.size(); }
  bool empty() const { return scores_.empty(); }
  double score(std::size_t i) const { return scores_[i]; }
  std::span<const std::int32_t> parents(std::size_t i) const {
    return {arena_.data() + offsets_[i], arena_.data() + offsets_[i + 1]};
  }
  // Appends an entry; parents are stored sorted ascending.
  void add(double score, std::span<const int> parents);
  // Sorts entries by score, best first; ties broken by size, then lexicographically.
  void sort_best_first();
  // Keeps only entries i with keep[i] true (order preserved).
  void filter(const std::vector<bool>& keep);
  // Index of the entry with exactly these parents (any order), or -1.
  long find(std::span<const int> parents) const;
  void reserve(std::size_t entries, std::size_t parent_slots);
  std::size_t bytes() const;

 private:
  std::vector<double> scores_;
  std::vector<std::uint32_t> offsets_{0};  // entry i's parents: arena_[offsets_[i], offsets_[i+1])
  std::vector<std::int32_t> arena_;
};

class ScoreCache {
 public:
  ScoreCache() = default;
  ScoreCache(std::size_t n_vars, std::vector<std::string> names = {});

  std::size_t n_vars() const { return vars_.size(); }
  VarCache& var(std::size_t v) { return vars_[v]; }
  const VarCache& var(std::size_t v) const { return vars_[v]; }
  const std::vector<std::string>& names() const { return names_; }  // empty if unknown
  // names(), or default_variable_name(v) for every v when unknown (reports, networks).
  std::vector<std::string> names_or_defaults() const;
  std::size_t total_entries() const;
  std::size_t bytes() const;
  // Removes every entry with a parent not allowed into its variable, without one of its
  // required parents, or with more parents than the limit (bnsl/constraints.hpp); returns how
  // many.
  std::size_t apply(const Constraints& constraints);

 private:
  std::vector<VarCache> vars_;
  std::vector<std::string> names_;
};

// Where a cache comes from, so that caches computed in parts (job-array slices, `bnsl score
// --vars A:B`) can be checked to belong together before `bnsl merge` joins them. Written as
// comment lines "# bnsl KEY VALUE" at the top of a jkl file, which GOBNILP and BLIP skip.
struct CacheProvenance {
  std::string data;           // data_fingerprint() of the data scored
  std::size_t rows = 0;       // rows of the data
  std::string score;          // score_name(): "bic", "bdeu"
  double ess = 0;             // BDeu's equivalent sample size (0: the score has none)
  double epsilon = 0;         // the epsilon the pruning kept every set within
  int max_parents = -1;       // the in-degree limit applied (-1: none)
  int candidates = 0;         // screening: candidate parents per variable (0: none)
  std::size_t var_begin = 0;  // the variables explored: [var_begin, var_end)
  std::size_t var_end = 0;
  bool exhaustive = false;  // each of them explored to the end, unscreened (provably complete)
  std::string constraints = "none";  // Constraints::fingerprint() of the forbidden arcs, tiers

  // True when two parts come from the same data, score and pruning (all but the variables
  // and exhaustive); otherwise `why` names the first field that differs.
  bool same_run(const CacheProvenance& other, std::string& why) const;
};

struct JklWriteOptions {
  int precision = 12;         // significant digits of scores (>= 10)
  std::size_t var_begin = 0;  // write only variables [var_begin, var_end) (job-array slices)
  std::size_t var_end = static_cast<std::size_t>(-1);
  const CacheProvenance* provenance = nullptr;  // written as the header, when given
};

void write_jkl(std::ostream& out, const ScoreCache& cache, const JklWriteOptions& options = {});
// Writes atomically: to PATH.tmp, then renamed over PATH.
void write_jkl(const std::string& path, const ScoreCache& cache,
               const JklWriteOptions& options = {});

// Reads a jkl file. Variables (block headers and parents) may be given as 0-based indices or
// as names; with `names` non-empty they are resolved against it (and n must match), otherwise
// names are taken from the block headers in file order. Entries are sorted best first.
// Throws InputError "FILE:LINE:COL: ..." on malformed input.
ScoreCache read_jkl(const std::string& path, const std::vector<std::string>& names = {});
ScoreCache read_jkl(std::istream& in, const std::string& display_name,
                    const std::vector<std::string>& names = {});

// The provenance header of a jkl file (the "# bnsl KEY VALUE" comment lines before its first
// other line), or nullopt when it has none (a cache written by another tool, or by bnsl
// before 0.1.0's merge). Unknown keys are skipped; a known key with a malformed value is an
// InputError "FILE:LINE:COL: ...".
std::optional<CacheProvenance> read_jkl_provenance(const std::string& path);

// An exploration's journal (`bnsl learn` keeps PREFIX.cache.jkl.journal): a jkl file that grows
// by one block per variable as each one's exploration ends, each block written at once and
// followed by a comment line "# done VAR". A run killed at any moment leaves a journal whose
// complete blocks read_cache_journal() recovers; once every variable is in, it is an ordinary
// jkl file (with its provenance header; blocks in the order the variables ended), and finish()
// renames it over the cache it is the journal of. Until then the cache there (an earlier
// run's) stays whole: nothing is truncated before its replacement is complete.
class CacheJournal {
 public:
  // Starts the journal of the cache at `cache_path` (at journal_path(cache_path), replacing a
  // journal there, atomically), or with `resume` continues the journal there (dropping a block
  // cut short). Throws RuntimeError naming the file when a journal to continue cannot be
  // prepared; a new one that cannot be written is an error() instead, and the run goes on.
  CacheJournal(const std::string& cache_path, std::size_t n_vars, const CacheProvenance& provenance,
               bool resume);
  ~CacheJournal();
  CacheJournal(const CacheJournal&) = delete;
  CacheJournal& operator=(const CacheJournal&) = delete;

  // From any thread. A write that fails (a full disk) is kept as error(); the blocks after it
  // are dropped, so the journal keeps the complete blocks before it.
  void append(std::size_t var, const VarCache& entries);
  // When every variable's block is in: renames the journal over the cache and returns true.
  // Otherwise (a stop cut the exploration, or a write failed) the journal stays for --resume.
  bool finish();
  // Why the journal could not be written ("" when it could).
  std::string error() const;
  const std::string& path() const { return path_; }

 private:
  void fail(std::string why);  // with mutex_ held

  std::string cache_path_, path_;
  int fd_ = -1;
  std::vector<char> done_;  // per variable: its block is in
  std::size_t done_count_ = 0;
  std::string error_;
  mutable std::mutex mutex_;
};

// Where the journal of the cache at `cache_path` is written until it is whole: PATH.journal.
std::string journal_path(const std::string& cache_path);

// The complete blocks of a journal, and its provenance header (which it must have: an
// InputError naming the file otherwise, or when it is malformed).
struct JournalContents {
  CacheProvenance provenance;
  ScoreCache cache;  // the variables whose block is complete have entries
};
JournalContents read_cache_journal(const std::string& path, const std::vector<std::string>& names);

}  // namespace bnsl
