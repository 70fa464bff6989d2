#pragma once
/// @file scatter_reference.hpp
/// @brief Test-only scatter insertion (docs/reconstruct_fourier.md#scatter-reference): loops over the sample
/// pixels and adds each into every voxel within the kernel radius. Same kernel table and the
/// same sample preparation as the library; independent of traverse spaces and the gather.
#include <vector>

#include "frost/core/image.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/particle.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::test {

/// @brief Scatters one half-plane sample (fy rows of fx values) into `grid`: pixel (kx, ky)
/// lands at q = a_sl (kx, ky, 0) + M/2 and every voxel v with |v - q| <= a and |v - M/2| <= fx + a
/// gets w K(|v - q|) num F in G and w K(|v - q|) den in W. `num` and `den` are the per-pixel CTF
/// CTF factors (null = 1): m c and m in invert mode, CTF and CTF^2 in Wiener mode.
void scatter_sample(const fft::Complex* spectrum, const float* num, const float* den, float weight,
                    const geom::Mat3d& a_sl, const recon::GridLayout& layout, const recon::BlobTable& table,
                    recon::FullGrid& grid);

/// @brief Precise CPU reconstruction with the scatter instead of the gather: image i of `stack`
/// belongs to particles[i]; inserted at R A^T for every group element R; then fold and finalise.
/// The spectra come from SamplePreparer::transform; the CTF factors are computed here from the
/// formulas of docs/reconstruct_fourier.md#ctf-modes (modes None, Invert and plain Wiener; not the
/// Wiener or phase-flip variants).
Image<float> reconstruct_scatter(const recon::ReconstructionSettings& settings, const geom::SymmetryGroup& group,
                                 const Image<float>& stack, const std::vector<recon::ParticleRecord>& particles);

} // namespace frost::test
