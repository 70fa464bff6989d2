// GPU memory pressure, through the built programs on data from frost_simulate:
// * FROST_GPU_MEMORY_LIMIT_MB (cuda/core/src/device_buffer.cpp, memory_info()) caps the free GPU
//   memory that every batch planner sizes its batches by. Each GPU program runs once on GPU 0
//   without the variable and once with a limit that forces several batches but still fits its
//   minimum; both runs must exit 0 and give the same outputs (tolerances at each test);
// * a limit too small for the minimum (1 MiB) ends each program with exit code 4 (ExitCode::Device)
//   and an error message about GPU memory on stderr: no crash, no file at the output paths, no
//   AtomicFile temporary (`<output>.frost-tmp-<pid>`) left in the output folder;
// * a malformed value ends each program with exit code 2 (usage) and a message naming the variable.
// None of the programs logs its batch sizes (not even with -v 2), so the tests cannot see that the
// batches got smaller: the limits below are chosen from the planners' formulas (quoted at each
// test) so that they must. Every test skips with the reason when no GPU is visible (fails instead
// with FROST_REQUIRE_GPU_TESTS=1). Every run has a timeout and prints what it observed.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/test/log_capture.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLimitVar = "FROST_GPU_MEMORY_LIMIT_MB";
constexpr double kTimeout = 180; // seconds for any single program run
constexpr const char* kTmpTag = ".frost-tmp-"; // AtomicFile: <path>.frost-tmp-<pid>

using test::slurp;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ---------------------------------------------------------------------------------------------
// Running programs

using test::Outcome;

/// The environment prefix of a run: FROST_GPU_MEMORY_LIMIT_MB removed (a value in the test's own
/// environment must not leak into the unlimited runs), then set to `limit` unless that is empty.
std::string limit_env(const std::string& limit) {
  std::string e = std::string("env -u ") + kLimitVar;
  if (!limit.empty()) e += std::string(" ") + kLimitVar + "='" + limit + "'";
  return e + " ";
}

/// Runs `command` with the memory limit `limit` ("" = unset) through /bin/sh, in a process group
/// of its own so that a timeout can end it; stdout and stderr go to <log>.out and <log>.err.
Outcome run(const std::string& command, const std::string& log, const std::string& limit) {
  const Outcome o = test::run_program(limit_env(limit) + command, log, kTimeout);
  std::printf("[%s] %s after %.2f s: %s\n", limit.empty() ? "no limit" : (std::string(kLimitVar) + "=" + limit).c_str(),
              o.status().c_str(), o.seconds, command.c_str());
  return o;
}

/// The run's status and stderr, for failure messages.
std::string report(const Outcome& o) { return o.status() + "; stderr:\n" + o.err; }

/// AtomicFile temporaries left in `dir`.
std::vector<std::string> temporaries(const std::string& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().find(kTmpTag) != std::string::npos) found.push_back(e.path().filename().string());
  return found;
}

// ---------------------------------------------------------------------------------------------
// The programs, all on GPU 0

std::string simulate_cmd(const std::string& args) { return std::string(FROST_SIMULATE_EXE) + " -v 0 " + args; }
std::string movie_cmd(const std::string& args) {
  return std::string(FROST_MOVIE_ALIGN_EXE) + " --device 0 --progress none " + args;
}
std::string align_cmd(const std::string& args) { return std::string(FROST_ALIGN_EXE) + " --device 0 " + args; }
std::string reconstruct_cmd(const std::string& args) {
  return std::string(FROST_RECONSTRUCT_EXE) + " --device 0 --progress none " + args;
}

// ---------------------------------------------------------------------------------------------
// Comparing outputs

/// max |a - b| over the pixels, and the data range (max - min) of the reference `a`.
struct ImageDiff {
  double max_abs = 0, range = 0;
  bool identical = true;
  double relative() const { return range > 0 ? max_abs / range : max_abs; }
};

