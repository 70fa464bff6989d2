// The simulator's ground truth must be what the data shows: shift signs, CTF scale, SNR, motion.
#include <cmath>
#include <algorithm>
#include <complex>

#include "frost/fft/fft.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/simulate/movie.hpp"
#include "frost/simulate/phantom.hpp"
#include "frost/simulate/projections.hpp"
#include "frost/test/support.hpp"

namespace frost::sim {
namespace {

double sum(const float* p, index_t n) {
  double s = 0;
  for (index_t i = 0; i < n; ++i) s += p[i];
  return s;
}

// Intensity-weighted centroid of one image (x, y), relative to pixel (0, 0).
void centroid(const float* img, index_t n, double* cx, double* cy) {
  double s = 0, sx = 0, sy = 0;
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      s += img[y * n + x];
      sx += x * img[y * n + x];
      sy += y * img[y * n + x];
    }
  *cx = sx / s;
  *cy = sy / s;
}

double ncc(const float* a, const float* b, index_t n) {
  double ma = sum(a, n) / n, mb = sum(b, n) / n, ab = 0, aa = 0, bb = 0;
  for (index_t i = 0; i < n; ++i) {
    ab += (a[i] - ma) * (b[i] - mb);
    aa += (a[i] - ma) * (a[i] - ma);
    bb += (b[i] - mb) * (b[i] - mb);
  }
  return ab / std::sqrt(aa * bb);
}

TEST(Phantom, BlobPeaksWhereDeclaredAndIsDeterministic) {
  const Image<float> v = render_blobs(32, {Blob{3, -2, 1, 2.0, 1.0}});
  EXPECT_NEAR(v(16 + 3, 16 - 2, 16 + 1), 1.0f, 1e-6f);
  EXPECT_NEAR(v(16 + 5, 16 - 2, 16 + 1), std::exp(-4.0 / 8.0), 1e-6);
  const auto a = random_blobs(64, 10, 5), b = random_blobs(64, 10, 5);
  ASSERT_EQ(a.size(), 10u);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].x, b[i].x);
  for (const auto& bl : a) EXPECT_LE(std::sqrt(bl.x * bl.x + bl.y * bl.y + bl.z * bl.z), 0.35 * 64 + 1e-9);
}

TEST(Trajectory, SpecValues) {
  Trajectory t{TrajectoryKind::T1, 1024, 1024, 20};
  double x, y;
  t.global(0, &x, &y);
  EXPECT_EQ(x, 0.0);
  t.global(4, &x, &y);
  EXPECT_NEAR(x, 12 * (1 - std::exp(-1.0)) + 0.6, 1e-12);
  EXPECT_NEAR(y, -6 * (1 - std::exp(-4.0 / 3.0)) + 0.4, 1e-12);
  // T3 doming: 1.5 px at mid-edge in the last frame, on top of the global drift.
  Trajectory d{TrajectoryKind::T3, 1024, 1024, 20};
  double gx, gy, ex, ey;
  d.global(19, &gx, &gy);
  d.displacement(19, 1024, 512, &ex, &ey);
  EXPECT_NEAR(ex - gx, 1.5, 1e-12);
  EXPECT_NEAR(ey - gy, 0.0, 1e-12);
}

TEST(Projections, DisplacementMovesContentAndMetadataStoresMinusIt) {
  const Image<float> vol = render_blobs(48, {Blob{0, 0, 0, 3.0, 1.0}});
  std::vector<ParticleTruth> ps(2);
  ps[1].dx = 4.5;
  ps[1].dy = -2.25;
  const Image<float> st = render_projections(vol.cview(), ps, {});
  double x0, y0, x1, y1;
  centroid(st.data(), 48, &x0, &y0);
  centroid(st.data() + 48 * 48, 48, &x1, &y1);
  EXPECT_NEAR(x0, 24.0, 0.05); // RELION centre n/2
  EXPECT_NEAR(x1 - x0, 4.5, 0.05);
  EXPECT_NEAR(y1 - y0, -2.25, 0.05);
  EXPECT_EQ(ps[1].metadata_shift_x(), -4.5);
}

TEST(Projections, CtfScalesTheMeanByTheAmplitudeContrast) {
  // The DC term of the CTF is A, so the image sum is multiplied by A (CTF rendered in 2N, the
  // blob is small enough that cropping loses nothing measurable).
  const Image<float> vol = render_blobs(48, {Blob{0, 0, 0, 2.0, 1.0}});
  std::vector<ParticleTruth> ps(1);
  ps[0].ctf.amplitude_contrast = 0.1;
  ps[0].ctf.defocus_u = ps[0].ctf.defocus_v = 5000;
  ProjectionSetup plain, with_ctf;
  with_ctf.apply_ctf = true;
  with_ctf.pixel_size = 2.0;
  const Image<float> a = render_projections(vol.cview(), ps, plain);
  const Image<float> b = render_projections(vol.cview(), ps, with_ctf);
  EXPECT_NEAR(sum(b.data(), 48 * 48) / sum(a.data(), 48 * 48), 0.1, 0.01);
  EXPECT_LT(ncc(a.data(), b.data(), 48 * 48), 0.9); // the CTF really changed the image
}

