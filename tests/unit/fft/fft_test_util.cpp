// Brute-force references and layout helpers for the frost::fft suites.
#include "fft_test_util.hpp"

#include <algorithm>
#include <cmath>

namespace frost::fft::test_util {

namespace {

constexpr double kPi = 3.14159265358979323846;

/// exp(sign * 2 pi i * m / n) for m = 0..n-1 (index products are reduced modulo n).
std::vector<cd> twiddles(index_t n, int sign) {
  std::vector<cd> w(static_cast<std::size_t>(n));
  for (index_t m = 0; m < n; ++m) {
    const double a = sign * 2.0 * kPi * static_cast<double>(m) / static_cast<double>(n);
    w[static_cast<std::size_t>(m)] = cd(std::cos(a), std::sin(a));
  }
  return w;
}

template <class T>
double rel_l2_pairs(const float* a, const T* ref, std::size_t n) {
  return test::relative_l2(a, ref, n);
}

} // namespace

std::vector<cd> direct_dft(const std::vector<cd>& in, index_t nx, index_t ny, index_t nz, int sign) {
  const auto wx = twiddles(nx, sign), wy = twiddles(ny, sign), wz = twiddles(nz, sign);
  std::vector<cd> out(in.size());
  for (index_t kz = 0; kz < nz; ++kz)
    for (index_t ky = 0; ky < ny; ++ky)
      for (index_t kx = 0; kx < nx; ++kx) {
        cd sum = 0;
        for (index_t z = 0; z < nz; ++z)
          for (index_t y = 0; y < ny; ++y) {
            const cd wyz = wz[(kz * z) % nz] * wy[(ky * y) % ny];
            for (index_t x = 0; x < nx; ++x)
              sum += in[static_cast<std::size_t>((z * ny + y) * nx + x)] * wyz * wx[(kx * x) % nx];
          }
        out[static_cast<std::size_t>((kz * ny + ky) * nx + kx)] = sum;
      }
  return out;
}

std::vector<cd> direct_r2c(const std::vector<double>& real, const FftSpec& s) {
  const index_t n = s.signal_elements(), h = s.x / 2 + 1;
  std::vector<cd> half;
  for (index_t b = 0; b < s.batch; ++b) {
    std::vector<cd> sig(real.begin() + b * n, real.begin() + (b + 1) * n);
    const auto full = direct_dft(sig, s.x, s.y, s.z, -1);
    for (index_t zy = 0; zy < s.y * s.z; ++zy)
      for (index_t kx = 0; kx < h; ++kx) half.push_back(full[static_cast<std::size_t>(zy * s.x + kx)]);
  }
  return half;
}

std::vector<double> direct_c2r(const std::vector<cd>& half, const FftSpec& s) {
  const index_t h = s.x / 2 + 1, nh = h * s.y * s.z;
  std::vector<double> real;
  for (index_t b = 0; b < s.batch; ++b) {
    auto H = [&](index_t kx, index_t ky, index_t kz) {
      return half[static_cast<std::size_t>(b * nh + (kz * s.y + ky) * h + kx)];
    };
    // Rebuild the full spectrum from Hermitian symmetry F(-k) = conj F(k).
    std::vector<cd> full(static_cast<std::size_t>(s.signal_elements()));
    for (index_t kz = 0; kz < s.z; ++kz)
      for (index_t ky = 0; ky < s.y; ++ky)
        for (index_t kx = 0; kx < s.x; ++kx)
          full[static_cast<std::size_t>((kz * s.y + ky) * s.x + kx)] =
              kx < h ? H(kx, ky, kz) : std::conj(H(s.x - kx, (s.y - ky) % s.y, (s.z - kz) % s.z));
    for (const cd& v : direct_dft(full, s.x, s.y, s.z, +1)) real.push_back(v.real());
  }
  return real;
}

std::vector<cd> direct_c2c(const std::vector<cd>& in, const FftSpec& s) {
  const index_t n = s.signal_elements();
  const int sign = s.direction == Direction::Forward ? -1 : +1;
  std::vector<cd> out;
  for (index_t b = 0; b < s.batch; ++b) {
    std::vector<cd> sig(in.begin() + b * n, in.begin() + (b + 1) * n);
    for (const cd& v : direct_dft(sig, s.x, s.y, s.z, sign)) out.push_back(v);
  }
  return out;
}

std::vector<float> pad_rows(const std::vector<float>& dense, const FftSpec& s) {
  const index_t row = 2 * (s.x / 2 + 1), rows = s.y * s.z * s.batch;
  std::vector<float> padded(static_cast<std::size_t>(row * rows), 0.f);
  for (index_t r = 0; r < rows; ++r)
    for (index_t x = 0; x < s.x; ++x)
      padded[static_cast<std::size_t>(r * row + x)] = dense[static_cast<std::size_t>(r * s.x + x)];
  return padded;
}

std::vector<float> unpad_rows(const std::vector<float>& padded, const FftSpec& s) {
  const index_t row = 2 * (s.x / 2 + 1), rows = s.y * s.z * s.batch;
  std::vector<float> dense(static_cast<std::size_t>(s.x * rows));
  for (index_t r = 0; r < rows; ++r)
    for (index_t x = 0; x < s.x; ++x)
      dense[static_cast<std::size_t>(r * s.x + x)] = padded[static_cast<std::size_t>(r * row + x)];
  return dense;
}

std::vector<double> to_double(const std::vector<float>& v) { return {v.begin(), v.end()}; }
std::vector<cd> to_double(const std::vector<Complex>& v) { return {v.begin(), v.end()}; }
std::vector<Complex> to_float(const std::vector<cd>& v) {
  std::vector<Complex> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    r[i] = Complex(static_cast<float>(v[i].real()), static_cast<float>(v[i].imag()));
  return r;
}

std::vector<Complex> random_complex(std::size_t n, std::uint32_t seed) {
  const auto f = test::random_floats(2 * n, seed);
  std::vector<Complex> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = Complex(f[2 * i], f[2 * i + 1]);
  return r;
}

// std::complex<T> is array-compatible with T[2], so complex vectors compare as real pairs.
double rel_l2(const std::vector<Complex>& a, const std::vector<cd>& ref) {
  EXPECT_EQ(a.size(), ref.size());
  return rel_l2_pairs(reinterpret_cast<const float*>(a.data()), reinterpret_cast<const double*>(ref.data()),
                      2 * std::min(a.size(), ref.size()));
}
double rel_l2(const std::vector<Complex>& a, const std::vector<Complex>& ref) {
  EXPECT_EQ(a.size(), ref.size());
  return rel_l2_pairs(reinterpret_cast<const float*>(a.data()), reinterpret_cast<const float*>(ref.data()),
                      2 * std::min(a.size(), ref.size()));
}
double rel_l2(const std::vector<float>& a, const std::vector<double>& ref) {
  EXPECT_EQ(a.size(), ref.size());
  return rel_l2_pairs(a.data(), ref.data(), std::min(a.size(), ref.size()));
}
double rel_l2(const std::vector<float>& a, const std::vector<float>& ref) {
  EXPECT_EQ(a.size(), ref.size());
  return rel_l2_pairs(a.data(), ref.data(), std::min(a.size(), ref.size()));
}

} // namespace frost::fft::test_util
