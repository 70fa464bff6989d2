// The cache directory convention (docs/conventions.md#environment-variables) and the checks of
// names and write access in it.
#include "frost/cache/cache_dir.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace frost::cache {

std::string default_cache_dir(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) return explicit_dir;
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
  };
  if (const std::string d = env("FROST_CACHE_DIR"); !d.empty()) return d;
  if (const std::string d = env("XDG_CACHE_HOME"); !d.empty()) return d + "/frost";
  std::string home = env("HOME");
  if (home.empty())
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) home = pw->pw_dir;
  if (!home.empty()) return home + "/.cache/frost";
  return "/tmp/frost-cache-" + std::to_string(::getuid()); // no home at all (daemons, containers)
}

bool directory_writable(const std::string& dir, const std::string& file_name) {
  // access() is right for everyone except root, who is refused only by read-only mounts and by
  // paths through regular files; the caches' store() catches whatever this misses.
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(dir);
  while (!p.empty() && !fs::exists(p, ec)) {
    if (p == p.parent_path()) break;
    p = p.parent_path();
  }
  if (p.empty()) p = ".";
  if (!fs::is_directory(p, ec)) return false;
  if (::access(p.c_str(), W_OK | X_OK) != 0) return false;
  const fs::path file = fs::path(dir) / file_name;
  return !(p == fs::path(dir) && fs::exists(file, ec) && ::access(file.c_str(), W_OK) != 0);
}

std::string file_safe_name(const std::string& id) {
  std::string out = id.empty() ? std::string("unknown") : id;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.';
    if (!ok) c = '_';
  }
  return out;
}

} // namespace frost::cache
