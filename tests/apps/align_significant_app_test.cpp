// frost_align_significant end to end (align-significant.md §12.3 tests 11-12, §12.4 on a small
// scale, MPI merge): data from the analytic phantom written as MRCS + Xmipp metadata, the
// program run as a user would, its outputs read back through the library.
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "frost/alignment/analytic_phantom.hpp"
#include "frost/alignment/directions.hpp"
#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

int run_cmd(const std::string& cmd) {
  const int status = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
int align(const std::string& args) { return run_cmd(std::string(FROST_ALIGN_EXE) + " --device cpu --thr 1 " + args); }
bool exists(const std::string& p) { return access(p.c_str(), F_OK) == 0; }
std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

constexpr int kX = 32, kRefs = 24, kImages = 16;

/// Scaled fixture (CI time): 32 px, 24 Fibonacci references of the sharp phantom, 16 images at
/// SNR 1 plus one disabled row, shifts up to 0.08·X; an extra label `frostTruthRef` rides along.
class AlignApp : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    const auto blobs = align::phantom_blobs(align::PhantomKind::Sharp);
    const auto dirs = align::fibonacci_directions(kRefs);
    Image<float> refs(Shape::image(kX, kX, kRefs));
    meta::MetadataFile rmd(meta::Dialect::Xmipp);
    meta::Block& rb = rmd.add_block("");
    std::vector<std::string> names;
    std::vector<double> rot, tilt;
    std::vector<std::int64_t> ids;
    for (int r = 0; r < kRefs; ++r) {
      align::render_projection(blobs, kX, dirs[std::size_t(r)], 0, 0, refs.data() + std::size_t(r) * kX * kX);
      names.push_back(std::to_string(r + 1) + "@" + file("refs.mrcs"));
      rot.push_back(dirs[std::size_t(r)].rot);
      tilt.push_back(dirs[std::size_t(r)].tilt);
      ids.push_back(100 + r);
    }
    io::write_image(file("refs.mrcs"), refs.cview());
    rb.set_column("image", names);
    rb.set_column("ref", ids);
    rb.set_column("angleRot", rot);
    rb.set_column("angleTilt", tilt);
    rmd.write(file("refs.xmd"));

    // Image rows: row 3 is disabled (its image is garbage: it must not be used).
    const int rows = kImages + 1;
    Image<float> imgs(Shape::image(kX, kX, rows));
    std::mt19937 rng(21);
    auto u = [&] {
      const std::uint32_t a = rng(), b = rng();
      return align::uniform01(a, b);
    };
    meta::MetadataFile imd(meta::Dialect::Xmipp);
    meta::Block& ib = imd.add_block("");
    std::vector<std::string> inames;
    std::vector<std::int64_t> enabled, truth;
    for (int k = 0; k < rows; ++k) {
      float* img = imgs.data() + std::size_t(k) * kX * kX;
      inames.push_back(std::to_string(k + 1) + "@" + file("imgs.mrcs"));
      if (k == 3) {
        for (int p = 0; p < kX * kX; ++p) img[p] = float(p % 7);
        enabled.push_back(-1);
        truth.push_back(-1);
        continue;
      }
      const int r = static_cast<int>(u() * kRefs);
      geom::EulerAngles pose = dirs[std::size_t(r)];
      pose.psi = 360 * u();
      const double rad = 0.08 * kX * std::sqrt(u()), ang = 2 * M_PI * u();
      align::render_projection(blobs, kX, pose, rad * std::cos(ang), rad * std::sin(ang), img);
      align::add_noise(img, std::size_t(kX) * kX, 1.0, 500u + static_cast<std::uint32_t>(k));
      enabled.push_back(1);
      truth.push_back(100 + r);
      truth_dx_.push_back(rad * std::cos(ang));
      truth_dy_.push_back(rad * std::sin(ang));
      truth_psi_.push_back(pose.psi);
    }
    io::write_image(file("imgs.mrcs"), imgs.cview());
    ib.set_column("image", inames);
    ib.set_column("enabled", enabled);
    ib.set_column("frostTruthRef", truth);
    imd.write(file("imgs.xmd"));
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string file(const std::string& name) { return dir_->file(name); }
  static std::string base() { return "-i " + file("imgs.xmd") + " -r " + file("refs.xmd") + " "; }

  static test::TempDir* dir_;
  static std::vector<double> truth_dx_, truth_dy_, truth_psi_;
};
test::TempDir* AlignApp::dir_ = nullptr;
std::vector<double> AlignApp::truth_dx_, AlignApp::truth_dy_, AlignApp::truth_psi_;

