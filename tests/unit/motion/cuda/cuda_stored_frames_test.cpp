// The device decoder of the CUDA movie backend (docs/movie_align.md#movie-formats and
// #cpu-and-gpu-equivalence): stored MRC bytes decoded on the device (every readable mode, both byte
// orders, mode 101 with padded rows, chunks that cross frame boundaries) against the host codec
// decode_mrc_rows(), dark/gain against correct_frame(), NaN refused as the reader refuses it. All
// byte-exact: the device runs the same per-element rules (mrc_pixel.hpp, corrected_pixel()). A
// whole movie through MovieReader on each backend is MotionBackendParity.ReaderFramesLoadExactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "frost/cuda/motion.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_codec.hpp"
#include "frost/motion/frame_correction.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

struct ModeCase {
  const char* label;
  int mode;
  bool swap;
  bool mode0_unsigned;
  index_t nx, ny, frames;
};

std::vector<unsigned char> random_bytes(std::size_t n, std::uint32_t seed) {
  std::vector<unsigned char> b(n);
  std::mt19937 rng(seed);
  for (unsigned char& c : b) c = static_cast<unsigned char>(rng() & 0xffu);
  return b;
}

cuda::StoredFrameSource source_of(const std::vector<unsigned char>& bytes, int mode, bool swap, bool mode0_unsigned,
                                  index_t nx, index_t ny) {
  cuda::StoredFrameSource s;
  s.mode = mode;
  s.swap = swap;
  s.mode0_unsigned = mode0_unsigned;
  s.row_bytes = static_cast<std::int64_t>(io::mrc_row_bytes(mode, nx));
  s.frame_bytes = s.row_bytes * ny;
  s.reject_non_finite = false; // random bits hold NaN and Inf patterns, decoded as the host does
  s.read = [&bytes](std::int64_t offset, std::size_t n, unsigned char* dst) {
    std::memcpy(dst, bytes.data() + offset, n);
  };
  return s;
}

bool same_bits(const Image<float>& a, const Image<float>& b) {
  return a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

TEST(CudaStoredFrames, StoredModesDecodeAsTheHostCodec) {
  FROST_REQUIRE_GPU();
  const std::vector<ModeCase> cases = {
      {"mode 0 signed", 0, false, false, 301, 77, 5},
      {"mode 0 unsigned", 0, false, true, 301, 77, 5},
      {"mode 1", 1, false, false, 200, 90, 4},
      {"mode 1 big-endian", 1, true, false, 200, 90, 4},
      {"mode 2 (several chunks)", 2, false, false, 1024, 700, 4},
      {"mode 2 big-endian", 2, true, false, 130, 64, 3},
      {"mode 6", 6, false, false, 128, 99, 3},
      {"mode 12", 12, false, false, 256, 128, 3},
      {"mode 12 big-endian", 12, true, false, 256, 128, 3},
      {"mode 101 odd width", 101, false, false, 333, 65, 4},
  };
  for (const ModeCase& c : cases) {
    const auto row_bytes = io::mrc_row_bytes(c.mode, c.nx);
    const std::vector<unsigned char> bytes =
        random_bytes(row_bytes * static_cast<std::size_t>(c.ny * c.frames), static_cast<std::uint32_t>(c.mode * 7 + c.nx));
    Image<float> host(Shape::image(c.nx, c.ny, c.frames));
    io::decode_mrc_rows(c.mode, bytes.data(), c.swap, c.mode0_unsigned, c.nx, c.ny * c.frames, host.data());
    cuda::CudaMotionOptions o;
    // Small chunks for the small cases: many chunks per reader thread, so every pinned slot is
    // reused (after its event) and chunks start and end inside frames.
    if (c.nx * c.ny * c.frames < 500000) o.upload_chunk_bytes = 3000;
    cuda::CudaMovie movie(static_cast<int>(c.frames), {c.nx, c.ny}, 3,
                          source_of(bytes, c.mode, c.swap, c.mode0_unsigned, c.nx, c.ny), o);
    const Image<float> gpu = movie.download_frames();
    std::printf("%-24s %lldx%lldx%lld: %s, upload %.2f ms\n", c.label, static_cast<long long>(c.nx),
                static_cast<long long>(c.ny), static_cast<long long>(c.frames),
                same_bits(gpu, host) ? "bit-identical" : "DIFFERENT", movie.stats().upload_ms);
    EXPECT_TRUE(same_bits(gpu, host)) << c.label;
  }
}

TEST(CudaStoredFrames, StoredFramesDarkAndGainAsCorrectFrame) {
  FROST_REQUIRE_GPU();
  const index_t nx = 190, ny = 83, n = 6;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> counts(-3, 40);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(nx * ny * n) * 2);
  for (std::size_t i = 0; i < bytes.size() / 2; ++i) {
    const auto v = static_cast<std::int16_t>(counts(rng));
    std::memcpy(bytes.data() + 2 * i, &v, 2);
  }
  const std::vector<float> dark = test::random_floats(static_cast<std::size_t>(nx * ny), 12, -0.5f, 0.5f);
  const std::vector<float> gain = test::random_floats(static_cast<std::size_t>(nx * ny), 13, 0.7f, 1.3f);
  const Shape frame = Shape::image(nx, ny);
  for (int variant = 0; variant < 3; ++variant) { // dark + gain, gain only, dark only
    const float* d = variant == 1 ? nullptr : dark.data();
    const float* g = variant == 2 ? nullptr : gain.data();
    Image<float> host(Shape::image(nx, ny, n));
    io::decode_mrc_rows(1, bytes.data(), false, false, nx, ny * n, host.data());
    for (index_t t = 0; t < n; ++t) correct_frame(host.data() + t * nx * ny, nx * ny, d, g);
    cuda::StoredFrameSource s = source_of(bytes, 1, false, false, nx, ny);
    s.dark = d ? View<const float>{d, frame} : View<const float>{};
    s.gain = g ? View<const float>{g, frame} : View<const float>{};
    cuda::CudaMovie movie(static_cast<int>(n), {nx, ny}, 0, s);
    EXPECT_TRUE(same_bits(movie.download_frames(), host)) << "variant " << variant;
  }
}

