#pragma once
/// @file figures.hpp
/// @brief The pictures frost's programs write: central sections of a map, an FSC curve, and the
/// drift plot of a movie (global trajectory and the local model on a grid). Inputs are plain
/// numbers so that this library does not depend on the reconstruction or motion libraries.
#include <vector>

#include "frost/core/image.hpp"
#include "frost/picture/raster.hpp"

namespace frost::picture {

/// @brief The central xy (z = nz/2), xz (y = ny/2) and yz (x = nx/2) sections of `volume` side by
/// side with 4-pixel white gaps, grey, one percentile window (0.5 %, 99.5 %) for all three so
/// their intensities compare. Axes point right and up: xy (x, y), xz (x, z), yz (y, z). Sections
/// larger than `max_side` are shrunk (shrink_to_fit); all are magnified by the largest integer
/// factor that keeps the largest side <= max(min_side, that side).
/// @throw frost::Error(Runtime) unless `volume` is one volume.
Raster central_sections(View<const float> volume, index_t max_side = 512, index_t min_side = 192);

/// One FSC curve: shell s at spatial frequency frequency[s] [1/A].
struct FscFigure {
  std::vector<double> frequency; ///< [1/A], increasing; x axis from 0 to the last one
  std::vector<double> fsc;
  std::vector<double> thresholds = {0.143, 0.5}; ///< dashed horizontal lines
  int width = 640, height = 400;
};
/// @brief RGB plot of the curve (blue) against frequency with dashed threshold lines (the first
/// dark grey, the rest light grey), y from min(-0.1, lowest value) to 1.05, labelled ticks.
/// @throw frost::Error(Runtime) when the vectors differ in length or hold fewer than 2 shells.
Raster fsc_figure(const FscFigure& figure);

/// The shifts of the motion model at one point of the micrograph, one per frame.
struct DriftTrack {
  double x = 0, y = 0;            ///< the point [px], y up from row 0
  std::vector<double> dx, dy;     ///< shift to apply at the point per frame [px]
};
/// A movie's motion as drawn by drift_figure; all in the same pixels (frost: raw pixels).
struct DriftFigure {
  std::vector<double> x, y;       ///< global shift per frame
  double width = 0, height = 0;   ///< micrograph extent, for the local panel
  std::vector<DriftTrack> local;  ///< the local model at grid points; empty: no local panel
  int panel = 400;                ///< side of each panel in pixels
};
/// @brief Left panel: the global trajectory with equal x and y scales, a dot per frame, the
/// first frame green, the last red, axes labelled in pixels. Right panel (when `local` is not
/// empty): the micrograph's outline with each track drawn from its point, magnified so that the
/// largest excursion is 45 % of the spacing between points (the factor is printed as "x<m>"),
/// a dot at each point.
/// @throw frost::Error(Runtime) for fewer than 2 frames or tracks with another frame count.
Raster drift_figure(const DriftFigure& figure);

} // namespace frost::picture
