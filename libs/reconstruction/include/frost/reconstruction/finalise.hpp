#pragma once
/// @file finalise.hpp
/// @brief From a folded half grid to the map (steps 3-7 of docs/reconstruct_fourier.md#finalisation):
/// Hermitian kx = 0 plane, division G/W, placement into the FFT layout of the padded volume,
/// unnormalised inverse 3-D FFT, crop to N^3, gridding correction.
#include <cstddef>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/image.hpp"
#include "frost/fft/spec.hpp"
#include "frost/reconstruction/grid.hpp"
#include "frost/reconstruction/settings.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// W below this is treated as no data (Xmipp ACCURACY).
inline constexpr double kMinWeight = 0.001;

/// Where the inverse 3-D FFT of the finalisation runs. The division and corrections stay on
/// the host; with Cuda the half spectrum goes up in chunks of planes through a pinned buffer,
/// is transformed in place with cuFFT, and only the rows of the N^3 crop come down (the GPU
/// needs P^3 floats free), which pays for large P.
struct FinaliseOptions {
  fft::Backend backend = fft::Backend::Cpu;
  int device = 0;                                    ///< CUDA device for Backend::Cuda
  std::size_t upload_chunk_bytes = std::size_t(64) << 20; ///< pinned staging of the upload (tests use less)
};

/// @brief The N^3 map (centre at floor(N/2)) from a half grid that holds the sum of every
/// partial grid. `grid` is symmetrised on the kx = 0 plane in place. The double build computes
/// in double throughout (inverse FFT included) and supports the CPU backend only.
Image<Real> finalise(HalfGrid& grid, const ReconstructionSettings& settings, const GridLayout& layout,
                      const FinaliseOptions& options = {});

/// The folded weights as a float volume of (M/2+1) x (M+1) x (M+1) for `--save_weights`.
Image<float> weights_volume(const HalfGrid& grid);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
