#pragma once
// Data of the CUDA alignment tests that compare the GPU steps with the CPU estimator: three noisy
// projections and their reference, the polar sine/cosine tables, a small all-pairs run and the
// share of its pairs that agree with the CPU.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_test_helpers.hpp"
#include "frost/alignment/analytic_phantom.hpp"
#include "frost/alignment/backend.hpp"
#include "frost/alignment/directions.hpp"
#include "frost/alignment/math/polar.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/core/image.hpp"

namespace frost::align::test_helpers {

/// Three noisy projections of one direction with different psi and shifts.
inline std::vector<float> three_images(int x, const geom::EulerAngles& dir) {
  const auto blobs = phantom_blobs(PhantomKind::Sharp);
  std::vector<float> v(3 * std::size_t(x) * x);
  for (int t = 0; t < 3; ++t) {
    geom::EulerAngles p = dir;
    p.psi = 25.0 + 40.0 * t;
    float* img = v.data() + std::size_t(t) * x * x;
    render_projection(blobs, x, p, 0.04 * x * (t - 1), -0.03 * x * t, img);
    add_noise(img, std::size_t(x) * x, 1.0, 31u + static_cast<std::uint32_t>(t));
  }
  return v;
}

inline std::vector<float> reference(int x, const geom::EulerAngles& dir) {
  std::vector<float> r(std::size_t(x) * x);
  render_projection(phantom_blobs(PhantomKind::Sharp), x, dir, 0, 0, r.data());
  return r;
}

inline std::vector<float> sin_cos_table(const PolarGrid& g, bool sine) {
  std::vector<float> v(std::size_t(g.samples));
  for (int k = 0; k < g.samples; ++k) {
    const double phi = 2.0 * M_PI * k / g.samples;
    v[std::size_t(k)] = static_cast<float>(sine ? std::sin(phi) : std::cos(phi));
  }
  return v;
}

/// One shift step's test case at X: a reference and three noisy images of one direction, and the
/// CPU estimator with the reference prepared. The step starts from the identity (`first`) or from
/// a rotation and a shift per trajectory.
struct ShiftCase {
  int x;
  std::size_t px;
  std::vector<float> ref, raw;
  CpuPairAligner cpu;
  ReferenceData rd;
  explicit ShiftCase(int x_)
      : x(x_), px(std::size_t(x_) * x_), ref(reference(x_, {30, 60, 0})), raw(three_images(x_, {30, 60, 0})),
        cpu(x_, x_) {
    cpu.prepare_reference(ref.data(), rd);
  }
  std::vector<Pose2> start(bool first) const {
    std::vector<Pose2> v(3);
    if (!first)
      for (int t = 0; t < 3; ++t)
        v[std::size_t(t)] = pose_compose(pose_translation(0.7f * t, -1.1f), pose_rotation(20.0f + 40.0f * t));
    return v;
  }
  /// The pose after CpuPairAligner's shift step of trajectory t from `from`.
  Pose2 expected(int t, const Pose2& from, bool first, int radius, SubpixelMethod sub) {
    const float* img = raw.data() + std::size_t(t) * px;
    std::vector<float> current(px);
    if (first) current.assign(img, img + px);
    else cpu.warp(img, from, current.data());
    float dx, dy;
    cpu.estimate_shift(rd, current.data(), radius, sub, dx, dy);
    return pose_compose(pose_translation(dx, dy), from);
  }
};

/// A small all-pairs run at X (noisy projections of 12 references, 30 images).
struct SmallRun {
  int x, refs = 12, imgs = 30;
  Image<float> r, im;
  explicit SmallRun(int x_) : x(x_), r(Shape::image(x_, x_, 12)), im(Shape::image(x_, x_, 30)) {
    const auto dirs = fibonacci_directions(refs);
    const auto blobs = phantom_blobs(PhantomKind::Sharp);
    for (int k = 0; k < refs; ++k)
      render_projection(blobs, x, dirs[std::size_t(k)], 0, 0, r.data() + std::size_t(k) * x * x);
    for (int i = 0; i < imgs; ++i) {
      geom::EulerAngles p = dirs[std::size_t(i % refs)];
      p.psi = 37.0 * i;
      float* img = im.data() + std::size_t(i) * x * x;
      render_projection(blobs, x, p, 0.03 * x * std::cos(i), 0.03 * x * std::sin(i), img);
      add_noise(img, std::size_t(x) * x, 0.5, 500u + static_cast<std::uint32_t>(i));
    }
  }
  std::vector<PairResult> run(AlignmentBackend& b) const {
    std::vector<PairResult> res(std::size_t(refs) * imgs);
    b.align_all(r.cview(), im.cview(), AlignSettings{}, res.data());
    return res;
  }
};

/// Share of pairs whose pose and CC agree with the CPU's (every pair, not only the best ones: an
/// FFT rounding difference may flip an integer peak of a poorly matching pair).
inline double share_close(const std::vector<PairResult>& gpu, const std::vector<PairResult>& cpu) {
  int close = 0;
  for (std::size_t k = 0; k < cpu.size(); ++k) {
    const PoseParameters pc = pose_parameters(cpu[k].pose), pg = pose_parameters(gpu[k].pose);
    close += angle_error(pg.psi, pc.psi) <= 0.1 && std::hypot(pg.shift_x - pc.shift_x, pg.shift_y - pc.shift_y) <= 0.05 &&
             std::abs(gpu[k].cc - cpu[k].cc) <= 1e-3;
  }
  return double(close) / double(cpu.size());
}

} // namespace frost::align::test_helpers
