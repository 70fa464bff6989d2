#pragma once
/// @file synthetic_problem.hpp
/// @brief Deterministic synthetic input for benchmarks and kernel tuning: images of a few
/// Gaussian blobs, poses uniform on the sphere, and a prepared batch of them (the data the
/// insertion kernel sees in a real run, without files). frost_bench_reconstruction and
/// frost_tune share it so that both time the same work.
#include <cstdint>
#include <vector>

#include "frost/core/host_buffer.hpp"
#include "frost/core/image.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/particle.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/reconstruction/sample_batch.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {

/// `count` box x box images, each the sum of six Gaussian blobs (width box / 32, at least one
/// pixel) at random positions within the central half; seeded by the box size.
std::vector<Image<float>> synthetic_images(int box, int count);

/// `count` poses uniform on the sphere with a uniform in-plane angle (row = index).
std::vector<ParticleRecord> synthetic_particles(long long count, std::uint32_t seed);

/// The loader of a synthetic run: particle p reads images[p.row % images.size()] (`images`
/// must outlive the loader).
ImageLoader synthetic_loader(const std::vector<Image<float>>& images);

/// One prepared batch (spectra and traverse spaces for every element of `group`) of the first
/// min(buffer, particles.size()) particles, image i taken from images[i % images.size()].
SampleBatch prepared_batch(const ReconstructionSettings& s, const GridLayout& layout, const geom::SymmetryGroup& group,
                           const std::vector<Image<float>>& images, const std::vector<ParticleRecord>& particles,
                           int buffer, HostMemory mem);

} // namespace frost::recon
