#pragma once
/// @file reference_images.hpp
/// @brief Gain and dark references (docs/movie_align.md#gain-dark-defects-and-hot-pixels,
/// docs/formats.md#eer-gain-references): read, oriented (docs/movie_align.md#reference-orientation),
/// converted by the EER rules, checked against the frame size.
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/gain_transform.hpp"

namespace frost::motion {

/// @brief How to load a gain reference.
struct GainOptions {
  GainTransform transform; ///< --gain-rot / --gain-flip
  bool invert = false;     ///< --gain-invert: use 1/g (0 stays 0)
  /// TIFF references follow the movie's row-flip rule (docs/formats.md#tiff-movies), except Thermo `.gain`
  /// files of EER movies, which are read unflipped (docs/formats.md#eer-gain-references).
  bool tiff_flip_y = true;
  bool eer = false; ///< the movie is EER: the EER gain rules apply
};

/// @brief The multiplicative gain for frames of frame_width x frame_height (EER: the render grid).
///
/// Order: read (TIFF flip per the rules above), reject NaN/Inf, negative values and a gain
/// without a positive value (Input errors), orient; for EER
/// movies resize by an integer factor between sensor and render grid (replicate to a finer
/// grid; coarser: sum 2x2 blocks of a count reference, average those of a `.gain` multiplier)
/// and convert any reference other than a Thermo `.gain` file from counts to mean/value
/// (value 0 stays 0: a defect); then --gain-invert; then the size check (Input error naming
/// both sizes and suggesting a rotation). Pixels with gain 0 are defects (defects.hpp).
Image<float> load_gain(const std::string& path, const GainOptions& options, index_t frame_width, index_t frame_height);

/// @brief The dark reference, read, checked for NaN/Inf, oriented like the gain and size-checked.
Image<float> load_dark(const std::string& path, const GainTransform& transform, bool tiff_flip_y, index_t frame_width,
                       index_t frame_height);

/// @brief True for a Thermo Fisher `.gain` file (already multiplicative for EER movies).
bool is_thermo_gain_file(const std::string& path);

/// @brief Input error naming `path` when the image holds NaN or Inf (Xmipp rejects such gains).
void check_finite(View<const float> image, const std::string& what, const std::string& path);

/// @brief Input error naming `path` when a gain reference holds a negative value or no positive
/// one (an all-zero gain would make every pixel a defect and the micrograph zero).
void check_gain_values(View<const float> gain, const std::string& path);

/// @brief Input error unless a reference of width x height (after `transform`) matches the
/// frames. The message names both sizes and, when the sizes are swapped, the rotation to try.
void check_reference_size(const std::string& what, const std::string& path, index_t width, index_t height,
                          index_t frame_width, index_t frame_height, const GainTransform& transform);

/// @brief An EER count reference turned into a multiplier: mean / value, where the mean is over
/// the non-zero pixels; pixels of value 0 get gain 0 (defects).
Image<float> eer_counts_to_gain(View<const float> counts);

/// @brief An EER reference brought to the render grid by an integer factor f in {2, 4}: a finer
/// grid replicates each pixel f x f; a coarser grid sums f x f blocks (`sum_blocks`, count
/// references) or averages them (multipliers). Input error naming `path` for other ratios.
Image<float> resize_eer_reference(View<const float> ref, index_t frame_width, index_t frame_height, bool sum_blocks,
                                  const std::string& path);

/// @brief 1/g in place; 0 stays 0.
void invert_gain(Image<float>& gain);

} // namespace frost::motion
