// MoviePipeline: load_movie + align_movie in process on each backend (docs/movie_align.md#pipeline-and-backends):
// the T3 motion recovered to the bounds of docs/movie_align.md#local-accuracy, two runs bit-identical,
// --low-memory changing nothing, the settings checked against the movie before its frames are
// loaded, and the result reporting what ran. CPU/GPU parity is MotionBackendParity's.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "backend_test_support.hpp"
#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "local_movie_cases.hpp"

namespace frost::motion {
namespace {

using backend_test::Backends;
using backend_test::BackendNames;

template <class B>
class MoviePipeline : public backend_test::MotionBackendTest<B> {};
TYPED_TEST_SUITE(MoviePipeline, Backends, BackendNames);

/// A 640 x 410 x 9 movie of Poisson counts (int8 MRC, pixel size `pixel` in the header; 0 =
/// unknown): small enough for the error and option cases.
std::string write_count_movie(const test::TempDir& dir, double pixel) {
  Image<float> movie(Shape::image(640, 410, 9));
  std::mt19937 rng(5);
  std::poisson_distribution<int> counts(2.0);
  for (index_t i = 0; i < movie.size(); ++i) movie[i] = static_cast<float>(std::min(counts(rng), 30));
  io::MrcWriteOptions o;
  o.mode = io::MrcMode::Int8;
  o.pixel_size = pixel;
  const std::string path = dir.file(pixel > 0 ? "counts.mrcs" : "counts_no_pixel.mrcs");
  io::write_image(path, movie.cview(), o);
  return path;
}

bool same_floats(const Image<float>& a, const Image<float>& b) {
  return a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

void expect_same_shifts(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t t = 0; t < a.size(); ++t) {
    EXPECT_EQ(a[t].x, b[t].x) << "frame " << t;
    EXPECT_EQ(a[t].y, b[t].y) << "frame " << t;
  }
}

/// Runs `f`, which must throw frost::Error of class `code` with `text` in its message.
template <class F>
void expect_pipeline_error(F&& f, ExitCode code, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no frost::Error thrown; expected one containing '" << text << "'";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TYPED_TEST(MoviePipeline, RecoversT3Motion) {
  const MovieAlignSettings settings = backend_test::t3_settings();
  LoadedMovie movie = load_movie(backend_test::t3_movie_file(31), settings, this->backend());
  const MovieAlignment a = align_movie(movie, settings, {});
  ASSERT_TRUE(a.model.local.has_value());
  const local_test::Errors e =
      local_test::model_errors(a.model, local_test::t3_movie(4.0, 4.0, 0.2, 31).trajectory, 1024, 1024);
  std::printf("T3 dose 4, c 0.2 on %s: model error rms %.3f px, p95 %.3f px, max %.3f px\n",
              movie.frames->describe().c_str(), e.rms, e.p95, e.max);
  EXPECT_LE(e.rms, 0.20);
  EXPECT_LE(e.p95, 0.35);
}

TYPED_TEST(MoviePipeline, TwoRunsAreBitIdentical) {
  const MovieAlignSettings settings = backend_test::t3_settings();
  RenderRequest render;
  render.aligned_sum = true;
  MovieAlignment runs[2];
  MotionBackend& backend = this->backend();
  for (MovieAlignment& run : runs) {
    LoadedMovie movie = load_movie(backend_test::t3_movie_file(32), settings, backend);
    run = align_movie(movie, settings, render);
  }
  expect_same_shifts(runs[0].global.shifts, runs[1].global.shifts);
  ASSERT_TRUE(runs[0].model.local && runs[1].model.local);
  EXPECT_EQ(runs[0].model.local->cx, runs[1].model.local->cx);
  EXPECT_EQ(runs[0].model.local->cy, runs[1].model.local->cy);
  EXPECT_TRUE(same_floats(runs[0].sums->aligned, runs[1].sums->aligned));
}

// --low-memory holds integer counts on the CPU (streamed stages) and changes nothing on a GPU:
// the results are those of the frames held as floats, bit for bit.
TYPED_TEST(MoviePipeline, LowMemoryChangesNothing) {
  test::TempDir dir;
  const std::string path = write_count_movie(dir, 1.5);
  MovieAlignSettings settings;
  settings.global.max_resolution = 20;
  settings.local_settings.patches_x = settings.local_settings.patches_y = 2;
  settings.local_settings.min_local_resolution = 300;
  RenderRequest render;
  render.aligned_sum = render.halves = true;
  MovieAlignment results[2];
  for (const bool low_memory : {false, true}) {
    MotionBackendOptions options;
    options.low_memory = low_memory;
    LoadedMovie movie = load_movie(path, settings, this->backend(options));
    std::printf("frames on %s\n", movie.frames->describe().c_str());
    results[low_memory ? 1 : 0] = align_movie(movie, settings, render);
  }
  expect_same_shifts(results[0].model.global, results[1].model.global);
  EXPECT_EQ(results[0].model.local.has_value(), results[1].model.local.has_value());
  if (results[0].model.local && results[1].model.local) {
    EXPECT_EQ(results[0].model.local->cx, results[1].model.local->cx);
  }
  EXPECT_TRUE(same_floats(results[0].sums->aligned, results[1].sums->aligned));
  EXPECT_TRUE(same_floats(results[0].sums->even, results[1].sums->even));
}

// Settings that do not fit the movie are refused before its frames are loaded, naming the option.
TYPED_TEST(MoviePipeline, ChecksTheSettingsAgainstTheMovie) {
  test::TempDir dir;
  const std::string path = write_count_movie(dir, 1.5);
  MotionBackend& backend = this->backend();
  MovieAlignSettings too_many = MovieAlignSettings{};
  too_many.local_settings.patches_x = 40;
  expect_pipeline_error([&] { load_movie(path, too_many, backend); }, ExitCode::Usage, "--patches 40");
  MovieAlignSettings two_frames;
  two_frames.read.first_frame = 0;
  two_frames.read.last_frame = 1;
  expect_pipeline_error([&] { load_movie(path, two_frames, backend); }, ExitCode::Input, "at least 3 frames");
  MovieAlignSettings sum_outside;
  sum_outside.sum_range_given = true;
  sum_outside.sum_first = 3;
  sum_outside.sum_last = 12;
  expect_pipeline_error([&] { load_movie(path, sum_outside, backend); }, ExitCode::Usage, "--frameRangeSum 3 12");
  MovieAlignSettings dose_weight;
  dose_weight.dose_weight = true;
  expect_pipeline_error([&] { load_movie(path, dose_weight, backend); }, ExitCode::Usage, "--dose-weight");
  const std::string no_pixel = write_count_movie(dir, 0);
  expect_pipeline_error([&] { load_movie(no_pixel, MovieAlignSettings{}, backend); }, ExitCode::Usage, "--sampling");
}

// The result says what ran: absolute frames, the binning, the stages timed, only the sums asked for.
TYPED_TEST(MoviePipeline, ReportsWhatRan) {
  test::TempDir dir;
  const std::string path = write_count_movie(dir, 1.5);
  MovieAlignSettings settings;
  settings.read.first_frame = 1;
  settings.read.last_frame = 7;
  settings.read.bin = 2.0;
  settings.sum_range_given = true;
  settings.sum_first = 2;
  settings.sum_last = 6;
  settings.local = false;
  RenderRequest render;
  render.unaligned_sum = true;
  LoadedMovie movie = load_movie(path, settings, this->backend());
  EXPECT_EQ(movie.first_frame, 1);
  EXPECT_EQ(movie.frame_count, 7);
  EXPECT_DOUBLE_EQ(movie.pixel_size, 1.5);
  EXPECT_DOUBLE_EQ(movie.binning, 2.0);
  EXPECT_EQ(movie.sum_range.first, 2);
  EXPECT_EQ(movie.sum_range.count, 5);
  const MovieAlignment a = align_movie(movie, settings, render);
  EXPECT_DOUBLE_EQ(a.global_settings.pixel_size, 3.0);
  EXPECT_FALSE(a.local.has_value());
  EXPECT_FALSE(a.model.local.has_value());
  EXPECT_EQ(a.model.first_frame, 1);
  EXPECT_EQ(a.model.binning, 2.0);
  EXPECT_EQ(a.model.global.size(), 7u);
  for (const char* stage : {"Load", "Global", "Render"}) EXPECT_EQ(a.seconds.count(stage), 1u) << stage;
  EXPECT_EQ(a.seconds.count("Local"), 0u);
  ASSERT_TRUE(a.sums.has_value());
  const Shape frame = movie.reader->frame_shape(); // 640 x 410 binned by 2 (even sizes)
  EXPECT_EQ(frame.x, 320);
  EXPECT_EQ(a.sums->unaligned.shape(), Shape::image(frame.x, frame.y));
  EXPECT_EQ(a.sums->aligned.size(), 0);
  EXPECT_EQ(a.sums->first_frame, 2);
  EXPECT_EQ(a.sums->frame_count, 5);
  const MovieAlignment no_render = align_movie(movie, settings, {});
  EXPECT_FALSE(no_render.sums.has_value());
}

} // namespace
} // namespace frost::motion
