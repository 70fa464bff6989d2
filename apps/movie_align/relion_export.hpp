#pragma once
// RELION's per-micrograph motion STAR (docs/movie_align.md#relion-and-xmipp-exports,
// docs/formats.md#motion-star), written by --ostar_motion.
#include <optional>
#include <string>
#include <vector>

#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/patch_alignment.hpp"
#include "frost/motion/relion_polynomial.hpp"
#include "movie_facts.hpp"

namespace frost::movie_align {

/// RELION's marker for frames outside the aligned range.
inline constexpr double kRelionNotObserved = -9999.0;

/// @brief data_general (sizes, movie, gain and defects as applied (MovieFacts::relion_gain,
/// relion_defects), binning, pixel size, dose (1 e/A^2 per frame, RELION's default, when not
/// known), 1-based start frame = first
/// aligned frame, _rlnMotionModelVersion) and data_global_shift: every movie frame, 1-based, with
/// the global shift to apply [raw px] re-referenced to the first aligned frame (which is then
/// exactly 0); frames outside the aligned range hold -9999. With `local`: version 1 and
/// data_local_motion_model (_rlnMotionModelCoeffsIdx 0-35, _rlnMotionModelCoeff: x then y);
/// without: version 0. Then, as RELION orders them, data_hot_pixels (_rlnCoordinateX/Y, raw px)
/// when detection ran and found any, and data_local_shift when `patches` (local alignment ran)
/// is non-empty: per patch, then frame, _rlnMicrographFrameNumber (1-based), _rlnCoordinateX/Y
/// (patch centre, raw px) and _rlnMicrographShiftX/Y: the patch's measured shift to apply minus
/// the global one, re-referenced like data_global_shift (0 at the first aligned frame), raw px;
/// this is what the polynomial is fitted to (relion_polynomial_samples).
meta::MetadataFile relion_motion_star(const MovieFacts& facts, const motion::MotionModel& model,
                                      const motion::RelionPolynomial* local = nullptr,
                                      const std::vector<motion::PatchTrack>* patches = nullptr);

/// @brief Writes `path` (atomically): for a model with a local field, first fits RELION's
/// polynomial to it (relion_polynomial_samples on the raw frame, 16 x 16 grid) and logs the fit
/// RMSD, with a warning above `warn_rmsd` [raw px]. `patches`: the local stage's tracks (nullptr
/// when it did not run). Returns the fit, or nothing for version 0.
std::optional<motion::RelionPolynomialFit> write_relion_motion(const std::string& path, const MovieFacts& facts,
                                                               const motion::MotionModel& model, double warn_rmsd,
                                                               const std::vector<motion::PatchTrack>* patches = nullptr);

} // namespace frost::movie_align
