// --ostar_motion data_hot_pixels and data_local_shift (docs/movie_align.md#relion-and-xmipp-exports,
// docs/formats.md#motion-star) on a T3 (doming) movie with three injected hot pixels, aligned over frames
// 2..9 with 2 x 2 patches: the blocks in RELION's order with RELION's labels; the hot pixels where they
// were put; one local_shift row per patch and aligned frame (1-based frames 3..10), the patch centres of
// the frost STAR, and the shifts equal to the frost STAR's measured patch shifts minus the RELION global
// shift, re-referenced to the first aligned frame (exactly 0 there); across patches they follow the
// simulated doming. A run without local alignment whose detection finds no hot pixel writes neither block.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "frost/metadata/metadata_file.hpp"
#include "frost/test/support.hpp"
#include "movie_align_cli.hpp"

namespace frost {
namespace {

using namespace movie_align_test;

/// Bilinear interpolation of the truth's displacement at (x, y) of 1-based frame `frame`
/// (data_local_truth: a regular grid per frame).
std::pair<double, double> truth_displacement(const meta::Block& truth, long long frame, double x, double y) {
  const auto f = truth.ints("rlnMicrographFrameNumber");
  const auto gx = truth.doubles("rlnCoordinateX"), gy = truth.doubles("rlnCoordinateY");
  const auto dx = truth.doubles("frostDisplacementX"), dy = truth.doubles("frostDisplacementY");
  std::map<std::pair<double, double>, std::pair<double, double>> grid;
  std::vector<double> xs, ys;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (f[i] != frame) continue;
    grid[{gx[i], gy[i]}] = {dx[i], dy[i]};
    if (std::find(xs.begin(), xs.end(), gx[i]) == xs.end()) xs.push_back(gx[i]);
    if (std::find(ys.begin(), ys.end(), gy[i]) == ys.end()) ys.push_back(gy[i]);
  }
  std::sort(xs.begin(), xs.end());
  std::sort(ys.begin(), ys.end());
  auto cell = [](const std::vector<double>& v, double p) {
    std::size_t i = 0;
    while (i + 2 < v.size() && p > v[i + 1]) ++i;
    return i;
  };
  const std::size_t i = cell(xs, x), j = cell(ys, y);
  const double u = (x - xs[i]) / (xs[i + 1] - xs[i]), v = (y - ys[j]) / (ys[j + 1] - ys[j]);
  std::pair<double, double> out{0, 0};
  for (int b = 0; b < 2; ++b)
    for (int a = 0; a < 2; ++a) {
      const double w = (a ? u : 1 - u) * (b ? v : 1 - v);
      const auto& d = grid.at({xs[i + a], ys[j + b]});
      out.first += w * d.first;
      out.second += w * d.second;
    }
  return out;
}

TEST(MovieAlignRelionExport, HotPixelsAndLocalShiftsAsRelionWritesThem) {
  test::TempDir dir;
  ASSERT_EQ(simulate("--mode movie --size 512 512 --frames 12 --trajectory T3 --dose 4 --contrast 0.2 --seed 5 "
                     "--oroot " + dir.file("t3")),
            0);
  const std::vector<std::pair<index_t, index_t>> hot{{100, 200}, {300, 50}, {450, 400}};
  rewrite_movie(dir.file("t3.mrcs"), dir.file("hot.mrcs"), io::MrcMode::Float32, hot, 40.0f);
  const std::string common = "-i " + dir.file("hot.mrcs") + " --device cpu --patches 2 2 --minLocalRes 256 "
                             "--controlPoints 4 4 4 --frameRange 2 9";
  ASSERT_EQ(align(common + " --hot-pixel-sigma 6 -o " + dir.file("a.star") + " --ostar_motion " + dir.file("m.star")),
            0);
  const meta::MetadataFile m = meta::MetadataFile::read(dir.file("m.star"));
  std::vector<std::string> names;
  for (const meta::Block& b : m.blocks()) names.push_back(b.name());
  EXPECT_EQ(names, (std::vector<std::string>{"general", "global_shift", "local_motion_model", "hot_pixels",
                                             "local_shift"}));

  const meta::Block& hp = m.block("hot_pixels");
  EXPECT_EQ(hp.labels(), (std::vector<std::string>{"rlnCoordinateX", "rlnCoordinateY"}));
  ASSERT_EQ(hp.rows(), hot.size());
  const auto hx = hp.ints("rlnCoordinateX"), hy = hp.ints("rlnCoordinateY");
  for (const auto& [x, y] : hot) {
    bool found = false;
    for (std::size_t i = 0; i < hp.rows(); ++i) found = found || (hx[i] == x && hy[i] == y);
    EXPECT_TRUE(found) << "hot pixel " << x << "," << y;
  }

  const meta::Block& ls = m.block("local_shift");
  EXPECT_EQ(ls.labels(), (std::vector<std::string>{"rlnMicrographFrameNumber", "rlnCoordinateX", "rlnCoordinateY",
                                                   "rlnMicrographShiftX", "rlnMicrographShiftY"}));
  ASSERT_EQ(ls.rows(), 4u * 8u);
  const auto frame = ls.ints("rlnMicrographFrameNumber");
  const auto cx = ls.doubles("rlnCoordinateX"), cy = ls.doubles("rlnCoordinateY");
  const auto sx = ls.doubles("rlnMicrographShiftX"), sy = ls.doubles("rlnMicrographShiftY");
  const meta::Block& g = m.block("global_shift");
  std::map<long long, std::pair<double, double>> global;
  {
    const auto n = g.ints("rlnMicrographFrameNumber");
    const auto x = g.doubles("rlnMicrographShiftX"), y = g.doubles("rlnMicrographShiftY");
    for (std::size_t i = 0; i < n.size(); ++i) global[n[i]] = {x[i], y[i]};
  }
  // The frost STAR's patch measurements: total shift to apply, relative to its reference frame.
  const meta::MetadataFile frost_star = meta::MetadataFile::read(dir.file("a.star"));
  const meta::Block& fl = frost_star.block("local_shift");
  const auto fp = fl.ints("frostPatchIndex"), ff = fl.ints("frostFrameIndex");
  const auto fcx = fl.doubles("rlnCoordinateX"), fcy = fl.doubles("rlnCoordinateY");
  const auto mx = fl.doubles("frostMeasuredShiftX"), my = fl.doubles("frostMeasuredShiftY");
  ASSERT_EQ(fl.rows(), ls.rows());
  double worst = 0;
  for (std::size_t r = 0; r < ls.rows(); ++r) {
    const std::size_t patch = r / 8, first = patch * 8; // frost rows: patch-major, then frame
    ASSERT_EQ(fp[r], static_cast<long long>(patch));
    EXPECT_EQ(frame[r], 3 + static_cast<long long>(r % 8)) << r;
    EXPECT_EQ(frame[r], ff[r] + 1);
    EXPECT_EQ(cx[r], fcx[r]);
    EXPECT_EQ(cy[r], fcy[r]);
    const auto& gl = global.at(frame[r]);
    const double ex = (mx[r] - mx[first]) - gl.first, ey = (my[r] - my[first]) - gl.second;
    worst = std::max({worst, std::abs(sx[r] - ex), std::abs(sy[r] - ey)});
    if (r % 8 == 0) {
      EXPECT_EQ(sx[r], 0.0);
      EXPECT_EQ(sy[r], 0.0);
    }
  }
  std::printf("local_shift vs frost STAR measured patch shifts minus RELION global: largest difference %.2e px\n",
              worst);
  EXPECT_LE(worst, 1e-9);

  // Against the simulated doming: the patch totals (global + local) minus their mean over the
  // patches, and the same of the truth's shifts to apply (-displacement, from the first aligned frame).
  const meta::MetadataFile truth_star = meta::MetadataFile::read(dir.file("t3_truth.star"));
  const meta::Block& truth = truth_star.block("local_truth");
  double ss = 0, truth_ss = 0;
  for (long long f = 4; f <= 10; ++f) {
    double om[2] = {0, 0}, tm[2] = {0, 0};
    std::vector<std::pair<double, double>> ours, want;
    for (std::size_t p = 0; p < 4; ++p) {
      const std::size_t r = p * 8 + static_cast<std::size_t>(f - 3);
      ours.push_back({sx[r] + global.at(f).first, sy[r] + global.at(f).second});
      const auto d = truth_displacement(truth, f, cx[r], cy[r]), d0 = truth_displacement(truth, 3, cx[r], cy[r]);
      want.push_back({-(d.first - d0.first), -(d.second - d0.second)});
      om[0] += ours.back().first / 4;
      om[1] += ours.back().second / 4;
      tm[0] += want.back().first / 4;
      tm[1] += want.back().second / 4;
    }
    for (std::size_t p = 0; p < 4; ++p) {
      const double ex = (ours[p].first - om[0]) - (want[p].first - tm[0]);
      const double ey = (ours[p].second - om[1]) - (want[p].second - tm[1]);
      ss += ex * ex + ey * ey;
      truth_ss += std::pow(want[p].first - tm[0], 2) + std::pow(want[p].second - tm[1], 2);
    }
  }
  const double rms = std::sqrt(ss / 28), truth_rms = std::sqrt(truth_ss / 28);
  std::printf("patch shifts about their mean vs the simulated doming: error rms %.3f px, doming rms %.3f px\n", rms,
              truth_rms);
  EXPECT_GT(truth_rms, 0.15);
  EXPECT_LT(rms, 0.5 * truth_rms); // a sign error would leave about twice the doming

  // Global only, detection that finds nothing: neither block.
  ASSERT_EQ(align(common + " --skipLocalAlignment --hot-pixel-sigma 50 -o " + dir.file("g.star") + " --ostar_motion " + dir.file("g_m.star")),
            0);
  const meta::MetadataFile gm = meta::MetadataFile::read(dir.file("g_m.star"));
  EXPECT_EQ(gm.find("hot_pixels"), nullptr);
  EXPECT_EQ(gm.find("local_shift"), nullptr);
}

} // namespace
} // namespace frost