ImageDiff compare_images(const Image<float>& a, const Image<float>& b) {
  ImageDiff d;
  if (a.size() == 0) return d;
  float lo = a[0], hi = a[0];
  for (index_t i = 0; i < a.size(); ++i) {
    lo = std::min(lo, a[i]);
    hi = std::max(hi, a[i]);
    const double diff = std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
    d.max_abs = std::max(d.max_abs, diff);
    d.identical = d.identical && a[i] == b[i];
  }
  d.range = static_cast<double>(hi) - static_cast<double>(lo);
  return d;
}

/// Largest |a[i] - b[i]| (sizes must match; checked by the caller).
double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

/// Difference of two angles in degrees, folded into [0, 180].
double angle_diff(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 360.0);
  return std::min(d, 360.0 - d);
}

// ---------------------------------------------------------------------------------------------
// Data, made once per test process on first use (so that skipped tests cost nothing):
// * mv.mrcs + mv_gain.mrc: a 512² x 16 float32 movie (16 MiB of frames), trajectory T1;
// * p.mrcs + p.star + p.xmd + p_phantom.mrc: 200 noise-free projections of a 64³ blob phantom,
//   shifts up to 2 px, 2 Å/px.

class GpuMemoryPressure : public ::testing::Test {
protected:
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
    movie_ready_ = particles_ready_ = false;
  }
  static test::TempDir& dir() {
    if (!dir_) dir_ = new test::TempDir();
    return *dir_;
  }
  static std::string file(const std::string& name) { return dir().file(name); }
  /// A fresh, empty output folder.
  static std::string out_dir(const std::string& name) {
    const std::string d = file(name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
  }

  static bool ensure_movie() {
    if (movie_ready_) return true;
    const Outcome o = run(simulate_cmd("--mode movie --size 512 512 --frames 16 --trajectory T1 --gain --dose 4 "
                                       "--contrast 0.2 --seed 3 --oroot " + file("mv")),
                          file("sim_mv"), "");
    EXPECT_EQ(o.exit_code, 0) << report(o);
    movie_ready_ = o.exit_code == 0;
    return movie_ready_;
  }
  static bool ensure_particles() {
    if (particles_ready_) return true;
    const Outcome o = run(simulate_cmd("--mode projections --box 64 --count 200 --max_shift 2 --sampling 2 --seed 7 "
                                       "--oroot " + file("p")),
                          file("sim_p"), "");
    EXPECT_EQ(o.exit_code, 0) << report(o);
    particles_ready_ = o.exit_code == 0;
    return particles_ready_;
  }

  // The three runs of each program: output folder `d`, outputs named there.
  static std::string movie_args(const std::string& d) {
    return "-i " + file("mv.mrcs") + " --gain " + file("mv_gain.mrc") +
           " --patches 2 2 --minLocalRes 256 --controlPoints 4 4 4 --dose-weight --dose-per-frame 1.5 --oavg " + d +
           "/mic.mrc -o " + d + "/mic.star";
  }
  static std::vector<std::string> movie_outputs(const std::string& d) { return {d + "/mic.mrc", d + "/mic.star"}; }
  static std::string align_args(const std::string& d) {
    return "-i " + file("p.xmd") + " --volume " + file("p_phantom.mrc") + " --sampling 15 --pixel-size 2 -o " + d +
           "/angles.xmd";
  }
  static std::vector<std::string> align_outputs(const std::string& d) { return {d + "/angles.xmd", d + "/angles.star"}; }
  static std::string reconstruct_args(const std::string& d) {
    return "-i " + file("p.star") + " -o " + d + "/map.mrc --sym d7 --sym_mode grid"; // symmetrised at the finish
  }
  static std::vector<std::string> reconstruct_outputs(const std::string& d) { return {d + "/map.mrc"}; }

  /// The out-of-memory contract: exit 4, an error about GPU memory on stderr, no output, no
  /// temporary, no crash, no hang.
  static void expect_out_of_memory(const std::string& what, const Outcome& o, const std::string& d,
                                   const std::vector<std::string>& outputs) {
    std::printf("%s with %s=1: %s; stderr: %s", what.c_str(), kLimitVar, o.status().c_str(), o.err.c_str());
    EXPECT_FALSE(o.timed_out) << what << " hung";
    EXPECT_EQ(o.signal, 0) << what << " crashed: " << report(o);
    EXPECT_EQ(o.exit_code, 4) << what << ": " << report(o); // ExitCode::Device
    const std::string err = lower(o.err);
    EXPECT_NE(err.find("error:"), std::string::npos) << what << ": no error line: " << report(o);
    EXPECT_NE(err.find("memory"), std::string::npos) << what << ": the message does not say it is about memory: "
                                                     << report(o);
    EXPECT_TRUE(err.find("cuda") != std::string::npos || err.find("gpu") != std::string::npos ||
                err.find("device") != std::string::npos)
        << what << ": the message does not say it is about the GPU: " << report(o);
    EXPECT_EQ(err.find("unexpected failure"), std::string::npos) << what << ": not a frost::Error: " << report(o);
    for (const auto& p : outputs) EXPECT_FALSE(fs::exists(p)) << what << " left " << p;
    EXPECT_TRUE(temporaries(d).empty()) << what << " left a temporary: " << temporaries(d).front();
  }

  /// The malformed-value contract: exit 2 and a message naming the variable (and the value).
  static void expect_malformed(const std::string& what, const std::string& value, const Outcome& o,
                               const std::string& d, const std::vector<std::string>& outputs) {
    std::printf("%s with %s='%s': %s; stderr: %s", what.c_str(), kLimitVar, value.c_str(), o.status().c_str(),
                o.err.c_str());
    EXPECT_FALSE(o.timed_out) << what << " hung";
    EXPECT_EQ(o.signal, 0) << what << " crashed: " << report(o);
    EXPECT_EQ(o.exit_code, 2) << what << " with '" << value << "': " << report(o); // ExitCode::Usage
    EXPECT_NE(o.err.find(kLimitVar), std::string::npos) << what << ": the message does not name " << kLimitVar << ": "
                                                        << report(o);
    EXPECT_NE(o.err.find("'" + value + "'"), std::string::npos) << what << ": the message does not quote the value: "
                                                                << report(o);
    for (const auto& p : outputs) EXPECT_FALSE(fs::exists(p)) << what << " left " << p;
    EXPECT_TRUE(temporaries(d).empty()) << what << " left a temporary: " << temporaries(d).front();
  }

  static test::TempDir* dir_;
  static bool movie_ready_, particles_ready_;
};
test::TempDir* GpuMemoryPressure::dir_ = nullptr;
bool GpuMemoryPressure::movie_ready_ = false;
bool GpuMemoryPressure::particles_ready_ = false;

