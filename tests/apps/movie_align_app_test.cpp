// frost_movie_align end to end (docs/movie_align.md#outputs-and-queries): simulate a movie with
// frost_simulate, align it, read the outputs back; global shifts against the truth STAR; the sign
// convention on a movie whose content moves +1 px per frame (frost STAR, RELION STAR, Xmipp XMD,
// warped frames); the RELION export of a local model (version 1 polynomial, re-referenced, frame
// range markers); binning keeps shifts in raw pixels; the trajectories subcommand reproduces the
// fitted shifts; bad input gives the documented exit codes and no output; the default device is the
// GPU if present, else the CPU, with the --device cpu results; batch mode goes on after a failure;
// the PNG pictures decode and show what they should.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <utility>

#include "frost/core/device.hpp"
#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/simulate/movie.hpp"
#include "frost/test/png_decode.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

int run_cmd(const std::string& cmd) {
  const int status = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
int simulate(const std::string& args) { return run_cmd(std::string(FROST_SIMULATE_EXE) + " " + args); }
int align(const std::string& args) { return run_cmd(std::string(FROST_MOVIE_ALIGN_EXE) + " " + args); }
bool exists(const std::string& p) { return access(p.c_str(), F_OK) == 0; }

/// Runs frost_movie_align with stdout and stderr going to `log` (and `env`, "NAME=value ...",
/// set for it); returns the exit status.
int align_logged(const std::string& args, const std::string& log, const std::string& env = "") {
  const std::string cmd = env + " " + FROST_MOVIE_ALIGN_EXE + " " + args + " >" + log + " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// (shiftX, shiftY) per 1-based frame number of a data_global_shift loop.
std::map<long long, std::pair<double, double>> global_shifts(const std::string& path, const char* x = "rlnMicrographShiftX",
                                                             const char* y = "rlnMicrographShiftY") {
  const meta::MetadataFile f = meta::MetadataFile::read(path);
  const meta::Block& b = f.block("global_shift");
  const auto frame = b.ints("rlnMicrographFrameNumber");
  const auto sx = b.doubles(x), sy = b.doubles(y);
  std::map<long long, std::pair<double, double>> out;
  for (std::size_t i = 0; i < frame.size(); ++i) out[frame[i]] = {sx[i], sy[i]};
  return out;
}

/// One simulated movie per test process: 512² x 12, trajectory T1, gain, dose 4, c 0.2.
class MovieAlignApp : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    ASSERT_EQ(simulate("--mode movie --size 512 512 --frames 12 --trajectory T1 --gain --dose 4 --contrast 0.2 "
                       "--seed 3 --oroot " + file("t1")),
              0);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string file(const std::string& name) { return dir_->file(name); }
  static std::string movie_args() { return "-i " + file("t1.mrcs") + " --gain " + file("t1_gain.mrc"); }
  static std::string local_args() { return " --patches 2 2 --minLocalRes 256 --controlPoints 4 4 4"; }
  static test::TempDir* dir_;
};
test::TempDir* MovieAlignApp::dir_ = nullptr;

TEST_F(MovieAlignApp, GlobalShiftsMatchTheTruthAndTheMicrographHasThePixelSize) {
  ASSERT_EQ(align(movie_args() + local_args() + " --oavg " + file("mic.mrc") + " -o " + file("mic.star") +
                  " --ostar_motion " + file("mic_motion.star")),
            0);
  // Both files hold the shift to apply; the truth is relative to frame 1, ours to the reference
  // frame: compare after re-referencing ours to frame 1 (what the RELION export does).
  const auto truth = global_shifts(file("t1_truth.star"));
  const auto ours = global_shifts(file("mic.star"));
  const auto relion = global_shifts(file("mic_motion.star"));
  ASSERT_EQ(ours.size(), 12u);
  ASSERT_EQ(relion.size(), 12u);
  // Errors after removing their mean offset (as docs/movie_align.md#synthetic-movies measures them),
  // so frame 1's own error does not count 12 times; a wrong sign would leave errors of several pixels.
  std::map<long long, std::pair<double, double>> error;
  double mx = 0, my = 0;
  for (const auto& [frame, t] : truth) {
    error[frame] = {(ours.at(frame).first - ours.at(1).first) - t.first,
                    (ours.at(frame).second - ours.at(1).second) - t.second};
    mx += error[frame].first / 12.0;
    my += error[frame].second / 12.0;
    EXPECT_NEAR(relion.at(frame).first, ours.at(frame).first - ours.at(1).first, 1e-9);
    EXPECT_NEAR(relion.at(frame).second, ours.at(frame).second - ours.at(1).second, 1e-9);
  }
  double ss = 0, worst = 0;
  for (const auto& [frame, e] : error) {
    const double d = std::hypot(e.first - mx, e.second - my);
    ss += d * d;
    worst = std::max(worst, d);
  }
  const double rms = std::sqrt(ss / 12.0);
  std::printf("T1 512^2 x 12, dose 4, c 0.2: global shift error vs truth rms %.4f px, max %.4f px "
              "(last frame ours %.3f %.3f, truth %.3f %.3f)\n",
              rms, worst, ours.at(12).first - ours.at(1).first, ours.at(12).second - ours.at(1).second,
              truth.at(12).first, truth.at(12).second);
  EXPECT_LE(rms, 0.15);
  EXPECT_LE(worst, 0.30);
  EXPECT_EQ(relion.at(1).first, 0.0); // RELION export: the first frame is the zero

  const auto mic = io::read_image(file("mic.mrc"));
  EXPECT_EQ(mic.image.shape(), Shape::image(512, 512));
  EXPECT_NEAR(mic.info.pixel_size[0], 1.0, 1e-6);
  const meta::MetadataFile star = meta::MetadataFile::read(file("mic.star"));
  EXPECT_EQ(star.block("general").get_string("frostMotionModel"), "bspline");
  EXPECT_EQ(star.block("bspline_coefficients").rows(), 4u * 4u * 4u);
  EXPECT_EQ(star.block("local_shift").rows(), 4u * 12u);
  EXPECT_FALSE(exists(file("mic.mrc.tmp")));
}

TEST_F(MovieAlignApp, BinnedRunReportsRawPixelShifts) {
  ASSERT_EQ(align(movie_args() + " --skipLocalAlignment -o " + file("b1.star")), 0);
  ASSERT_EQ(align(movie_args() + " --skipLocalAlignment --bin 2 --oavg " + file("b2.mrc") + " -o " + file("b2.star")), 0);
  const auto b1 = global_shifts(file("b1.star")), b2 = global_shifts(file("b2.star"));
  double worst = 0;
  for (const auto& [frame, s] : b1) {
    // Relative to frame 1, so that a different reference choice would not matter.
    const double dx = (b2.at(frame).first - b2.at(1).first) - (s.first - b1.at(1).first);
    const double dy = (b2.at(frame).second - b2.at(1).second) - (s.second - b1.at(1).second);
    worst = std::max(worst, std::hypot(dx, dy));
  }
  std::printf("--bin 2 versus unbinned: largest shift difference %.2e raw px\n", worst);
  EXPECT_LE(worst, 0.05);
  const auto mic = io::read_image(file("b2.mrc"));
  EXPECT_EQ(mic.image.shape(), Shape::image(256, 256));
  EXPECT_NEAR(mic.info.pixel_size[0], 2.0, 1e-6); // processing pixel size Ts·b
  EXPECT_NEAR(meta::MetadataFile::read(file("b2.star")).block("general").get_double("rlnMicrographBinning"), 2.0, 1e-9);
}

TEST_F(MovieAlignApp, TrajectoriesReproduceTheFittedShifts) {
  ASSERT_EQ(align(movie_args() + local_args() + " -o " + file("loc.star")), 0);
  const meta::MetadataFile star = meta::MetadataFile::read(file("loc.star"));
  const meta::Block& local = star.block("local_shift");
  const auto patch = local.ints("frostPatchIndex");
  const auto frame = local.ints("frostFrameIndex");
  const auto cx = local.doubles("rlnCoordinateX"), cy = local.doubles("rlnCoordinateY");
  const auto fx = local.doubles("frostFittedShiftX"), fy = local.doubles("frostFittedShiftY");
  std::vector<double> px, py; // patch centres in patch order
  for (std::size_t i = 0; i < patch.size(); ++i)
    if (static_cast<std::size_t>(patch[i]) == px.size()) {
      px.push_back(cx[i]);
      py.push_back(cy[i]);
    }
  ASSERT_EQ(px.size(), 4u);
  meta::MetadataFile coords(meta::Dialect::Relion31);
  coords.add_block("particles").set_column("rlnCoordinateX", px);
  coords.block("particles").set_column("rlnCoordinateY", py);
  coords.write(file("coords.star"));
  ASSERT_EQ(align("trajectories --alignment " + file("loc.star") + " --coords " + file("coords.star") + " --out " +
                  file("traj.star")),
            0);
  const meta::Block traj = meta::MetadataFile::read(file("traj.star")).block("trajectories");
  ASSERT_EQ(traj.rows(), 4u * 12u);
  const auto tx = traj.doubles("rlnMicrographShiftX"), ty = traj.doubles("rlnMicrographShiftY");
  const auto tf = traj.ints("frostFrameIndex");
  const auto tcx = traj.doubles("rlnCoordinateX");
  double worst = 0;
  for (std::size_t i = 0; i < patch.size(); ++i) {
    const std::size_t row = static_cast<std::size_t>(patch[i]) * 12u + static_cast<std::size_t>(frame[i]);
    ASSERT_EQ(tf[row], frame[i]);
    ASSERT_EQ(tcx[row], cx[i]);
    worst = std::max({worst, std::abs(tx[row] - fx[i]), std::abs(ty[row] - fy[i])});
  }
  std::printf("trajectories at the patch centres vs fitted shifts: largest difference %.2e px\n", worst);
  EXPECT_LE(worst, 1e-4);

  // Xmipp layout of the same model: L_x·L_y·L_t total-shift coefficients per axis.
  ASSERT_EQ(align(movie_args() + local_args() + " -o " + file("loc.xmd")), 0);
  const meta::MetadataFile xmd = meta::MetadataFile::read(file("loc.xmd"));
  const meta::Block& la = xmd.block("localAlignment");
  EXPECT_EQ(la.get_vector("localAlignmentCoeffsX").size(), 64u);
  EXPECT_EQ(la.get_vector("localAlignmentCoeffsY").size(), 64u);
  EXPECT_EQ(la.get_vector("localAlignmentControlPoints"), (std::vector<double>{4, 4, 4}));
  EXPECT_EQ(xmd.block("frameShifts").rows(), 12u);
  EXPECT_EQ(xmd.block("referenceFrame").get_int("ref"),
            meta::MetadataFile::read(file("loc.star")).block("general").get_int("frostReferenceFrame"));
}

TEST_F(MovieAlignApp, BadInputExitCodesLeaveNoOutput) {
  const std::string out = " --oavg " + file("bad.mrc") + " -o " + file("bad.star");
  EXPECT_EQ(align("-i " + file("missing.mrcs") + out), 3);
  EXPECT_EQ(align(movie_args() + " --frameRange 2 9 --frameRangeSum 1 5" + out), 2);
  EXPECT_EQ(align(movie_args() + " --frameRange 2 9 --frameRangeSum 3 10" + out), 2);
  EXPECT_EQ(align(movie_args() + " --frameRange 0 1" + out), 3); // fewer than 3 frames
  ASSERT_EQ(simulate("--mode movie --size 256 256 --frames 4 --noise_free --oroot " + file("small")), 0);
  EXPECT_EQ(align("-i " + file("small.mrcs") + " --gain " + file("t1_gain.mrc") + out), 3); // gain size mismatch
  EXPECT_EQ(align(movie_args() + " --device 99" + out), 4); // no such GPU (or no CUDA at all)
  EXPECT_EQ(align(movie_args() + " --controlPoints 2 4 4" + out), 2);
  EXPECT_EQ(align(movie_args() + " --group-global 2" + out), 2);                     // pairs mode is not grouped
  EXPECT_EQ(align(movie_args() + " --global-mode sum --group-global 8" + out), 2);   // fewer than 3 groups
  EXPECT_EQ(align(movie_args() + " --dose-weight" + out), 2);                        // no dose (not EER)
  EXPECT_FALSE(exists(file("bad.mrc")));
  EXPECT_FALSE(exists(file("bad.star")));
}

// --ostar_motion (docs/movie_align.md#relion-and-xmipp-exports) with a local model on a doming movie
// (T3) aligned over frames 2..9: frames outside the range hold -9999, the first aligned frame is
// exactly 0, version 1 with the 36 coefficients in index order; RELION's formula (global +
// polynomial at t = frame - start frame, x' = x / width - 0.5) evaluated at the 16 x 16 sample
// points follows frost's own model re-referenced to the first aligned frame (trajectories --relion),
// with the logged RMSD, and explains most of the local motion. Global-only runs keep version 0.
TEST_F(MovieAlignApp, RelionExportCarriesThePolynomialOfTheLocalModel) {
  ASSERT_EQ(simulate("--mode movie --size 512 512 --frames 12 --trajectory T3 --gain --dose 4 --contrast 0.2 "
                     "--seed 5 --oroot " + file("t3")),
            0);
  const std::string args = "-i " + file("t3.mrcs") + " --gain " + file("t3_gain.mrc") + local_args() +
                           " --frameRange 2 9 -o " + file("t3.star") + " --ostar_motion " + file("t3_motion.star");
  ASSERT_EQ(align_logged(args, file("t3.log")), 0);
  const meta::MetadataFile motion = meta::MetadataFile::read(file("t3_motion.star"));
  const meta::Block& general = motion.block("general");
  EXPECT_EQ(general.get_int("rlnMotionModelVersion"), 1);
  EXPECT_EQ(general.get_int("rlnMicrographStartFrame"), 3);
  const double width = general.get_double("rlnImageSizeX"), height = general.get_double("rlnImageSizeY");
  const auto global = global_shifts(file("t3_motion.star"));
  ASSERT_EQ(global.size(), 12u);
  for (long long frame : {1, 2, 11, 12}) {
    EXPECT_EQ(global.at(frame).first, -9999.0) << frame;
    EXPECT_EQ(global.at(frame).second, -9999.0) << frame;
  }
  EXPECT_EQ(global.at(3).first, 0.0);
  EXPECT_EQ(global.at(3).second, 0.0);
  EXPECT_NE(global.at(9).first, 0.0);
  const meta::Block& model = motion.block("local_motion_model");
  ASSERT_EQ(model.rows(), 36u);
  const auto index = model.ints("rlnMotionModelCoeffsIdx");
  for (std::size_t i = 0; i < index.size(); ++i) EXPECT_EQ(index[i], static_cast<long long>(i));
  const auto c = model.doubles("rlnMotionModelCoeff");

  // frost's shifts at the cell centres of a 16 x 16 grid, re-referenced to the first aligned frame.
  std::vector<double> gx, gy;
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) {
      gx.push_back((i + 0.5) * width / 16);
      gy.push_back((j + 0.5) * height / 16);
    }
  meta::MetadataFile coords(meta::Dialect::Relion31);
  coords.add_block("particles").set_column("rlnCoordinateX", gx);
  coords.block("particles").set_column("rlnCoordinateY", gy);
  coords.write(file("t3_grid.star"));
  ASSERT_EQ(align("trajectories --relion --alignment " + file("t3.star") + " --coords " + file("t3_grid.star") +
                  " --out " + file("t3_traj.star")),
            0);
  const meta::Block traj = meta::MetadataFile::read(file("t3_traj.star")).block("trajectories");
  ASSERT_EQ(traj.rows(), 256u * 8u);
  const auto tx = traj.doubles("rlnMicrographShiftX"), ty = traj.doubles("rlnMicrographShiftY");
  const auto cx = traj.doubles("rlnCoordinateX"), cy = traj.doubles("rlnCoordinateY");
  const auto tf = traj.ints("frostFrameIndex");
  double ss = 0, local_ss = 0;
  for (std::size_t r = 0; r < traj.rows(); ++r) {
    ASSERT_GE(tf[r], 2);
    ASSERT_LE(tf[r], 9);
    const double t = static_cast<double>(tf[r] + 1 - 3); // RELION: frame - start frame, both 1-based
    const double x = cx[r] / width - 0.5, y = cy[r] / height - 0.5;
    const double m[6] = {1, x, x * x, y, y * y, x * y};
    double px = 0, py = 0;
    for (int k = 0; k < 6; ++k) {
      const double poly_t[3] = {t, t * t, t * t * t};
      for (int p = 0; p < 3; ++p) {
        px += c[static_cast<std::size_t>(3 * k + p)] * poly_t[p] * m[k];
        py += c[static_cast<std::size_t>(18 + 3 * k + p)] * poly_t[p] * m[k];
      }
    }
    const auto& g = global.at(tf[r] + 1);
    const double lx = tx[r] - g.first, ly = ty[r] - g.second; // frost's local part
    ss += (lx - px) * (lx - px) + (ly - py) * (ly - py);
    local_ss += lx * lx + ly * ly;
  }
  const double rmsd = std::sqrt(ss / static_cast<double>(traj.rows()));
  const double local_rms = std::sqrt(local_ss / static_cast<double>(traj.rows()));
  const std::string log = read_text(file("t3.log"));
  const std::size_t at = log.find("RMSD ", log.find("_rlnMotionModelVersion 1"));
  ASSERT_NE(at, std::string::npos) << log;
  const double logged = std::atof(log.c_str() + at + 5);
  std::printf("T3, frames 2..9: RELION polynomial vs frost local model RMSD %.4f px (logged %.4f), local motion "
              "rms %.4f px\n", rmsd, logged, local_rms);
  EXPECT_NEAR(rmsd, logged, 1e-4); // the log prints 4 decimals
  EXPECT_GT(local_rms, 0.1);        // the doming is there to be fitted
  EXPECT_LT(rmsd, 0.25 * local_rms);

  ASSERT_EQ(align("-i " + file("t3.mrcs") + " --gain " + file("t3_gain.mrc") + " --skipLocalAlignment -o " +
                  file("t3g.star") + " --ostar_motion " + file("t3g_motion.star")),
            0);
  const meta::MetadataFile global_only = meta::MetadataFile::read(file("t3g_motion.star"));
  EXPECT_EQ(global_only.block("general").get_int("rlnMotionModelVersion"), 0);
  EXPECT_EQ(global_only.find("local_motion_model"), nullptr);
}

