// MotionBackendParity: the one CPU/GPU parity suite of movie alignment
// (docs/movie_align.md#cpu-and-gpu-equivalence). Every test runs a stage, or the whole pipeline,
// on the backend under test (make_motion_backend) and on the host reference, and bounds the
// difference: the CPU instance must meet the bounds trivially (it is the reference), the CUDA
// instance with cuFFT against FFTW in float. Bounds: loading exact; spectra relative L2 <= 1e-5;
// pair and patch peaks >= 99 % identical integer maxima, sub-pixel displacements within 0.01 px
// where they agree; sums rms/std <= 1e-5 (dose-weighted 1e-4); the pipeline on the T3 movie
// (global shifts <= 0.01 px, at most 1 % of pair maxima differ, B-spline model on a 33 x 33 grid
// <= 0.02 px, micrographs rms/std <= 1e-3). Every test prints what it measured. The device
// decoder's own MRC-mode cases are in tests/unit/motion/cuda.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>
#include <random>
#include <string>
#include <vector>

#include "backend_test_support.hpp"
#include "frost/core/error.hpp"
#include "frost/io/eer_encode.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/eer_writer.hpp"
#include "frost/io/image_io.hpp"
#include "frost/motion/frame_spectra.hpp"
#include "frost/motion/global_alignment.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/render_movie.hpp"
#include "frost/motion/sum_quality.hpp"
#include "local_movie_cases.hpp"
#include "movie_cases.hpp"
#include "tiff_test_files.hpp"