TEST_F(AlignApp, RecoversPosesAndWritesTheSpecLabels) {
  ASSERT_EQ(align(base() + "-o " + file("out.xmd") + " --write-cc-matrix " + file("cc.bin")), 0);
  const meta::Block b = meta::read_block(file("out.xmd"));
  ASSERT_EQ(b.rows(), std::size_t(kImages));
  for (const char* label : {"image", "enabled", "angleRot", "angleTilt", "anglePsi", "shiftX", "shiftY", "flip", "ref",
                            "imageIndex", "weight", "weightSignificant", "maxCC", "corrIdx", "frostTruthRef"})
    EXPECT_TRUE(b.has(label)) << label;
  const auto ref = b.ints("ref"), truth = b.ints("frostTruthRef"), index = b.ints("imageIndex");
  const auto sx = b.doubles("shiftX"), sy = b.doubles("shiftY"), psi = b.doubles("anglePsi");
  const auto w = b.doubles("weight"), ws = b.doubles("weightSignificant"), mx = b.doubles("maxCC"),
             ci = b.doubles("corrIdx");
  int correct = 0;
  std::vector<double> shift_err;
  for (std::size_t k = 0; k < b.rows(); ++k) {
    EXPECT_EQ(index[k], std::int64_t(k + 1)); // counted over enabled rows: the disabled row 4 is skipped
    EXPECT_EQ(w[k], ws[k]);
    EXPECT_NEAR(mx[k], ci[k], 1e-6); // keepBestN 1, CC voting
    if (ref[k] == truth[k]) {
      ++correct;
      shift_err.push_back(std::hypot(sx[k] + truth_dx_[k], sy[k] + truth_dy_[k])); // shift = -displacement
      const double d = std::fmod(std::abs(psi[k] - truth_psi_[k]), 360.0);
      EXPECT_LT(std::min(d, 360 - d), 5.0) << "row " << k;
    }
  }
  EXPECT_GE(correct, kImages * 8 / 10);
  std::sort(shift_err.begin(), shift_err.end());
  ASSERT_FALSE(shift_err.empty());
  EXPECT_LT(shift_err[shift_err.size() / 2], 0.75);
  // The STAR has the same poses (origins in Å with the default 1 Å/px).
  const meta::MetadataFile star = meta::MetadataFile::read(file("out.star"));
  const meta::Block& p = star.block("particles");
  ASSERT_EQ(p.rows(), b.rows());
  const auto ox = p.doubles("rlnOriginXAngst"), rp = p.doubles("rlnAnglePsi");
  for (std::size_t k = 0; k < p.rows(); ++k) {
    EXPECT_NEAR(ox[k], sx[k], 1e-4);
    EXPECT_NEAR(rp[k], psi[k], 1e-4);
  }
  EXPECT_EQ(slurp(file("cc.bin")).size(), std::size_t(kRefs) * kImages * sizeof(float));
}

TEST_F(AlignApp, KeepBestNAsFloatTextAndOutputDirectory) {
  ASSERT_EQ(align(base() + "--keepBestN 2.000000 --odir " + file("sub/dir") + " -o best2.xmd"), 0);
  const meta::Block b = meta::read_block(file("sub/dir/best2.xmd"));
  EXPECT_EQ(b.rows(), std::size_t(2 * kImages));
  EXPECT_TRUE(exists(file("sub/dir/best2.star")));
  // An absolute -o ignores --odir.
  ASSERT_EQ(align(base() + "--odir " + file("ignored") + " -o " + file("abs.xmd")), 0);
  EXPECT_TRUE(exists(file("abs.xmd")));
  EXPECT_FALSE(exists(file("ignored/abs.xmd")));
}