// --othumbnail, --opsd-png, --odrift-plot: PNG files that libpng decodes, of the documented sizes,
// showing a micrograph (not flat), a spectrum brightest at its centre, and the trajectory (blue)
// with the local model at the 2 x 2 patch centres (orange) beside it; global-only runs give one panel.
TEST_F(MovieAlignApp, PicturesAreDecodablePngsWithTheirContent) {
  FROST_REQUIRE_PNG();
  ASSERT_EQ(align(movie_args() + local_args() + " -o " + file("pic.star") + " --othumbnail " + file("thumb.png") +
                  " --thumbnail-size 200 --opsd-png " + file("psd.png") + " --psd-size 128 --odrift-plot " +
                  file("drift.png")),
            0);
  const test::DecodedPng thumb = test::decode_png_file(file("thumb.png"));
  EXPECT_EQ(thumb.width, 171); // 512 px box-averaged by 3 (the smallest factor to <= 200)
  EXPECT_EQ(thumb.height, 171);
  EXPECT_EQ(thumb.colour_type, 0);
  std::vector<int> histogram(256, 0);
  for (std::uint8_t v : thumb.pixels) ++histogram[v];
  const long distinct = std::count_if(histogram.begin(), histogram.end(), [](int c) { return c > 0; });
  EXPECT_GT(distinct, 100) << "the thumbnail is (nearly) constant";
  EXPECT_LT(*std::max_element(histogram.begin(), histogram.end()), static_cast<int>(thumb.pixels.size() / 10));

  const test::DecodedPng psd = test::decode_png_file(file("psd.png"));
  ASSERT_EQ(psd.width, 128);
  ASSERT_EQ(psd.height, 128);
  EXPECT_EQ(psd.colour_type, 0);
  double centre = 0, outer = 0;
  int nc = 0, no = 0;
  for (int y = 0; y < 128; ++y)
    for (int x = 0; x < 128; ++x) {
      const double r = std::hypot(x - 64.0, y - 63.0); // zero frequency: column 64, row 127 - 64
      if (r < 5) {
        centre += *psd.at(x, y);
        ++nc;
      } else if (r > 40) {
        outer += *psd.at(x, y);
        ++no;
      }
    }
  std::printf("PSD picture: mean %.1f within 5 px of the centre, %.1f beyond 40 px\n", centre / nc, outer / no);
  EXPECT_GT(centre / nc, outer / no + 100);

  auto count = [](const test::DecodedPng& png, std::uint8_t r, std::uint8_t g, std::uint8_t b, int x0, int x1) {
    int n = 0;
    for (int y = 0; y < png.height; ++y)
      for (int x = x0; x < x1; ++x) {
        const std::uint8_t* p = png.at(x, y);
        n += p[0] == r && p[1] == g && p[2] == b;
      }
    return n;
  };
  const test::DecodedPng drift = test::decode_png_file(file("drift.png"));
  ASSERT_EQ(drift.width, 800); // global and local panels
  ASSERT_EQ(drift.height, 400);
  EXPECT_EQ(drift.colour_type, 2);
  const int blue = count(drift, 31, 90, 200, 0, 400), orange = count(drift, 235, 130, 20, 400, 800);
  std::printf("drift plot: %d trajectory pixels, %d local-model pixels\n", blue, orange);
  EXPECT_GT(blue, 100);    // the T1 trajectory spans several pixels
  EXPECT_GT(orange, 4 * 20); // four magnified patch tracks
  EXPECT_EQ(count(drift, 235, 130, 20, 0, 400), 0);

  ASSERT_EQ(align(movie_args() + " --skipLocalAlignment -o " + file("pic_global.star") + " --odrift-plot " +
                  file("drift_global.png")),
            0);
  const test::DecodedPng global = test::decode_png_file(file("drift_global.png"));
  EXPECT_EQ(global.width, 400); // no local panel
  EXPECT_EQ(global.height, 400);
  EXPECT_GT(count(global, 31, 90, 200, 0, 400), 100);
}

