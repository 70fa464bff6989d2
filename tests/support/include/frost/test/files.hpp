#pragma once
/// @file files.hpp
/// @brief Files around a program run in a test: whole contents, folder listings, and a snapshot
/// of input files to show that a run left them byte-identical.
#include <map>
#include <string>
#include <vector>

namespace frost::test {

/// Reads a whole file ("" when missing).
std::string slurp(const std::string& path);
/// Whether `path` exists (a file of any kind).
bool exists(const std::string& path);
/// Names in `dir` (not recursive, without . and ..), sorted; empty when it does not exist.
std::vector<std::string> listing(const std::string& dir);

/// The bytes of some files, to show that a run left them as they were.
class Snapshot {
public:
  Snapshot() = default;
  explicit Snapshot(const std::vector<std::string>& paths);
  /// Records the bytes of `path` now (a googletest failure when it does not exist).
  void add(const std::string& path);
  /// Whether `path` was recorded.
  bool holds(const std::string& path) const { return bytes_.count(path) > 0; }
  /// A googletest failure for each recorded file that is gone or whose bytes changed.
  void expect_unchanged(const std::string& context) const;

private:
  std::map<std::string, std::string> bytes_;
};

} // namespace frost::test
