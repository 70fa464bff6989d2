// Timings at real sizes (not run by default: --gtest_also_run_disabled_tests
// --gtest_filter='*Throughput*'). A synthetic 4096^2 Falcon-like EER movie (0.02 e/pixel per raw
// frame) and a float MRC movie are loaded through MovieReader with the usual options.
#include <chrono>
#include <random>

#include "eer_test_files.hpp"
#include "frost/core/threads.hpp"
#include "frost/io/eer_decode.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/image_io.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(Throughput, DISABLED_EerAndMrcAtRealSizes) {
  if (!io::eer_supported()) GTEST_SKIP() << "frost was built without libtiff (EER support)";
  test::TempDir dir;
  const std::int64_t w = 4096, pixels = w * w;
  const int raw_frames = 32;
  std::mt19937_64 rng(1);
  std::vector<std::vector<unsigned char>> streams;
  std::geometric_distribution<std::int64_t> gap(0.02);
  for (int f = 0; f < raw_frames; ++f) {
    std::vector<test::Electron> e;
    for (std::int64_t p = gap(rng); p < pixels; p += 1 + gap(rng)) e.push_back({p, int(rng() % 4), int(rng() % 4)});
    streams.push_back(test::encode_eer_frame(e, pixels, {7, 4, false}));
  }
  const std::string eer = dir.file("movie.eer");
  std::string why;
  ASSERT_TRUE(test::write_eer_tiff(eer, streams, w, w, 65001, true, &why)) << why;
  std::printf("threads: %d\n", num_threads());

  Image<float> grid(Shape::image(w, w));
  std::vector<io::EerEvent> events;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& s : streams) {
    ASSERT_TRUE(io::decode_eer_frame(s.data(), s.size(), {7, 4, false}, pixels, events));
    io::render_eer_events(events, w, 4, 1, grid.data());
  }
  std::printf("EER decode + render, one thread: %.1f ms per raw 4096^2 frame (%zu electrons)\n",
              1e3 * seconds_since(t0) / raw_frames, events.size());

  struct Run {
    const char* what;
    int u;
    double bin;
    double hot;
  };
  for (const Run& r : {Run{"u=1 bin 1", 1, 1.0, 0.0}, Run{"u=1 bin 2", 1, 2.0, 0.0}, Run{"u=1 bin 1 hot pixels", 1, 1.0, 6.0},
                       Run{"u=2 bin 2", 2, 2.0, 0.0}}) {
    MovieReadOptions o;
    o.eer_upsampling = r.u;
    o.eer_frames_per_fraction = 4;
    o.bin = r.bin;
    o.hot_pixel_sigma = r.hot;
    t0 = std::chrono::steady_clock::now();
    MovieReader reader(eer, o);
    const Image<float> movie = reader.read_all();
    const double s = seconds_since(t0);
    std::printf("EER %d raw frames -> %lld fractions of %lldx%lld, %s: %.2f s (%.0f ms per fraction)\n", raw_frames,
                (long long)reader.frame_count(), (long long)reader.frame_shape().x, (long long)reader.frame_shape().y,
                r.what, s, 1e3 * s / double(reader.frame_count()));
  }

  const index_t frames = 16;
  Image<float> mrc(Shape{w, w, 1, frames});
  for (index_t i = 0; i < mrc.size(); ++i) mrc[i] = float((i * 2654435761u >> 7) % 3);
  const std::string movie = dir.file("movie.mrcs");
  io::write_image(movie, mrc.cview());
  Image<float> gain(Shape::image(w, w));
  for (float& g : gain) g = 1.1f;
  const std::string gain_path = dir.file("gain.mrc");
  io::write_image(gain_path, gain.cview());
  for (double bin : {1.0, 2.0}) {
    MovieReadOptions o;
    o.gain = gain_path;
    o.bin = bin;
    t0 = std::chrono::steady_clock::now();
    MovieReader reader(movie, o);
    const Image<float> m = reader.read_all();
    const double s = seconds_since(t0);
    std::printf("MRC float32 %lld x 4096^2 with gain, bin %.0f: %.2f s (%.0f ms per frame)\n", (long long)frames, bin, s,
                1e3 * s / double(frames));
  }
}

} // namespace
} // namespace frost::motion
