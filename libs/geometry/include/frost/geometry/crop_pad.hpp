#pragma once
/// @file crop_pad.hpp
/// @brief Centred crop/pad of real images and volumes, and Fourier crop/pad of half-complex spectra.
///
/// Real space: RELION/Xmipp centre convention, the centre of an axis of n samples is index
/// n/2 (integer division) for even and odd n. Crop/pad keeps the centres on top of each other:
/// output index i reads input index i − m/2 + n/2 (m output size, n input size); outside the
/// input the output gets `fill`. Each axis is cropped or padded independently.
///
/// Fourier space (layout as in fourier_shift.hpp): the output keeps the frequencies common to
/// both sizes and zeroes the others. An even axis has one Nyquist index that stands for both
/// +n/2 and −n/2, which needs care to keep the spectrum Hermitian (the real image real):
///  * pad, even input n: the input Nyquist value F(n/2) is split in halves between the output
///    indices +n/2 and −n/2 (both exist in the larger output);
///  * crop, even output m: the output Nyquist index receives the sum F(+m/2) + F(−m/2) (along x
///    the −m/2 term is conj(F(m/2, −ky, −kz)), read through Hermitian symmetry).
/// The two are exact inverses (crop ∘ pad = identity), and padding is exact trigonometric
/// interpolation: the padded image passes through the original samples. Values are copied
/// without rescaling; with unnormalised forward transforms multiply by (m/n)^d to keep the
/// real-space amplitudes. crop_pad_test.cpp pins all of this with a direct DFT.
#include <complex>

#include "frost/core/image.hpp"

namespace frost::geom {

/// Centred crop/pad of every item of `in` into `out` (same n; any x, y, z sizes).
template <class T>
void crop_pad(View<const T> in, View<T> out, T fill = T(0));

/// Same, allocating an output of item shape (nx, ny, nz) with in.shape.n items.
template <class T>
Image<T> crop_pad(View<const T> in, index_t nx, index_t ny, index_t nz = 1, T fill = T(0));

/// Fourier crop/pad of every item of the half-complex spectrum `in` of a real array of shape
/// `in_real` into `out`, the half-complex spectrum of a real array of shape `out_real`.
template <class T>
void fourier_crop_pad(View<const std::complex<T>> in, Shape in_real, View<std::complex<T>> out, Shape out_real);

/// Same, allocating the output half spectrum for real item shape `out_real` (its n is ignored).
template <class T>
Image<std::complex<T>> fourier_crop_pad(View<const std::complex<T>> in, Shape in_real, Shape out_real);

extern template void crop_pad<float>(View<const float>, View<float>, float);
extern template void crop_pad<double>(View<const double>, View<double>, double);
extern template Image<float> crop_pad<float>(View<const float>, index_t, index_t, index_t, float);
extern template Image<double> crop_pad<double>(View<const double>, index_t, index_t, index_t, double);
extern template void fourier_crop_pad<float>(View<const std::complex<float>>, Shape, View<std::complex<float>>, Shape);
extern template void fourier_crop_pad<double>(View<const std::complex<double>>, Shape, View<std::complex<double>>,
                                              Shape);
extern template Image<std::complex<float>> fourier_crop_pad<float>(View<const std::complex<float>>, Shape, Shape);
extern template Image<std::complex<double>> fourier_crop_pad<double>(View<const std::complex<double>>, Shape, Shape);

} // namespace frost::geom
