// The finalisation's inverse FFT on the GPU (cuFFT) gives the CPU (FFTW) map; skips without a GPU.
#include <gtest/gtest.h>

#include <cstdio>

#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/reconstruct.hpp"
#include "frost/test/support.hpp"
#include "recon_fixture.hpp"

namespace frost::recon {
namespace {

TEST(FinaliseBackends, CufftInverseMatchesFftw) {
  FROST_REQUIRE_GPU();
  ReconstructionSettings s;
  s.box = 32;
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
  const Image<float> gpu = finalise(copy, s, layout, gpu_opts);
  const double d = test::relative_l2(gpu, cpu);
  std::printf("finalise cuFFT vs FFTW: rel L2 %.3g\n", d);
  EXPECT_LE(d, 1e-5);
}

} // namespace
} // namespace frost::recon
