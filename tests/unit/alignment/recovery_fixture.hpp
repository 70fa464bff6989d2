#pragma once
// Data sets and scoring shared by the alignment validation tests (docs/align_significant.md#tests):
// test 7's noise-free single-view images, the fixture's draw of experimental images over a
// Fibonacci gallery (docs/align_significant.md#analytic-phantom-fixture), and the scores of
// docs/align_significant.md#end-to-end-recovery-tests (exact / near reference, ψ and shift errors).
// Header-only so that the program tests (tests/apps) score the app's output with the same code.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "frost/alignment/analytic_phantom.hpp"
#include "frost/alignment/backend.hpp"
#include "frost/alignment/directions.hpp"
#include "frost/alignment/significance.hpp"
#include "frost/test/support.hpp"

namespace frost::align::recovery {

inline double angle_error(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 360.0);
  return std::min(d, 360.0 - d);
}

/// Nearest-rank percentile (q in [0, 1]); 0 for an empty set.
inline double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  return v[static_cast<std::size_t>(std::min<double>(v.size() - 1, std::floor(q * (v.size() - 1) + 0.5)))];
}

/// Uniform doubles in [0, 1) from a seeded mt19937 through the portable uniform01.
class Uniform {
public:
  explicit Uniform(std::uint32_t seed) : rng_(seed) {}
  double operator()() {
    const std::uint32_t a = rng_(), b = rng_();
    return uniform01(a, b);
  }

private:
  std::mt19937 rng_;
};

/// Angle [deg] between the projection directions of two (rot, tilt) pairs.
inline double direction_angle(const geom::EulerAngles& a, const geom::EulerAngles& b) {
  const double c = geom::dot(geom::projection_direction(a.rot, a.tilt), geom::projection_direction(b.rot, b.tilt));
  return std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / M_PI;
}

/// Median over the directions of the angle to the nearest other one (the gallery's spacing).
inline double median_spacing(const std::vector<geom::EulerAngles>& dirs) {
  std::vector<double> nearest;
  for (std::size_t r = 0; r < dirs.size(); ++r) {
    double best = 180;
    for (std::size_t q = 0; q < dirs.size(); ++q)
      if (q != r) best = std::min(best, direction_angle(dirs[r], dirs[q]));
    nearest.push_back(best);
  }
  return percentile(nearest, 0.5);
}

// ---- Test 7's images: one view, noise-free ------------------------------------------------

struct Sample {
  double psi, dx, dy;
  Image<float> image;
};

/// `count` images of one view with psi uniform in [0, 360) and displacements uniform in the
/// square ±max_shift.
inline std::vector<Sample> samples(const std::vector<PhantomBlob>& blobs, int x, geom::EulerAngles view, int count,
                                   double max_shift, std::uint32_t seed) {
  Uniform u(seed);
  std::vector<Sample> out;
  for (int k = 0; k < count; ++k) {
    Sample s;
    s.psi = 360 * u();
    s.dx = (2 * u() - 1) * max_shift;
    s.dy = (2 * u() - 1) * max_shift;
    view.psi = s.psi;
    s.image = render_projection(blobs, x, view, s.dx, s.dy);
    out.push_back(std::move(s));
  }
  return out;
}

struct PoseErrors {
  double max_psi = 0, max_shift = 0, min_cc = 2;
  int failures = 0; ///< psi error > 2 deg or shift error > 1 px
};

/// Errors of results[k] against set[k]; ground truth ψ = the rendered psi, shift = −displacement
/// (docs/align_significant.md#conventions).
inline PoseErrors pose_errors(const std::vector<PairResult>& results, const std::vector<Sample>& set) {
  PoseErrors e;
  for (std::size_t k = 0; k < set.size(); ++k) {
    const PoseParameters p = pose_parameters(results[k].pose);
    const double ep = angle_error(p.psi, set[k].psi);
    const double es = std::hypot(p.shift_x + set[k].dx, p.shift_y + set[k].dy);
    e.max_psi = std::max(e.max_psi, ep);
    e.max_shift = std::max(e.max_shift, es);
    e.min_cc = std::min(e.min_cc, double(results[k].cc));
    if (ep > 2.0 || es > 1.0) ++e.failures;
  }
  return e;
}