// CPU/GPU equivalence (docs/movie_align.md#cpu-and-gpu-equivalence) through the program: --device 0
// against --device cpu on the same movie, global + local with dose weighting: global shifts within
// 0.01 px, micrographs within 1e-3 of their std.
TEST_F(MovieAlignApp, GpuMatchesCpu) {
  FROST_REQUIRE_GPU();
  const std::string common = movie_args() + local_args() + " --dose-weight --dose-per-frame 1.5";
  ASSERT_EQ(align(common + " --device cpu --oavg " + file("cpu.mrc") + " -o " + file("cpu.star")), 0);
  ASSERT_EQ(align(common + " --device 0 --oavg " + file("gpu.mrc") + " -o " + file("gpu.star")), 0);
  const auto cpu = global_shifts(file("cpu.star")), gpu = global_shifts(file("gpu.star"));
  ASSERT_EQ(cpu.size(), gpu.size());
  double max_diff = 0;
  for (const auto& [frame, s] : cpu)
    max_diff = std::max({max_diff, std::abs(gpu.at(frame).first - s.first), std::abs(gpu.at(frame).second - s.second)});
  const Image<float> a = io::read_image(file("cpu.mrc")).image, b = io::read_image(file("gpu.mrc")).image;
  ASSERT_EQ(a.shape(), b.shape());
  double mean = 0, var = 0, diff = 0;
  for (index_t i = 0; i < a.size(); ++i) mean += a[i];
  mean /= static_cast<double>(a.size());
  for (index_t i = 0; i < a.size(); ++i) {
    var += (a[i] - mean) * (a[i] - mean);
    diff += (static_cast<double>(b[i]) - a[i]) * (static_cast<double>(b[i]) - a[i]);
  }
  const double rel = std::sqrt(diff / var);
  std::printf("GPU vs CPU program: max global shift diff %.2e px, micrograph rms/std %.2e\n", max_diff, rel);
  EXPECT_LE(max_diff, 0.01);
  EXPECT_LE(rel, 1e-3);
}

