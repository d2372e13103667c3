// available_memory() and its checks (memory.hpp). Every reading is optional: a file missing or
// unreadable (no /proc, no cgroup, no limit set) leaves that bound out.
#include "util/memory.hpp"

#include <sys/resource.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "bnsl/error.hpp"

namespace bnsl {
namespace {

// The number after `key` in a "key: value kB" file (/proc/meminfo, /proc/self/status), bytes.
std::optional<double> kb_field(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0 && line.size() > key.size() &&
        line[key.size()] == ':') {
      std::istringstream fields(line.substr(key.size() + 1));
      double kb = 0;
      if (fields >> kb) return kb * 1024;
    }
  return std::nullopt;
}

// A file holding one number of bytes (cgroup files); none for "max" or a missing file.
std::optional<double> number_file(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  try {
    return std::stod(word);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The number after `key ` in a "key value" file (cgroup memory.stat).
std::optional<double> stat_field(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string name;
  double value = 0;
  while (in >> name >> value)
    if (name == key) return value;
  return std::nullopt;
}

// What the process's cgroup allows beyond its working set: the limit less the usage, less the
// page cache the kernel can drop (inactive_file: reading a large CSV fills it, and counting it
// would refuse what fits). The cgroup is the path after "0::" (v2) or after ":memory:" (v1) in
// /proc/self/cgroup.
std::optional<double> cgroup_left() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    std::string dir;
    if (line.rfind("0::", 0) == 0) {
      dir = "/sys/fs/cgroup" + line.substr(3);
      const auto limit = number_file(dir + "/memory.max");
      const auto used = number_file(dir + "/memory.current");
      const auto cache = stat_field(dir + "/memory.stat", "inactive_file");
      if (limit && used) return *limit - (*used - cache.value_or(0));
    } else if (const auto at = line.find(":memory:"); at != std::string::npos) {
      dir = "/sys/fs/cgroup/memory" + line.substr(at + 8);
      const auto limit = number_file(dir + "/memory.limit_in_bytes");
      const auto used = number_file(dir + "/memory.usage_in_bytes");
      const auto cache = stat_field(dir + "/memory.stat", "total_inactive_file");
      // v1 reports "no limit" as a huge number (PAGE_COUNTER_MAX pages).
      if (limit && used && *limit < 1e18) return *limit - (*used - cache.value_or(0));
    }
  }
  return std::nullopt;
}

std::optional<double> address_space_left() {
  rlimit r{};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return std::nullopt;
  const auto used = kb_field("/proc/self/status", "VmSize");
  return static_cast<double>(r.rlim_cur) - used.value_or(0);
}

}  // namespace

MemoryLimit available_memory() {
  MemoryLimit m{std::numeric_limits<double>::infinity(), ""};
  const auto take = [&m](std::optional<double> bytes, const char* source) {
    if (bytes && *bytes < m.bytes) m = {std::max(0.0, *bytes), source};
  };
  take(kb_field("/proc/meminfo", "MemAvailable"), "MemAvailable");
  take(cgroup_left(), "cgroup");
  take(address_space_left(), "ulimit -v");
  return m;
}

std::string bytes_text(double bytes) {
  char text[32];
  const double mib = bytes / (1024.0 * 1024);
  if (mib < 10)
    std::snprintf(text, sizeof text, "%.1f MiB", mib);
  else if (mib < 1024)
    std::snprintf(text, sizeof text, "%.0f MiB", mib);
  else
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  return text;
}

void require_memory(double need, const MemoryLimit& limit, const std::string& what,
                    const std::string& hint) {
  if (!(need > limit.bytes)) return;
  throw RuntimeError(what + " needs about " + bytes_text(need) + ", and only " +
                     bytes_text(limit.bytes) + " is available (" + limit.source + ")" +
                     (hint.empty() ? "" : "; " + hint));
}

}  // namespace bnsl
