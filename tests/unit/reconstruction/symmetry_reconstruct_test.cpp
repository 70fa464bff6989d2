// Symmetry in the reconstruction (fourier-reconstruction.md §3.4, §14.3 T6 and T7): inserting
// every image at R A^T equals expanding the metadata to poses A R^T, and a phantom with the
// group's symmetry is recovered from few views; the wrong composition A^T R is not.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/sample_preparer.hpp"
#include "frost/reconstruction/traverse_space.hpp"
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

} // namespace
