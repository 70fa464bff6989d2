// Symmetry in the reconstruction (docs/reconstruct_fourier.md#symmetry-composition; T6 and T7 in
// docs/reconstruct_fourier.md#reconstruction-tests): inserting every image at R A^T equals
// expanding the metadata to poses A R^T, and a phantom with the group's symmetry is recovered from
// few views; the wrong composition A^T R is not.
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <random>
#include <string>

#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/grid_symmetry.hpp"
#include "frost/reconstruction/sample_preparer.hpp"
#include "frost/reconstruction/traverse_space.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"
#include "recon_runs.hpp"

namespace {

using namespace frost;
namespace recon = frost::recon;

constexpr int kBox = 32;

struct SymCase {
  const char* sym;
  int views;
};

class SymmetryExpansion : public ::testing::TestWithParam<SymCase> {};

// T6: the same images with --sym G, and with each pose expanded to A R^T (through Euler angles,
// as a metadata file would carry them) and --sym c1.
TEST_P(SymmetryExpansion, T6EqualsExpandedMetadata) {
  const SymCase sc = GetParam();
  const auto group = geom::parse_symmetry(sc.sym);
  const auto blobs = test::ph1_blobs(kBox, 41);
  const auto views = test::random_views(sc.views, 42);
  const auto stack = test::exact_projections(kBox, blobs, views);
  const auto expanded = test::expand_by_symmetry(views, group);
  const auto settings = test::default_settings(kBox);
  const auto with_sym = test::run_accumulate(settings, group, views, stack);
  const auto with_metadata = test::run_accumulate(settings, geom::parse_symmetry("c1"), expanded, stack);
  const double rel = test::relative_l2(with_sym, with_metadata);
  std::printf("T6 %s, %d views x %d elements: relative L2(--sym, expanded c1) %.3g\n", sc.sym, sc.views,
              group.order(), rel);
  EXPECT_LE(rel, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(Groups, SymmetryExpansion,
                         ::testing::Values(SymCase{"c4", 75}, SymCase{"d2", 5}, SymCase{"t", 5}, SymCase{"i", 5}),
                         [](const ::testing::TestParamInfo<SymCase>& p) { return std::string(p.param.sym); });

/// PH1 replicated by the group, projected at `views` random poses.
struct SymmetricData {
  Image<float> phantom, stack;
  std::vector<recon::ParticleRecord> views;
};

SymmetricData symmetric_data(const geom::SymmetryGroup& group, int views) {
  SymmetricData d;
  const auto blobs = test::symmetrise_blobs(test::ph1_blobs(kBox, 51), group);
  d.views = test::random_views(views, 52);
  d.stack = test::exact_projections(kBox, blobs, d.views);
  d.phantom = sim::render_blobs(kBox, blobs);
  return d;
}

struct SymQuality {
  const char* sym;
  int views;
  double min_ncc;
};

class SymmetricPhantom : public ::testing::TestWithParam<SymQuality> {};

// T7: few views and the group's copies recover a symmetric phantom.
TEST_P(SymmetricPhantom, T7RecoveredFromFewViews) {
  const SymQuality sq = GetParam();
  const auto group = geom::parse_symmetry(sq.sym);
  const auto d = symmetric_data(group, sq.views);
  const auto q = test::measure(test::run_cpu(test::default_settings(kBox), d.stack, d.views, sq.sym), d.phantom);
  const std::string label = std::string("T7 ") + sq.sym + " " + std::to_string(sq.views) + " views:";
  test::print_quality(label.c_str(), q);
  EXPECT_GE(q.ncc, sq.min_ncc);
}

INSTANTIATE_TEST_SUITE_P(Groups, SymmetricPhantom,
                         ::testing::Values(SymQuality{"c4", 75, 0.998}, SymQuality{"i", 5, 0.995},
                                           SymQuality{"d7", 20, 0.995}, SymQuality{"o", 20, 0.995}),
                         [](const ::testing::TestParamInfo<SymQuality>& p) { return std::string(p.param.sym); });

/// The precise CPU insertion with traverse spaces built from compose(A^T, R) instead of the
/// library's R A^T: what a build with the other composition order would produce.
template <class Compose>
Image<float> reconstruct_composed(const recon::ReconstructionSettings& settings, const geom::SymmetryGroup& group,
                                  const SymmetricData& d, Compose compose) {
  const auto layout = recon::make_grid_layout(settings);
  recon::SamplePreparer prep(settings, layout, group);
  const recon::BlobTable table(settings.blob);
  recon::FullGrid grid(layout);
  recon::SampleBatch batch(layout, 1, group.order(), false);
  const index_t n = d.stack.shape().x;
  for (std::size_t i = 0; i < d.views.size(); ++i) {
    const View<const float> image{d.stack.data() + static_cast<index_t>(i) * n * n, Shape::image(n, n)};
    prep.transform(image, 0.0, 0.0, batch.spectrum(0));
    const geom::Mat3d At = geom::euler_to_matrix(d.views[i].pose).transposed();
    for (int g = 0; g < group.order(); ++g)
      batch.spaces(0)[g] = recon::make_traverse_space(compose(At, group[g]), layout, settings.blob.radius, 0, 1.0f);
    batch.set_size(1);
    recon::insert_batch_cpu(batch, grid, settings, table);
  }
  auto half = recon::fold(grid, layout);
  return recon::finalise(half, settings, layout);
}

TEST(SymmetricPhantom, T7WrongCompositionOrderFails) {
  const auto group = geom::parse_symmetry("c4");
  const auto d = symmetric_data(group, 75);
  const auto settings = test::default_settings(kBox);
  const auto library = test::run_cpu(settings, d.stack, d.views, "c4");
  const auto right = reconstruct_composed(settings, group, d, [](const geom::Mat3d& At, const geom::Mat3d& R) { return R * At; });
  const auto wrong = reconstruct_composed(settings, group, d, [](const geom::Mat3d& At, const geom::Mat3d& R) { return At * R; });
  const double same = test::relative_l2(right, library);
  const double ncc_right = test::ncc_sphere(right, d.phantom), ncc_wrong = test::ncc_sphere(wrong, d.phantom);
  std::printf("T7 c4 75 views: R A^T NCC %.5f (relative L2 to the library run %.3g), A^T R NCC %.5f\n",
              ncc_right, same, ncc_wrong);
  EXPECT_LE(same, 1e-6); // the hand-built insertion is the library's, but for the order
  EXPECT_GE(ncc_right, 0.998);
  EXPECT_LT(ncc_wrong, 0.95);
}

// ---- symmetry on the folded grid (grid_symmetry.hpp) -----------------------------------------

// The exact split: the grid subgroup S holds the signed permutations of G, the inserted elements
// are one per right coset S c, and together they cover G once.
TEST(GridSymmetry, PlanSplitsOffTheSignedPermutations) {
  struct Expect {
    const char* sym;
    int grid, inserted;
  };
  // i (I2, 2-folds on x, y, z): the 12 elements of T; o: all 24; d7: identity and the 2-fold
  // on x; c3: no signed permutation but the identity (nothing to sum).
  for (const Expect e : {Expect{"c4", 4, 1}, Expect{"d2", 4, 1}, Expect{"i", 12, 5}, Expect{"o", 24, 1},
                         Expect{"d7", 2, 7}, Expect{"c3", 0, 3}, Expect{"c1", 0, 1}}) {
    const auto group = geom::parse_symmetry(e.sym);
    const auto plan = recon::plan_symmetry(group, recon::SymMode::Insert);
    EXPECT_EQ(static_cast<int>(plan.grid.size()), e.grid) << e.sym;
    EXPECT_EQ(plan.inserted.order(), e.inserted) << e.sym;
    EXPECT_TRUE(plan.exact) << e.sym;
    const auto grid_mode = recon::plan_symmetry(group, recon::SymMode::Grid);
    EXPECT_EQ(grid_mode.inserted.order(), 1) << e.sym;
    EXPECT_EQ(static_cast<int>(grid_mode.grid.size()), group.order() > 1 ? group.order() : 0) << e.sym;
  }
}

/// H(k) of the folded grid at integer frequency k (grid_symmetry.hpp: the kx = 0 plane stores
/// H / 2, kx < 0 reads conj(H(-k))), false outside the grid: the reference of the exact test.
struct HalfLookup {
  const recon::HalfGrid& g;
  bool at(int kx, int ky, int kz, std::complex<double>& v, double& w) const {
    bool conj = false;
    if (kx < 0) {
      kx = -kx;
      ky = -ky;
      kz = -kz;
      conj = true;
    }
    const int h = g.M / 2;
    if (kx > h || ky < -h || ky > h || kz < -h || kz > h) return false;
    const std::int64_t i = g.index(kx, ky + h, kz + h);
    const double f = kx == 0 ? 2.0 : 1.0;
    v = {f * g.data[static_cast<std::size_t>(2 * i)], f * g.data[static_cast<std::size_t>(2 * i + 1)]};
    if (conj) v = std::conj(v);
    w = f * g.weight[static_cast<std::size_t>(i)];
    return true;
  }
};

// C4 about z maps grid points onto grid points, so the symmetrisation must be the exact sum of
// the four rotated voxels (Friedel reads and the halved kx = 0 plane included): max error
// <= 1e-12 on random data.
TEST(GridSymmetry, ExactRotationsSumTheRotatedVoxels) {
  const auto settings = test::default_settings(8);
  const auto layout = recon::make_grid_layout(settings);
  recon::HalfGrid grid(layout);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (auto& v : grid.data) v = value(rng);
  for (auto& v : grid.weight) v = value(rng) + 1.0;
  recon::symmetrise_kx0_plane(grid); // the reference reads the grid the symmetrisation reads
  const recon::HalfGrid before = grid;
  const auto group = geom::parse_symmetry("c4");
  const auto plan = recon::plan_symmetry(group, recon::SymMode::Insert);
  ASSERT_EQ(plan.grid.size(), 4u);
  recon::symmetrise_grid(grid, plan.grid, 1e30);
  const HalfLookup ref{before};
  const int h = layout.M / 2;
  double max_err = 0, max_val = 0;
  int compared = 0;
  for (int kz = -h; kz <= h; ++kz)
    for (int ky = -h; ky <= h; ++ky)
      for (int kx = 0; kx <= h; ++kx) {
        std::complex<double> sum = 0;
        double wsum = 0;
        for (const auto& R : group.elements()) {
          const int rx = static_cast<int>(std::lround(R.m[0][0] * kx + R.m[0][1] * ky + R.m[0][2] * kz));
          const int ry = static_cast<int>(std::lround(R.m[1][0] * kx + R.m[1][1] * ky + R.m[1][2] * kz));
          const int rz = static_cast<int>(std::lround(R.m[2][0] * kx + R.m[2][1] * ky + R.m[2][2] * kz));
          std::complex<double> v;
          double w;
          if (ref.at(rx, ry, rz, v, w)) {
            sum += v;
            wsum += w;
          }
        }
        if (kx == 0) { // stored halved
          sum *= 0.5;
          wsum *= 0.5;
        }
        const std::int64_t i = grid.index(kx, ky + h, kz + h);
        const std::complex<double> got{grid.data[static_cast<std::size_t>(2 * i)], grid.data[static_cast<std::size_t>(2 * i + 1)]};
        max_err = std::max({max_err, std::abs(got - sum), std::abs(grid.weight[static_cast<std::size_t>(i)] - wsum)});
        max_val = std::max(max_val, std::abs(sum));
        ++compared;
      }
  std::printf("grid symmetrisation c4 on M = %d: %d voxels, max error %.3g (values up to %.3g)\n", layout.M, compared,
              max_err, max_val);
  EXPECT_GT(max_val, 1.0);
  EXPECT_LE(max_err, 1e-12);
}

// T7 with --sym_mode grid (every image once, the whole group summed by trilinear
// interpolation): the symmetric phantom is still recovered from few views, close to the exact
// insertion; the groups whose elements are all signed permutations (c4, o) come out exact.
TEST_P(SymmetricPhantom, T7GridModeRecoveredFromFewViews) {
  const SymQuality sq = GetParam();
  const auto group = geom::parse_symmetry(sq.sym);
  const auto d = symmetric_data(group, sq.views);
  auto settings = test::default_settings(kBox);
  const auto insert = test::run_cpu(settings, d.stack, d.views, sq.sym);
  settings.sym_mode = recon::SymMode::Grid;
  const auto grid = test::run_cpu(settings, d.stack, d.views, sq.sym);
  const auto q = test::measure(grid, d.phantom);
  const double rel = test::relative_l2(grid, insert);
  const bool exact = recon::plan_symmetry(group, recon::SymMode::Grid).exact;
  const std::string label = std::string("T7 grid mode ") + sq.sym + " " + std::to_string(sq.views) + " views:";
  test::print_quality(label.c_str(), q);
  std::printf("  relative L2 to the per-element insertion: %.3g (%s)\n", rel, exact ? "exact" : "interpolated");
  EXPECT_GE(q.ncc, sq.min_ncc - 0.01); // one more interpolation than the exact insertion
  EXPECT_LE(rel, exact ? 1e-5 : 0.1);
}

} // namespace
