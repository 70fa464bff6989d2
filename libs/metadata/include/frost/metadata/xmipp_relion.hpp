#pragma once
/// @file xmipp_relion.hpp
/// @brief The Xmipp ↔ RELION mapping of poses, shifts and labels (docs/formats.md#xmipp-and-relion-mapping).
///
/// Both programs use ZYZ Euler angles with the same matrix convention, so angles carry over
/// unchanged. Xmipp shifts are pixels, RELION ≥ 3.1 origins are Å, same sign. Xmipp's `flip`
/// (mirror) has no RELION equivalent and is folded into the pose first. These rules are for
/// projection (3-D) alignments; for pure 2-D classification Scipion negates psi instead.
#include <optional>
#include <string_view>
#include <vector>

#include "frost/metadata/block.hpp"

namespace frost::meta {

/// @brief An Xmipp pose: angles in degrees, shifts in pixels.
struct XmippPose {
  double rot = 0, tilt = 0, psi = 0;
  double shift_x = 0, shift_y = 0, shift_z = 0;
  bool flip = false;
};

/// @brief A RELION ≥ 3.1 pose: angles in degrees, origin offsets in Å.
struct RelionPose {
  double rot = 0, tilt = 0, psi = 0;
  double origin_x_angst = 0, origin_y_angst = 0, origin_z_angst = 0;
};

/// @brief Folds a mirror into the pose: flip = 1 → tilt + 180, psi → −psi, shiftX → −shiftX,
/// flip = 0. A pose without flip is returned unchanged.
XmippPose unflip(const XmippPose& pose) noexcept;
/// @brief Xmipp → RELION: unflip, then origin [Å] = shift [px] · pixel size (same sign).
RelionPose xmipp_to_relion(const XmippPose& pose, double pixel_size);
/// @brief RELION → Xmipp: shift [px] = origin [Å] / pixel size, flip = 0.
XmippPose relion_to_xmipp(const RelionPose& pose, double pixel_size);

/// @brief The RELION label of an Xmipp label (angleRot → rlnAngleRot, shiftX →
/// rlnOriginXAngst, itemId → rlnImageId ...), or nothing when there is no equivalent.
std::optional<std::string_view> relion_label_for(std::string_view xmipp_label) noexcept;
/// @brief The Xmipp label of a RELION label (rlnOriginX of RELION 3.0 also maps to shiftX).
std::optional<std::string_view> xmipp_label_for(std::string_view relion_label) noexcept;

/// @brief Current Xmipp name of a legacy alias (CTF_Defocus_U → ctfDefocusU, CTFModel →
/// ctfModel, rot → angleRot, Xoff → shiftX ...); other labels are returned unchanged.
std::string_view canonical_xmipp_label(std::string_view label) noexcept;
/// @brief Renames legacy aliases in `block` to their current names (unless that name is
/// already present).
void canonicalize_xmipp_labels(Block& block);

/// @brief An Xmipp particle table as a RELION ≥ 3.1 particle table: rows with enabled = −1
/// are dropped, flips folded into the poses (the flip column is removed), shifts turned into
/// Å with `pixel_size`, mapped labels renamed, ctfQ0 made positive, unknown labels kept.
Block xmipp_to_relion(const Block& xmipp, double pixel_size);
/// @brief A RELION particle table (3.0 or later) as an Xmipp one: rlnOriginX/YAngst divided by
/// the pixel size of each row (or rlnOriginX/Y of 3.0, already in pixels), mapped labels
/// renamed, unknown labels kept. `pixel_sizes` has one value per row.
Block relion_to_xmipp(const Block& relion, const std::vector<double>& pixel_sizes);
Block relion_to_xmipp(const Block& relion, double pixel_size);

} // namespace frost::meta
