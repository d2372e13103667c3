// A fresh directory under the system temp directory, removed with everything in it: tests run
// as parallel processes (ctest -j), so the name carries a random number and a counter.
//
//   bnsl_test::TempDir dir("csv");
//   std::string path = dir.write("bad.csv", "A,B\n1\n");   // or dir.file("out.jkl")
#pragma once

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <system_error>

namespace bnsl_test {

class TempDir {
 public:
  explicit TempDir(const std::string& tag = "tmp") {
    static std::atomic<int> counter{0};
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("bnsl_test_" + tag + "_" + std::to_string(rd()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The path of NAME in this directory.
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes `content` byte for byte to NAME in this directory; returns its path.
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(path_ / name, std::ios::binary) << content;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

}  // namespace bnsl_test