// --device (docs/movie_align.md#command-line): the default is `auto`, one GPU when CUDA sees any, else the
// CPU, and the log says which. Without a GPU the default run is the --device cpu run: the same micrograph
// bytes, RELION STAR and shifts. With one, the default takes GPU 0 (GpuMatchesCpu compares the two backends).
TEST_F(MovieAlignApp, DefaultDeviceIsTheGpuIfPresentElseTheCpu) {
  const std::string common = movie_args() + local_args() + " --progress none";
  ASSERT_EQ(align_logged(common + " --oavg " + file("auto.mrc") + " -o " + file("auto.star") + " --ostar_motion " +
                             file("auto_motion.star"),
                         file("auto.log")),
            0);
  const std::string log = read_text(file("auto.log"));
  if (cuda_device_count() > 0) {
    EXPECT_NE(log.find("--device auto: GPU 0"), std::string::npos) << log;
    // A list of ids is shared by the node-local rank (Open MPI's variable here): rank 1 takes entry 1.
    ASSERT_EQ(align_logged("-i " + file("t1.mrcs") + " --skipLocalAlignment --frameRange 0 3 --device 0,0 -o " +
                               file("rank1.star"),
                           file("rank1.log"), "OMPI_COMM_WORLD_LOCAL_RANK=1"),
              0);
    EXPECT_NE(read_text(file("rank1.log")).find("entry 1 of 2 for local rank 1"), std::string::npos);
    return;
  }
  EXPECT_NE(log.find("--device auto: "), std::string::npos) << log;
  EXPECT_NE(log.find("running on the CPU"), std::string::npos) << log;
  ASSERT_EQ(align_logged(common + " --device cpu --oavg " + file("cpu_dev.mrc") + " -o " + file("cpu_dev.star") +
                             " --ostar_motion " + file("cpu_dev_motion.star"),
                         file("cpu_dev.log")),
            0);
  EXPECT_NE(read_text(file("cpu_dev.log")).find("--device cpu: running on the CPU"), std::string::npos);
  const std::string micrograph = read_text(file("auto.mrc"));
  EXPECT_GT(micrograph.size(), 512u * 512u * 4u);
  EXPECT_TRUE(micrograph == read_text(file("cpu_dev.mrc"))) << "the default run's micrograph differs from --device cpu";
  EXPECT_EQ(read_text(file("auto_motion.star")), read_text(file("cpu_dev_motion.star")));
  EXPECT_EQ(global_shifts(file("auto.star")), global_shifts(file("cpu_dev.star")));
}

