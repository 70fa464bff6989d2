// The finalisation's inverse FFT on the GPU (cuFFT) gives the CPU (FFTW) map; skips without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"

namespace frost::recon {
namespace {

/// Box, and the pinned upload chunk in bytes (0: the default); small chunks split the spectrum
/// into many uploads with a short last one.
struct FinaliseCase {
  int box;
  std::size_t chunk_bytes;
};

class FinaliseBackends : public ::testing::TestWithParam<FinaliseCase> {};

// The GPU finalisation (spectrum uploaded in chunks of planes, cuFFT in place, only the crop's
// rows downloaded) gives the CPU's map (FFTW): rel. L2 <= 1e-5 (float transforms of P^3).
TEST_P(FinaliseBackends, CufftInverseMatchesFftw) {
  FROST_REQUIRE_GPU();
  ReconstructionSettings s;
  s.box = GetParam().box;
  const GridLayout layout = make_grid_layout(s);
  const auto blobs = test::ph1_blobs(s.box, 21);
  const auto views = test::random_views(100, 22);
  const auto stack = test::exact_projections(s.box, blobs, views);
  auto acc = make_cpu_accumulator(s, layout, 1);
  ImageLoader load = [&](const ParticleRecord& p, Image<float>& out) {
    out = Image<float>(Shape::image(s.box, s.box));
    std::copy(stack.data() + p.row * s.box * s.box, stack.data() + (p.row + 1) * s.box * s.box, out.data());
  };
  auto grids = accumulate(s, layout, geom::parse_symmetry("c1"), views, load, *acc, {});
  HalfGrid copy = grids[0];
  const Image<float> cpu = finalise(grids[0], s, layout);
  FinaliseOptions gpu_opts;
  gpu_opts.backend = fft::Backend::Cuda;
  if (GetParam().chunk_bytes > 0) gpu_opts.upload_chunk_bytes = GetParam().chunk_bytes;
  const Image<float> gpu = finalise(copy, s, layout, gpu_opts);
  ASSERT_EQ(gpu.shape(), cpu.shape());
  const double d = test::relative_l2(gpu, cpu);
  std::printf("finalise cuFFT vs FFTW (box %d, P %d): rel L2 %.3g\n", s.box, layout.padded, d);
  EXPECT_LE(d, 1e-5);
}

INSTANTIATE_TEST_SUITE_P(Chunks, FinaliseBackends,
                         ::testing::Values(FinaliseCase{32, 0}, FinaliseCase{32, 3 * 33 * 64 * 8 + 1},
                                           FinaliseCase{33, 1}),
                         [](const ::testing::TestParamInfo<FinaliseCase>& i) {
                           return "box" + std::to_string(i.param.box) + "_chunk" + std::to_string(i.param.chunk_bytes);
                         });

} // namespace
} // namespace frost::recon
