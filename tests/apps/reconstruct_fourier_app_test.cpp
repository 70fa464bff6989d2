// frost_reconstruct_fourier end to end: simulate projections with frost_simulate, reconstruct,
// read the maps back and compare with the phantom; bad input gives the right exit code and
// leaves no output; MPI ranks give the single-rank result (T14 in
// docs/reconstruct_fourier.md#reconstruction-tests); --pictures writes PNGs that decode and show
// the map and the FSC curve.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/test/png_decode.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

int run_cmd(const std::string& cmd) {
  const int status = std::system((cmd + " >/dev/null 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
int simulate(const std::string& args) { return run_cmd(std::string(FROST_SIMULATE_EXE) + " " + args); }
int reconstruct(const std::string& args) {
  return run_cmd(std::string(FROST_RECONSTRUCT_EXE) + " --device cpu " + args);
}
bool exists(const std::string& p) { return access(p.c_str(), F_OK) == 0; }

double ncc(const Image<float>& a, const Image<float>& b) {
  double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  const double n = double(a.size());
  for (index_t i = 0; i < a.size(); ++i) {
    sa += a[i];
    sb += b[i];
    saa += double(a[i]) * a[i];
    sbb += double(b[i]) * b[i];
    sab += double(a[i]) * b[i];
  }
  return (sab - sa * sb / n) / std::sqrt((saa - sa * sa / n) * (sbb - sb * sb / n));
}
double rel_l2(const Image<float>& a, const Image<float>& b) {
  double num = 0, den = 0;
  for (index_t i = 0; i < a.size(); ++i) {
    num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    den += double(b[i]) * b[i];
  }
  return std::sqrt(num / den);
}

/// One simulated data set per test binary run (400 views of a 32^3 phantom, shifts, 2 A/px).
class ReconstructApp : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    ASSERT_EQ(simulate("--mode projections --box 32 --count 400 --max_shift 3 --sampling 2 --seed 5 --oroot " +
                       dir_->file("sim")),
              0);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string file(const std::string& name) { return dir_->file(name); }
  static test::TempDir* dir_;
};
test::TempDir* ReconstructApp::dir_ = nullptr;

TEST_F(ReconstructApp, MapMatchesThePhantomWithPixelSize) {
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("map.mrc")), 0);
  const auto map = io::read_volume(file("map.mrc"));
  const auto phantom = io::read_volume(file("sim_phantom.mrc"));
  ASSERT_EQ(map.image.shape(), Shape::volume(32, 32, 32));
  EXPECT_NEAR(map.info.pixel_size[0], 2.0, 1e-6);
  const double c = ncc(map.image, phantom.image);
  std::printf("app round trip NCC %.5f\n", c);
  EXPECT_GE(c, 0.99);
  EXPECT_FALSE(exists(file("map.mrc.tmp")));
}

TEST_F(ReconstructApp, XmippAndRelionMetadataGiveTheSameMap) {
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("a.mrc") + " --sym c2"), 0);
  ASSERT_EQ(reconstruct("-i " + file("sim.xmd") + " -o " + file("b.mrc") + " --sym c2 --sampling 2"), 0);
  const double d = rel_l2(io::read_volume(file("b.mrc")).image, io::read_volume(file("a.mrc")).image);
  std::printf("xmd vs star rel L2 %.3g\n", d);
  EXPECT_LE(d, 1e-5);
}

TEST_F(ReconstructApp, HalvesWriteHalfMapsAndTheirFsc) {
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("h.mrc") + " --halves"), 0);
  for (const char* f : {"h.mrc", "h_half1.mrc", "h_half2.mrc", "h_fsc.star", "h_fsc.txt"})
    EXPECT_TRUE(exists(file(f))) << f;
  const auto fsc = meta::MetadataFile::read(file("h_fsc.star"));
  const auto values = fsc.block("fsc").doubles("rlnFourierShellCorrelation");
  ASSERT_EQ(values.size(), 17u); // shells 0..N/2
  EXPECT_GT(values[4], 0.9);     // noise-free data: the halves agree at low resolution
  // Full map from both halves equals the plain run.
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("plain.mrc")), 0);
  const double d = rel_l2(io::read_volume(file("h.mrc")).image, io::read_volume(file("plain.mrc")).image);
  EXPECT_LE(d, 1e-5);
  // A single half set from the same split equals that half map.
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("s1.mrc") + " --subset 1"), 0);
  EXPECT_LE(rel_l2(io::read_volume(file("s1.mrc")).image, io::read_volume(file("h_half1.mrc")).image), 1e-6);
}