/// Test 7's bounds for noise-free smooth-phantom images (the values pair_estimator_test.cpp
/// measured and justified; Δ = the polar step): `none` 1.25·Δ / 1 px / 0.99 at any iteration
/// count; parabolic 0.15° / 0.1 px / 0.999 with ≥ 5 iterations, ψ 0.75° with fewer.
struct Test7Bounds {
  double psi, shift, cc;
};
inline Test7Bounds test7_bounds(const AlignSettings& s, double delta) {
  if (s.subpixel == SubpixelMethod::None) return {1.25 * delta, 1.0, 0.99};
  return {s.iters >= 5 ? 0.15 : 0.75, 0.1, 0.999};
}
inline void expect_within(const PoseErrors& e, const Test7Bounds& b, const std::string& what) {
  EXPECT_LE(e.max_psi, b.psi) << what << ": psi";
  EXPECT_LE(e.max_shift, b.shift) << what << ": shift";
  EXPECT_GE(e.min_cc, b.cc) << what << ": cc";
}

// ---- Fixture draw: experimental images over a gallery ---------------------------------------

/// Ground truth of one experimental image: its reference (index into the gallery), in-plane angle
/// and particle displacement; the expected output is ψ = psi, shift = −(dx, dy).
struct TruePose {
  std::size_t ref = 0;
  double psi = 0, dx = 0, dy = 0;
};

/// Reference uniform among n_refs, psi uniform in [0, 360), displacement uniform in the disc of
/// radius 0.08·X; draws in this order per image.
inline std::vector<TruePose> draw_poses(std::size_t n_refs, int n_images, int x, std::uint32_t seed) {
  Uniform u(seed);
  std::vector<TruePose> out;
  for (int i = 0; i < n_images; ++i) {
    TruePose t;
    t.ref = static_cast<std::size_t>(u() * double(n_refs));
    t.psi = 360 * u();
    const double rad = 0.08 * x * std::sqrt(u()), ang = 2 * M_PI * u();
    t.dx = rad * std::cos(ang);
    t.dy = rad * std::sin(ang);
    out.push_back(t);
  }
  return out;
}

/// Noise seed of image i (independent of the pose draw).
inline std::uint32_t noise_seed(int i) { return 1000u + static_cast<std::uint32_t>(i); }

/// Sharp phantom rendered analytically: X = x, n_refs Fibonacci references (psi 0, centred) and
/// n_images images drawn by draw_poses(seed) with white noise at `snr`.
struct PhantomSet {
  int x = 0;
  std::vector<geom::EulerAngles> dirs;
  std::vector<TruePose> truth;
  Image<float> refs, images;
};
inline PhantomSet analytic_set(int x, int n_refs, int n_images, double snr, std::uint32_t seed) {
  PhantomSet s;
  s.x = x;
  s.dirs = fibonacci_directions(n_refs);
  s.truth = draw_poses(s.dirs.size(), n_images, x, seed);
  s.refs = Image<float>(Shape::image(x, x, n_refs));
  s.images = Image<float>(Shape::image(x, x, n_images));
  const auto blobs = phantom_blobs(PhantomKind::Sharp);
  const std::size_t px = std::size_t(x) * x;
  for (int r = 0; r < n_refs; ++r) render_projection(blobs, x, s.dirs[std::size_t(r)], 0, 0, s.refs.data() + r * px);
  for (int i = 0; i < n_images; ++i) {
    const TruePose& t = s.truth[std::size_t(i)];
    geom::EulerAngles pose = s.dirs[t.ref];
    pose.psi = t.psi;
    render_projection(blobs, x, pose, t.dx, t.dy, s.images.data() + i * px);
    add_noise(s.images.data() + i * px, px, snr, noise_seed(i));
  }
  return s;
}

