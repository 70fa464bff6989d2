#pragma once
// The Xmipp layout of the alignment (docs/movie_align.md#relion-and-xmipp-exports; Xmipp
// storeGlobalShifts and storeResults), written when -o ends in .xmd.
#include <vector>

#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/motion_model.hpp"
#include "movie_facts.hpp"

namespace frost::movie_align {

/// @brief Block frameShifts (one row per movie frame: image `N@movie`, enabled 1/-1, shiftX/Y =
/// shift to apply = -displacement x binning [raw px, relative to the reference frame], weight 1),
/// block referenceFrame (ref = absolute 0-based reference frame) and, with a local model, block
/// localAlignment: patch counts, control points, coefficients of the *total* shift in binned
/// pixels over the binned frame (Xmipp's convention; a residual model is refitted as a total one
/// from the patch measurements, `refit_rmsd` receives that fit's RMSD [binned px]) and the 2.5 /
/// 97.5 % percentiles of the local shift magnitude [binned px].
meta::MetadataFile xmipp_alignment(const MovieFacts& facts, const motion::MotionModel& model,
                                   const motion::LocalAlignment* local, double* refit_rmsd = nullptr);

} // namespace frost::movie_align