// A float movie with a NaN pixel: the device decoder refuses it as the host reader does, with
// the same message (file and 1-based frame).
TEST(CudaStoredFrames, NonFiniteStoredFramesAreAnInputError) {
  FROST_REQUIRE_GPU();
  test::TempDir dir;
  const index_t nx = 96, ny = 64, n = 5;
  Image<float> movie(Shape::image(nx, ny, n));
  const std::vector<float> v = test::random_floats(static_cast<std::size_t>(movie.size()), 5, 0.f, 4.f);
  std::copy(v.begin(), v.end(), movie.data());
  movie(17, 40, 0, 3) = std::numeric_limits<float>::quiet_NaN();
  io::write_image(dir.file("nan.mrcs"), movie.cview());

  MovieReader reader(dir.file("nan.mrcs"), MovieReadOptions{});
  std::string host_message;
  try {
    reader.read_all();
    ADD_FAILURE() << "the host reader accepted a NaN";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    host_message = e.what();
  }
  EXPECT_NE(host_message.find("frame 4 (1-based)"), std::string::npos) << host_message;
  EXPECT_NE(host_message.find("nan.mrcs"), std::string::npos) << host_message;

  const std::optional<StoredFrames> stored = reader.stored_frames();
  ASSERT_TRUE(stored.has_value());
  cuda::StoredFrameSource s;
  s.name = reader.path();
  s.mode = stored->mode;
  s.frame_bytes = stored->frame_bytes;
  s.row_bytes = stored->row_bytes;
  s.read = [&reader](std::int64_t offset, std::size_t bytes, unsigned char* dst) { reader.read_stored(offset, bytes, dst); };
  try {
    cuda::CudaMovie gpu(static_cast<int>(n), {nx, ny}, 0, s);
    ADD_FAILURE() << "the device decoder accepted a NaN";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    const std::string what = e.what();
    EXPECT_NE(what.find("frame 4 (1-based)"), std::string::npos) << what;
    EXPECT_NE(what.find("nan.mrcs"), std::string::npos) << what;
  }
}

} // namespace
} // namespace frost::motion
