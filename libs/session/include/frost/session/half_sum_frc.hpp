#pragma once
/// @file half_sum_frc.hpp
/// @brief The FRC between the aligned sums of the even and the odd frames, and where it falls
/// below 0.143: a CTF-free quality number for every micrograph (docs/session.md#half-sum-frc).
#include <vector>

#include "frost/core/image.hpp"

namespace frost::session {

struct FrcCurve {
  std::vector<double> frc;       ///< per shell 0 .. min(nx, ny) / 2
  std::vector<double> frequency; ///< shell centre in 1/Å
  double pixel_size_A = 1;
  int rings = 0;                 ///< min(nx, ny): shell s is at s / rings cycles per pixel
};

/// The Fourier ring correlation of two images of one shape (x fastest; the first plane is used),
/// Re(sum A conj(B)) / sqrt(sum |A|^2 sum |B|^2) over shells of width 1 / min(nx, ny) cycles
/// per pixel, with frequencies scaled per axis (non-square images). frost::fft does the
/// transforms: FFTW, or cuFFT on GPU `gpu` when gpu >= 0 (the images are copied there and the
/// spectra back; the shell sums stay on the host). frost::Error(Runtime) when the shapes differ or
/// an image is smaller than 8 x 8; frost::Error(Device) from the GPU.
FrcCurve fourier_ring_correlation(View<const float> a, View<const float> b, double pixel_size_A, int gpu = -1);

/// The resolution in Å where `curve` first falls below `threshold` after shell 0, interpolated
/// linearly between the shells around the crossing; 2 * pixel size (Nyquist) when it never does.
double frc_resolution(const FrcCurve& curve, double threshold = 0.143);

/// frc_resolution(fourier_ring_correlation(even, odd, pixel_size_A, gpu), 0.143).
double half_sum_frc_resolution(View<const float> even_sum, View<const float> odd_sum, double pixel_size_A,
                               int gpu = -1);

} // namespace frost::session
