#include "frost/test/files.hpp"

#include <dirent.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace frost::test {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

std::vector<std::string> listing(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.emplace_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

Snapshot::Snapshot(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) add(p);
}

void Snapshot::add(const std::string& path) {
  EXPECT_TRUE(exists(path)) << path;
  bytes_[path] = slurp(path);
}

void Snapshot::expect_unchanged(const std::string& context) const {
  for (const auto& [path, bytes] : bytes_) {
    EXPECT_TRUE(exists(path)) << context << ": " << path << " is gone";
    EXPECT_TRUE(slurp(path) == bytes) << context << ": " << path << " was modified";
  }
}

} // namespace frost::test
