#include "data_paths.hpp"

#include <cmath>
#include <filesystem>
#include <system_error>

#include "frost/core/error.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/particles.hpp"

namespace frost::app {
namespace fs = std::filesystem;

namespace {

/// The folder as the kernel resolves it: absolute, links and `..` resolved where it exists.
fs::path real_folder(const fs::path& folder) {
  std::error_code ec;
  const fs::path abs = fs::absolute(folder.empty() ? fs::path(".") : folder, ec);
  if (ec) return folder.lexically_normal();
  const fs::path canon = fs::weakly_canonical(abs, ec);
  return ec ? abs.lexically_normal() : canon;
}

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return std::string();
  return slash == 0 ? std::string("/") : path.substr(0, slash);
}

} // namespace

std::string path_for_metadata(const std::string& path, const std::string& metadata_path) {
  if (path.empty() || path.front() == '/') return path;
  const std::string bare = meta::strip_type_suffix(path);
  const std::string suffix = path.substr(bare.size());
  // Only the folders are resolved: a stack reached through a link stays addressed by the link.
  const fs::path p(bare);
  const fs::path target = real_folder(p.parent_path()) / p.filename();
  const fs::path relative = target.lexically_relative(real_folder(fs::path(metadata_path).parent_path()));
  return (relative.empty() ? target.string() : relative.string()) + suffix;
}

std::string location_for_metadata(const std::string& location, const std::string& metadata_path) {
  meta::ImageLocation loc = meta::parse_image_location(location);
  loc.path = path_for_metadata(loc.path, metadata_path);
  return meta::format_image_location(loc);
}

std::string move_location(const std::string& location, const std::string& from_metadata, const std::string& to_metadata) {
  meta::ImageLocation loc = meta::parse_image_location(location);
  if (!loc.path.empty() && loc.path.front() != '/') {
    const std::string from = folder_of(from_metadata);
    if (!from.empty()) loc.path = from + "/" + loc.path;
  }
  loc.path = path_for_metadata(loc.path, to_metadata);
  return meta::format_image_location(loc);
}

double metadata_pixel_size(const meta::MetadataFile& file, const meta::Block& particles, const std::string& path) {
  std::vector<double> sizes;
  std::string source;
  const meta::Block* optics = file.find("optics");
  if (optics && optics != &particles && optics->has("rlnImagePixelSize")) {
    sizes = meta::optics_doubles(*optics, particles, "rlnImagePixelSize");
    source = "data_optics rlnImagePixelSize";
  } else if (particles.has("rlnImagePixelSize")) {
    sizes = particles.doubles("rlnImagePixelSize");
    source = "rlnImagePixelSize";
  } else if (particles.has("rlnDetectorPixelSize") && particles.has("rlnMagnification")) {
    const std::vector<double> dps = particles.doubles("rlnDetectorPixelSize"), mag = particles.doubles("rlnMagnification");
    for (std::size_t r = 0; r < dps.size(); ++r) {
      if (!(dps[r] > 0) || !(mag[r] > 0))
        throw_input_error(path, "row " + std::to_string(r + 1) +
                                    ": the pixel size needs positive rlnDetectorPixelSize and rlnMagnification");
      sizes.push_back(meta::relion30_pixel_size(dps[r], mag[r]));
    }
    source = "rlnDetectorPixelSize / rlnMagnification";
  } else if (particles.has("samplingRate")) {
    sizes = particles.doubles("samplingRate");
    source = "samplingRate";
  }
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    if (!(sizes[r] > 0) || !std::isfinite(sizes[r]))
      throw_input_error(path, "row " + std::to_string(r + 1) + ": pixel size (" + source + ") " + std::to_string(sizes[r]) +
                                  " is not a positive number of Angstrom");
    if (std::abs(sizes[r] - sizes[0]) > 1e-6 * sizes[0])
      throw_input_error(path, "the particles have different pixel sizes (" + source + " " + std::to_string(sizes[0]) +
                                  " A at row 1, " + std::to_string(sizes[r]) + " A at row " + std::to_string(r + 1) +
                                  "); align each pixel size separately");
  }
  return sizes.empty() ? 0.0 : sizes[0];
}

} // namespace frost::app