/// (shiftX, shiftY) per frame number of the global_shift loop of a frost alignment STAR.
std::map<long long, std::pair<double, double>> global_shifts(const std::string& path) {
  const meta::MetadataFile f = meta::MetadataFile::read(path);
  const meta::Block& b = f.block("global_shift");
  const auto frame = b.ints("rlnMicrographFrameNumber");
  const auto sx = b.doubles("rlnMicrographShiftX"), sy = b.doubles("rlnMicrographShiftY");
  std::map<long long, std::pair<double, double>> out;
  for (std::size_t i = 0; i < frame.size(); ++i) out[frame[i]] = {sx[i], sy[i]};
  return out;
}

// ---------------------------------------------------------------------------------------------
// frost_movie_align

// Limit 40 MiB. The limit counts what the process holds (memory_info): the movie's frames
// (16 x 512² floats = 16 MiB) are the minimum and must fit (cuda_movie.cpp make_impl); the batches
// then share what is left, 24 MiB (default --gpu-mem-fraction 0.9: 21.6 MiB; the planners use
// half of it). Batches (cuda/motion/src): spectra 2·(512²·4 + 257·512·8) B ≈ 4 MiB
// per frame -> 2 frames per R2C batch instead of 16; render (dose weighted) ≈ 5 MiB per frame -> 2
// instead of 16; patch stacks ≈ 12.6 MiB per 256-px patch of 16 frames -> 1 patch instead of 4;
// correlation maps: a few hundred KiB per pair -> several batches instead of one for the 120 pairs.
// Tolerances: every per-frame and per-pair result is computed by the same kernels whatever the
// batch; only cuFFT's batched plans differ (batch counts), so differences are rounding-level:
// global and fitted local shifts within 1e-4 px, micrograph max |diff| <= 1e-5 of its range.
TEST_F(GpuMemoryPressure, MovieAlignLowLimitGivesTheSameMicrographAndShifts) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_movie());
  const std::string full = out_dir("movie_full"), low = out_dir("movie_low");
  const Outcome a = run(movie_cmd(movie_args(full)), full + "/log", "");
  ASSERT_EQ(a.exit_code, 0) << report(a);
  const Outcome b = run(movie_cmd(movie_args(low)), low + "/log", "40");
  ASSERT_EQ(b.exit_code, 0) << "with " << kLimitVar << "=40: " << report(b);

  const auto sa = global_shifts(full + "/mic.star"), sb = global_shifts(low + "/mic.star");
  ASSERT_EQ(sa.size(), 16u);
  ASSERT_EQ(sb.size(), sa.size());
  double global_diff = 0;
  for (const auto& [frame, s] : sa) {
    ASSERT_EQ(sb.count(frame), 1u) << "frame " << frame;
    global_diff = std::max({global_diff, std::abs(sb.at(frame).first - s.first), std::abs(sb.at(frame).second - s.second)});
  }
  const meta::MetadataFile ma = meta::MetadataFile::read(full + "/mic.star"), mb = meta::MetadataFile::read(low + "/mic.star");
  EXPECT_EQ(ma.block("general").get_int("frostReferenceFrame"), mb.block("general").get_int("frostReferenceFrame"));
  const meta::Block &la = ma.block("local_shift"), &lb = mb.block("local_shift");
  ASSERT_EQ(la.rows(), 4u * 16u);
  ASSERT_EQ(lb.rows(), la.rows());
  const double local_diff = std::max(max_abs_diff(la.doubles("frostFittedShiftX"), lb.doubles("frostFittedShiftX")),
                                     max_abs_diff(la.doubles("frostFittedShiftY"), lb.doubles("frostFittedShiftY")));

  const Image<float> mic_a = io::read_image(full + "/mic.mrc").image, mic_b = io::read_image(low + "/mic.mrc").image;
  ASSERT_EQ(mic_a.shape(), Shape::image(512, 512));
  ASSERT_EQ(mic_b.shape(), mic_a.shape());
  const ImageDiff d = compare_images(mic_a, mic_b);
  std::printf("movie 512^2 x 16, limit 40 MiB vs none: global shifts max diff %.3g px, fitted local shifts %.3g px, "
              "micrograph max |diff| %.3g = %.3g of the range %.4g (%s); %.2f s vs %.2f s\n",
              global_diff, local_diff, d.max_abs, d.relative(), d.range, d.identical ? "bit-identical" : "not identical",
              b.seconds, a.seconds);
  EXPECT_LE(global_diff, 1e-4);
  EXPECT_LE(local_diff, 1e-4);
  EXPECT_GT(d.range, 0);
  EXPECT_LE(d.relative(), 1e-5);
}

