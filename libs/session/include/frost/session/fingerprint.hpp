#pragma once
/// @file fingerprint.hpp
/// @brief What identifies one movie file and one set of parameters in the journal
/// (docs/session.md#fingerprints).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace frost::session {

/// A movie file as it was seen: its path, size and modification time.
struct Fingerprint {
  std::string path;
  std::int64_t size = 0;
  std::int64_t mtime_ns = 0; ///< nanoseconds since the epoch

  friend bool operator==(const Fingerprint& a, const Fingerprint& b) {
    return a.path == b.path && a.size == b.size && a.mtime_ns == b.mtime_ns;
  }
  friend bool operator!=(const Fingerprint& a, const Fingerprint& b) { return !(a == b); }
};

/// stat() of `path`; frost::Error(Input) naming the path when it cannot be read.
Fingerprint fingerprint_of(const std::string& path);

/// The hash of the parameters that change a movie's outputs: 16 hex digits of FNV-1a over
/// "name=value\n" lines sorted by name, so the order the caller lists them in does not matter.
/// Leave out options that do not change results (threads, devices, --watch).
std::string parameter_hash(std::vector<std::pair<std::string, std::string>> parameters);

} // namespace frost::session
