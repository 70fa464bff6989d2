#include "recon_fixture.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "frost/fft/plan.hpp"
#include "frost/fft/planner.hpp"
#include "frost/reconstruction/fsc.hpp"

namespace frost::test {
namespace {
constexpr double kPi = 3.14159265358979323846;
}

std::vector<sim::Blob> ph1_blobs(int box, std::uint32_t seed, int count, double sigma) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> pos(-0.3 * box, 0.3 * box), amp(0.5, 1.5);
  std::vector<sim::Blob> blobs(count);
  for (auto& b : blobs) {
    b.x = pos(rng);
    b.y = pos(rng);
    b.z = pos(rng);
    b.sigma = sigma;
    b.amplitude = amp(rng);
  }
  return blobs;
}

std::vector<sim::Blob> symmetrise_blobs(const std::vector<sim::Blob>& blobs, const geom::SymmetryGroup& group) {
  std::vector<sim::Blob> out;
  for (const auto& R : group.elements())
    for (const auto& b : blobs) {
      const geom::Vec3d c = R * geom::Vec3d{b.x, b.y, b.z};
      sim::Blob r = b;
      r.x = c.x;
      r.y = c.y;
      r.z = c.z;
      out.push_back(r);
    }
  return out;
}

std::vector<recon::ParticleRecord> random_views(int count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> angle(0.0, 360.0), cosine(-1.0, 1.0);
  std::vector<recon::ParticleRecord> views(count);
  for (int i = 0; i < count; ++i) {
    views[i].pose.rot = angle(rng);
    views[i].pose.tilt = std::acos(cosine(rng)) * 180.0 / kPi;
    views[i].pose.psi = angle(rng);
    views[i].row = static_cast<std::size_t>(i);
  }
  return views;
}

void assign_t9_ctfs(std::vector<recon::ParticleRecord>& views, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> du(3000.0, 8000.0), astig(0.0, 300.0), angle(0.0, 180.0);
  for (auto& v : views) {
    v.has_ctf = true;
    v.ctf.voltage = 300.0;
    v.ctf.cs = 2.7;
    v.ctf.amplitude_contrast = 0.1;
    v.ctf.defocus_u = du(rng);
    v.ctf.defocus_v = v.ctf.defocus_u - astig(rng);
    v.ctf.defocus_angle = angle(rng);
  }
}

std::vector<recon::ParticleRecord> expand_by_symmetry(const std::vector<recon::ParticleRecord>& views,
                                                      const geom::SymmetryGroup& group) {
  std::vector<recon::ParticleRecord> expanded;
  for (const auto& v : views) {
    const geom::Mat3d A = geom::euler_to_matrix(v.pose);
    for (const geom::Mat3d& R : group.elements()) {
      recon::ParticleRecord e = v;
      e.pose = geom::matrix_to_euler(A * R.transposed());
      expanded.push_back(e);
    }
  }
  return expanded;
}

namespace {

/// Exact projection of the blobs into a box x box image, content displaced by d.
void render_projection(int box, const std::vector<sim::Blob>& blobs, const geom::Mat3d& A, double dx, double dy,
                       float* out) {
  const int c = box / 2;
  for (const auto& b : blobs) {
    const geom::Vec3d p = A * geom::Vec3d{b.x, b.y, b.z};
    const double px = p.x + dx, py = p.y + dy;
    const double amp = b.amplitude * b.sigma * std::sqrt(2.0 * kPi);
    const double inv = 1.0 / (2.0 * b.sigma * b.sigma);
    const double reach = 6.0 * b.sigma;
    const int x0 = std::max(0, int(std::floor(c + px - reach))), x1 = std::min(box - 1, int(std::ceil(c + px + reach)));
    const int y0 = std::max(0, int(std::floor(c + py - reach))), y1 = std::min(box - 1, int(std::ceil(c + py + reach)));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const double ex = x - c - px, ey = y - c - py;
        out[std::size_t(y) * box + x] += static_cast<float>(amp * std::exp(-(ex * ex + ey * ey) * inv));
      }
  }
}

} // namespace

Image<float> exact_projections(int box, const std::vector<sim::Blob>& blobs,
                               const std::vector<recon::ParticleRecord>& particles,
                               const ProjectionOptions& options) {
  const int n = static_cast<int>(particles.size());
  Image<float> stack(Shape::image(box, box, n));
  const int big = options.apply_ctf ? 2 * box : box;
  fft::FftPlan fwd, inv;
  if (options.apply_ctf) {
    auto planner = fft::shared_planner(fft::Backend::Cpu);
    fwd = planner->plan(fft::FftSpec::r2c(Shape::image(big, big)));
    inv = planner->plan(fft::FftSpec::c2r(Shape::image(big, big)));
  }
  for (int i = 0; i < n; ++i) {
    const auto& p = particles[i];
    const geom::Mat3d A = geom::euler_to_matrix(p.pose);
    Image<float> img(Shape::image(big, big));
    render_projection(big, blobs, A, -p.shift_x, -p.shift_y, img.data());
    if (options.apply_ctf) {
      Image<fft::Complex> spec(Shape::image(big / 2 + 1, big));
      fwd.execute(img.cview(), spec.view());
      const auto ctf = ctf::CtfEvaluator::from(p.ctf);
      for (int y = 0; y < big; ++y) {
        const int ky = y <= big / 2 ? y : y - big;
        for (int x = 0; x <= big / 2; ++x) {
          const float f = ctf(float(x / (big * options.pixel_size)), float(ky / (big * options.pixel_size)));
          spec(x, y) *= f / float(big * big);
        }
      }
      inv.execute(spec.view(), img.view());
    }
    const int off = big / 2 - box / 2; // the centre pixel stays the centre pixel
    for (int y = 0; y < box; ++y)
      for (int x = 0; x < box; ++x) stack(x, y, 0, i) = img(x + off, y + off);
  }
  return stack;
}

std::vector<double> fsc_shells(const Image<float>& a, const Image<float>& b) {
  const auto curve = recon::fsc_volumes(a.cview(), b.cview());
  return curve.fsc;
}

double ncc_sphere(const Image<float>& a, const Image<float>& b) {
  const int n = static_cast<int>(a.shape().x), c = n / 2;
  const double r2 = (0.45 * n) * (0.45 * n);
  double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, cnt = 0;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double d2 = double(x - c) * (x - c) + double(y - c) * (y - c) + double(z - c) * (z - c);
        if (d2 > r2) continue;
        const double va = a(x, y, z), vb = b(x, y, z);
        sa += va;
        sb += vb;
        saa += va * va;
        sbb += vb * vb;
        sab += va * vb;
        cnt += 1;
      }
  const double cov = sab - sa * sb / cnt, va = saa - sa * sa / cnt, vb = sbb - sb * sb / cnt;
  return cov / std::sqrt(va * vb);
}

double scale_factor(const Image<float>& rec, const Image<float>& ref) {
  double num = 0, den = 0;
  for (index_t i = 0; i < ref.size(); ++i) {
    num += double(rec[i]) * ref[i];
    den += double(ref[i]) * ref[i];
  }
  return num / den;
}

recon::ImageLoader stack_loader(const Image<float>& stack) {
  return [&stack](const recon::ParticleRecord& p, Image<float>& out) {
    const index_t nx = stack.shape().x, ny = stack.shape().y;
    if (out.shape().x != nx || out.shape().y != ny) out = Image<float>(Shape::image(nx, ny));
    const float* src = stack.data() + static_cast<index_t>(p.row) * nx * ny;
    std::copy(src, src + nx * ny, out.data());
  };
}

} // namespace frost::test
