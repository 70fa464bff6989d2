#pragma once
/// @file gallery.hpp
/// @brief Volume mode (docs/align_significant.md#volume-mode): references projected by frost from a map at
/// near-uniform directions of one asymmetric unit, psi = 0, `ref` = 0-based generation order.
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "image_set.hpp"

namespace frost::app {

struct Gallery {
  Image<float> images;  ///< X × X × N_ref
  ReferenceInfo info;
};

/// @brief The directions of the gallery: alignment::gallery_directions(step, sym, min_tilt,
/// max_tilt); frost::Error(Usage) for an unknown symmetry or fewer than 2 directions.
std::vector<geom::EulerAngles> gallery_directions(double step_deg, const std::string& sym, double min_tilt,
                                                  double max_tilt);

/// @brief Projects `volume_path` (a cubic map of `box` voxels a side, the images' size) at
/// `directions` with frost's real-space projector. frost::Error(Input) naming the map for
/// another shape or a NaN/Inf voxel, before any projection.
Gallery make_gallery(const std::string& volume_path, std::vector<geom::EulerAngles> directions, index_t box);

/// @brief `<base>.mrcs` + `<base>.xmd` (image, ref, angleRot, angleTilt, anglePsi, enabled, and
/// samplingRate when `pixel_size` > 0), so the run can be repeated with `-r <base>.xmd`.
void save_gallery(const Gallery& g, const std::string& base, double pixel_size);

} // namespace frost::app
