#pragma once
/// @file gallery.hpp
/// @brief Volume mode (docs/align_significant.md#volume-mode): references projected by frost from a map at
/// near-uniform directions of one asymmetric unit, psi = 0, `ref` = 0-based generation order.
#include <string>

#include "frost/core/image.hpp"
#include "image_set.hpp"

namespace frost::app {

struct Gallery {
  Image<float> images;  ///< X × X × N_ref
  ReferenceInfo info;
};

/// @brief Projects `volume_path` (a cubic map) at alignment::gallery_directions(step, sym,
/// min_tilt, max_tilt) with frost's real-space projector. frost::Error(Input) naming the map
/// for a non-cubic map or a NaN/Inf voxel; frost::Error(Usage) for an unknown symmetry.
Gallery make_gallery(const std::string& volume_path, double step_deg, const std::string& sym, double min_tilt,
                     double max_tilt);

/// @brief `<base>.mrcs` + `<base>.xmd` (image, ref, angleRot, angleTilt, anglePsi, enabled), so
/// the run can be repeated with `-r <base>.xmd`.
void save_gallery(const Gallery& g, const std::string& base);

} // namespace frost::app
