#include "frost/metadata/image_location.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <system_error>

#include "frost/core/error.hpp"

namespace frost::meta {
namespace fs = std::filesystem;

namespace {
bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return std::string();
  return slash == 0 ? std::string("/") : path.substr(0, slash);
}

/// The folder as the kernel resolves it: absolute, links and `..` resolved where it exists.
fs::path real_folder(const fs::path& folder) {
  std::error_code ec;
  const fs::path abs = fs::absolute(folder.empty() ? fs::path(".") : folder, ec);
  if (ec) return folder.lexically_normal();
  const fs::path canon = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : canon;
}
} // namespace

ImageLocation parse_image_location(std::string_view text) {
  ImageLocation out;
  const std::size_t at = text.find('@');
  const std::string_view before = at == std::string_view::npos ? std::string_view() : text.substr(0, at);
  if (at == std::string_view::npos || before.find('/') != std::string_view::npos) {
    out.path = std::string(text);
  } else {
    if (before.empty() || before.size() > 18)
      throw_input_error(std::string(text), "image index before '@' must be a positive integer");
    std::size_t index = 0;
    for (char c : before) {
      if (c < '0' || c > '9')
        throw_input_error(std::string(text), "image index before '@' must be a positive integer");
      index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    if (index == 0) throw_input_error(std::string(text), "image indices start at 1 (N@file is 1-based)");
    out.index = index;
    out.path = std::string(text.substr(at + 1));
  }
  if (out.path.empty()) throw_input_error(std::string(text), "empty file name in image location");
  return out;
}

std::string format_image_location(const ImageLocation& location) {
  if (location.index == 0) return location.path;
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06zu@", location.index);
  return digits + location.path;
}

std::string strip_type_suffix(const std::string& path) {
  const std::size_t colon = path.find_last_of(':');
  if (colon == std::string::npos || colon + 1 >= path.size()) return path;
  const std::string suffix = path.substr(colon + 1);
  if (suffix.size() > 5 || suffix.find('/') != std::string::npos) return path;
  for (char c : suffix)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return path;
  return path.substr(0, colon);
}

std::string resolve_data_path(const std::string& path, const std::string& metadata_path, PathBase base) {
  if (path.empty() || path.front() == '/') return path;
  const std::string dir = directory_of(metadata_path);
  const std::string beside = dir.empty() ? path : dir + "/" + path;
  switch (base) {
  case PathBase::WorkingDirectory: return path;
  case PathBase::MetadataDirectory: return beside;
  case PathBase::Auto: // the metadata's folder first (image_location.hpp says why)
    if (exists(strip_type_suffix(beside))) return beside;
    return path;
  }
  return path;
}

const std::string& DataPathResolver::operator()(const std::string& path) {
  auto it = resolved_.find(path);
  if (it == resolved_.end()) it = resolved_.emplace(path, resolve_data_path(path, metadata_, base_)).first;
  return it->second;
}

std::string path_for_metadata(const std::string& path, const std::string& metadata_path) {
  if (path.empty() || path.front() == '/') return path;
  const std::string bare = strip_type_suffix(path);
  const std::string suffix = path.substr(bare.size());
  // Only the folders are resolved: a stack reached through a link stays addressed by the link.
  const fs::path p(bare);
  const fs::path target = real_folder(p.parent_path()) / p.filename();
  const fs::path relative = target.lexically_relative(real_folder(fs::path(metadata_path).parent_path()));
  return (relative.empty() ? target.string() : relative.string()) + suffix;
}

std::string location_for_metadata(const std::string& location, const std::string& metadata_path) {
  ImageLocation loc = parse_image_location(location);
  loc.path = path_for_metadata(loc.path, metadata_path);
  return format_image_location(loc);
}

std::string rebase_location(const std::string& location, const std::string& from_metadata,
                            const std::string& to_metadata) {
  ImageLocation loc = parse_image_location(location);
  loc.path = path_for_metadata(resolve_data_path(loc.path, from_metadata, PathBase::MetadataDirectory), to_metadata);
  return format_image_location(loc);
}

std::vector<std::string> data_files(const std::vector<std::string>& locations) {
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const std::string& location : locations) {
    std::string path = strip_type_suffix(parse_image_location(location).path);
    if (seen.insert(path).second) files.push_back(std::move(path));
  }
  return files;
}

} // namespace frost::meta