// Test T10 (docs/tune.md#cpu-tests): on the CPU every --tune value runs, logs one note and gives the
// same micrograph as --tune off (the GPU path reads the tuning cache; see device_check).
TEST_F(MovieAlignApp, TuningPoliciesOnTheCpuChangeNothing) {
  const std::string common = movie_args() + " --skipLocalAlignment --progress none --device cpu --tuning-cache " +
                             file("tune_cache");
  ASSERT_EQ(align_logged(common + " --tune off --oavg " + file("tune_off.mrc") + " -o " + file("tune_off.star"),
                         file("tune_off.log")),
            0);
  const std::string reference = read_text(file("tune_off.mrc"));
  ASSERT_GT(reference.size(), 512u * 512u * 4u);
  for (const char* policy : {"cached", "auto", "dynamic", "full"}) {
    const std::string name = std::string("tune_") + policy;
    ASSERT_EQ(align_logged(common + " --tune " + policy + " --oavg " + file(name + ".mrc") + " -o " + file(name + ".star"),
                           file(name + ".log")),
              0)
        << policy;
    const std::string log = read_text(file(name + ".log"));
    EXPECT_NE(log.find("kernel tuning options are ignored on the CPU"), std::string::npos) << policy << "\n" << log;
    EXPECT_TRUE(read_text(file(name + ".mrc")) == reference) << policy;
  }
  EXPECT_NE(align("--tune sometimes " + movie_args()), 0);
}