/// Every pair on the CPU backend plus the significance weights (angDistance 10, the default).
struct AllPairs {
  std::vector<PairResult> pairs; ///< [r · n_img + i]
  std::vector<float> cc, weights;
  double seconds = 0; ///< alignment wall time
};
inline AllPairs align_all_pairs(const PhantomSet& set, const AlignSettings& s) {
  const std::size_t n_ref = set.dirs.size(), n_img = set.truth.size();
  AllPairs a;
  a.pairs.resize(n_ref * n_img);
  const auto t0 = std::chrono::steady_clock::now();
  make_cpu_backend()->align_all(set.refs.cview(), set.images.cview(), s, a.pairs.data());
  a.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const PairResult& p : a.pairs) a.cc.push_back(p.cc);
  a.weights = significance_weights(a.cc, n_ref, n_img, set.dirs, 10.0);
  return a;
}

/// One output pose (terms of docs/align_significant.md#conventions); `found` is false for an image
/// without any row.
struct Estimate {
  bool found = false;
  std::size_t ref = 0;
  double psi = 0, shift_x = 0, shift_y = 0;
};
inline Estimate estimate(const PairResult& p, std::size_t ref) {
  const PoseParameters q = pose_parameters(p.pose);
  return {true, ref, q.psi, q.shift_x, q.shift_y};
}

/// The recovery scores of one run (docs/align_significant.md#end-to-end-recovery-tests).
struct Scores {
  double exact = 0;                ///< best reference = true reference (fraction of images)
  double near = 0;                 ///< best reference within near_deg of the true direction
  double psi_median = 0, psi_p90 = 0, shift_median = 0, shift_p90 = 0; ///< over the exact ones
  double true_ref_psi_over_10 = 0; ///< pose against the true reference, ψ error > 10°, all images
};

/// best[i]: the image's chosen row; at_truth[i]: its pose against the true reference.
inline Scores score(const std::vector<TruePose>& truth, const std::vector<Estimate>& best,
                    const std::vector<Estimate>& at_truth, const std::vector<geom::EulerAngles>& dirs,
                    double near_deg) {
  Scores s;
  std::vector<double> pe, se;
  int near = 0, over10 = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    const TruePose& t = truth[i];
    if (best[i].found && direction_angle(dirs[best[i].ref], dirs[t.ref]) <= near_deg) ++near;
    if (best[i].found && best[i].ref == t.ref) {
      pe.push_back(angle_error(best[i].psi, t.psi));
      se.push_back(std::hypot(best[i].shift_x + t.dx, best[i].shift_y + t.dy)); // shift = −displacement
    }
    over10 += !at_truth[i].found || angle_error(at_truth[i].psi, t.psi) > 10.0;
  }
  const double n = double(truth.size());
  s.exact = double(pe.size()) / n;
  s.near = near / n;
  s.psi_median = percentile(pe, 0.5);
  s.psi_p90 = percentile(pe, 0.9);
  s.shift_median = percentile(se, 0.5);
  s.shift_p90 = percentile(se, 0.9);
  s.true_ref_psi_over_10 = over10 / n;
  return s;
}

/// Scores of a library run with keepBestN 1 and CC voting.
inline Scores score(const PhantomSet& set, const AllPairs& a, double near_deg) {
  const std::size_t n_ref = set.dirs.size(), n_img = set.truth.size();
  std::vector<Estimate> best(n_img), at_truth(n_img);
  for (const Assignment& r : assign_best(a.cc, a.weights, n_ref, n_img, 1, false))
    best[r.image] = estimate(a.pairs[r.reference * n_img + r.image], r.reference);
  for (std::size_t i = 0; i < n_img; ++i)
    at_truth[i] = estimate(a.pairs[set.truth[i].ref * n_img + i], set.truth[i].ref);
  return score(set.truth, best, at_truth, set.dirs, near_deg);
}

/// Test 13's requirements (docs/align_significant.md#end-to-end-recovery-tests): ≥ 85 % exact;
/// median / p90 ψ error ≤ 2° / 5°; median / p90 shift error ≤ 0.75 / 1.5 px; ψ error > 10° against
/// the true reference for ≤ 10 %.
inline void expect_test13(const Scores& s) {
  EXPECT_GE(s.exact, 0.85);
  EXPECT_LE(s.psi_median, 2.0);
  EXPECT_LE(s.psi_p90, 5.0);
  EXPECT_LE(s.shift_median, 0.75);
  EXPECT_LE(s.shift_p90, 1.5);
  EXPECT_LE(s.true_ref_psi_over_10, 0.10);
}

} // namespace frost::align::recovery
