// Precision of the CPU reconstruction (docs/reconstruct_fourier.md#at-a-glance,
// docs/reconstruct_fourier.md#reconstruction-tests): T15 compares the float build with the double
// build on the standard PH1 case, and T6 (symmetry expansion equivalence) is repeated with the
// double build, where it must hold to 1e-12.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "frost/geometry/euler.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/test/support.hpp"
#include "precision_runs.hpp"
#include "recon_fixture.hpp"

namespace {

using namespace frost;

constexpr int kBox = 32;

Image<float> to_float(const Image<double>& v) {
  Image<float> out(v.shape());
  for (index_t i = 0; i < v.size(); ++i) out[i] = static_cast<float>(v[i]);
  return out;
}

// T15: the standard case (N = 32, 300 views, seeds 11/12, as test::standard_case) with both builds.
TEST(Precision, T15FloatBuildMatchesDoubleBuild) {
  const auto blobs = test::ph1_blobs(kBox, 11);
  const auto views = test::random_views(300, 12);
  const auto stack = test::exact_projections(kBox, blobs, views);
  const Image<float> single = test::precision_map_f32(stack, views, "c1");
  const Image<double> twice = test::precision_map_f64(stack, views, "c1");
  const double rel = test::relative_l2(single, twice);
  // The double map rounded to float for the FSC: that rounding (2^-24) is far below 1e-5.
  const std::vector<double> fsc = test::fsc_shells(single, to_float(twice));
  const double min_fsc = *std::min_element(fsc.begin(), fsc.begin() + 16);
  std::printf("T15 float vs double build: relative L2 %.3g, min FSC(k <= 15) %.9f\n", rel, min_fsc);
  EXPECT_LE(rel, 2e-5);
  for (int k = 0; k <= 15; ++k) EXPECT_GE(fsc[k], 0.99999) << "shell " << k;
}

struct SymCase {
  const char* sym;
  int views;
};

class SymmetryExpansionDouble : public ::testing::TestWithParam<SymCase> {};

// T6 in the double build: the images with --sym G against each pose expanded to A R^T (through
// Euler angles) with --sym c1; the same data as the float T6 (symmetry_reconstruct_test.cpp).
TEST_P(SymmetryExpansionDouble, T6EqualsExpandedMetadata) {
  const SymCase sc = GetParam();
  const auto group = geom::parse_symmetry(sc.sym);
  const auto blobs = test::ph1_blobs(kBox, 41);
  const auto views = test::random_views(sc.views, 42);
  const auto stack = test::exact_projections(kBox, blobs, views);
  const auto expanded = test::expand_by_symmetry(views, group);
  const Image<double> with_sym = test::precision_map_f64(stack, views, sc.sym);
  const Image<double> with_metadata = test::precision_map_f64(stack, expanded, "c1");
  const double rel = test::relative_l2(with_sym, with_metadata);
  std::printf("T6 double build %s, %d views x %d elements: relative L2(--sym, expanded c1) %.3g\n", sc.sym,
              sc.views, group.order(), rel);
  EXPECT_LE(rel, 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Groups, SymmetryExpansionDouble,
                         ::testing::Values(SymCase{"c4", 75}, SymCase{"d2", 5}, SymCase{"t", 5}, SymCase{"i", 5}),
                         [](const ::testing::TestParamInfo<SymCase>& p) { return std::string(p.param.sym); });

} // namespace