TEST(Projections, NoiseMatchesTheRequestedSnr) {
  const Image<float> vol = render_blobs(32, random_blobs(32, 20, 3));
  ParticleDraw draw;
  draw.count = 40;
  const auto ps = random_particles(draw);
  const Image<float> clean = render_projections(vol.cview(), ps, {});
  ProjectionSetup noisy;
  noisy.snr = 0.25;
  const Image<float> n = render_projections(vol.cview(), ps, noisy);
  Image<float> diff(clean.shape());
  for (index_t i = 0; i < diff.size(); ++i) diff[i] = n[i] - clean[i];
  const double snr = mean_image_variance(clean.cview()) / mean_image_variance(diff.cview());
  EXPECT_NEAR(snr, 0.25, 0.01);
  const Image<float> again = render_projections(vol.cview(), ps, noisy);
  EXPECT_TRUE(std::equal(again.begin(), again.end(), n.begin())) << "same seed, same noise";
}

TEST(Movie, GlobalMotionIsExactAndCountsHaveTheDose) {
  MovieSetup m;
  m.nx = m.ny = 128;
  m.frames = 6;
  m.noise_free = true;
  m.contrast = 0.5;
  m.trajectory = TrajectoryKind::T1;
  const SimulatedMovie mv = simulate_movie(m);
  const index_t px = 128 * 128;
  // Shifting frame t back by -g(t) in Fourier space recovers frame 0 (away from the edges,
  // where content entered from the margin).
  const Shape s = Shape::image(128, 128);
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  for (int t = 1; t < m.frames; ++t) {
    double gx, gy;
    mv.trajectory.global(t, &gx, &gy);
    Image<fft::Complex> spec(s.half_spectrum());
    Image<float> frame(s), back(s);
    std::copy(mv.frames.data() + t * px, mv.frames.data() + (t + 1) * px, frame.begin());
    planner->plan(fft::FftSpec::r2c(s)).execute(frame.cview(), spec.view());
    geom::shift_spectrum<float>(spec.view(), s, -gx, -gy);
    planner->plan(fft::FftSpec::c2r(s)).execute(spec.view(), back.view());
    std::vector<float> a, b;
    for (index_t y = 32; y < 96; ++y)
      for (index_t x = 32; x < 96; ++x) {
        a.push_back(back(x, y) / static_cast<float>(px));
        b.push_back(mv.frames.data()[y * 128 + x]);
      }
    EXPECT_GT(ncc(a.data(), b.data(), static_cast<index_t>(a.size())), 0.99) << "frame " << t;
  }
  MovieSetup noisy = m;
  noisy.noise_free = false;
  noisy.dose = 2.0;
  noisy.gain = true;
  const SimulatedMovie nm = simulate_movie(noisy);
  double corrected = 0;
  for (index_t i = 0; i < nm.frames.size(); ++i) corrected += nm.frames[i] * nm.gain[i % px];
  EXPECT_NEAR(corrected / static_cast<double>(nm.frames.size()), 2.0, 0.05);
  for (index_t i = 0; i < 1000; ++i) EXPECT_EQ(nm.frames[i], std::round(nm.frames[i])); // counts
}

TEST(Movie, LocalMotionFollowsTheDisplacementField) {
  MovieSetup m;
  m.nx = m.ny = 256;
  m.frames = 20;
  m.noise_free = true;
  m.contrast = 1.0;
  m.trajectory = TrajectoryKind::T3;
  const SimulatedMovie mv = simulate_movie(m);
  // Pixel (x, y) of frame t shows the specimen at (x, y) - E_t(x, y): compare a frame-19 patch
  // near the right edge with the specimen sampled there by nearest-integer lookup, which only
  // matches when the displacement is right to within a fraction of the specimen's detail.
  double ex, ey;
  mv.trajectory.displacement(19, 230, 128, &ex, &ey);
  const long ix = std::lround(ex), iy = std::lround(ey);
  std::vector<float> frame_patch, specimen_patch;
  for (index_t y = 118; y < 138; ++y)
    for (index_t x = 220; x < 236; ++x) {
      frame_patch.push_back(mv.frames(x, y, 0, 19));
      specimen_patch.push_back(1.f + mv.specimen(x - ix, y - iy));
    }
  EXPECT_GT(ncc(frame_patch.data(), specimen_patch.data(), static_cast<index_t>(frame_patch.size())), 0.9);
}

} // namespace
} // namespace frost::sim
