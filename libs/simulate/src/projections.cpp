#include "frost/simulate/projections.hpp"

#include <cmath>
#include <random>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"
#include "frost/geometry/crop_pad.hpp"
#include "frost/geometry/projection.hpp"

namespace frost::sim {

std::vector<ParticleTruth> random_particles(const ParticleDraw& draw) {
  FROST_EXPECTS(draw.count >= 0, "random_particles: negative count");
  std::mt19937 rng(draw.seed);
  std::uniform_real_distribution<double> angle(0.0, 360.0), cosine(-1.0, 1.0), unit(-1.0, 1.0),
      u01(0.0, 1.0);
  std::vector<ParticleTruth> out(static_cast<std::size_t>(draw.count));
  for (auto& p : out) {
    p.pose.rot = angle(rng);
    p.pose.tilt = std::acos(cosine(rng)) * 180.0 / 3.14159265358979323846;
    p.pose.psi = angle(rng);
    p.dx = draw.max_shift * unit(rng);
    p.dy = draw.max_shift * unit(rng);
    p.ctf = draw.microscope;
    p.ctf.defocus_u = draw.defocus_min + (draw.defocus_max - draw.defocus_min) * u01(rng);
    p.ctf.defocus_v = p.ctf.defocus_u - 500.0 * u01(rng);
    p.ctf.defocus_angle = 180.0 * u01(rng);
  }
  return out;
}

namespace {

// Multiplies a rendered 2N image by the CTF in Fourier space. Rendering in a box twice the
// particle size keeps the CTF's delocalised signal from wrapping around (T9 in
// docs/reconstruct_fourier.md#reconstruction-tests).
void apply_ctf(Image<float>& img, const ctf::CtfParams& params, double pixel_size, fft::Planner& planner) {
  const Shape s = img.shape();
  fft::PlanOptions opts;
  opts.threads = 1; // images are rendered in parallel; one thread per transform
  const auto fwd = planner.plan(fft::FftSpec::r2c(s), opts);
  const auto inv = planner.plan(fft::FftSpec::c2r(s), opts);
  Image<fft::Complex> spec(s.half_spectrum());
  fwd.execute(img.cview(), spec.view());
  const auto ctf = ctf::CtfEvaluator::from(params);
  const double inv_len_x = 1.0 / (static_cast<double>(s.x) * pixel_size);
  const double inv_len_y = 1.0 / (static_cast<double>(s.y) * pixel_size);
  for (index_t y = 0; y < s.y; ++y) {
    const double ky = static_cast<double>(y <= s.y / 2 ? y : y - s.y) * inv_len_y;
    for (index_t x = 0; x < s.x / 2 + 1; ++x) {
      const double kx = static_cast<double>(x) * inv_len_x;
      spec(x, y) *= ctf(static_cast<float>(kx), static_cast<float>(ky)) / static_cast<float>(s.x * s.y);
    }
  }
  inv.execute(spec.view(), img.view());
}

} // namespace

double mean_image_variance(View<const float> stack) {
  const index_t n = stack.shape.n, m = stack.shape.pixels_per_item();
  if (n == 0 || m == 0) return 0.0;
  double total = 0;
  for (index_t i = 0; i < n; ++i) {
    double sum = 0, sum2 = 0;
    for (index_t k = 0; k < m; ++k) {
      const double v = stack.data[i * m + k];
      sum += v;
      sum2 += v * v;
    }
    const double mean = sum / static_cast<double>(m);
    total += sum2 / static_cast<double>(m) - mean * mean;
  }
  return total / static_cast<double>(n);
}

Image<float> render_projections(View<const float> volume, const std::vector<ParticleTruth>& particles,
                                const ProjectionSetup& setup) {
  const Shape vs = volume.shape;
  if (vs.x != vs.y || vs.x != vs.z) FROST_THROW(ExitCode::Input, "projections need a cubic volume, got " + to_string(vs));
  const index_t n = vs.x;
  const index_t count = static_cast<index_t>(particles.size());
  Image<float> stack(Shape::image(n, n, count));
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  const index_t render = setup.apply_ctf ? 2 * n : n;

#pragma omp parallel for schedule(dynamic)
  for (index_t i = 0; i < count; ++i) {
    const ParticleTruth& p = particles[static_cast<std::size_t>(i)];
    Image<float> img = geom::project_real_space(volume, p.pose, p.dx, p.dy, render, render);
    if (setup.apply_ctf) {
      apply_ctf(img, p.ctf, setup.pixel_size, *planner);
      img = geom::crop_pad<float>(img.cview(), n, n);
    }
    std::copy(img.begin(), img.end(), stack.data() + i * n * n);
  }

  if (std::isfinite(setup.snr)) {
    FROST_EXPECTS(setup.snr > 0, "SNR must be positive");
    const double sigma = std::sqrt(mean_image_variance(stack.cview()) / setup.snr);
#pragma omp parallel for
    for (index_t i = 0; i < count; ++i) {
      std::mt19937 rng(setup.seed + static_cast<std::uint32_t>(i));
      std::normal_distribution<float> noise(0.f, static_cast<float>(sigma));
      float* img = stack.data() + i * n * n;
      for (index_t k = 0; k < n * n; ++k) img[k] += noise(rng);
    }
  }
  return stack;
}

} // namespace frost::sim