TEST_F(GpuMemoryPressure, MovieAlignOutOfMemoryIsAClearDeviceError) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_movie());
  const std::string d = out_dir("movie_oom");
  // 1 MiB: the frames (16 MiB) do not fit ("the movie (...) does not fit in the free memory of
  // CUDA device 0").
  expect_out_of_memory("frost_movie_align", run(movie_cmd(movie_args(d)), d + "/log", "1"), d, movie_outputs(d));
}

TEST_F(GpuMemoryPressure, MovieAlignMalformedLimitIsAUsageError) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_movie());
  for (const char* value : {"abc", "64MiB", "-5"}) {
    const std::string d = out_dir("movie_bad");
    expect_malformed("frost_movie_align", value, run(movie_cmd(movie_args(d)), d + "/log", value), d, movie_outputs(d));
  }
}

// ---------------------------------------------------------------------------------------------
// frost_align_significant

// 200 images of 64 px against the gallery of the phantom at 15° (about 184 references).
// Limit 340 MiB. plan_alignment_memory (cuda/alignment/src/cuda_backend.cpp): usable = 0.8 (default
// --gpu-mem-fraction) x free - 256 MiB reserve - cuFFT work area, so the minimum is a little over
// 320 MiB and 340 MiB leaves 16 MiB minus the work area. At 64 px a batch image takes ≈ 150 KiB and a
// reference ≈ 75 KiB: B = usable/4/150 KiB ≈ 27 images per batch (8 batches) instead of
// min(N_img, 256) = 200 (one batch), and reference blocks of ≈ 80 (3 blocks) instead of all.
// Tolerances: every trajectory runs the same kernels whatever the batch; only the batch count of
// the cuFFT plans differs. Each image's row: same reference and flip (exact), psi within 1e-3°,
// shifts within 1e-3 px, maxCC within 1e-5.
TEST_F(GpuMemoryPressure, AlignSignificantLowLimitGivesTheSamePoses) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_particles());
  const std::string full = out_dir("align_full"), low = out_dir("align_low");
  const Outcome a = run(align_cmd(align_args(full)), full + "/log", "");
  ASSERT_EQ(a.exit_code, 0) << report(a);
  const Outcome b = run(align_cmd(align_args(low)), low + "/log", "340");
  ASSERT_EQ(b.exit_code, 0) << "with " << kLimitVar << "=340: " << report(b);

  const meta::Block ba = meta::read_block(full + "/angles.xmd"), bb = meta::read_block(low + "/angles.xmd");
  ASSERT_EQ(ba.rows(), 200u);
  ASSERT_EQ(bb.rows(), ba.rows());
  EXPECT_EQ(ba.strings("image"), bb.strings("image"));
  EXPECT_EQ(ba.ints("ref"), bb.ints("ref"));
  EXPECT_EQ(ba.ints("flip"), bb.ints("flip"));
  const auto pa = ba.doubles("anglePsi"), pb = bb.doubles("anglePsi");
  double psi_diff = 0;
  for (std::size_t i = 0; i < pa.size(); ++i) psi_diff = std::max(psi_diff, angle_diff(pa[i], pb[i]));
  const double shift_diff = std::max(max_abs_diff(ba.doubles("shiftX"), bb.doubles("shiftX")),
                                     max_abs_diff(ba.doubles("shiftY"), bb.doubles("shiftY")));
  const double cc_diff = max_abs_diff(ba.doubles("maxCC"), bb.doubles("maxCC"));
  const bool identical = slurp(full + "/angles.xmd") == slurp(low + "/angles.xmd");
  std::printf("align significant 200 x 64 px, limit 340 MiB vs none: psi max diff %.3g deg, shifts %.3g px, maxCC "
              "%.3g (files %s); %.2f s vs %.2f s\n",
              psi_diff, shift_diff, cc_diff, identical ? "byte-identical" : "not identical", b.seconds, a.seconds);
  EXPECT_LE(psi_diff, 1e-3);
  EXPECT_LE(shift_diff, 1e-3);
  EXPECT_LE(cc_diff, 1e-5);
}