// --pictures: <root>_sections.png (xy, xz, yz through the centre, magnified x6 to 192 px, 4 px
// gaps) and <root>_fsc.png, decoded with libpng; the phantom's blobs make the sections far from
// flat and brighter inside than at the corners; the noise-free halves keep the FSC curve near 1.
TEST_F(ReconstructApp, PicturesShowTheSectionsAndTheFscCurve) {
  FROST_REQUIRE_PNG();
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("pic.mrc") + " --halves --pictures"), 0);
  const test::DecodedPng sections = test::decode_png_file(file("pic_sections.png"));
  ASSERT_EQ(sections.width, 3 * 192 + 2 * 4);
  ASSERT_EQ(sections.height, 192);
  EXPECT_EQ(sections.colour_type, 0);
  for (int s = 0; s < 3; ++s) {
    const int left = s * (192 + 4);
    double inner = 0, corners = 0;
    int ni = 0, nc = 0, lo = 255, hi = 0;
    for (int y = 0; y < 192; ++y)
      for (int x = 0; x < 192; ++x) {
        const int v = *sections.at(left + x, y);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        const double r = std::hypot(x - 95.5, y - 95.5);
        if (r < 48) {
          inner += v;
          ++ni;
        } else if (r > 120) {
          corners += v;
          ++nc;
        }
      }
    std::printf("section %d: values %d..%d, mean %.1f inside r = 8 voxels, %.1f in the corners\n", s, lo, hi,
                inner / ni, corners / nc);
    EXPECT_GT(hi - lo, 200);
    EXPECT_GT(inner / ni, corners / nc + 20);
  }

  const test::DecodedPng fsc = test::decode_png_file(file("pic_fsc.png"));
  ASSERT_EQ(fsc.width, 640);
  ASSERT_EQ(fsc.height, 400);
  EXPECT_EQ(fsc.colour_type, 2);
  int curve = 0;
  double rows = 0;
  for (int y = 0; y < fsc.height; ++y)
    for (int x = 0; x < fsc.width; ++x) {
      const std::uint8_t* p = fsc.at(x, y);
      if (p[0] == 31 && p[1] == 90 && p[2] == 200) { // the curve's blue
        ++curve;
        rows += y;
      }
    }
  std::printf("FSC plot: %d curve pixels, mean row %.1f of 400\n", curve, curve ? rows / curve : -1.0);
  EXPECT_GT(curve, 500);          // a 2-px line across the plot
  EXPECT_LT(rows / curve, 100.0); // FSC near 1: the top of the plot
  EXPECT_TRUE(exists(file("pic_fsc.star")));
}

TEST_F(ReconstructApp, BadInputGivesClearExitCodesAndNoOutput) {
  EXPECT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("x.mrc") + " --sym x7"), 2);
  EXPECT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("x.mrc") + " --sym i5"), 2);
  EXPECT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("x.mrc") + " --iter 3"), 2);
  EXPECT_EQ(reconstruct("-i " + file("missing.star") + " -o " + file("x.mrc")), 3);
  // A row pointing past the end of the stack.
  {
    std::ifstream in(file("sim.star"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("000400@");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 7, "000401@");
    std::ofstream(file("past_end.star")) << text;
  }
  EXPECT_EQ(reconstruct("-i " + file("past_end.star") + " -o " + file("x.mrc")), 3);
  // CTF correction without CTF labels.
  EXPECT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("x.mrc") + " --useCTF"), 3);
  EXPECT_FALSE(exists(file("x.mrc")));
}

#ifdef FROST_MPIEXEC
TEST_F(ReconstructApp, MpiRanksGiveTheSingleRankMap) {
  const std::string mpirun = std::string(FROST_MPIEXEC) + " ";
  // The blob: each rank's float cube gets one sum per voxel and image, the maps agree to 1e-6.
  ASSERT_EQ(run_cmd(mpirun + "-np 3 " + FROST_RECONSTRUCT_EXE + " --device cpu --thr 1 -i " + file("sim.star") +
                    " -o " + file("mpi3.mrc") + " --mpi_job_size 7 --sym d2 --kernel blob"),
            0);
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("mpi1.mrc") + " --sym d2 --kernel blob"), 0);
  const double d = rel_l2(io::read_volume(file("mpi3.mrc")).image, io::read_volume(file("mpi1.mrc")).image);
  std::printf("3 ranks (job size 7) vs 1 rank: rel L2 %.3g\n", d);
  EXPECT_LE(d, 1e-6);
  // Two ranks, jobs of 50 images in turn, half maps reduced with the full map.
  ASSERT_EQ(run_cmd(mpirun + "-np 2 " + FROST_RECONSTRUCT_EXE + " --device cpu --thr 1 -i " + file("sim.star") +
                    " -o " + file("mpi2.mrc") + " --sym d2 --halves --mpi_job_size 50 --kernel blob"),
            0);
  const double d2 = rel_l2(io::read_volume(file("mpi2.mrc")).image, io::read_volume(file("mpi1.mrc")).image);
  std::printf("2 ranks (job size 50, halves) vs 1 rank: rel L2 %.3g\n", d2);
  EXPECT_LE(d2, 1e-6);
  // The CPU default (--kernel auto: separable) adds every sample into the float cube, so its float
  // sums are longer: 3e-6; both runs took the separable kernel (the job-wide choice).
  ASSERT_EQ(run_cmd(mpirun + "-np 3 " + FROST_RECONSTRUCT_EXE + " --device cpu --thr 1 -i " + file("sim.star") +
                    " -o " + file("mpi3s.mrc") + " --mpi_job_size 7 --sym d2"),
            0);
  ASSERT_EQ(reconstruct("-i " + file("sim.star") + " -o " + file("mpi1s.mrc") + " --sym d2"), 0);
  const double ds = rel_l2(io::read_volume(file("mpi3s.mrc")).image, io::read_volume(file("mpi1s.mrc")).image);
  const double kernels = rel_l2(io::read_volume(file("mpi1s.mrc")).image, io::read_volume(file("mpi1.mrc")).image);
  std::printf("separable: 3 ranks vs 1 rank: rel L2 %.3g; separable vs blob %.3g\n", ds, kernels);
  EXPECT_LE(ds, 3e-6);
  EXPECT_GT(kernels, 1e-4);
  EXPECT_TRUE(exists(file("mpi2_half1.mrc")));
  // A bad input on every rank ends the job with the input exit code, not a hang.
  EXPECT_NE(run_cmd(mpirun + "-np 2 " + FROST_RECONSTRUCT_EXE + " --device cpu -i " + file("missing.star") + " -o " +
                    file("y.mrc")),
            0);
  EXPECT_FALSE(exists(file("y.mrc")));
}
#endif

} // namespace
} // namespace frost
