// Atomic file output (util/atomic_file.hpp): write PATH.tmp, flush and close it, check the
// stream, rename over PATH; on any failure remove PATH.tmp and report the file.
#include "util/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "bnsl/error.hpp"

namespace bnsl {
namespace {

// Creates PATH's directory when missing; RuntimeError naming it when that fails.
void create_parent(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::filesystem::create_directories(parent, ec);
  if (ec) throw RuntimeError("cannot create directory " + parent.string() + ": " + ec.message());
}

}  // namespace

void write_file_atomically(const std::string& path,
                           const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  std::error_code ec;
  create_parent(path);
  const std::string tmp = path + ".tmp";
  auto discard = [&tmp] {
    std::error_code ignored;
    fs::remove(tmp, ignored);
  };
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw RuntimeError("cannot write " + tmp + ": " + std::strerror(errno));
    try {
      write(out);
    } catch (const RuntimeError& e) {  // name the file in the writer's own failure
      out.close();
      discard();
      throw RuntimeError(tmp + ": " + e.what());
    } catch (...) {
      out.close();
      discard();
      throw;
    }
    out.flush();
    const int flush_errno = out ? 0 : errno;
    out.close();
    if (!out) {
      const int error = flush_errno != 0 ? flush_errno : errno;
      discard();
      throw RuntimeError("cannot write " + tmp + ": " +
                         (error != 0 ? std::strerror(error) : "write failed"));
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    discard();
    throw RuntimeError("cannot rename " + tmp + " to " + path + ": " + ec.message());
  }
}

void check_writable(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  create_parent(path);
  if (fs::is_directory(path, ec)) throw RuntimeError("cannot write " + path + ": is a directory");
  const std::string tmp = path + ".tmp";
  {
    std::ofstream probe(tmp, std::ios::binary | std::ios::trunc);
    if (!probe) throw RuntimeError("cannot write " + path + ": " + std::strerror(errno));
  }
  fs::remove(tmp, ec);
}

void write_file_atomically(const std::string& path, std::string_view text) {
  write_file_atomically(path, [text](std::ostream& out) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  });
}

}  // namespace bnsl
