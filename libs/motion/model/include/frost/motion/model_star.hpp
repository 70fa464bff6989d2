#pragma once
/// @file model_star.hpp
/// @brief The motion-model parts of the frost alignment STAR file
/// (docs/movie_align.md#the-frost-alignment-star): model keys of data_general, data_global_shift,
/// data_bspline_coefficients and data_local_shift. Everything is stored in raw (unbinned) pixels;
/// shifts are shifts to apply (docs/conventions.md#shifts). Numbers this module writes are shortest
/// exact decimals, so a model reads back bit-identical.
#include <string>
#include <vector>

#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/bspline_fit.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

inline constexpr const char* kGeneralBlock = "general";
inline constexpr const char* kGlobalShiftBlock = "global_shift";
inline constexpr const char* kLocalShiftBlock = "local_shift";
inline constexpr const char* kCoefficientBlock = "bspline_coefficients";

/// @brief Writes `model` into `file`. data_general (a list block, added first when absent) gets
/// _rlnMicrographBinning, _frostFrameFirst/Last, _frostReferenceFrame (absolute 0-based movie
/// frame), _frostMotionModel (global|bspline), _frostLocalModel (residual|total) and, with a
/// local field, _frostControlPointsX/Y/T, _frostKnotSpacingX/Y (raw px), _frostKnotSpacingT
/// (frames); its other keys are left alone. data_global_shift and (with a local field)
/// data_bspline_coefficients are (re)built; a stale coefficient block is removed for a global
/// model. `movie_frames` > 0 adds rows with _frostEnabled 0 and shift 0 for the movie frames
/// outside the aligned range. frost::Error(Runtime) when the model has no global shifts.
void write_motion_model(meta::MetadataFile& file, const MotionModel& model, int movie_frames = 0);

/// @brief data_local_shift (one row per measurement: _frostPatchIndex, _rlnCoordinateX/Y = patch
/// centre [raw px], _frostFrameIndex [absolute], _frostMeasuredShiftX/Y and _frostFittedShiftX/Y =
/// total shift to apply [raw px], _frostWeight = weight, 0 for rejected equations) and the fit
/// diagnostics of data_general: _frostOutliersLocal, _frostLocalFitRmsd and
/// _frostLocalShift2_5/97_5 (raw px). `model` must hold the fitted field; the measurements are the
/// ones passed to fit_bspline_field (targets of model.kind).
void write_local_fit(meta::MetadataFile& file, const MotionModel& model,
                     const std::vector<PatchMeasurement>& measurements, const BSplineFitResult& fit);

/// @brief Reads what write_motion_model wrote (other writers: data_general may lack the frost
/// keys: binning 1, reference = first aligned frame, residual kind; frames are taken from
/// _frostFrameIndex or _rlnMicrographFrameNumber - 1, rows with _frostEnabled 0 are skipped).
/// frost::Error(Input) naming the file for a missing block/key or inconsistent contents.
MotionModel read_motion_model(const meta::MetadataFile& file);

/// File conveniences: a new STAR 3.1 file holding only the model blocks; reading a whole file.
void write_motion_model_file(const std::string& path, const MotionModel& model, int movie_frames = 0);
MotionModel read_motion_model_file(const std::string& path);

} // namespace frost::motion
