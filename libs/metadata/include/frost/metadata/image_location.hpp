#pragma once
/// @file image_location.hpp
/// @brief `N@path` image addresses and where relative data paths in metadata point.
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace frost::meta {

/// @brief One image of a stack (`000123@stack.mrcs`) or a whole file (`micrograph.mrc`).
struct ImageLocation {
  std::size_t index = 0; ///< 1-based position in the stack; 0 when there is no `N@` part
  std::string path;      ///< as written, including Xmipp's `:mrcs`-style suffix if any
  bool has_index() const noexcept { return index > 0; }
};

/// @brief Parses `N@path` (zero padding optional) or a plain path. A part before '@' that
/// contains '/' is taken as part of the path. frost::Error(Input) for an index that is not a
/// positive integer or an empty path.
ImageLocation parse_image_location(std::string_view text);

/// @brief `%06zu@path` (more digits when needed), or the bare path when index is 0.
std::string format_image_location(const ImageLocation& location);

/// @brief The path without a trailing Xmipp type suffix (`file.mrc:mrcs` → `file.mrc`).
std::string strip_type_suffix(const std::string& path);

/// @brief What a relative path in a metadata file is relative to.
///
/// RELION (and Xmipp under Scipion) write paths relative to the project directory, i.e. the
/// working directory of the program that reads the file. Data sets copied elsewhere (the
/// ASPIRE and cryoDRGN test files) keep their stacks next to the metadata file instead. Auto
/// accepts both, the metadata file's folder first: see resolve_data_path().
enum class PathBase {
  WorkingDirectory,  ///< RELION's rule, strictly
  MetadataDirectory, ///< next to the metadata file
  Auto               ///< next to the metadata if the file exists there, else the working directory
};

/// @brief Resolves a data path read from the metadata file `metadata_path`.
///
/// Absolute paths are returned unchanged. With PathBase::Auto a relative path is joined to the
/// metadata file's folder when the file exists there, else used as is (relative to the working
/// directory, RELION's project rule) when it exists there, else returned unchanged so that a
/// later "cannot open" error names the path RELION would have used. The metadata's folder comes
/// first because a file there belongs to the metadata for certain, while a same-named file in
/// whatever folder the program runs from may be another data set's: trying the working
/// directory first let such a file win silently. In a RELION project the STAR file's folder
/// (a job folder) holds no `Extract/...` path, so RELION's files still resolve in the project.
/// The `:suffix` of Xmipp paths is ignored for the existence check and kept in the result.
std::string resolve_data_path(const std::string& path, const std::string& metadata_path,
                              PathBase base = PathBase::Auto);

/// @brief resolve_data_path() for the rows of one metadata file, each distinct path once: a stack
/// that 200,000 rows name is looked up once, not 200,000 times (on a cluster's parallel file
/// system every lookup is a request to its metadata server). A file that appears or disappears
/// during the reading of the table does not change the answer for a path already resolved.
class DataPathResolver {
public:
  explicit DataPathResolver(std::string metadata_path, PathBase base = PathBase::Auto)
      : metadata_(std::move(metadata_path)), base_(base) {}
  const std::string& operator()(const std::string& path);

private:
  std::string metadata_;
  PathBase base_;
  std::unordered_map<std::string, std::string> resolved_;
};

/// @brief The other way round: `path` (a data file as a program found it: absolute, or relative
/// to the working directory) as it is written into the metadata file `metadata_path`. Absolute
/// paths are kept; a relative one becomes relative to the folder of `metadata_path`, so that
/// the file resolves from its own folder (resolve_data_path() looks there first) wherever it is
/// read from. Only the folders are resolved (absolute, links and `..`): a file reached through
/// a link stays addressed by the link. Falls back to the absolute path when no relative one can
/// be formed. An Xmipp `:type` suffix is kept.
std::string path_for_metadata(const std::string& path, const std::string& metadata_path);

/// @brief path_for_metadata() on the path part of an `N@path` image location.
std::string location_for_metadata(const std::string& location, const std::string& metadata_path);

/// @brief An `N@path` location written in `from_metadata` (a relative path relative to its
/// folder) rewritten for `to_metadata`; absolute paths are kept.
std::string rebase_location(const std::string& location, const std::string& from_metadata,
                            const std::string& to_metadata);

/// @brief The data files that `locations` (`N@path` image locations, as resolved by the reader)
/// name: each once, in the order first named, without an Xmipp `:type` suffix. For the input
/// list of a run's checks (frost/core/run_files.hpp).
std::vector<std::string> data_files(const std::vector<std::string>& locations);

} // namespace frost::meta
