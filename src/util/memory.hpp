// The memory a run may still take, and the checks made with it before the large allocations,
// so that a data set too large for the machine stops with a message naming what does not fit
// and what to do, never with an OOM kill (issue 24).
//
//   const MemoryLimit limit = available_memory();   // e.g. 11.2 GiB (MemAvailable)
//   require_memory(need, limit, "reading data.csv", kLessDataHint);
//
// The limit is the least of what the machine has available (MemAvailable in /proc/meminfo),
// what the process's cgroup allows beyond its usage (v2 memory.max, v1 limit_in_bytes: batch
// schedulers set these), and what the address-space limit (RLIMIT_AS, `ulimit -v`) leaves
// beyond the address space in use. It is read when asked, so it counts what is allocated then.
#pragma once

#include <cstddef>
#include <string>

namespace bnsl {

struct MemoryLimit {
  double bytes = 0;    // infinity when nothing could be read
  std::string source;  // "MemAvailable", "cgroup", "ulimit -v", or "" when unknown
};

MemoryLimit available_memory();

// "512 MiB", "3.1 GiB".
std::string bytes_text(double bytes);

// The usual way out when data do not fit, the hint of the checks on data.
inline constexpr const char* kLessDataHint = "free memory, or give bnsl fewer rows or columns";

// Throws RuntimeError (exit status 1) "WHAT needs about NEED, and only LIMIT is available
// (SOURCE); HINT" when need > limit.bytes.
void require_memory(double need, const MemoryLimit& limit, const std::string& what,
                    const std::string& hint);

}  // namespace bnsl