namespace frost::motion {
namespace {

using backend_test::Backends;
using backend_test::BackendNames;

template <class B>
class MotionBackendParity : public backend_test::MotionBackendTest<B> {};
TYPED_TEST_SUITE(MotionBackendParity, Backends, BackendNames);

// ---- measures ---------------------------------------------------------------------------------

/// rms(a − b) / std(b): the micrograph measure of docs/movie_align.md#cpu-and-gpu-equivalence.
double rms_over_std(View<const float> a, View<const float> b) {
  const index_t n = b.shape.total();
  double mean = 0;
  for (index_t i = 0; i < n; ++i) mean += b[i];
  mean /= static_cast<double>(n);
  double var = 0, diff = 0;
  for (index_t i = 0; i < n; ++i) {
    var += (b[i] - mean) * (b[i] - mean);
    diff += (static_cast<double>(a[i]) - b[i]) * (static_cast<double>(a[i]) - b[i]);
  }
  return var > 0 ? std::sqrt(diff / var) : std::sqrt(diff / static_cast<double>(n));
}

double max_abs_diff(View<const float> a, View<const float> b) {
  double m = 0;
  for (index_t i = 0; i < b.shape.total(); ++i) m = std::max(m, std::abs(static_cast<double>(a[i]) - b[i]));
  return m;
}

bool same_bits(const Image<float>& a, const Image<float>& b) {
  return a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

double max_shift_diff(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  double m = 0;
  for (std::size_t t = 0; t < b.size(); ++t) m = std::max({m, std::abs(a[t].x - b[t].x), std::abs(a[t].y - b[t].y)});
  return m;
}

// Largest difference of the two models' shifts on a 33 x 33 grid over the frame, every frame.
double max_model_diff(const MotionModel& a, const MotionModel& b, index_t nx, index_t ny) {
  double m = 0;
  for (int t = 0; t < b.frames(); ++t)
    for (int j = 0; j < 33; ++j)
      for (int i = 0; i < 33; ++i) {
        const double x = (nx - 1) * i / 32.0, y = (ny - 1) * j / 32.0;
        const Vec2 sa = a.shift(x, y, t), sb = b.shift(x, y, t);
        m = std::max({m, std::abs(sa.x - sb.x), std::abs(sa.y - sb.y)});
      }
  return m;
}

struct PairComparison {
  int pairs = 0, integer_differs = 0, edge_differs = 0;
  double max_subpixel_diff = 0; ///< over pairs with the same integer maximum [processing px]
};

PairComparison compare_pairs(const std::vector<PairMeasurement>& got, const std::vector<PairMeasurement>& ref) {
  PairComparison c;
  c.pairs = static_cast<int>(ref.size());
  for (std::size_t k = 0; k < ref.size(); ++k) {
    EXPECT_EQ(got[k].pair, ref[k].pair);
    if (got[k].peak.ix != ref[k].peak.ix || got[k].peak.iy != ref[k].peak.iy) {
      ++c.integer_differs;
      continue;
    }
    c.edge_differs += got[k].peak.edge != ref[k].peak.edge ? 1 : 0;
    c.max_subpixel_diff = std::max({c.max_subpixel_diff, std::abs(got[k].displacement.x - ref[k].displacement.x),
                                    std::abs(got[k].displacement.y - ref[k].displacement.y)});
  }
  return c;
}

void expect_pair_parity(const PairComparison& c, const std::string& label) {
  std::printf("%s: %d pairs, %d integer maxima differ, %d edge flags differ, max sub-pixel diff %.2e px\n",
              label.c_str(), c.pairs, c.integer_differs, c.edge_differs, c.max_subpixel_diff);
  EXPECT_LE(c.integer_differs, c.pairs / 100) << label;
  EXPECT_LE(c.max_subpixel_diff, 0.01) << label;
}

// ---- inputs -----------------------------------------------------------------------------------

Image<float> random_frames(index_t nx, index_t ny, index_t n, std::uint32_t seed) {
  Image<float> img(Shape::image(nx, ny, n));
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(1.0f, 0.5f);
  for (index_t i = 0; i < img.size(); ++i) img[i] = g(rng);
  return img;
}

// Smooth random frames (a few cosines plus noise): warps of them have structure at every scale.
Image<float> frames_for_render(index_t nx, index_t ny, index_t n, std::uint32_t seed) {
  Image<float> img(Shape::image(nx, ny, n));
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 0.3f);
  for (index_t t = 0; t < n; ++t)
    for (index_t y = 0; y < ny; ++y)
      for (index_t x = 0; x < nx; ++x)
        img(x, y, 0, t) = static_cast<float>(std::cos(0.11 * x + 0.3 * t) + std::sin(0.07 * y - 0.2 * t)) + g(rng);
  return img;
}

MotionModel global_model(int n, int first) {
  MotionModel m;
  m.first_frame = first;
  m.reference = n / 2;
  for (int t = 0; t < n; ++t) m.global.push_back({0.37 * (t - n / 2), -0.81 * (t - n / 2) + 0.05 * t * t});
  m.global[static_cast<std::size_t>(n / 2)] = {0.0, 0.0}; // the reference frame is copied
  return m;
}

MotionModel spline_model(int n, int first, index_t nx, index_t ny, LocalModelKind kind) {
  MotionModel m = global_model(n, first);
  m.kind = kind;
  BSplineField f = BSplineField::make(5, 4, 4, static_cast<double>(nx), static_cast<double>(ny), n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (std::size_t i = 0; i < f.cx.size(); ++i) {
    f.cx[i] = u(rng);
    f.cy[i] = u(rng);
  }
  m.local = f;
  return m;
}

void check_sum(const char* what, const Image<float>& got, const Image<float>& ref, double bound,
               const std::string& label) {
  if (ref.size() == 0) {
    EXPECT_EQ(got.size(), 0) << label << " " << what;
    return;
  }
  ASSERT_EQ(got.shape(), ref.shape()) << label << " " << what;
  const double e = rms_over_std(got.cview(), ref.cview());
  std::printf("  %-14s rms/std %.3e, max |diff| %.3e\n", what, e, max_abs_diff(got.cview(), ref.cview()));
  EXPECT_LE(e, bound) << label << " " << what;
}

// ---- loading ----------------------------------------------------------------------------------

TYPED_TEST(MotionBackendParity, HostFramesLoadExactly) {
  const Image<float> frames = random_frames(257, 130, 7, 1);
  DeviceBatches batches;
  batches.upload_group = 2; // several groups: both slot sets and the wait on the second are used
  const auto movie = this->load(frames.cview(), 0, batches);
  EXPECT_TRUE(same_bits(movie->copy_frames(), frames)) << movie->describe();
}

// A stored integer movie with a gain and --frameRange through MovieReader: the stored bytes (GPU:
// decoded on the device), binned frames (decoded on CPU threads) and hot-pixel detection (read
// whole first) each give read_all() of the same reader bit for bit; --low-memory too.
TYPED_TEST(MotionBackendParity, ReaderFramesLoadExactly) {
  test::TempDir dir;
  const index_t nx = 640, ny = 410, n = 9;
  Image<float> movie(Shape::image(nx, ny, n));
  std::mt19937 rng(21);
  std::poisson_distribution<int> counts(1.2);
  for (index_t i = 0; i < movie.size(); ++i) movie[i] = static_cast<float>(std::min(counts(rng), 15));
  movie(100, 200, 0, 4) = 15; // a hot pixel for the detection variant
  io::MrcWriteOptions mo;
  mo.mode = io::MrcMode::Int8;
  io::write_image(dir.file("movie.mrcs"), movie.cview(), mo);
  Image<float> gain(Shape::image(nx, ny));
  const std::vector<float> g = test::random_floats(static_cast<std::size_t>(nx * ny), 22, 0.8f, 1.2f);
  std::copy(g.begin(), g.end(), gain.data());
  io::write_image(dir.file("gain.mrc"), gain.cview());

  struct Variant {
    const char* label;
    double bin;
    double hot_pixel_sigma;
    bool low_memory;
  };
  for (const Variant& v : {Variant{"stored bytes", 1.0, 0.0, false}, Variant{"binned", 2.0, 0.0, false},
                           Variant{"hot-pixel detection", 1.0, 6.0, false}, Variant{"--low-memory", 1.0, 0.0, true}}) {
    MovieReadOptions ro;
    ro.first_frame = 2;
    ro.last_frame = 7;
    ro.gain = dir.file("gain.mrc");
    ro.bin = v.bin;
    ro.hot_pixel_sigma = v.hot_pixel_sigma;
    const Image<float> host = MovieReader(dir.file("movie.mrcs"), ro).read_all();
    MovieReader reader(dir.file("movie.mrcs"), ro);
    MotionBackendOptions options;
    options.low_memory = v.low_memory;
    const auto frames = this->backend(options).load(reader);
    EXPECT_TRUE(same_bits(frames->copy_frames(), host)) << v.label << " on " << frames->describe();
  }
}

// An LZW TIFF movie with a gain through MovieReader: small strips (GPU: chunks of rows decompressed
// by all reader threads) and one strip per frame (GPU: whole frames per read), 8 and 16 bits, give
// read_all() of the same reader bit for bit.
TYPED_TEST(MotionBackendParity, TiffFramesLoadExactly) {
  test::TempDir dir;
  const index_t nx = 600, ny = 420;
  Image<float> gain(Shape::image(nx, ny));
  const std::vector<float> g = test::random_floats(static_cast<std::size_t>(nx * ny), 23, 0.8f, 1.2f);
  std::copy(g.begin(), g.end(), gain.data());
  io::write_image(dir.file("gain.mrc"), gain.cview());
  for (const auto& [rows_per_strip, bits] : {std::pair<std::uint32_t, int>{1, 8}, {7, 16}, {420, 8}}) {
    const std::string movie = dir.file("m" + std::to_string(rows_per_strip) + "_" + std::to_string(bits) + ".tif");
    if (!test::write_counts_tiff(movie, nx, ny, 8, rows_per_strip, bits)) GTEST_SKIP() << "frost was built without libtiff";
    MovieReadOptions ro;
    ro.first_frame = 1;
    ro.gain = dir.file("gain.mrc");
    const Image<float> host = MovieReader(movie, ro).read_all();
    MovieReader reader(movie, ro);
    ASSERT_TRUE(reader.stored_frames().has_value());
    const auto frames = this->backend({}).load(reader);
    EXPECT_TRUE(same_bits(frames->copy_frames(), host))
        << rows_per_strip << " rows per strip, " << bits << " bits, on " << frames->describe();
  }
}

// An EER movie through MovieReader with a gain (GPU: the compressed raw frames rendered on the
// device), at upsampling 1, 2 and 4, from the second fraction on, with one corrupt raw frame (it
// contributes nothing on either side) and streams at every byte alignment, gives read_all() of
// the same reader bit for bit.
TYPED_TEST(MotionBackendParity, EerFramesLoadExactly) {
  if (!io::eer_supported()) GTEST_SKIP() << "frost was built without libtiff: no EER";
  test::TempDir dir;
  const index_t w = 96, h = 64, group = 5, fractions = 4;
  std::mt19937 rng(31);
  std::bernoulli_distribution hit(0.15);
  std::uniform_int_distribution<int> quarter(0, 3);
  const io::EerWriteOptions write; // 65001
  const io::EerEncoding encoding = io::eer_write_encoding(write);
  std::vector<std::vector<unsigned char>> streams;
  for (index_t r = 0; r < group * fractions; ++r) {
    std::vector<io::EerEvent> events;
    for (index_t p = 0; p < w * h; ++p)
      if (hit(rng)) events.push_back({static_cast<std::uint32_t>(p), io::eer_symbol(quarter(rng), quarter(rng), 4)});
    streams.push_back(io::encode_eer_frame(events, w * h, encoding));
  }
  streams[7].resize(streams[7].size() / 2); // raw frame 7 (fraction 1) ends early: corrupt
  // Trailing bytes after the last code are ignored; here they put the streams that follow at every
  // byte alignment (the device reads aligned words).
  streams[2].push_back(0);
  streams[11].insert(streams[11].end(), {0, 0, 0});
  io::write_eer_tiff(dir.file("movie.eer"), streams, w, h, write);
  for (const int u : {1, 2, 4}) {
    Image<float> gain(Shape::image(w * u, h * u));
    const std::vector<float> g = test::random_floats(static_cast<std::size_t>(gain.size()), 40 + u, 0.8f, 1.2f);
    std::copy(g.begin(), g.end(), gain.data());
    const std::string gain_file = dir.file("gain" + std::to_string(u) + ".mrc");
    io::write_image(gain_file, gain.cview());
    MovieReadOptions ro;
    ro.first_frame = 1;
    ro.gain = gain_file;
    ro.eer_upsampling = u;
    ro.eer_frames_per_fraction = group;
    const Image<float> host = MovieReader(dir.file("movie.eer"), ro).read_all();
    MovieReader reader(dir.file("movie.eer"), ro);
    ASSERT_TRUE(reader.eer_raw_frames().has_value());
    const auto frames = this->backend({}).load(reader);
    EXPECT_TRUE(same_bits(frames->copy_frames(), host)) << "upsampling " << u << ", on " << frames->describe();
    std::printf("EER %dx%d, u=%d, %d fractions of %d raw frames (one corrupt): %s loads them bit for bit\n",
                static_cast<int>(w), static_cast<int>(h), u, static_cast<int>(fractions - 1), static_cast<int>(group),
                frames->describe().c_str());
  }
}

// ---- global stage -----------------------------------------------------------------------------

TYPED_TEST(MotionBackendParity, SpectraMatchFiltered) {
  // Whole frames, and a cropped transform window, both with the low-pass.
  for (const bool crop : {false, true}) {
    const Image<float> frames = random_frames(crop ? 530 : 512, crop ? 470 : 384, 6, 2);
    GlobalSettings s = test_movies::default_settings();
    s.pixel_size = 2.0;
    s.crop_frames = crop;
    const WorkingSizes sizes = working_sizes(frames.shape().x, frames.shape().y, s);
    const Image<float> filter = lowpass_filter(sizes);
    const Image<fft::Complex> ref = filtered_spectra(stack_frames(frames.cview(), "test"), sizes, filter.cview());
    DeviceBatches batches;
    batches.frame_batch = 4; // two batches, the second partial
    const auto movie = this->load(frames.cview(), 0, batches);
    const Image<fft::Complex> got = movie->pairs().spectra(sizes, filter.cview());
    ASSERT_EQ(got.shape(), ref.shape());
    const double err = test::relative_l2(got.cview(), ref.cview());
    std::printf("spectra %s: %s, relative L2 %.3e\n", crop ? "cropped window" : "whole frame",
                to_string(sizes).c_str(), err);
    EXPECT_LE(err, 1e-5);
    // Zeroed axes are exactly zero on both.
    for (index_t t = 0; t < got.shape().n; ++t)
      for (index_t x = 0; x < got.shape().x; ++x) EXPECT_EQ(got(x, 0, 0, t), fft::Complex(0.f, 0.f));
  }
}

TYPED_TEST(MotionBackendParity, PairMeasurementsMatchOnT1) {
  const test_movies::Movie m = test_movies::movie(sim::TrajectoryKind::T1, 1.0, 0.1, 11);
  const GlobalSettings s = test_movies::default_settings();
  const auto views = stack_frames(m.frames, "test");
  const WorkingSizes sizes = working_sizes(m.frames.shape.x, m.frames.shape.y, s);
  const Image<float> filter = lowpass_filter(sizes);
  const std::vector<FramePair> pairs = frame_pairs(static_cast<int>(views.size()), 0);
  DeviceBatches batches;
  batches.pair_batch = 37; // several batches, the last partial: results must not depend on it
  const auto movie = this->load(m.frames, 0, batches);
  for (const SubpixelMethod method : {SubpixelMethod::Gauss3, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3}) {
    GlobalSettings sm = s;
    sm.subpixel = method;
    const CorrelationOptions co = correlation_options(sizes, sm);
    HostPairMeasurer host(views);
    const auto ref = host.measure_pairs(sizes, filter.cview(), pairs, co);
    const auto got = movie->pairs().measure_pairs(sizes, filter.cview(), pairs, co);
    ASSERT_EQ(got.size(), ref.size());
    expect_pair_parity(compare_pairs(got, ref), "T1 dose 1 pairs, " + to_string(method));
  }
}

TYPED_TEST(MotionBackendParity, PeaksOnNoiseWithSmallRadius) {
  // Uncorrelated noise: maxima anywhere in the disc, many on its edge (edge flags, tie rules).
  const Image<float> frames = random_frames(256, 256, 8, 3);
  GlobalSettings s = test_movies::default_settings();
  s.max_shift = 20;
  const auto views = stack_frames(frames.cview(), "test");
  const WorkingSizes sizes = working_sizes(256, 256, s);
  const Image<float> filter = lowpass_filter(sizes);
  const auto pairs = frame_pairs(8, 0);
  HostPairMeasurer host(views);
  const auto ref = host.measure_pairs(sizes, filter.cview(), pairs, correlation_options(sizes, s));
  const auto movie = this->load(frames.cview(), 0);
  const auto got = movie->pairs().measure_pairs(sizes, filter.cview(), pairs, correlation_options(sizes, s));
  int edges = 0;
  for (const auto& p : ref) edges += p.peak.edge ? 1 : 0;
  // Noise maps have no dominant peak: allow 2 near-ties out of 28, but report them.
  const PairComparison c = compare_pairs(got, ref);
  std::printf("noise pairs: %d of %zu reference maxima on the edge, %d integer maxima differ, max sub-pixel diff "
              "%.2e px\n",
              edges, ref.size(), c.integer_differs, c.max_subpixel_diff);
  EXPECT_LE(c.integer_differs, 2);
  EXPECT_LE(c.max_subpixel_diff, 0.01);
}

// ---- local stage ------------------------------------------------------------------------------

TYPED_TEST(MotionBackendParity, PatchMeasurementsMatchOnT3) {
  const local_test::Movie m = local_test::t3_movie(4.0, 4.0, 0.2, 21);
  const auto views = stack_frames(m.frames, "test");
  const GlobalAlignment global = align_global(views, local_test::global_settings());
  const LocalSettings ls = local_test::local_settings();
  const GlobalSettings ps = patch_alignment_settings(ls, global.reference);
  const PatchOffsets offsets = patch_offsets(global.shifts, ls.patches_average);
  const int p = 256;
  const WorkingSizes sizes = patch_working_sizes(p, ps);
  const Image<float> filter = lowpass_filter(sizes);
  // Corners on a 4 x 3 grid, including the frame edge (clamped reads for the shifted frames).
  std::vector<PatchCorner> corners;
  for (int y : {0, 384, 768})
    for (int x : {0, 256, 512, 768}) corners.push_back({x, y});
  const auto pairs = frame_pairs(static_cast<int>(views.size()), 0);
  const CorrelationOptions co = correlation_options(sizes, ps);
  HostPatchMeasurer host(views);
  const auto ref = host.measure_patches(offsets, corners, p, sizes, filter.cview(), pairs, co);
  DeviceBatches batches;
  batches.patch_batch = 5; // three batches, the last partial
  const auto movie = this->load(m.frames, 0, batches);
  const auto got = movie->patches().measure_patches(offsets, corners, p, sizes, filter.cview(), pairs, co);
  ASSERT_EQ(got.size(), ref.size());
  PairComparison all;
  for (std::size_t k = 0; k < ref.size(); ++k) {
    const PairComparison c = compare_pairs(got[k], ref[k]);
    all.pairs += c.pairs;
    all.integer_differs += c.integer_differs;
    all.edge_differs += c.edge_differs;
    all.max_subpixel_diff = std::max(all.max_subpixel_diff, c.max_subpixel_diff);
  }
  expect_pair_parity(all, "T3 dose 4 patch pairs (12 patches)");
}

// ---- render -----------------------------------------------------------------------------------

// Global and B-spline models, every sum, --normalize mean and dose weighting; the device runs
// the host's per-pixel code, so sums agree to float rounding.
TYPED_TEST(MotionBackendParity, RenderMatchesHost) {
  const index_t nx = 301, ny = 256; // odd width: the R2C half spectrum and mirror taps at both parities
  const int n = 9, first = 2;
  const Image<float> frames = frames_for_render(nx, ny, n, 5);
  const auto movie = this->load(frames.cview(), first);

  SumOptions all;
  all.aligned_sum = all.unaligned_sum = all.halves = all.aligned_frames = true;
  all.dose_weighted = true;
  all.dose.dose_per_frame = 1.3;
  all.pixel_size = 1.1;
  SumOptions mean = all;
  mean.normalization = SumNormalization::Mean;
  mean.dose_weighted = false;
  struct RenderCase {
    const char* label;
    MotionModel model;
    SumOptions options;
  };
  const std::vector<RenderCase> cases = {
      {"global model, all sums", global_model(n, first), all},
      {"global model, mean", global_model(n, first), mean},
      {"residual B-spline, all sums", spline_model(n, first, nx, ny, LocalModelKind::Residual), all},
      {"total B-spline, mean", spline_model(n, first, nx, ny, LocalModelKind::Total), mean},
  };
  const SumRange range{first + 1, n - 2}; // a sub-range: absolute frame numbers, halves by parity
  for (const RenderCase& c : cases) {
    std::printf("%s\n", c.label);
    const FrameSums ref = render_movie(frames.cview(), first, c.model, range, InterpolationMethod::BSpline3, c.options);
    const FrameSums got = movie->renderer().render(c.model, range, InterpolationMethod::BSpline3, c.options);
    check_sum("aligned", got.aligned, ref.aligned, 1e-5, c.label);
    check_sum("unaligned", got.unaligned, ref.unaligned, 1e-6, c.label);
    check_sum("even", got.even, ref.even, 1e-5, c.label);
    check_sum("odd", got.odd, ref.odd, 1e-5, c.label);
    check_sum("aligned frames", got.aligned_frames, ref.aligned_frames, 1e-5, c.label);
    check_sum("dose weighted", got.dose_weighted, ref.dose_weighted, 1e-4, c.label);
    EXPECT_EQ(got.first_frame, ref.first_frame);
    EXPECT_EQ(got.frame_count, ref.frame_count);
  }
  std::printf("%s\n", movie->device_times().c_str());
}

/// Shell sums within `bound` of each shell's power (the cross term of the shell's sqrt(pa·pb)).
void check_shells(const char* what, const fft::ShellSums& got, const fft::ShellSums& want, double bound) {
  ASSERT_EQ(got.rings, want.rings) << what;
  ASSERT_EQ(got.cross.size(), want.cross.size()) << what;
  double worst = 0;
  for (std::size_t s = 0; s < want.cross.size(); ++s) {
    const double scale = std::sqrt(want.power_a[s] * want.power_b[s]);
    if (scale == 0) continue;
    worst = std::max({worst, std::abs(got.cross[s] - want.cross[s]) / scale,
                      std::abs(got.power_a[s] - want.power_a[s]) / want.power_a[s],
                      std::abs(got.power_b[s] - want.power_b[s]) / want.power_b[s]});
  }
  worst = std::max({worst, std::abs(got.band_a - want.band_a) / want.band_a, std::abs(got.band_b - want.band_b) / want.band_b});
  std::printf("  %-10s largest shell difference %.3e of the shell's power\n", what, worst);
  EXPECT_LE(worst, bound) << what;
}

// The sums' quality (SumOptions::quality) without the sums themselves: the shell sums of the halves
// and of the weighting check equal those of the host renderer's images (sum_quality), per shell
// within 1e-4 of its power (the sums agree to 1e-5 rms/std, the two FFT libraries to about 1e-6),
// and no image comes back that was not asked for. With weights of 1 (a negligible dose) the
// weighting check's ratio is 1.
TYPED_TEST(MotionBackendParity, RenderQualityMatchesTheHostsImages) {
  const index_t nx = 301, ny = 256;
  const int n = 9, first = 2;
  const Image<float> frames = frames_for_render(nx, ny, n, 5);
  const auto movie = this->load(frames.cview(), first);
  const MotionModel model = spline_model(n, first, nx, ny, LocalModelKind::Residual);
  const SumRange range{first + 1, n - 2};
  SumOptions quality;
  quality.aligned_sum = false;
  quality.quality = quality.dose_weighted = true;
  quality.dose.dose_per_frame = 1.3;
  quality.pixel_size = 1.1;
  quality.normalization = SumNormalization::Mean; // the quality is of the sums, whatever the normalisation
  SumOptions images = quality;
  images.quality = false;
  images.aligned_sum = images.halves = true;
  images.normalization = SumNormalization::Sum;
  const FrameSums ref = render_movie(frames.cview(), first, model, range, InterpolationMethod::BSpline3, images);
  const SumQuality want =
      sum_quality(ref.even.cview(), ref.odd.cview(), ref.dose_weighted.cview(), ref.aligned.cview(), range.count);
  const FrameSums got = movie->renderer().render(model, range, InterpolationMethod::BSpline3, quality);
  EXPECT_EQ(got.aligned.size(), 0);
  EXPECT_EQ(got.even.size(), 0);
  EXPECT_EQ(got.odd.size(), 0);
  check_sum("dose weighted", got.dose_weighted, ref.dose_weighted, 1e-4, "quality");
  ASSERT_TRUE(got.quality.has_value());
  ASSERT_TRUE(got.quality->weighting.has_value());
  check_shells("halves", got.quality->halves, want.halves, 1e-4);
  check_shells("weighting", *got.quality->weighting, *want.weighting, 1e-4);

  SumOptions neutral = quality;
  neutral.dose.dose_per_frame = 1e-9;
  const FrameSums flat = movie->renderer().render(model, range, InterpolationMethod::BSpline3, neutral);
  ASSERT_TRUE(flat.quality.has_value() && flat.quality->weighting.has_value());
  EXPECT_NEAR(flat.quality->weighting->band_a / flat.quality->weighting->band_b, 1.0, 1e-5);
  // Without dose weighting there is no weighting check.
  SumOptions plain = quality;
  plain.dose_weighted = false;
  const FrameSums halves_only = movie->renderer().render(model, range, InterpolationMethod::BSpline3, plain);
  ASSERT_TRUE(halves_only.quality.has_value());
  EXPECT_FALSE(halves_only.quality->weighting.has_value());
  check_shells("no weighting", halves_only.quality->halves, want.halves, 1e-4);
}

// Interpolations other than bspline3 run the host renderer on every backend: exact.
TYPED_TEST(MotionBackendParity, RenderOtherInterpolationsAreExact) {
  const Image<float> frames = frames_for_render(128, 96, 5, 6);
  const auto movie = this->load(frames.cview(), 0);
  const MotionModel model = global_model(5, 0);
  for (const InterpolationMethod method : {InterpolationMethod::Bilinear, InterpolationMethod::Fourier}) {
    const FrameSums ref = render_movie(frames.cview(), 0, model, {0, 5}, method, {});
    const FrameSums got = movie->renderer().render(model, {0, 5}, method, {});
    EXPECT_EQ(max_abs_diff(got.aligned.cview(), ref.aligned.cview()), 0.0);
  }
}

TYPED_TEST(MotionBackendParity, RenderRejectsWhatTheHostRejects) {
  const Image<float> frames = frames_for_render(64, 64, 4, 8);
  const auto movie = this->load(frames.cview(), 0);
  EXPECT_THROW(movie->renderer().render(global_model(4, 0), {2, 5}, InterpolationMethod::BSpline3, {}), frost::Error);
  EXPECT_THROW(movie->renderer().render(spline_model(4, 0, 64, 64, LocalModelKind::Residual), {0, 4},
                                        InterpolationMethod::Fourier, {}),
               frost::Error);
}

// ---- the whole pipeline -----------------------------------------------------------------------

/// The CPU pipeline on the T3 movie file of `seed`: the reference of the pipeline tests (once per
/// process and settings).
const MovieAlignment& cpu_pipeline(std::uint32_t seed, const MovieAlignSettings& settings, const RenderRequest& render) {
  static std::map<std::pair<std::uint32_t, bool>, MovieAlignment> done;
  const auto key = std::make_pair(seed, settings.global.mode == GlobalMode::Sum);
  auto it = done.find(key);
  if (it == done.end()) {
    const auto backend = backend_test::cpu_backend();
    LoadedMovie movie = load_movie(backend_test::t3_movie_file(seed), settings, *backend);
    it = done.emplace(key, align_movie(movie, settings, render)).first;
  }
  return it->second;
}

int differing_peaks(const GlobalAlignment& a, const GlobalAlignment& b) {
  int n = 0;
  for (std::size_t k = 0; k < b.pairs.size(); ++k)
    n += (a.pairs[k].measurement.peak.ix != b.pairs[k].measurement.peak.ix ||
          a.pairs[k].measurement.peak.iy != b.pairs[k].measurement.peak.iy)
             ? 1
             : 0;
  return n;
}

TYPED_TEST(MotionBackendParity, PipelineMatchesCpuOnT3) {
  const MovieAlignSettings settings = backend_test::t3_settings();
  RenderRequest render;
  render.aligned_sum = render.dose_weighted = true;
  const MovieAlignment& ref = cpu_pipeline(31, settings, render);
  LoadedMovie movie = load_movie(backend_test::t3_movie_file(31), settings, this->backend());
  const MovieAlignment got = align_movie(movie, settings, render);
  ASSERT_TRUE(got.local && ref.local && got.sums && ref.sums);

  const double shift_diff = max_shift_diff(got.global.shifts, ref.global.shifts);
  const int peaks = differing_peaks(got.global, ref.global);
  double patch_diff = 0;
  for (std::size_t p = 0; p < ref.local->patches.size(); ++p)
    patch_diff = std::max(patch_diff, max_shift_diff(got.local->patches[p].residual, ref.local->patches[p].residual));
  ASSERT_EQ(got.model.local.has_value(), ref.model.local.has_value());
  const double model_diff = max_model_diff(got.model, ref.model, 1024, 1024);
  const double mic = rms_over_std(got.sums->aligned.cview(), ref.sums->aligned.cview());
  const double mic_dw = rms_over_std(got.sums->dose_weighted.cview(), ref.sums->dose_weighted.cview());
  std::printf("global: max shift diff %.2e px, %d of %zu pair maxima differ, reference %d/%d\n", shift_diff, peaks,
              ref.global.pairs.size(), got.global.reference, ref.global.reference);
  std::printf("local: max patch residual diff %.2e px, model diff %.2e px (33x33 grid, all frames), fallback %d/%d\n",
              patch_diff, model_diff, got.local->fell_back ? 1 : 0, ref.local->fell_back ? 1 : 0);
  std::printf("micrograph rms/std %.2e, dose-weighted %.2e\n%s\n", mic, mic_dw, got.device_times.c_str());
  EXPECT_LE(shift_diff, 0.01);
  EXPECT_LE(peaks, static_cast<int>(ref.global.pairs.size()) / 100);
  EXPECT_EQ(got.global.reference, ref.global.reference);
  EXPECT_LE(model_diff, 0.02);
  EXPECT_LE(mic, 1e-3);
  EXPECT_LE(mic_dw, 1e-3);
}

TYPED_TEST(MotionBackendParity, SumModeMatchesCpu) {
  MovieAlignSettings settings = backend_test::t3_settings();
  settings.global.mode = GlobalMode::Sum;
  settings.local = false;
  const MovieAlignment& ref = cpu_pipeline(33, settings, {});
  LoadedMovie movie = load_movie(backend_test::t3_movie_file(33), settings, this->backend());
  const MovieAlignment got = align_movie(movie, settings, {});
  const double d = max_shift_diff(got.global.shifts, ref.global.shifts);
  std::printf("sum mode: max shift diff %.2e px, iterations %d/%d\n", d, got.global.solver_rounds,
              ref.global.solver_rounds);
  EXPECT_LE(d, 0.01);
}

} // namespace
} // namespace frost::motion
