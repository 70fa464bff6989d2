#include "frost/reconstruction/sample_preparer.hpp"

#include <cmath>
#include <complex>

#include "frost/core/error.hpp"
#include "frost/fft/planner.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/reconstruction/sample_math.hpp"
#include "frost/reconstruction/traverse_space.hpp"
#if FROST_RECON_DOUBLE
#include "fftw_double.hpp"
#endif

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

constexpr double kPi = 3.14159265358979323846;


} // namespace

SamplePreparer::SamplePreparer(const ReconstructionSettings& settings, const GridLayout& layout,
                               const geom::SymmetryGroup& group)
    : settings_(settings), layout_(layout), group_(group.elements()),
      padded_(Shape::image(layout.padded, layout.padded)),
      spectrum_(Shape::image(layout.padded / 2 + 1, layout.padded)),
      gf_(static_cast<std::size_t>(layout.sample_pixels())) {
#if FROST_RECON_DOUBLE
  plan_ = std::make_shared<const FftwImageR2C>(layout.padded);
#else
  fft::PlanOptions opts;
  opts.threads = 1;                       // one preparer per thread
  opts.rigor = fft::FftRigor::Estimate;   // deterministic plans: results must not depend on timing
  plan_ = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(padded_.shape()), opts);
#endif
}

void SamplePreparer::transform(View<const float> image, double shift_x, double shift_y, RealComplex* out) {
  const int N = layout_.box, P = layout_.padded, c = N / 2;
  // Pad and centre in one step: pixel offset r from the image centre goes to index r mod P
  // (the ifftshift of the centred padded image), so phases refer to the image centre.
  std::fill(padded_.begin(), padded_.end(), Real(0));
  for (int y = 0; y < N; ++y) {
    Real* row = padded_.data() + std::size_t(periodic_index(y - c, P)) * P;
    for (int x = 0; x < N; ++x) row[periodic_index(x - c, P)] = image(x, y);
  }
#if FROST_RECON_DOUBLE
  plan_->execute(padded_.data(), spectrum_.data());
#else
  plan_.execute(padded_.cview(), spectrum_.view());
#endif
  const int fx = layout_.fx, fy = layout_.fy, half = layout_.M / 2;
  const double limit = layout_.max_frequency_sq();
  const double scale = 1.0 / (double(P) * P);
  // The ramp is separable (sample_math.hpp): one table per axis instead of a sine and cosine
  // per pixel; the CUDA preparation evaluates the same factors per pixel.
  ramp_x_.resize(static_cast<std::size_t>(fx));
  ramp_y_.resize(static_cast<std::size_t>(fy));
  for (int kx = 0; kx < fx; ++kx) shift_ramp(kx, shift_x, P, scale, ramp_x_[kx].re, ramp_x_[kx].im);
  for (int row = 0; row < fy; ++row) shift_ramp(row - half, shift_y, P, 1.0, ramp_y_[row].re, ramp_y_[row].im);
  for (int row = 0; row < fy; ++row) {
    const int ky = row - half;
    const Cf* src = reinterpret_cast<const Cf*>(spectrum_.data()) + std::size_t(periodic_index(ky, P)) * (P / 2 + 1);
    Cf* dst = reinterpret_cast<Cf*>(out) + std::size_t(row) * fx;
    const Ramp ry = ramp_y_[row];
    for (int kx = 0; kx < fx; ++kx)
      dst[kx] = sample_pixel(src, kx, ky, limit, ramp_x_[kx].re, ramp_x_[kx].im, ry.re, ry.im);
  }
}

