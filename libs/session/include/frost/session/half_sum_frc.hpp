#pragma once
/// @file half_sum_frc.hpp
/// @brief The FRC between the aligned sums of the even and the odd frames, and where it falls
/// below 0.143: a CTF-free quality number for every micrograph (docs/session.md#half-sum-frc).
#include <vector>

#include "frost/core/image.hpp"
#include "frost/fft/shell_sums.hpp"

namespace frost::session {

struct FrcCurve {
  std::vector<double> frc;       ///< per shell 0 .. min(nx, ny) / 2
  std::vector<double> frequency; ///< shell centre in 1/Å
  double pixel_size_A = 1;
  int rings = 0;                 ///< min(nx, ny): shell s is at s / rings cycles per pixel
};

/// The Fourier ring correlation of two images of one shape (x fastest; the first plane is used),
/// Re(sum A conj(B)) / sqrt(sum |A|^2 sum |B|^2) over the shells of fft::shell_sums() (width
/// 1 / min(nx, ny) cycles per pixel, frequencies scaled per axis for non-square images), with
/// FFTW's transforms. frost::Error(Runtime) when the shapes differ or an image is smaller than 8 x 8.
FrcCurve fourier_ring_correlation(View<const float> a, View<const float> b, double pixel_size_A);

/// The curve of shell sums made elsewhere (the movie render's SumQuality, on the GPU where the
/// sums are made), as fourier_ring_correlation() makes it from its own.
FrcCurve frc_from_shell_sums(const fft::ShellSums& sums, double pixel_size_A);

/// The resolution in Å where `curve` first falls below `threshold` after shell 0, interpolated
/// linearly between the shells around the crossing; 2 * pixel size (Nyquist) when it never does.
double frc_resolution(const FrcCurve& curve, double threshold = 0.143);

/// frc_resolution(fourier_ring_correlation(even, odd, pixel_size_A), 0.143).
double half_sum_frc_resolution(View<const float> even_sum, View<const float> odd_sum, double pixel_size_A);

} // namespace frost::session
