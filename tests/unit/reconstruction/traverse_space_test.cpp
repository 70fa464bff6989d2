// The traverse space of the gather insertion (docs/reconstruct_fourier.md#gather-and-the-traverse-space;
// U3 in docs/reconstruct_fourier.md#unit-tests): golden values, the iteration plane of 90-degree
// rotations, and a brute-force check that the gather visits every voxel a sample slice can reach.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

/// The layout of the Umpalumpa golden case, by hand: M = 6, fx = 3, fy = 6.
recon::GridLayout golden_layout() {
  recon::GridLayout g;
  g.M = 6;
  g.fx = 3;
  g.fy = 6;
  g.cr = 3;
  g.box = 3;
  g.padded = 6;
  return g;
}

geom::Mat3d rows(geom::Vec3d a, geom::Vec3d b, geom::Vec3d c) { return geom::Mat3d::from_rows(a, b, c); }

void expect_aabb(const recon::TraverseSpace& ts, int x0, int x1, int y0, int y1, int z0, int z1) {
  EXPECT_EQ(ts.min_x, x0);
  EXPECT_EQ(ts.max_x, x1);
  EXPECT_EQ(ts.min_y, y0);
  EXPECT_EQ(ts.max_y, y1);
  EXPECT_EQ(ts.min_z, z0);
  EXPECT_EQ(ts.max_z, z1);
}

void expect_vec(const geom::Vec3f& v, double x, double y, double z) {
  EXPECT_NEAR(v.x, x, 1e-5);
  EXPECT_NEAR(v.y, y, 1e-5);
  EXPECT_NEAR(v.z, z, 1e-5);
}

TEST(TraverseSpace, GoldenIdentity) {
  const auto ts = recon::make_traverse_space(geom::Mat3d::identity(), golden_layout(), 1.9, 7, 0.5f);
  expect_aabb(ts, 1, 6, 0, 6, 1, 5);
  EXPECT_FLOAT_EQ(ts.max_distance_sqr, 24.01f);
  EXPECT_EQ(ts.dir, recon::kPlaneXY);
  expect_vec(ts.unit_normal, 0, 0, 1);
  expect_vec(ts.top_origin, 7.9, -1.9, 1.1);
  expect_vec(ts.bottom_origin, 7.9, -1.9, 4.9);
  EXPECT_EQ(ts.projection_index, 7);
  EXPECT_EQ(ts.weight, 0.5f);
}

TEST(TraverseSpace, GoldenIdentityWithoutKernel) {
  const auto ts = recon::make_traverse_space(geom::Mat3d::identity(), golden_layout(), 0.0, 0, 1.0f);
  expect_aabb(ts, 3, 6, 0, 6, 3, 3);
  EXPECT_FLOAT_EQ(ts.max_distance_sqr, 9.0f);
  EXPECT_EQ(ts.dir, recon::kPlaneXY);
  expect_vec(ts.top_origin, 6, 0, 3);
  expect_vec(ts.bottom_origin, 6, 0, 3);
}

// Sample box x in [-1.9, 4.9], y in [-4.9, 4.9], z in [-1.9, 1.9], then + 3 (the grid centre).
TEST(TraverseSpace, NinetyDegreesAboutXIteratesOverXZ) {
  // Active rotation about x: (x, y, z) -> (x, -z, y); the normal (0, 0, 1) goes to (0, -1, 0).
  const geom::Mat3d R = rows({1, 0, 0}, {0, 0, -1}, {0, 1, 0});
  const auto ts = recon::make_traverse_space(R, golden_layout(), 1.9, 0, 1.0f);
  EXPECT_EQ(ts.dir, recon::kPlaneXZ);
  expect_vec(ts.unit_normal, 0, -1, 0);
  // x: [1.1, 7.9] -> 1..6 (clipped); y = -z: [1.1, 4.9] -> 1..5; z = y: [-1.9, 7.9] -> 0..6.
  expect_aabb(ts, 1, 6, 1, 5, 0, 6);
}

