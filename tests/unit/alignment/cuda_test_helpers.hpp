#pragma once
// Small helpers of the CUDA alignment tests (device buffers from and to vectors, error measures).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"

namespace frost::align::test_helpers {

using cuda::DeviceBuffer;

inline double angle_error(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 360.0);
  return std::min(d, 360.0 - d);
}

inline std::vector<float> random_image(int x, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<float> v(std::size_t(x) * x);
  for (float& p : v) p = g(rng);
  return v;
}

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& h) {
  DeviceBuffer<T> d(h.size());
  d.upload_async(h.data(), h.size(), nullptr);
  FROST_CUDA_CHECK(cudaDeviceSynchronize());
  return d;
}
template <class T>
std::vector<T> download(const DeviceBuffer<T>& d) {
  std::vector<T> h(d.size());
  d.download_async(h.data(), h.size(), nullptr);
  FROST_CUDA_CHECK(cudaDeviceSynchronize());
  return h;
}

inline double max_rel(const std::vector<float>& a, const std::vector<float>& b) {
  double err = 0, mag = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    err = std::max(err, std::abs(double(a[i]) - b[i]));
    mag = std::max(mag, std::abs(double(b[i])));
  }
  return mag > 0 ? err / mag : err;
}

} // namespace frost::align::test_helpers
