// The packed support of a half grid (docs/reconstruct_fourier.md#mpi-and-multi-gpu-reduction):
// the chunks cover every voxel within the radius exactly once, in whole rows under the size
// limit, and a sum of packed chunks unpacked is the sum of the grids there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "frost/reconstruction/grid_support.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

recon::HalfGrid random_grid(int M, std::uint32_t seed) {
  recon::HalfGrid g;
  g.M = M;
  const std::size_t voxels = std::size_t(M / 2 + 1) * (M + 1) * (M + 1);
  g.data.resize(2 * voxels);
  g.weight.resize(voxels);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& v : g.data) v = u(rng);
  for (double& v : g.weight) v = u(rng) + 1;
  return g;
}

bool inside(const recon::HalfGrid& g, int x, int y, int z, double radius) {
  const double ky = y - g.M / 2, kz = z - g.M / 2;
  return double(x) * x + ky * ky + kz * kz <= radius * radius;
}

TEST(GridSupport, ChunksCoverTheSphereOnceInWholeRows) {
  const int M = 20;
  const double radius = 8.6;
  for (std::size_t limit : {std::size_t(1), std::size_t(50), std::size_t(1) << 20}) {
    const auto chunks = recon::support_chunks(M, radius, limit);
    ASSERT_FALSE(chunks.empty());
    std::size_t total = 0;
    int next = chunks.front().first_row;
    for (const auto& c : chunks) {
      EXPECT_EQ(c.first_row, next) << "chunks follow each other";
      EXPECT_LT(c.first_row, c.end_row);
      EXPECT_GT(c.doubles, 0u);
      if (c.end_row - c.first_row > 1) {
        EXPECT_LE(c.doubles, std::max<std::size_t>(limit, 3 * (M / 2 + 1)));
      }
      next = c.end_row;
      total += c.doubles;
    }
    std::size_t want = 0;
    recon::HalfGrid shape;
    shape.M = M;
    for (int z = 0; z <= M; ++z)
      for (int y = 0; y <= M; ++y)
        for (int x = 0; x <= M / 2; ++x) want += inside(shape, x, y, z, radius) ? 3 : 0;
    EXPECT_EQ(total, want) << "limit " << limit;
  }
}

// What the MPI reduction does with two ranks: rank 0 unpacks the sum of both packed chunks.
TEST(GridSupport, PackedSumsUnpackToTheGridSumInsideAndLeaveTheRest) {
  const int M = 16;
  const double radius = 6.3;
  const recon::HalfGrid a = random_grid(M, 1), b = random_grid(M, 2);
  recon::HalfGrid root = a;
  for (const auto& c : recon::support_chunks(M, radius, 40)) {
    std::vector<double> mine(c.doubles), theirs(c.doubles);
    recon::pack_support(root, radius, c, mine.data());
    recon::pack_support(b, radius, c, theirs.data());
    for (std::size_t k = 0; k < mine.size(); ++k) mine[k] += theirs[k];
    recon::unpack_support(root, radius, c, mine.data());
  }
  for (int z = 0; z <= M; ++z)
    for (int y = 0; y <= M; ++y)
      for (int x = 0; x <= M / 2; ++x) {
        const std::int64_t i = root.index(x, y, z);
        const bool in = inside(root, x, y, z, radius);
        ASSERT_EQ(root.weight[i], in ? a.weight[i] + b.weight[i] : a.weight[i]) << x << " " << y << " " << z;
        ASSERT_EQ(root.data[2 * i], in ? a.data[2 * i] + b.data[2 * i] : a.data[2 * i]);
        ASSERT_EQ(root.data[2 * i + 1], in ? a.data[2 * i + 1] + b.data[2 * i + 1] : a.data[2 * i + 1]);
      }
}

} // namespace
