#pragma once
/// @file reconstruct.hpp
/// @brief The reconstruction pipeline: loaders prepare batches of samples
/// (docs/reconstruct_fourier.md#sample-preparation) and hand them to an accumulator (CPU or CUDA),
/// which returns folded half grids; finalise() makes the map. Used by frost_reconstruct_fourier,
/// the benchmark and the tests.
#include <functional>
#include <memory>
#include <vector>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/image.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/particle.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost {
class Progress;
}

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Reads the image of a particle into `out` (resized by the callee to N x N). Called from
/// several threads at once: it must be thread-safe.
using ImageLoader = std::function<void(const ParticleRecord& particle, Image<float>& out)>;

/// Seconds spent per phase (summed over loader threads for load and prepare).
struct PhaseTimes {
  double load = 0, prepare = 0, insert = 0, finish = 0, symmetrise = 0, reduce = 0, finalise = 0, write = 0;
};

struct AccumulateOptions {
  int buffer_size = 25;        ///< images per batch (--bufferSize)
  int threads = 0;             ///< CPU threads for loading and preparing (0 = frost::num_threads())
  int grids = 1;               ///< 1, or 2 for half maps (particle.subset picks the grid)
  Progress* progress = nullptr;///< advanced by one per image
};

/// @brief Prepares and inserts `particles` with `accumulator` and returns one folded half grid
/// per grid (its kx = 0 plane not yet made Hermitian; see finalise). Symmetry follows
/// plan_symmetry(group, settings.sym_mode): each image is inserted with the plan's elements and
/// each grid is then summed over the plan's grid rotations (accumulator.symmetrise). With grids = 2, particles with subset 2 go to
/// grid 1 and all others to grid 0. Particles with weight 0 are skipped when
/// settings.use_weights. Throws what the loader throws (the first error wins, others stop).
std::vector<HalfGrid> accumulate(const ReconstructionSettings& settings, const GridLayout& layout,
                                 const geom::SymmetryGroup& group,
                                 const std::vector<ParticleRecord>& particles, const ImageLoader& load,
                                 GridAccumulator& accumulator, const AccumulateOptions& options,
                                 PhaseTimes* times = nullptr);

/// @brief Convenience for tests and demos: reconstructs images held in memory (image i of
/// `stack` belongs to particles[i]) on the CPU and returns the map.
Image<Real> reconstruct_cpu(const ReconstructionSettings& settings, const geom::SymmetryGroup& group,
                             View<const float> stack, const std::vector<ParticleRecord>& particles,
                             int buffer_size = 25);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
