// The per-pair estimator on the CPU (docs/align_significant.md#the-per-pair-estimator). Every loop body calls
// the FROST_HD math of include/frost/alignment/math, which the CUDA backend will call from its kernels.
#include "frost/alignment/pair_aligner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "frost/core/error.hpp"
#include "frost/fft/planner.hpp"

namespace frost::align {

namespace {

fft::FftPlan make_plan(const fft::FftSpec& spec, bool measure) {
  fft::PlanOptions o;
  o.threads = 1; // one pair per thread: the parallelism is over pairs, not inside one FFT
  o.rigor = measure ? fft::FftRigor::Measure : fft::FftRigor::Estimate;
  return fft::shared_planner(fft::Backend::Cpu)->plan(spec, o);
}

/// Population mean and standard deviation in double (docs/align_significant.md#determinism-and-precision).
void statistics(const float* p, std::size_t n, double& mean, double& stddev) {
  double s = 0, s2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    s += p[i];
    s2 += double(p[i]) * p[i];
  }
  mean = s / double(n);
  const double var = s2 / double(n) - mean * mean;
  stddev = var > 0 ? std::sqrt(var) : 0.0;
}

} // namespace

CpuPairAligner::CpuPairAligner(int nx, int ny, bool measure) : nx_(nx), ny_(ny) {
  if (nx < 6 || ny < 6 || nx % 2 != 0 || ny % 2 != 0)
    FROST_THROW(ExitCode::Runtime, "pair aligner: images must be even and at least 6 px (got " + std::to_string(nx) +
                                       "x" + std::to_string(ny) + ")");
  const std::size_t pixels = std::size_t(nx) * std::size_t(ny);
  const std::size_t half = std::size_t(nx / 2 + 1) * std::size_t(ny);
  r2c_ = make_plan(fft::FftSpec::r2c(Shape::image(nx, ny)), measure);
  c2r_ = make_plan(fft::FftSpec::c2r(Shape::image(nx, ny)), measure);
  aligned_ = HostBuffer<float>(pixels);
  real_ = HostBuffer<float>(pixels);
  spectrum_ = HostBuffer<fft::Complex>(half);
  if (nx == ny) {
    grid_ = make_polar_grid(nx);
    const int s = grid_.samples;
    ring_r2c_ = make_plan(fft::FftSpec::r2c(Shape{s, 1, 1, grid_.rings()}), measure);
    ring_c2r_ = make_plan(fft::FftSpec::c2r(Shape{s, 1, 1, 1}), measure);
    polar_ = HostBuffer<float>(std::size_t(grid_.rings()) * s);
    polar_spectrum_ = HostBuffer<fft::Complex>(std::size_t(grid_.rings()) * grid_.spectrum());
    ring_sum_ = HostBuffer<fft::Complex>(grid_.spectrum());
    rho_ = HostBuffer<float>(s);
    sin_ = HostBuffer<float>(s);
    cos_ = HostBuffer<float>(s);
    for (int k = 0; k < s; ++k) {
      const double phi = 2.0 * M_PI * k / s;
      sin_[k] = static_cast<float>(std::sin(phi));
      cos_[k] = static_cast<float>(std::cos(phi));
    }
  }
}

void CpuPairAligner::prepare_reference(const float* pixels, ReferenceData& out) {
  const std::size_t n = std::size_t(nx_) * ny_;
  out.pixels = pixels;
  out.spectrum = HostBuffer<fft::Complex>(std::size_t(nx_ / 2 + 1) * ny_);
  r2c_.execute(pixels, out.spectrum.data());
  statistics(pixels, n, out.mean, out.stddev);
  if (grid_.samples > 0) {
    const int s = grid_.samples;
    for (int q = 0; q < grid_.rings(); ++q)
      for (int k = 0; k < s; ++k)
        polar_[std::size_t(q) * s + k] = polar_sample(pixels, grid_, grid_.first_ring + q, sin_[k], cos_[k]);
    out.polar = HostBuffer<fft::Complex>(polar_spectrum_.size());
    ring_r2c_.execute(polar_.data(), out.polar.data());
  }
}

void CpuPairAligner::estimate_shift(const ReferenceData& ref, const float* image, int radius, SubpixelMethod subpixel,
                                    float& dx, float& dy) {
  r2c_.execute(image, spectrum_.data());
  const int hx = nx_ / 2 + 1;
  for (int j = 0; j < ny_; ++j)
    for (int k = 0; k < hx; ++k) {
      const std::size_t e = std::size_t(j) * hx + k;
      float qr, qi;
      shift_product(ref.spectrum[e].real(), ref.spectrum[e].imag(), spectrum_[e].real(), spectrum_[e].imag(), k, j, qr,
                    qi);
      spectrum_[e] = {qr, qi};
    }
  c2r_.execute(spectrum_.data(), real_.data());

  // Integer peak in the disc |d| <= radius, d = (i - nx/2, j - ny/2); ties: lowest linear index.
  const int cx = nx_ / 2, cy = ny_ / 2;
  const long long r2 = static_cast<long long>(radius) * radius;
  int best_i = cx, best_j = cy;
  float best = -std::numeric_limits<float>::infinity();
  for (int j = std::max(0, cy - radius); j <= std::min(ny_ - 1, cy + radius); ++j)
    for (int i = std::max(0, cx - radius); i <= std::min(nx_ - 1, cx + radius); ++i) {
      const long long ddx = i - cx, ddy = j - cy;
      if (ddx * ddx + ddy * ddy > r2) continue;
      const float v = real_[std::size_t(j) * nx_ + i];
      if (v > best) {
        best = v;
        best_i = i;
        best_j = j;
      }
    }
  auto at = [&](int i, int j) {
    return real_[std::size_t(periodic_index(j, ny_)) * nx_ + std::size_t(periodic_index(i, nx_))];
  };
  float ox, oy;
  geom::refine_peak_2d([&](int a, int b) { return at(best_i + a, best_j + b); }, best, subpixel, ox, oy);
  dx = static_cast<float>(best_i - cx) + ox;
  dy = static_cast<float>(best_j - cy) + oy;
}

