#pragma once
/// @file data_paths.hpp
/// @brief Image paths written into frost_align_significant's outputs, and the pixel size of a
/// particle file in any dialect (docs/align_significant.md#image-paths-in-the-outputs).
///
/// Metadata-level helpers kept here until libs/metadata offers them.
#include <string>

#include "frost/metadata/metadata_file.hpp"

namespace frost::app {

/// @brief `path` (an image file as found on disk: absolute, or relative to the working
/// directory) as it is written into the metadata file `metadata_path`: unchanged when absolute,
/// else relative to the folder of `metadata_path`, so that the output resolves from its own
/// folder wherever it is read from. Falls back to the absolute path when no relative one can be
/// formed. An Xmipp `:type` suffix is kept.
std::string path_for_metadata(const std::string& path, const std::string& metadata_path);

/// @brief `N@path` image locations: path_for_metadata() on the path part.
std::string location_for_metadata(const std::string& location, const std::string& metadata_path);

/// @brief `N@path` written in `from_metadata` (relative paths relative to its folder) rewritten
/// for `to_metadata`; absolute paths are kept.
std::string move_location(const std::string& location, const std::string& from_metadata, const std::string& to_metadata);

/// @brief The one pixel size [Å] of the particle table `particles` of `file`: RELION data_optics
/// rlnImagePixelSize (3.1+), a per-row rlnImagePixelSize, rlnDetectorPixelSize and
/// rlnMagnification (3.0), or Xmipp `samplingRate`; 0 when the file states none.
/// frost::Error(Input) naming the file when the rows disagree or a value is not positive.
double metadata_pixel_size(const meta::MetadataFile& file, const meta::Block& particles, const std::string& path);

} // namespace frost::app