TEST_F(MovieAlignApp, LogTimesPrefixEveryLineInOrderOnlyWhenAsked) {
  const std::string args = movie_args() + " --skipLocalAlignment --frameRange 0 5 --progress none --device cpu -v 2 -o ";
  ASSERT_EQ(align_logged(args + file("timed.star"), file("timed.log"), "FROST_LOG_TIMES=1"), 0);
  std::ifstream in(file("timed.log"));
  double last = -1;
  int stamped = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[", 0) != 0) continue; // the summary on stdout has no stamp
    const double ms = std::stod(line.substr(1));
    EXPECT_NE(line.find(" ms] "), std::string::npos) << line;
    EXPECT_GE(ms, last) << line;
    last = ms;
    ++stamped;
  }
  EXPECT_GE(stamped, 5);
  ASSERT_EQ(align_logged(args + file("plain.star"), file("plain.log"), "FROST_LOG_TIMES=0"), 0);
  const std::string plain = read_text(file("plain.log"));
  EXPECT_NE(plain.find("global alignment"), std::string::npos);
  EXPECT_EQ(plain.find(" ms] "), std::string::npos) << plain;
}

TEST_F(MovieAlignApp, BatchGoesOnAfterAFailureAndSkipsDoneMovies) {
  {
    // A movie cut short: it exists (the batch starts) but cannot be read.
    const std::string whole = read_text(file("t1.mrcs"));
    std::ofstream(file("cut.mrcs"), std::ios::binary) << whole.substr(0, 4096);
    std::ofstream list(file("movies.txt"));
    list << "# two movies, the first cut short\n" << file("cut.mrcs") << "\n\n" << file("t1.mrcs") << "\n";
  }
  const std::string args = "-i " + file("movies.txt") + " --gain " + file("t1_gain.mrc") +
                           " --skipLocalAlignment --oavg " + file("{movie}_batch.mrc");
  EXPECT_EQ(align(args), 3); // the cut movie's exit code, after the batch went on
  EXPECT_TRUE(exists(file("t1_batch.mrc")));
  EXPECT_TRUE(exists(file("t1_batch_align.star")));
  EXPECT_FALSE(exists(file("cut_batch.mrc")));
  EXPECT_EQ(align(args + " -o " + file("fixed.star")), 2); // an output without {movie} would be overwritten
  // A listed movie that does not exist stops the batch before it starts (every movie is an input
  // checked first): nothing is aligned.
  {
    std::ofstream list(file("gap.txt"));
    list << file("t1.mrcs") << "\n" << file("nothere.mrcs") << "\n";
  }
  EXPECT_EQ(align("-i " + file("gap.txt") + " --skipLocalAlignment --oavg " + file("{movie}_gap.mrc")), 3);
  EXPECT_FALSE(exists(file("t1_gap.mrc")));
}

