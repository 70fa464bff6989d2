// The reconstruction through its one seam, recon::make_reconstruction_backend, written once and
// run on both backends (the CUDA instance skips without a GPU): accumulate() and finalise() in
// process, against the CPU accumulator (bit for bit on the CPU, G1's tolerance on the GPU,
// docs/reconstruct_fourier.md#gpu-tests), for one and two grids.
#include <string>
#include <vector>

#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/backend.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/test/device_types.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"

namespace frost::recon {
namespace {

using test::CpuDevices;
using test::CudaDevices;
using test::DeviceNames;

constexpr double kSeamMapTolerance = 1e-4; // G1: relative L2 of the maps, GPU vs CPU

template <class D>
class ReconstructionBackend : public ::testing::Test {
protected:
  void SetUp() override {
    if (D::gpu) {
      FROST_REQUIRE_GPU();
    }
  }
  /// The maps of `grids` grids of 120 PH1 views (box 32, `sym`) with `accumulator`.
  static std::vector<Image<float>> maps(const ReconstructionSettings& s, const std::string& sym, int grids,
                                        GridAccumulator& accumulator) {
    std::vector<ParticleRecord> views = test::random_views(120, 21);
    for (std::size_t i = 0; i < views.size(); ++i) views[i].row = i;
    const Image<float> stack = test::exact_projections(s.box, test::ph1_blobs(s.box, 20), views);
    const GridLayout layout = make_grid_layout(s);
    AccumulateOptions opt;
    opt.buffer_size = 25;
    opt.grids = grids;
    std::vector<HalfGrid> half =
        accumulate(s, layout, geom::parse_symmetry(sym), views, test::stack_loader(stack), accumulator, opt);
    std::vector<Image<float>> out;
    for (auto& g : half) out.push_back(finalise(g, s, layout));
    return out;
  }
  void expect_matches_cpu(const std::string& sym, int grids, bool fast) {
    ReconstructionSettings s;
    s.box = 32;
    s.fast = fast;
    const GridLayout layout = make_grid_layout(s);
    ReconstructionBackendOptions o;
    o.spaces_per_launch = 25;
    auto backend = make_reconstruction_backend(D::devices(), s, layout, grids, o);
    auto cpu = make_cpu_accumulator(s, layout, grids);
    const auto got = maps(s, sym, grids, *backend);
    const auto want = maps(s, sym, grids, *cpu);
    ASSERT_EQ(got.size(), static_cast<std::size_t>(grids));
    for (std::size_t m = 0; m < got.size(); ++m) {
      if (!D::gpu) {
        EXPECT_EQ(test::relative_l2(got[m], want[m]), 0.0) << sym << " map " << m;
      } else {
        EXPECT_LE(test::relative_l2(got[m], want[m]), kSeamMapTolerance) << sym << " map " << m;
      }
    }
  }
};
using Devices = ::testing::Types<CpuDevices, CudaDevices>;
TYPED_TEST_SUITE(ReconstructionBackend, Devices, DeviceNames);

TYPED_TEST(ReconstructionBackend, PreciseC1MatchesTheCpuAccumulator) { this->expect_matches_cpu("c1", 1, false); }
TYPED_TEST(ReconstructionBackend, FastC4HalfMapsMatchTheCpuAccumulator) { this->expect_matches_cpu("c4", 2, true); }

TYPED_TEST(ReconstructionBackend, DescribesItsHardware) {
  ReconstructionSettings s;
  s.box = 32;
  auto backend = make_reconstruction_backend(TypeParam::devices(), s, make_grid_layout(s), 1, {});
  EXPECT_NE(backend->describe().find(TypeParam::gpu ? "cuda" : "cpu"), std::string::npos) << backend->describe();
}

} // namespace
} // namespace frost::recon
