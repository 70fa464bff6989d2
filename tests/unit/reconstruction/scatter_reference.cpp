#include "scatter_reference.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "frost/ctf/ctf.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/sample_preparer.hpp"

namespace frost::test {
namespace {

/// CTF factors (docs/reconstruct_fourier.md#ctf-modes) of every sample pixel: G takes num F, W takes den.
void ctf_factors(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                 const ctf::CtfParams& params, std::vector<float>& num, std::vector<float>& den) {
  if (settings.phase_flipped || settings.only_flip_phases || settings.ctf_premultiplied || settings.intact_first_peak)
    throw std::logic_error("scatter reference: CTF variant not implemented");
  const auto ctf = ctf::CtfEvaluator::from(params);
  const double to_inv_a = 1.0 / (layout.padded * settings.pixel_size);
  for (int row = 0; row < layout.fy; ++row)
    for (int kx = 0; kx < layout.fx; ++kx) {
      const int ky = row - layout.fy / 2;
      const std::size_t p = std::size_t(row) * layout.fx + kx;
      const float c0 = ctf(float(kx * to_inv_a), float(ky * to_inv_a));
      if (settings.ctf == recon::CtfMode::Wiener) {
        num[p] = c0;
        den[p] = c0 * c0;
      } else if (std::abs(c0) >= settings.min_ctf) { // invert: c = 1/c0, m = 1
        num[p] = 1.0f / c0;
        den[p] = 1.0f;
      } else { // c = sign(c0), m = |c0|
        num[p] = c0;
        den[p] = std::abs(c0);
      }
    }
}

} // namespace

void scatter_sample(const fft::Complex* spectrum, const float* num, const float* den, float weight,
                    const geom::Mat3d& a_sl, const recon::GridLayout& layout, const recon::BlobTable& table,
                    recon::FullGrid& grid) {
  const int M = layout.M;
  const double half = 0.5 * M;
  const double a = table.params().radius;
  const double sphere = (layout.fx + a) * (layout.fx + a);
  for (int row = 0; row < layout.fy; ++row)
    for (int kx = 0; kx < layout.fx; ++kx) {
      const int p = row * layout.fx + kx;
      const fft::Complex f = spectrum[p] * (num ? num[p] : 1.0f);
      const float m = den ? den[p] : 1.0f;
      const geom::Vec3d q0 = a_sl * geom::Vec3d{double(kx), double(row - layout.fy / 2), 0.0};
      const geom::Vec3d q{q0.x + half, q0.y + half, q0.z + half};
      const int x0 = std::max(0, int(std::ceil(q.x - a))), x1 = std::min(M, int(std::floor(q.x + a)));
      const int y0 = std::max(0, int(std::ceil(q.y - a))), y1 = std::min(M, int(std::floor(q.y + a)));
      const int z0 = std::max(0, int(std::ceil(q.z - a))), z1 = std::min(M, int(std::floor(q.z + a)));
      for (int z = z0; z <= z1; ++z)
        for (int y = y0; y <= y1; ++y)
          for (int x = x0; x <= x1; ++x) {
            const double cx = x - half, cy = y - half, cz = z - half;
            if (cx * cx + cy * cy + cz * cz > sphere) continue;
            const double dx = x - q.x, dy = y - q.y, dz = z - q.z;
            const float d2 = static_cast<float>(dx * dx + dy * dy + dz * dz);
            if (d2 > a * a) continue;
            const float k = weight * table.nearest(d2);
            grid.data(x, y, z) += k * f;
            grid.weight(x, y, z) += k * m;
          }
    }
}

Image<float> reconstruct_scatter(const recon::ReconstructionSettings& settings, const geom::SymmetryGroup& group,
                                 const Image<float>& stack, const std::vector<recon::ParticleRecord>& particles) {
  const recon::GridLayout layout = recon::make_grid_layout(settings);
  recon::SamplePreparer prep(settings, layout, group);
  const recon::BlobTable table(settings.blob);
  recon::FullGrid grid(layout);
  const auto pixels = static_cast<std::size_t>(layout.sample_pixels());
  std::vector<fft::Complex> spectrum(pixels);
  std::vector<float> num(pixels), den(pixels);
  const bool ctf = settings.ctf != recon::CtfMode::None;
  const index_t n = stack.shape().x;
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const auto& part = particles[i];
    if (settings.use_weights && part.weight == 0.0) continue;
    const View<const float> image{stack.data() + static_cast<index_t>(i) * n * n, Shape::image(n, n)};
    prep.transform(image, part.shift_x, part.shift_y, spectrum.data());
    if (ctf) ctf_factors(settings, layout, part.ctf, num, den);
    const float weight = settings.use_weights ? static_cast<float>(part.weight) : 1.0f;
    const geom::Mat3d At = geom::euler_to_matrix(part.pose).transposed();
    for (const geom::Mat3d& R : group.elements())
      scatter_sample(spectrum.data(), ctf ? num.data() : nullptr, ctf ? den.data() : nullptr, weight, R * At, layout,
                     table, grid);
  }
  recon::HalfGrid half = recon::fold(grid, layout);
  return recon::finalise(half, settings, layout);
}

} // namespace frost::test