float CpuPairAligner::estimate_rotation(const ReferenceData& ref, const float* image, SubpixelMethod subpixel) {
  FROST_EXPECTS(grid_.samples > 0, "rotation step needs square images");
  const int s = grid_.samples, rings = grid_.rings(), hs = grid_.spectrum();
  for (int q = 0; q < rings; ++q)
    for (int k = 0; k < s; ++k)
      polar_[std::size_t(q) * s + k] = polar_sample(image, grid_, grid_.first_ring + q, sin_[k], cos_[k]);
  ring_r2c_.execute(polar_.data(), polar_spectrum_.data());
  // H(w) = sum over rings of G_R conj(G_D): the ring weights were applied while resampling.
  for (int w = 0; w < hs; ++w) {
    float re = 0, im = 0;
    for (int q = 0; q < rings; ++q) {
      const fft::Complex a = ref.polar[std::size_t(q) * hs + w], b = polar_spectrum_[std::size_t(q) * hs + w];
      re += a.real() * b.real() + a.imag() * b.imag();
      im += a.imag() * b.real() - a.real() * b.imag();
    }
    ring_sum_[w] = {re, im};
  }
  ring_c2r_.execute(ring_sum_.data(), rho_.data());
  int best_k = 0;
  for (int k = 1; k < s; ++k)
    if (rho_[k] > rho_[best_k]) best_k = k;
  const float theta = rotation_angle(best_k, s, rho_[(best_k + s - 1) % s], rho_[best_k], rho_[(best_k + 1) % s],
                                     subpixel);
  return theta;
}

double CpuPairAligner::correlation(const ReferenceData& ref, const float* image) const {
  const std::size_t n = std::size_t(nx_) * ny_;
  double mean, stddev;
  statistics(image, n, mean, stddev);
  if (stddev == 0 || ref.stddev == 0) return 0.0; // empty aligned image: defined as 0
  double cross = 0;
  for (std::size_t i = 0; i < n; ++i) cross += double(ref.pixels[i]) * image[i];
  return (cross - double(n) * ref.mean * mean) / (double(n) * ref.stddev * stddev);
}

void CpuPairAligner::warp(const float* src, const Pose2& pose, float* dst) const {
  const Pose2 inv = pose_inverse(pose);
  for (int j = 0; j < ny_; ++j)
    for (int i = 0; i < nx_; ++i) dst[std::size_t(j) * nx_ + i] = warp_pixel(src, nx_, ny_, inv, i, j);
}

OrderResult CpuPairAligner::align_order(const ReferenceData& ref, const float* image, Order order,
                                        const AlignSettings& s) {
  const int radius = s.shift_radius(nx_);
  Pose2 pose = pose_identity();
  const float* current = image; // the first step reads the raw image (A = identity)
  auto shift_step = [&] {
    float dx, dy;
    estimate_shift(ref, current, radius, s.subpixel, dx, dy);
    pose = pose_compose(pose_translation(dx, dy), pose);
    warp(image, pose, aligned_.data()); // always from the original: no accumulated blur
    current = aligned_.data();
  };
  auto rotation_step = [&] {
    const float theta = estimate_rotation(ref, current, s.subpixel);
    pose = pose_compose(pose_rotation(theta), pose);
    warp(image, pose, aligned_.data());
    current = aligned_.data();
  };
  for (int it = 0; it < s.iters; ++it) {
    if (order == Order::RotationFirst) {
      rotation_step();
      shift_step();
    } else {
      shift_step();
      rotation_step();
    }
  }
  if (current != aligned_.data()) std::copy(image, image + std::size_t(nx_) * ny_, aligned_.data());
  return {static_cast<float>(correlation(ref, aligned_.data())), pose};
}

PairResult CpuPairAligner::align(const ReferenceData& ref, const float* image, const float* mirrored,
                                 const AlignSettings& s) {
  auto best_of_orders = [&](const float* img) {
    const OrderResult rot = align_order(ref, img, Order::RotationFirst, s);
    const OrderResult shift = align_order(ref, img, Order::ShiftFirst, s);
    return shift.cc > rot.cc ? shift : rot; // ties keep rotation-first
  };
  PairResult out;
  OrderResult best = best_of_orders(image);
  if (s.check_mirrors && mirrored) {
    const OrderResult m = best_of_orders(mirrored);
    if (m.cc > best.cc) {
      best = m;
      out.flip = 1;
    }
  }
  out.cc = best.cc;
  out.pose = best.pose;
  if (s.max_shift >= 0) {
    const PoseParameters p = pose_parameters(best.pose);
    if (std::hypot(double(p.shift_x), double(p.shift_y)) > s.max_shift)
      out.cc = -std::numeric_limits<float>::infinity();
  }
  return out;
}

void mirror_x(const float* src, int nx, int ny, float* dst) {
  // Centred x = i - nx/2 maps to -x, i.e. column nx - i; column 0 has no partner for even nx.
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int m = nx - i - (nx % 2 == 0 ? 0 : 1);
      dst[std::size_t(j) * nx + i] = (m >= 0 && m < nx) ? src[std::size_t(j) * nx + m] : 0.0f;
    }
}

} // namespace frost::align