TEST_F(AlignApp, BadArgumentsAndInputsGiveClearExitCodes) {
  EXPECT_EQ(align(base() + "-o " + file("bad.xmd") + " --keepBestN 2.5"), 2);
  EXPECT_EQ(align(base() + "-o " + file("bad.xmd") + " --keepBestN 0"), 2);
  EXPECT_EQ(align(base() + "-o " + file("bad.xmd") + " --keepBestN 25"), 3); // > N_ref
  EXPECT_EQ(align("-i " + file("imgs.xmd") + " -o " + file("bad.xmd")), 2);   // no references
  // GPU 99: no such device with CUDA, no GPU backend without it; exit 4 either way.
  EXPECT_EQ(align(base() + "-o " + file("bad.xmd") + " --device 99"), 4);

  // References of another size.
  Image<float> small(Shape::image(16, 16, 2));
  small[0] = 1;
  io::write_image(file("small.mrcs"), small.cview());
  meta::MetadataFile md(meta::Dialect::Xmipp);
  meta::Block& b = md.add_block("");
  b.set_column("image", std::vector<std::string>{"1@" + file("small.mrcs"), "2@" + file("small.mrcs")});
  b.set_column("ref", std::vector<std::int64_t>{0, 1});
  md.write(file("small.xmd"));
  EXPECT_EQ(align("-i " + file("imgs.xmd") + " -r " + file("small.xmd") + " -o " + file("bad.xmd")), 3);
  // A single reference.
  b.keep_rows({0});
  md.write(file("one.xmd"));
  EXPECT_EQ(align("-i " + file("imgs.xmd") + " -r " + file("one.xmd") + " -o " + file("bad.xmd")), 3);
  // Every image disabled, and a malformed metadata file.
  std::ofstream(file("none.xmd")) << "# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _enabled\n 1@" << file("imgs.mrcs")
                                  << " -1\n";
  EXPECT_EQ(align("-i " + file("none.xmd") + " -r " + file("refs.xmd") + " -o " + file("bad.xmd")), 3);
  std::ofstream(file("broken.xmd")) << "# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _enabled\n 1@" << file("imgs.mrcs")
                                    << " notanumber\n";
  EXPECT_EQ(align("-i " + file("broken.xmd") + " -r " + file("refs.xmd") + " -o " + file("bad.xmd")), 3);
  EXPECT_FALSE(exists(file("bad.xmd")));
}

TEST_F(AlignApp, VolumeModeGalleryCount) {
  // Voxelised sharp phantom at 32^3, 30° sampling: Xmipp-like count 41258/30² ≈ 46 for c1, /4 for c4.
  const auto blobs = align::to_simulate_blobs(align::phantom_blobs(align::PhantomKind::Sharp), kX);
  io::MrcWriteOptions o;
  o.content = io::Content::Volume;
  io::write_image(file("vol.mrc"), sim::render_blobs(kX, blobs).cview(), o);
  for (const auto& [sym, lo, hi] : {std::tuple<std::string, int, int>{"c1", 41, 51}, {"c4", 10, 13}}) {
    ASSERT_EQ(align("-i " + file("imgs.xmd") + " --volume " + file("vol.mrc") + " --sampling 30 --sym " + sym +
                    " --save-gallery " + file("gal_" + sym) + " -o " + file("vol_" + sym + ".xmd")),
              0);
    const meta::Block g = meta::read_block(file("gal_" + sym + ".xmd"));
    EXPECT_GE(int(g.rows()), lo) << sym;
    EXPECT_LE(int(g.rows()), hi) << sym;
    EXPECT_EQ(meta::read_block(file("vol_" + sym + ".xmd")).rows(), std::size_t(kImages)) << sym;
  }
}

#ifdef FROST_MPIEXEC
TEST_F(AlignApp, TwoMpiRanksGiveTheSingleRankFile) {
  ASSERT_EQ(align(base() + "-o " + file("single.xmd") + " --keepBestN 3"), 0);
  const std::string mpirun = std::string(FROST_MPIEXEC) + " -np 2 ";
  ASSERT_EQ(run_cmd(mpirun + FROST_ALIGN_EXE + " --device cpu --thr 1 " + base() + "-o " + file("mpi.xmd") +
                    " --keepBestN 3"),
            0);
  const std::string a = slurp(file("single.xmd")), m = slurp(file("mpi.xmd"));
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, m);
}
#endif

} // namespace
} // namespace frost