TEST_F(GpuMemoryPressure, AlignSignificantOutOfMemoryIsAClearDeviceError) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_particles());
  const std::string d = out_dir("align_oom");
  // 1 MiB: 0.8 MiB - 256 MiB reserve is below one image, reference and batch ("CUDA aligner: not
  // enough device memory for one image, reference and batch").
  expect_out_of_memory("frost_align_significant", run(align_cmd(align_args(d)), d + "/log", "1"), d, align_outputs(d));
}

TEST_F(GpuMemoryPressure, AlignSignificantMalformedLimitIsAUsageError) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_particles());
  const std::string d = out_dir("align_bad");
  expect_malformed("frost_align_significant", "abc", run(align_cmd(align_args(d)), d + "/log", "abc"), d,
                   align_outputs(d));
}

// ---------------------------------------------------------------------------------------------
// frost_reconstruct_fourier

// 200 projections of 64 px, padding 2: the cube is 129³ voxels x 12 B = 25.8 MiB. Limit 290 MiB.
// The accumulator (cuda/reconstruction/src/memory_plan.cpp) needs cube + blob table + 256 MiB
// reserve ≈ 282 MiB of free memory, so 290 MiB just fits the minimum. The image batches are the
// user's --bufferSize (25 images, a few MiB), not sized by memory; what follows the free memory
// is the finish: with the cube and the batches held, less than a half grid + 256 MiB is left, so
// the grid is symmetrised on the host instead of the device (memory_plan.cpp
// half_grids_fit), and the fold chunk is min(32 MiB, free / 4).
// Tolerance: the insertion adds with atomics from 4 streams, so the order of the float additions
// differs from run to run: map max |diff| <= 1e-5 of its range.
TEST_F(GpuMemoryPressure, ReconstructFourierLowLimitGivesTheSameMap) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_particles());
  const std::string full = out_dir("rec_full"), low = out_dir("rec_low");
  const Outcome a = run(reconstruct_cmd(reconstruct_args(full)), full + "/log", "");
  ASSERT_EQ(a.exit_code, 0) << report(a);
  const Outcome b = run(reconstruct_cmd(reconstruct_args(low)), low + "/log", "290");
  ASSERT_EQ(b.exit_code, 0) << "with " << kLimitVar << "=290: " << report(b);
  const std::string adapted = "symmetrising on the host";
  EXPECT_EQ((a.out + a.err).find(adapted), std::string::npos) << report(a);
  EXPECT_NE((b.out + b.err).find(adapted), std::string::npos) << "the finish did not follow the limit: " << report(b);
  const Image<float> ma = io::read_volume(full + "/map.mrc").image, mb = io::read_volume(low + "/map.mrc").image;
  ASSERT_EQ(ma.shape(), Shape::volume(64, 64, 64));
  ASSERT_EQ(mb.shape(), ma.shape());
  const ImageDiff d = compare_images(ma, mb);
  std::printf("reconstruct 200 x 64 px, limit 290 MiB vs none: map max |diff| %.3g = %.3g of the range %.4g (%s); "
              "%.2f s vs %.2f s\n",
              d.max_abs, d.relative(), d.range, d.identical ? "bit-identical" : "not identical", b.seconds, a.seconds);
  EXPECT_GT(d.range, 0);
  EXPECT_LE(d.relative(), 1e-5);
}

TEST_F(GpuMemoryPressure, ReconstructFourierOutOfMemoryIsAClearDeviceError) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_particles());
  const std::string d = out_dir("rec_oom");
  // 1 MiB: the cube and the reserve do not fit ("the accumulation grid needs ... but only ... are
  // free; ... or a GPU with more memory").
  expect_out_of_memory("frost_reconstruct_fourier", run(reconstruct_cmd(reconstruct_args(d)), d + "/log", "1"), d,
                       reconstruct_outputs(d));
}

TEST_F(GpuMemoryPressure, ReconstructFourierMalformedLimitIsAUsageError) {
  FROST_REQUIRE_GPU();
  ASSERT_TRUE(ensure_particles());
  const std::string d = out_dir("rec_bad");
  expect_malformed("frost_reconstruct_fourier", "abc", run(reconstruct_cmd(reconstruct_args(d)), d + "/log", "abc"), d,
                   reconstruct_outputs(d));
}

} // namespace
} // namespace frost
