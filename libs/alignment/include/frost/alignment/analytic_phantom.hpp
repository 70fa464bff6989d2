#pragma once
/// @file analytic_phantom.hpp
/// @brief The analytic Gaussian-blob phantom (docs/align_significant.md#analytic-phantom-fixture):
/// projections are evaluated in closed form (no projector, no interpolation), so references
/// and experimental images are exact. Used by the tests, the benchmark and frost_simulate-free
/// demo steps; part of the separate target frost::alignment_fixtures.
#include <cstdint>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/simulate/phantom.hpp"

namespace frost::align {

/// One 3-D Gaussian; lengths in units of the box size X so a phantom renders at any size.
struct PhantomBlob {
  double x = 0, y = 0, z = 0; ///< centre relative to the box centre, |c| ≤ 0.3
  double sigma = 0.05;        ///< standard deviation
  double amplitude = 1;       ///< peak value of the 3-D blob
};

/// "smooth": 12 blobs, σ ∈ [0.04, 0.09]; "sharp": 30 blobs, σ ∈ [0.02, 0.05]; amplitudes in
/// [0.5, 1.5]; centres uniform in the ball of radius 0.3.
enum class PhantomKind { Smooth, Sharp };

/// @brief The fixed blob list of a fixture. Drawn from mt19937 (seed 6 smooth, 2 sharp) with
/// frost's own float conversion, so it is identical with every standard library.
std::vector<PhantomBlob> phantom_blobs(PhantomKind kind);
/// @brief The same draw with another seed (fixture studies).
std::vector<PhantomBlob> phantom_blobs(PhantomKind kind, std::uint32_t seed);

/// @brief Projection at `pose` (Euler ZYZ, docs/align_significant.md#conventions) with the content displaced
/// by (dx, dy) pixels: Σ_k a_k σ_k √(2π) exp(−|p − (E c_k)_xy − d|² / 2σ_k²) at centred pixel coordinates p.
void render_projection(const std::vector<PhantomBlob>& blobs, int x, const geom::EulerAngles& pose, double dx,
                       double dy, float* out);
Image<float> render_projection(const std::vector<PhantomBlob>& blobs, int x, const geom::EulerAngles& pose,
                               double dx = 0, double dy = 0);

/// @brief The same blobs as frost_simulate blobs in pixels of an X³ box (voxelised volume for
/// the volume-mode test; a 3-D Gaussian of peak a projects to a 2-D one of peak a σ √(2π)).
std::vector<sim::Blob> to_simulate_blobs(const std::vector<PhantomBlob>& blobs, int x);

/// @brief Adds white Gaussian noise of variance var(image)/snr (variance over the whole image),
/// deterministic for `seed` (Box–Muller on mt19937, portable).
void add_noise(float* image, std::size_t n, double snr, std::uint32_t seed);

/// @brief A uniform double in [0, 1) from one mt19937 draw pair (53 bits), portable.
double uniform01(std::uint32_t a, std::uint32_t b);

} // namespace frost::align
