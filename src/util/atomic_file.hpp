// Atomic file output, used for every file bnsl writes: the content goes to PATH.tmp (PATH's
// directory is created if missing), which is then renamed over PATH, so a reader -- or a run
// killed mid-write -- only ever sees a complete file, the new one or the previous one.
//
//   bnsl::write_file_atomically("out/a.json", text);
//   bnsl::write_file_atomically("out/a.jkl", [&](std::ostream& out) { write_jkl(out, cache); });
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace bnsl {

// Throws RuntimeError naming the file when it cannot be written or renamed (PATH.tmp is
// removed then); exceptions from `write` propagate after the same clean-up (a RuntimeError
// with PATH.tmp prefixed to its message).
void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write);
void write_file_atomically(const std::string& path, std::string_view text);

// Whether write_file_atomically(path, ...) can start: creates PATH's directory if missing (as
// the write would), and creates and removes PATH.tmp. Throws RuntimeError naming the file and
// the reason otherwise (a directory that cannot be created, no permission, PATH a directory),
// so a command can refuse before spending its budget. A full disk shows only at the write.
void check_writable(const std::string& path);

}  // namespace bnsl
