#pragma once
/// @file micrographs_star.hpp
/// @brief DIR/micrographs.star: the session's aligned micrographs in the layout of RELION's
/// corrected_micrographs.star, so that a RELION job can take it as input
/// (docs/session.md#micrographs-star).
#include <string>
#include <vector>

#include "frost/metadata/metadata_file.hpp"
#include "frost/session/movie_record.hpp"

namespace frost::session {

/// The one optics group of a session (data_optics).
struct OpticsGroup {
  std::string name = "opticsGroup1";
  int number = 1;
  double original_pixel_size_A = 1; ///< the movie's pixel size
  double micrograph_pixel_size_A = 1; ///< after binning
  double voltage_kV = 300;
  double cs_mm = 2.7;
  double amplitude_contrast = 0.1;
  std::string mtf;                  ///< rlnMtfFileName, left out when empty
};

/// The `optics` and `micrographs` blocks (RELION 3.1 dialect, `# version 30001`) of the done
/// records, in the order given: rlnMicrographName, rlnMicrographMetadata, rlnOpticsGroup,
/// rlnAccumMotionTotal/Early/Late (0 where unknown), and rlnCtfPowerSpectrum /
/// rlnMicrographNameNoDW when every row has one.
meta::MetadataFile micrographs_star(const std::vector<MovieRecord>& records, const OpticsGroup& optics);

/// Writes micrographs_star() to `path` atomically (temporary file + rename), so a RELION job
/// reading it while movies finish sees the previous whole file or the new one.
void write_micrographs_star(const std::string& path, const std::vector<MovieRecord>& records, const OpticsGroup& optics);

} // namespace frost::session