void SamplePreparer::ctf_factors(const ctf::CtfParams& params, Real* gf, Real* gw) const {
  const int fx = layout_.fx, fy = layout_.fy, half = layout_.M / 2;
  const double to_inv_a = 1.0 / (layout_.padded * settings_.pixel_size);
  const ctf::CtfEvaluator ctf = ctf::CtfEvaluator::from(params);
  for (int row = 0; row < fy; ++row) {
    const int ky = row - half;
    for (int kx = 0; kx < fx; ++kx) {
      const std::size_t p = std::size_t(row) * fx + kx;
      const float fxa = float(kx * to_inv_a), fya = float(ky * to_inv_a);
      float c0 = ctf(fxa, fya);
      if (settings_.intact_first_peak) {
        // RELION --ctf_intact_first_peak: CTF = 1 until |gamma| reaches pi/2.
        const float k2 = fxa * fxa + fya * fya;
        const float theta = std::atan2(fya, fxa);
        const float df = ctf.mean_df + ctf.half_diff * std::cos(2.f * (theta - ctf.azimuth));
        const float gamma = -ctf.k1 * df * k2 + ctf.k2 * k2 * k2 - ctf.k3;
        if (std::abs(gamma) < float(kPi / 2)) c0 = 1.0f;
      }
      const bool origin = kx == 0 && ky == 0;
      if (settings_.ctf == CtfMode::Invert) {
        float c, m;
        if (!std::isfinite(c0)) {
          c = m = origin ? 1.0f : 0.0f;
        } else if (std::abs(c0) >= settings_.min_ctf) {
          c = 1.0f / c0;
          m = 1.0f;
        } else {
          c = c0 < 0 ? -1.0f : 1.0f;
          m = std::abs(c0);
        }
        if (settings_.phase_flipped) c = std::abs(c);
        gf[p] = m * c;
        gw[p] = m;
      } else { // Wiener (RELION): G += K c F, W += K c^2
        if (!std::isfinite(c0)) c0 = origin ? 1.0f : 0.0f;
        if (settings_.only_flip_phases) {
          gf[p] = c0 < 0 ? -1.0f : 1.0f;
          gw[p] = 1.0f;
        } else {
          gf[p] = settings_.ctf_premultiplied ? 1.0f : c0;
          gw[p] = c0 * c0;
        }
      }
    }
  }
}

void SamplePreparer::traverse_spaces(const geom::EulerAngles& pose, int slot, Real weight,
                                     TraverseSpace* out) const {
  const geom::Mat3d A = geom::euler_to_matrix(pose);
  const geom::Mat3d At = A.transposed();
  const double b = insertion_reach(settings_);
  for (std::size_t g = 0; g < group_.size(); ++g) {
    // A_SL = R A^T: sample frequency (kx, ky, 0) -> grid.
    out[g] = make_traverse_space(group_[g] * At, layout_, b, slot, weight);
  }
}

void SamplePreparer::check(View<const float> image, const ParticleRecord& particle) const {
  const int N = layout_.box;
  if (image.shape.x != N || image.shape.y != N)
    throw_input_error(particle.image, "image of " + std::to_string(image.shape.x) + "x" +
                                          std::to_string(image.shape.y) + " px (metadata row " +
                                          std::to_string(particle.row + 1) + ") but the box is " +
                                          std::to_string(N));
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      if (!std::isfinite(image(x, y)))
        throw_input_error(particle.image, "non-finite pixel at (" + std::to_string(x) + ", " +
                                              std::to_string(y) + ") (metadata row " +
                                              std::to_string(particle.row + 1) + ")");
  if (settings_.ctf != CtfMode::None && !particle.has_ctf)
    throw_input_error(particle.image, "CTF correction requested but metadata row " +
                                          std::to_string(particle.row + 1) + " has no CTF parameters");
}

void SamplePreparer::prepare(View<const float> image, const ParticleRecord& particle, SampleBatch& batch,
                             int slot) {
  check(image, particle);
  if (batch.holds_images()) {
    // The device transforms (--fftOnGPU): hand over the image, its shift and CTF factors.
    const int N = layout_.box;
    float* dst = batch.image(slot);
    for (int y = 0; y < N; ++y)
      for (int x = 0; x < N; ++x) dst[std::size_t(y) * N + x] = image(x, y);
    batch.shift(slot)[0] = particle.shift_x;
    batch.shift(slot)[1] = particle.shift_y;
    if (settings_.ctf != CtfMode::None) ctf_factors(particle.ctf, batch.gf(slot), batch.gw(slot));
  } else {
    RealComplex* spectrum = batch.spectrum(slot);
    transform(image, particle.shift_x, particle.shift_y, spectrum);
    if (settings_.ctf != CtfMode::None) {
      Real* gw = batch.gw(slot);
      FROST_EXPECTS(gw != nullptr, "gw != nullptr");
      ctf_factors(particle.ctf, gf_.data(), gw);
      const std::size_t n = batch.pixels();
      for (std::size_t p = 0; p < n; ++p) spectrum[p] *= gf_[p];
    }
  }
  const Real weight = settings_.use_weights ? static_cast<Real>(particle.weight) : Real(1);
  traverse_spaces(particle.pose, slot, weight, batch.spaces(slot));
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
