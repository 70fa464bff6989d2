#pragma once
// The half spectrum of a real image and its rings, shared by the FRC and the dose-weighting check
// (docs/session.md#half-sum-frc).
#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/core/threads.hpp"

namespace frost::session::detail {

/// The R2C half spectrum (nx/2+1 by ny, x fastest) of the first plane of `image`, transformed
/// by FFTW, or by cuFFT on GPU `gpu` when gpu >= 0 (through frost::fft's buffers: no CUDA here).
std::vector<std::complex<float>> half_spectrum(View<const float> image, int gpu = -1);

/// Rows of the half spectrum are summed in this many fixed blocks, each on one thread, and the
/// blocks' sums are added in block order: the result does not depend on the thread count.
constexpr int kRingBlocks = 64;

/// Calls f(block, i, frequency, weight) for every element i of the half spectrum of an nx x ny
/// image, with its frequency in cycles per pixel, scaled per axis (sqrt((kx/nx)^2 + (ky/ny)^2)),
/// and its weight: 2 for columns whose conjugate is not stored, 1 for kx = 0 and (even nx)
/// kx = nx/2. Blocks of rows run in parallel; f must only touch its block's sums.
template <class F>
void for_each_ring_element(index_t nx, index_t ny, F&& f) {
  const index_t hx = nx / 2 + 1;
  const index_t rows_per_block = (ny + kRingBlocks - 1) / kRingBlocks;
#pragma omp parallel for num_threads(num_threads()) schedule(dynamic, 1)
  for (int b = 0; b < kRingBlocks; ++b) {
    const index_t y0 = b * rows_per_block, y1 = std::min(ny, y0 + rows_per_block);
    for (index_t y = y0; y < y1; ++y) {
      const double ky = static_cast<double>(y <= ny / 2 ? y : y - ny) / static_cast<double>(ny);
      for (index_t x = 0; x < hx; ++x) {
        const double kx = static_cast<double>(x) / static_cast<double>(nx);
        const double weight = (x == 0 || (nx % 2 == 0 && x == nx / 2)) ? 1.0 : 2.0;
        f(b, static_cast<std::size_t>(y * hx + x), std::sqrt(kx * kx + ky * ky), weight);
      }
    }
  }
}

} // namespace frost::session::detail