// Sign (docs/movie_align.md#outputs-and-queries): the content of frame t is the specimen translated
// by (+t, 0) (an exact periodic roll), so every exported shiftX decreases by 1 px per frame and
// warping frame t by its stored shift gives back frame 0.
TEST(MovieAlignSign, ContentMovingRightGivesDecreasingShiftX) {
  test::TempDir dir;
  const index_t n = 256;
  const int frames = 8;
  const Image<float> specimen = sim::make_specimen(n, n, 1.0, 0.0, 11);
  Image<float> movie(Shape::image(n, n, frames));
  for (int t = 0; t < frames; ++t)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x) movie(x, y, 0, t) = 1.0f + 0.1f * specimen((x - t + n) % n, y);
  io::MrcWriteOptions o;
  o.pixel_size = 1.0;
  o.content = io::Content::Stack;
  io::write_image(dir.file("right.mrcs"), movie.cview(), o);

  const std::string base = "-i " + dir.file("right.mrcs") + " --skipLocalAlignment --reference first";
  ASSERT_EQ(align(base + " -o " + dir.file("a.star") + " --ostar_motion " + dir.file("r.star") + " --oaligned " +
                  dir.file("aligned.mrcs")),
            0);
  ASSERT_EQ(align(base + " -o " + dir.file("a.xmd")), 0);
  const auto frost_star = global_shifts(dir.file("a.star"));
  const auto relion = global_shifts(dir.file("r.star"));
  const meta::Block xmd = meta::MetadataFile::read(dir.file("a.xmd")).block("frameShifts");
  const auto xmipp_x = xmd.doubles("shiftX");
  ASSERT_EQ(xmipp_x.size(), static_cast<std::size_t>(frames));
  double worst = 0;
  for (int t = 0; t < frames; ++t) {
    const double expected = -t; // reference frame 0
    worst = std::max({worst, std::abs(frost_star.at(t + 1).first - expected), std::abs(relion.at(t + 1).first - expected),
                      std::abs(xmipp_x[static_cast<std::size_t>(t)] - expected), std::abs(frost_star.at(t + 1).second)});
  }
  std::printf("+1 px/frame movie: largest deviation of the exported shifts from -t: %.4f px\n", worst);
  EXPECT_LE(worst, 0.05);

  const auto aligned = io::read_stack(dir.file("aligned.mrcs"));
  ASSERT_EQ(aligned.image.shape(), Shape::image(n, n, frames));
  double worst_rel = 0;
  for (int t = 1; t < frames; ++t) {
    double num = 0, den = 0;
    for (index_t y = 16; y < n - 16; ++y)
      for (index_t x = 16; x < n - 16; ++x) {
        const double d = aligned.image(x, y, 0, t) - movie(x, y, 0, 0);
        num += d * d;
        den += (movie(x, y, 0, 0) - 1.0) * (movie(x, y, 0, 0) - 1.0);
      }
    worst_rel = std::max(worst_rel, std::sqrt(num / den));
  }
  std::printf("warped frames vs frame 0: largest relative rms %.4f over the interior\n", worst_rel);
  EXPECT_LE(worst_rel, 0.05);
}

} // namespace
} // namespace frost
