#pragma once
/// @file outputs.hpp
/// @brief The metadata frost_align_significant writes (docs/align_significant.md#main-metadata): the Xmipp
/// .xmd with one row per kept pair, a RELION STAR with the same poses, the CC matrix dump.
#include <string>
#include <vector>

#include "frost/alignment/class_averages.hpp"
#include "frost/alignment/settings.hpp"
#include "frost/alignment/significance.hpp"
#include "frost/metadata/block.hpp"
#include "image_set.hpp"

namespace frost::app {

/// @brief One row per assignment: a copy of the image's input row with enabled, angleRot/Tilt
/// (the reference's), anglePsi (ψ + psi_ref), shiftX/Y, flip, ref, imageIndex (kept when the row
/// has it, else the 1-based position among enabled rows), weight, weightSignificant, maxCC,
/// corrIdx, and `samplingRate` when the pixel size is known. `image` names the image as seen
/// from the folder of `out_path` (meta::location_for_metadata()). `results[r · n_img + i]`.
/// frost::Error(Runtime) naming the image and reference when a value to be written is not finite.
meta::Block result_block(const ImageTable& images, const ReferenceInfo& refs,
                         const std::vector<align::Assignment>& rows, const std::vector<align::PairResult>& results,
                         const std::string& out_path);

/// @brief Writes `block` as Xmipp metadata at `xmd_path` and as a RELION 3.1 particle STAR at
/// `star_path`: the input's data_optics when it has one (else one group), with
/// rlnImagePixelSize = `pixel_size` and rlnImageSize = `box`, origins in Å (shift · pixel size).
/// Both atomically.
void write_results(const meta::Block& block, const std::string& xmd_path, const std::string& star_path,
                   const ImageTable& images, double pixel_size, int box);

/// @brief `--oUpdatedRefs` (docs/align_significant.md#updated-references): the averages as a SPIDER stack `<base>.stk` and `<base>.xmd`
/// with block `classes` (ref, image = k@<base>.stk, classCount) and, per reference with rows,
/// block `class%06d_images` (its rows of `block`, without maxCC); both atomically. `block`
/// holds one row per entry of `rows`, in that order (result_block for `block_path`); its image
/// paths are rewritten for `<base>.xmd`.
void write_updated_references(const std::string& base, const align::ClassAverages& classes, const ReferenceInfo& refs,
                              const meta::Block& block, const std::string& block_path,
                              const std::vector<align::Assignment>& rows);

/// @brief The N_ref × N_img float32 CC matrix, row = reference, raw little-endian, atomically.
void write_cc_matrix(const std::string& path, const std::vector<float>& cc);

} // namespace frost::app
