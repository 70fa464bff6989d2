#include "recon_runs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "frost/fft/plan.hpp"
#include "frost/fft/planner.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "recon_fixture.hpp"

namespace frost::test {

Ph1Case make_ph1_case(int box, int views, std::uint32_t seed) {
  Ph1Case c;
  c.box = box;
  c.blobs = ph1_blobs(box, seed);
  c.views = random_views(views, seed + 1);
  c.stack = exact_projections(box, c.blobs, c.views);
  c.phantom = sim::render_blobs(box, c.blobs);
  return c;
}

const Ph1Case& standard_case() {
  static const Ph1Case c = make_ph1_case(32, 300, 11);
  return c;
}

const CtfCase& ctf_case() {
  static const CtfCase d = [] {
    const Ph1Case& c = standard_case();
    CtfCase out;
    out.views = c.views;
    assign_t9_ctfs(out.views, 91);
    ProjectionOptions opts;
    opts.apply_ctf = true;
    opts.pixel_size = out.pixel_size;
    out.stack = exact_projections(c.box, c.blobs, out.views, opts);
    return out;
  }();
  return d;
}

recon::ReconstructionSettings default_settings(int box) {
  recon::ReconstructionSettings s;
  s.box = box;
  return s;
}

std::vector<recon::HalfGrid> accumulate_cpu(const recon::ReconstructionSettings& settings,
                                            const geom::SymmetryGroup& group,
                                            const std::vector<recon::ParticleRecord>& particles,
                                            const Image<float>& stack, int grids) {
  const recon::GridLayout layout = recon::make_grid_layout(settings);
  auto accumulator = recon::make_cpu_accumulator(settings, layout, grids);
  recon::AccumulateOptions opts;
  opts.grids = grids;
  return recon::accumulate(settings, layout, group, particles, stack_loader(stack), *accumulator, opts);
}

Image<float> run_accumulate(const recon::ReconstructionSettings& settings, const geom::SymmetryGroup& group,
                            const std::vector<recon::ParticleRecord>& particles, const Image<float>& stack) {
  auto grids = accumulate_cpu(settings, group, particles, stack, 1);
  return recon::finalise(grids[0], settings, recon::make_grid_layout(settings));
}

Image<float> run_cpu(const recon::ReconstructionSettings& settings, const Image<float>& stack,
                     const std::vector<recon::ParticleRecord>& particles, const std::string& sym) {
  return recon::reconstruct_cpu(settings, geom::parse_symmetry(sym), stack.cview(), particles);
}

Quality measure(const Image<float>& map, const Image<float>& reference) {
  Quality q;
  q.ncc = ncc_sphere(map, reference);
  q.scale = scale_factor(map, reference);
  q.fsc = fsc_shells(map, reference);
  return q;
}

void print_quality(const char* label, const Quality& q) {
  std::printf("%s NCC %.5f scale %.4f FSC:", label, q.ncc, q.scale);
  for (double f : q.fsc) std::printf(" %.3f", f);
  std::printf("\n");
}

void expect_t1_thresholds(const Quality& q, int box, int last_095) {
  EXPECT_GE(q.ncc, 0.998);
  for (int k = 1; k <= last_095; ++k) EXPECT_GE(q.fsc[k], 0.95) << "shell " << k;
  EXPECT_GE(q.fsc[box / 2], 0.7) << "shell " << box / 2;
  for (std::size_t k = 0; k < q.fsc.size(); ++k) EXPECT_GE(q.fsc[k], 0.143) << "shell " << k;
}

bool bit_identical(const Image<float>& a, const Image<float>& b) {
  return a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

double power_beyond_shell(const Image<float>& volume, int shell) {
  const Shape real = volume.shape();
  const index_t n = real.x;
  Image<fft::Complex> spec(real.half_spectrum());
  auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(real));
  plan.execute(volume.cview(), spec.view());
  double total = 0, beyond = 0;
  for (index_t z = 0; z < n; ++z)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < spec.shape().x; ++x) {
        const index_t ky = y <= n / 2 ? y : y - n, kz = z <= n / 2 ? z : z - n;
        // Columns 0 < kx < N/2 also stand for their Hermitian partners.
        const bool self = x == 0 || (n % 2 == 0 && x == n / 2);
        const double p = (self ? 1.0 : 2.0) * std::norm(std::complex<double>(spec(x, y, z)));
        total += p;
        const double r = std::sqrt(double(x * x + ky * ky + kz * kz));
        if (static_cast<int>(r + 0.5) > shell) beyond += p;
      }
  return beyond / total;
}

} // namespace frost::test
