// An exploration's journal (bnsl/cache.hpp, CacheJournal): a jkl file that grows by one block
// per variable, each followed by a "# done VAR" line, appended with one write(2) per block on a
// descriptor opened O_APPEND, so a run killed at any moment leaves whole blocks and at most one
// cut short. Resuming drops the block cut short (truncate(2) to the end of the last "# done"
// line) and reads the complete ones; once every variable is in, the journal is synced and
// renamed over the cache, so the earlier cache there stays whole until its replacement is.
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "bnsl/cache.hpp"
#include "bnsl/error.hpp"
#include "io/jkl.hpp"
#include "util/atomic_file.hpp"

namespace bnsl {

namespace {

std::string slurp_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, std::string("cannot open: ") + std::strerror(errno));
  std::string text = jkl::read_stream(in);
  if (in.bad()) throw RuntimeError(path + ": read failed");
  return text;
}

// The length of a journal's text up to the end of its last complete block ("# done" line), or
// of its header ("N" line) when no block is complete.
std::size_t journal_complete_length(std::string_view text, const std::string& path) {
  std::size_t header_end = std::string_view::npos, done_end = std::string_view::npos;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) break;  // a line cut short
    const std::string_view line = text.substr(at, nl - at);
    const std::size_t first = line.find_first_not_of(" \t\r");
    const bool comment = first == std::string_view::npos || line[first] == '#';
    if (!comment && header_end == std::string_view::npos) header_end = nl + 1;
    if (line.starts_with("# done ")) done_end = nl + 1;
    at = nl + 1;
  }
  if (header_end == std::string_view::npos)
    throw InputError(path, 0, 0, "not a score-cache journal: no line with the number of variables");
  return done_end == std::string_view::npos ? header_end : std::max(done_end, header_end);
}

// The variables of the "# done VAR" lines of a journal's complete text.
std::vector<std::size_t> journal_done_vars(std::string_view text) {
  std::vector<std::size_t> vars;
  constexpr std::string_view kDone = "# done ";
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(at, nl - at);
    std::size_t var = 0;
    if (line.starts_with(kDone) &&
        std::from_chars(line.data() + kDone.size(), line.data() + line.size(), var).ec ==
            std::errc())
      vars.push_back(var);
    at = nl + 1;
  }
  return vars;
}

}  // namespace

std::string journal_path(const std::string& cache_path) {
  return cache_path + ".journal";
}

CacheJournal::CacheJournal(const std::string& cache_path, std::size_t n_vars,
                           const CacheProvenance& provenance, bool resume)
    : cache_path_(cache_path), path_(journal_path(cache_path)), done_(n_vars, 0) {
  if (resume) {
    const std::string text = slurp_file(path_);
    const std::size_t keep = journal_complete_length(text, path_);
    if (keep < text.size() && ::truncate(path_.c_str(), static_cast<off_t>(keep)) != 0)
      throw RuntimeError(path_ + ": cannot drop the block cut short: " + std::strerror(errno));
    for (std::size_t var : journal_done_vars(std::string_view(text).substr(0, keep)))
      if (var < done_.size() && !done_[var]) {
        done_[var] = 1;
        ++done_count_;
      }
  } else {
    try {
      write_file_atomically(path_,
                            jkl::provenance_header(provenance) + std::to_string(n_vars) + "\n");
    } catch (const RuntimeError& e) {
      error_ = e.what();
      return;
    }
  }
  fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0 && resume)
    throw RuntimeError(path_ + ": cannot open for appending: " + std::strerror(errno));
  if (fd_ < 0) error_ = path_ + ": cannot open for appending: " + std::strerror(errno);
}

CacheJournal::~CacheJournal() {
  if (fd_ >= 0) ::close(fd_);
}

void CacheJournal::fail(std::string why) {
  if (error_.empty()) error_ = std::move(why);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void CacheJournal::append(std::size_t var, const VarCache& entries) {
  std::string block = std::to_string(var) + ' ' + std::to_string(entries.size()) + '\n';
  for (std::size_t i = 0; i < entries.size(); ++i)
    jkl::append_entry(block, entries.score(i), entries.parents(i), 17);
  block += "# done " + std::to_string(var) + '\n';
  std::lock_guard<std::mutex> lock(mutex_);
  if (fd_ < 0) return;
  for (std::size_t at = 0; at < block.size();) {
    const ssize_t n = ::write(fd_, block.data() + at, block.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(path_ + ": cannot append: " + std::strerror(errno));
    at += static_cast<std::size_t>(n);
  }
  if (var < done_.size() && !done_[var]) {
    done_[var] = 1;
    ++done_count_;
  }
}

bool CacheJournal::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fd_ < 0 || done_count_ < done_.size()) return false;
  // The blocks on disk before the name: a crash after the rename finds them whole.
  if (::fsync(fd_) != 0) {
    fail(path_ + ": cannot sync: " + std::strerror(errno));
    return false;
  }
  ::close(fd_);
  fd_ = -1;
  std::error_code ec;
  std::filesystem::rename(path_, cache_path_, ec);
  if (ec) {
    error_ = "cannot rename " + path_ + " to " + cache_path_ + ": " + ec.message();
    return false;
  }
  return true;
}

std::string CacheJournal::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

JournalContents read_cache_journal(const std::string& path, const std::vector<std::string>& names) {
  std::optional<CacheProvenance> p = read_jkl_provenance(path);
  if (!p) throw InputError(path, 0, 0, "no provenance header ('# bnsl ...' lines)");
  const std::string text = slurp_file(path);
  JournalContents j;
  j.provenance = std::move(*p);
  j.cache = jkl::parse_text(std::string_view(text).substr(0, journal_complete_length(text, path)),
                            path, names);
  return j;
}

}  // namespace bnsl
