#pragma once
/// @file support.hpp
/// @brief Shared helpers for frost's googletest suites.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "frost/core/device.hpp"
#include "frost/core/image.hpp"

namespace frost::test {

/// Root of the shared real test data: $FROST_TEST_DATA, else the configured default
/// (`../shared/data` beside the checkout).
std::string data_root();
/// Full path of `relative` under data_root(), or "" when the file is absent.
std::string data_file(const std::string& relative);

/// A fresh empty directory under the system temp dir, removed with its contents at destruction.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

/// Sets (value) or unsets (nullptr) an environment variable for the scope, restoring the
/// previous value.
class EnvVar {
public:
  EnvVar(const char* name, const char* value);
  ~EnvVar();
  EnvVar(const EnvVar&) = delete;
  EnvVar& operator=(const EnvVar&) = delete;

private:
  const char* name_;
  std::optional<std::string> old_;
};

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<std::complex<T>> : std::true_type {};
template <class T>
std::complex<long double> as_complex_ld(const T& v) {
  if constexpr (is_complex<T>::value)
    return {static_cast<long double>(v.real()), static_cast<long double>(v.imag())};
  else
    return {static_cast<long double>(v), 0.0L};
}

/// Deterministic uniform random floats in [lo, hi).
std::vector<float> random_floats(std::size_t n, std::uint32_t seed, float lo = -1.f, float hi = 1.f);

/// An image of deterministic uniform random values in [-1, 1).
template <class T>
Image<T> random_image(Shape s, std::uint32_t seed) {
  Image<T> img(s);
  const auto f = random_floats(static_cast<std::size_t>(s.total()), seed);
  for (index_t i = 0; i < s.total(); ++i) img[i] = static_cast<T>(f[static_cast<std::size_t>(i)]);
  return img;
}

/// ||a - b||_2 / ||b||_2 over n values, real or complex, summed in long double (b is the
/// reference; ||a - b||_2 when b is zero). The one relative error of frost's tests.
template <class A, class B>
double relative_l2(const A* a, const B* b, std::size_t n) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (is_complex<A>::value || is_complex<B>::value) {
      const std::complex<long double> ca = as_complex_ld(a[i]), cb = as_complex_ld(b[i]);
      num += std::norm(ca - cb);
      den += std::norm(cb);
    } else {
      const long double d = static_cast<long double>(a[i]) - static_cast<long double>(b[i]);
      num += d * d;
      den += static_cast<long double>(b[i]) * static_cast<long double>(b[i]);
    }
  }
  return den > 0 ? static_cast<double>(std::sqrt(num / den)) : static_cast<double>(std::sqrt(num));
}
/// relative_l2 over the elements of two arrays of one shape.
template <class A, class B>
double relative_l2(View<const A> a, View<const B> b) {
  EXPECT_EQ(a.shape.total(), b.shape.total()) << "relative_l2 of arrays of different sizes";
  return relative_l2(a.data, b.data, static_cast<std::size_t>(std::min(a.shape.total(), b.shape.total())));
}
template <class A, class B>
double relative_l2(const Image<A>& a, const Image<B>& b) {
  return relative_l2(a.cview(), b.cview());
}

/// Reason a CUDA test must skip here, or "" when a GPU can be used.
std::string gpu_unavailable_reason();

/// True when FROST_REQUIRE_GPU_TESTS=1: GPU tests must run, so an unusable GPU is a failure
/// (scripts/device_check.sh sets it on the GPU machine).
bool gpu_tests_required();

} // namespace frost::test

/// Declares `var` as the full path of a shared test file, or skips the test with the reason.
#define FROST_REQUIRE_DATA(var, relative)                                                           \
  const std::string var = ::frost::test::data_file(relative);                                      \
  if (var.empty()) GTEST_SKIP() << "test data '" << (relative) << "' not found under "             \
                                << ::frost::test::data_root() << " (set FROST_TEST_DATA)"

/// Skips the current test with the reason when no CUDA device can be used (fails instead when
/// gpu_tests_required()).
#define FROST_REQUIRE_GPU()                                                               \
  do {                                                                                    \
    const std::string frost_why_ = ::frost::test::gpu_unavailable_reason();               \
    if (!frost_why_.empty()) {                                                            \
      if (::frost::test::gpu_tests_required()) FAIL() << "GPU required: " << frost_why_;  \
      GTEST_SKIP() << frost_why_;                                                         \
    }                                                                                     \
  } while (0)
