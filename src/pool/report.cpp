// Output files of a learning run: PREFIX.pool.json, PREFIX.best.dot, PREFIX.consensus.dot and
// PREFIX.best.bif (bnsl/report.hpp). Every file is written to PATH.tmp and renamed over PATH,
// so readers (and a run killed mid-checkpoint) only ever see complete files.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "bnsl/bif.hpp"
#include "bnsl/error.hpp"
#include "bnsl/report.hpp"
#include "io/report_io.hpp"

namespace bnsl {

void write_text_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) {
    fs::create_directories(parent, ec);
    if (ec) throw RuntimeError("cannot create directory " + parent.string() + ": " + ec.message());
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw RuntimeError("cannot write " + tmp);
    out << text;
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp, ec);
      throw RuntimeError("write failed: " + tmp);
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw RuntimeError("cannot rename " + tmp + " to " + path + ": " + ec.message());
  }
}

void write_outputs(const std::string& prefix, PoolReport& report, const Dataset* data) {
  if (report.mec_count == 0 && !report.dags.empty()) summarize(report);
  write_text_atomically(prefix + ".pool.json", pool_json_text(report));
  write_text_atomically(prefix + ".best.dot", best_dot_text(report));
  write_text_atomically(prefix + ".consensus.dot", consensus_dot_text(report));
  if (data && !report.dags.empty())
    write_bif(prefix + ".best.bif", estimate_parameters(*data, report.dags[0].parents));
}

PoolReport read_pool_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, 0, "cannot open the pool JSON file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_pool_json(buf.str(), path);
}

}  // namespace bnsl
