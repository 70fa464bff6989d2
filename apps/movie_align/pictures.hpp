#pragma once
// The PNG pictures of one aligned movie (--othumbnail, --opsd-png, --odrift-plot), written
// atomically through frost::picture. Pictures show y up (row 0 of the micrograph at the bottom).
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/patch_grid.hpp"

namespace frost::movie_align {

/// The micrograph box-averaged to at most `longest_side` pixels, clipped at the 0.5 and 99.5
/// percentiles.
void write_thumbnail(const std::string& path, const Image<float>& micrograph, int longest_side);

/// The log power spectrum of the centred periodogram (the --opsd image).
void write_psd_picture(const std::string& path, const Image<float>& periodogram);

/// @brief The global trajectory and, when `model` has a B-spline field, the model's shifts at the
/// centres of `grid` (the local-alignment patches), all in raw pixels over a micrograph of
/// width x height processing pixels.
void write_drift_plot(const std::string& path, const motion::MotionModel& model, const motion::PatchGrid* grid,
                      double width, double height);

} // namespace frost::movie_align