TEST(TraverseSpace, NinetyDegreesAboutYIteratesOverYZ) {
  // Active rotation about y: (x, y, z) -> (z, y, -x); the normal goes to (1, 0, 0).
  const geom::Mat3d R = rows({0, 0, 1}, {0, 1, 0}, {-1, 0, 0});
  const auto ts = recon::make_traverse_space(R, golden_layout(), 1.9, 0, 1.0f);
  EXPECT_EQ(ts.dir, recon::kPlaneYZ);
  expect_vec(ts.unit_normal, 1, 0, 0);
  // x = z: [1.1, 4.9] -> 1..5; y: [-1.9, 7.9] -> 0..6; z = -x: [-1.9, 4.9] -> 0..5.
  expect_aabb(ts, 1, 5, 0, 6, 0, 5);
}

TEST(TraverseSpace, TiesGoToYZThenXZ) {
  const double s = std::sqrt(0.5);
  // Normal (s, s, 0): |nx| = |ny| -> YZ. Normal (0, s, s): |ny| = |nz| -> XZ.
  const geom::Mat3d a = rows({0, 0, s}, {0, 0, s}, {1, 0, 0});
  const geom::Mat3d b = rows({1, 0, 0}, {0, 0, s}, {0, 0, s});
  EXPECT_EQ(recon::make_traverse_space(a, golden_layout(), 1.9, 0, 1.0f).dir, recon::kPlaneYZ);
  EXPECT_EQ(recon::make_traverse_space(b, golden_layout(), 1.9, 0, 1.0f).dir, recon::kPlaneXZ);
}

/// Result of one brute-force comparison.
struct Coverage {
  long reachable = 0;       ///< voxels within b of a layout pixel
  long outside_aabb = 0;    ///< ... of them outside the AABB
  long missed = 0;          ///< ... of them inside the frequency sphere but not gathered (w > 0)
  long visited_twice = 0;   ///< voxels the gather accumulated from two columns
};

/// Runs the precise gather (kernel radius b) over every column of the AABB of a traverse space
/// built for radius `space_b` with a spectrum of ones, and compares the voxels it accumulates
/// against a brute-force scan of all voxels within b of the sample pixels.
Coverage check_coverage(const geom::Mat3d& a_sl, const recon::GridLayout& layout, double b, double space_b,
                        const recon::BlobTable& table, const std::vector<recon::Cf>& ones) {
  const int M = layout.M, side = M + 1;
  const recon::TraverseSpace ts = recon::make_traverse_space(a_sl, layout, space_b, 0, 1.0f);
  recon::SampleView view;
  view.spectra = ones.data();
  view.fx = layout.fx;
  view.fy = layout.fy;
  view.M = M;
  std::vector<int> hits(static_cast<std::size_t>(side) * side * side, 0);
  auto at = [side](int x, int y, int z) { return (static_cast<std::size_t>(z) * side + y) * side + x; };
  auto record = [&](int x, int y, int z, float, float, float w) {
    if (w > 0) ++hits[at(x, y, z)];
  };
  // The same column walk as the CPU inserter (cpu_accumulator.cpp).
  const int a0 = ts.dir == recon::kPlaneYZ ? ts.min_y : ts.min_x;
  const int b0 = ts.dir == recon::kPlaneXY ? ts.min_y : ts.min_z;
  for (int j = 0; j < ts.columns_b(); ++j)
    for (int i = 0; i < ts.columns_a(); ++i)
      recon::gather_column(ts, a0 + i, b0 + j, view, static_cast<float>(b), recon::TableWeight{table.view()}, record);

  Coverage c;
  for (std::size_t k = 0; k < hits.size(); ++k) c.visited_twice += hits[k] > 1;
  // Brute force in double. The margin keeps float rounding of d^2 ~ b^2 in the gather from
  // counting as a miss; it is 1e-4 px, far below any traversal error (those are >= 0.1 px).
  const double reach = b - 1e-4, half = 0.5 * M;
  const double sphere = (layout.fx + b) * (layout.fx + b);
  std::vector<char> reachable(hits.size(), 0);
  for (int i = 0; i < layout.fy; ++i)
    for (int j = 0; j < layout.fx; ++j) {
      const geom::Vec3d q = a_sl * geom::Vec3d{double(j), double(i) - 0.5 * layout.fy, 0.0};
      const geom::Vec3d p{q.x + half, q.y + half, q.z + half};
      for (int z = std::max(0, int(std::floor(p.z - b))); z <= std::min(M, int(std::ceil(p.z + b))); ++z)
        for (int y = std::max(0, int(std::floor(p.y - b))); y <= std::min(M, int(std::ceil(p.y + b))); ++y)
          for (int x = std::max(0, int(std::floor(p.x - b))); x <= std::min(M, int(std::ceil(p.x + b))); ++x) {
            const double dx = x - p.x, dy = y - p.y, dz = z - p.z;
            if (dx * dx + dy * dy + dz * dz <= reach * reach) reachable[at(x, y, z)] = 1;
          }
    }
  for (int z = 0; z <= M; ++z)
    for (int y = 0; y <= M; ++y)
      for (int x = 0; x <= M; ++x) {
        if (!reachable[at(x, y, z)]) continue;
        ++c.reachable;
        if (x < ts.min_x || x > ts.max_x || y < ts.min_y || y > ts.max_y || z < ts.min_z || z > ts.max_z)
          ++c.outside_aabb;
        // Voxels beyond the spherical cut (fx + b) are skipped by design: every pixel they
        // could reach lies beyond fmax, where samples are zero.
        const double kx = x - half, ky = y - half, kz = z - half;
        if (kx * kx + ky * ky + kz * kz <= sphere && hits[at(x, y, z)] == 0) ++c.missed;
      }
  return c;
}

