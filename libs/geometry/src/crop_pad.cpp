#include "frost/geometry/crop_pad.hpp"

#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/geometry/fourier_shift.hpp"

namespace frost::geom {

// ---------------------------------------------------------------------------------------------
// Real space
// ---------------------------------------------------------------------------------------------

template <class T>
void crop_pad(View<const T> in, View<T> out, T fill) {
  FROST_EXPECTS(in.shape.n == out.shape.n, "crop_pad: input and output item counts differ");
  const Shape& a = in.shape;
  const Shape& b = out.shape;
  // Output index i sits over input index i + off (centres a/2 and b/2 coincide).
  const index_t offx = a.x / 2 - b.x / 2, offy = a.y / 2 - b.y / 2, offz = a.z / 2 - b.z / 2;
  const index_t rows = b.y * b.z * b.n;
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t row = 0; row < rows; ++row) {
    const index_t y = row % b.y, z = (row / b.y) % b.z, n = row / (b.y * b.z);
    T* dst = out.data + row * b.x;
    const index_t iy = y + offy, iz = z + offz;
    if (iy < 0 || iy >= a.y || iz < 0 || iz >= a.z) {
      for (index_t x = 0; x < b.x; ++x) dst[x] = fill;
      continue;
    }
    const T* src = in.data + a.index(0, iy, iz, n);
    for (index_t x = 0; x < b.x; ++x) {
      const index_t ix = x + offx;
      dst[x] = (ix >= 0 && ix < a.x) ? src[ix] : fill;
    }
  }
}

template <class T>
Image<T> crop_pad(View<const T> in, index_t nx, index_t ny, index_t nz, T fill) {
  Image<T> out(Shape::volume(nx, ny, nz, in.shape.n));
  crop_pad<T>(in, out.view(), fill);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fourier space
// ---------------------------------------------------------------------------------------------

namespace {

/// Up to two (input frequency, weight) contributions to one output index along one axis.
struct Taps {
  index_t k[2] = {0, 0};
  double w[2] = {0, 0};
  int count = 0;
};

/// Contributions to output index j (axis of m output samples, n input samples); the rules are
/// the ones in crop_pad.hpp.
Taps axis_taps(index_t j, index_t m, index_t n) {
  Taps t;
  const index_t k = fft_frequency(j, m);
  if (m == n) {
    t.k[0] = k, t.w[0] = 1.0, t.count = 1;
  } else if (m < n) {
    if (m % 2 == 0 && j == m / 2) {  // output Nyquist gathers both input frequencies ±m/2
      t.k[0] = m / 2, t.w[0] = 1.0;
      t.k[1] = -m / 2, t.w[1] = 1.0;
      t.count = 2;
    } else {
      t.k[0] = k, t.w[0] = 1.0, t.count = 1;
    }
  } else {
    const index_t ak = k < 0 ? -k : k;
    if (ak <= (n - 1) / 2) {
      t.k[0] = k, t.w[0] = 1.0, t.count = 1;
    } else if (n % 2 == 0 && ak == n / 2) {  // input Nyquist split between +n/2 and −n/2
      t.k[0] = n / 2, t.w[0] = 0.5, t.count = 1;
    }
  }
  return t;
}

} // namespace

template <class T>
void fourier_crop_pad(View<const std::complex<T>> in, Shape in_real, View<std::complex<T>> out, Shape out_real) {
  const Shape hi = in_real.half_spectrum(), ho = out_real.half_spectrum();
  FROST_EXPECTS(in.shape.x == hi.x && in.shape.y == hi.y && in.shape.z == hi.z,
                "fourier_crop_pad: input " + to_string(in.shape) + " is not the half spectrum of " +
                    to_string(in_real));
  FROST_EXPECTS(out.shape.x == ho.x && out.shape.y == ho.y && out.shape.z == ho.z,
                "fourier_crop_pad: output " + to_string(out.shape) + " is not the half spectrum of " +
                    to_string(out_real));
  FROST_EXPECTS(in.shape.n == out.shape.n, "fourier_crop_pad: input and output item counts differ");

  std::vector<Taps> tx(static_cast<std::size_t>(ho.x)), ty(static_cast<std::size_t>(ho.y)),
      tz(static_cast<std::size_t>(ho.z));
  for (index_t j = 0; j < ho.x; ++j) tx[static_cast<std::size_t>(j)] = axis_taps(j, out_real.x, in_real.x);
  for (index_t j = 0; j < ho.y; ++j) ty[static_cast<std::size_t>(j)] = axis_taps(j, out_real.y, in_real.y);
  for (index_t j = 0; j < ho.z; ++j) tz[static_cast<std::size_t>(j)] = axis_taps(j, out_real.z, in_real.z);

  const index_t rows = ho.y * ho.z * out.shape.n;
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t row = 0; row < rows; ++row) {
    const index_t jy = row % ho.y, jz = (row / ho.y) % ho.z, item = row / (ho.y * ho.z);
    const Taps& ay = ty[static_cast<std::size_t>(jy)];
    const Taps& az = tz[static_cast<std::size_t>(jz)];
    const std::complex<T>* src = in.data + item * hi.x * hi.y * hi.z;
    std::complex<T>* dst = out.data + row * ho.x;
    for (index_t jx = 0; jx < ho.x; ++jx) {
      const Taps& ax = tx[static_cast<std::size_t>(jx)];
      std::complex<double> acc = 0.0;
      for (int a = 0; a < ax.count; ++a)
        for (int b = 0; b < ay.count; ++b)
          for (int c = 0; c < az.count; ++c) {
            index_t kx = ax.k[a], ky = ay.k[b], kz = az.k[c];
            bool conjugate = false;
            if (kx < 0) {  // not stored: F(k) = conj(F(−k)) for a real image
              kx = -kx, ky = -ky, kz = -kz;
              conjugate = true;
            }
            const std::complex<T> v = src[(periodic_index(kz, in_real.z) * hi.y + periodic_index(ky, in_real.y)) * hi.x + kx];
            const std::complex<double> vd(v.real(), conjugate ? -v.imag() : v.imag());
            acc += (ax.w[a] * ay.w[b] * az.w[c]) * vd;
          }
      dst[jx] = std::complex<T>(static_cast<T>(acc.real()), static_cast<T>(acc.imag()));
    }
  }
}

template <class T>
Image<std::complex<T>> fourier_crop_pad(View<const std::complex<T>> in, Shape in_real, Shape out_real) {
  Shape h = out_real.half_spectrum();
  h.n = in.shape.n;
  Image<std::complex<T>> out(h);
  fourier_crop_pad<T>(in, in_real, out.view(), out_real);
  return out;
}

template void crop_pad<float>(View<const float>, View<float>, float);
template void crop_pad<double>(View<const double>, View<double>, double);
template Image<float> crop_pad<float>(View<const float>, index_t, index_t, index_t, float);
template Image<double> crop_pad<double>(View<const double>, index_t, index_t, index_t, double);
template void fourier_crop_pad<float>(View<const std::complex<float>>, Shape, View<std::complex<float>>, Shape);
template void fourier_crop_pad<double>(View<const std::complex<double>>, Shape, View<std::complex<double>>, Shape);
template Image<std::complex<float>> fourier_crop_pad<float>(View<const std::complex<float>>, Shape, Shape);
template Image<std::complex<double>> fourier_crop_pad<double>(View<const std::complex<double>>, Shape, Shape);

} // namespace frost::geom
