#pragma once
// Sample preparation on the device (--fftOnGPU, docs/reconstruct_fourier.md#cpu-and-gpu-split): the per-pixel
// code of sample_math.hpp around a batched cuFFT R2C. Launchers only; CUDA headers allowed.
#include <cuda_runtime.h>

#include "frost/reconstruction/gather.hpp"

namespace frost::cuda::detail {

/// `count` N x N images (x fastest) into `count` P x P FFT inputs, centred and moved to the
/// origin (recon::padded_source), zeros elsewhere.
void launch_pad_images(const float* images, int count, int N, int P, float* padded, cudaStream_t stream);

/// What the crop kernel needs besides the buffers.
struct CropArgs {
  int count = 0;       ///< images
  int P = 0;           ///< padded size; spectra are P rows of P/2+1 values, one after another
  int fx = 0, fy = 0;  ///< sample layout
  int M = 0;
  double limit = 0;    ///< (fmax P)^2
};

/// `count` unnormalised R2C spectra into samples (recon::shift_ramp, recon::sample_pixel with
/// the shifts (x, y per image) and 1/P^2), multiplied by the CTF factors gf when not null.
void launch_crop_spectra(const recon::Cf* spectra, const double* shifts, const float* gf, const CropArgs& args,
                         recon::Cf* samples, cudaStream_t stream);

} // namespace frost::cuda::detail