// U3: 10 000 random poses, proper and improper (R A^T with R = -I, as symmetry groups
// with inversion produce), two sample widths (fx = M/2 + 1 and Xmipp's M/2).
TEST(TraverseSpace, GatherVisitsEveryVoxelWithinTheKernelOfASamplePixel) {
  recon::GridLayout layout;
  layout.M = 16;
  layout.fy = 16;
  const double b = 1.9;
  const recon::BlobTable table(recon::BlobParams{});
  std::vector<recon::Cf> ones(static_cast<std::size_t>((layout.M / 2 + 1) * layout.fy), recon::Cf{1.0f, 0.0f});
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> angle(0.0, 360.0), cosine(-1.0, 1.0);
  const int trials = 10000;
  Coverage total;
  long worst_missed = 0;
  for (int t = 0; t < trials; ++t) {
    layout.fx = layout.M / 2 + (t % 2 == 0 ? 1 : 0);
    const double rot = angle(rng);
    const double tilt = std::acos(cosine(rng)) * 180.0 / 3.14159265358979323846;
    const double psi = angle(rng);
    geom::Mat3d a_sl = geom::euler_to_matrix<double>(rot, tilt, psi).transposed();
    if (t % 4 == 3)
      for (auto& r : a_sl.m)
        for (double& v : r) v = -v;
    const Coverage c = check_coverage(a_sl, layout, b, b, table, ones);
    total.reachable += c.reachable;
    total.outside_aabb += c.outside_aabb;
    total.missed += c.missed;
    total.visited_twice += c.visited_twice;
    worst_missed = std::max(worst_missed, c.missed);
  }
  std::printf("U3 %d random poses: %ld reachable voxels, %ld outside the AABB, %ld not gathered, "
              "%ld accumulated by two columns\n",
              trials, total.reachable, total.outside_aabb, total.missed, total.visited_twice);
  EXPECT_GT(total.reachable, 300L * trials); // the scan found something to check
  EXPECT_EQ(total.outside_aabb, 0);
  EXPECT_EQ(total.missed, 0);
  // One column per voxel is what lets the CPU inserter run columns in parallel without atomics.
  EXPECT_EQ(total.visited_twice, 0);
}

// Control for the test above: a traverse space built for a thinner slab (b = 1) than the kernel
// (1.9) must be caught missing voxels, so the brute-force comparison can fail.
TEST(TraverseSpace, BruteForceCatchesATooThinSlab) {
  recon::GridLayout layout;
  layout.M = 16;
  layout.fx = 9;
  layout.fy = 16;
  const recon::BlobTable table(recon::BlobParams{});
  std::vector<recon::Cf> ones(static_cast<std::size_t>(layout.fx * layout.fy), recon::Cf{1.0f, 0.0f});
  const geom::Mat3d a_sl = geom::euler_to_matrix<double>(20.0, 50.0, 80.0).transposed();
  const Coverage c = check_coverage(a_sl, layout, 1.9, 1.0, table, ones);
  std::printf("U3 control, slab built for b = 1 with kernel 1.9: %ld of %ld reachable voxels not gathered\n",
              c.missed, c.reachable);
  EXPECT_GT(c.missed, 0);
}

} // namespace
