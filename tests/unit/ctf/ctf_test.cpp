// CTF sign and magnitude against hand-derived values (RELION convention,
// docs/reconstruct_fourier.md#ctf-modes).
#include <cmath>

#include "frost/ctf/ctf.hpp"
#include "frost/test/support.hpp"

namespace frost::ctf {
namespace {

TEST(Ctf, WavelengthAt300And200kV) {
  EXPECT_NEAR(electron_wavelength(300), 0.019687, 1e-6);
  EXPECT_NEAR(electron_wavelength(200), 0.025079, 1e-6);
}

TEST(Ctf, OriginEqualsAmplitudeContrast) {
  CtfParams p;
  p.amplitude_contrast = 0.07;
  EXPECT_NEAR(CtfEvaluator::from(p)(0.f, 0.f), 0.07f, 1e-6f);
  p.amplitude_contrast = -0.07; // old Xmipp files store Q0 negative: magnitude is used
  EXPECT_NEAR(CtfEvaluator::from(p)(0.f, 0.f), 0.07f, 1e-6f);
}

TEST(Ctf, FirstZeroOfAnAberrationFreeCtf) {
  // Cs = 0, A = 0: CTF = sin(pi*lambda*df*k^2), first zero at k = sqrt(1/(lambda*df)).
  CtfParams p;
  p.cs = 0;
  p.amplitude_contrast = 0;
  p.defocus_u = p.defocus_v = 10000;
  const auto e = CtfEvaluator::from(p);
  const double k0 = std::sqrt(1.0 / (electron_wavelength(300) * 10000));
  EXPECT_NEAR(e(static_cast<float>(k0), 0.f), 0.f, 1e-4f);
  EXPECT_GT(e(static_cast<float>(0.7 * k0), 0.f), 0.5f); // positive lobe before the zero
  EXPECT_LT(e(static_cast<float>(1.2 * k0), 0.f), 0.f);
}

TEST(Ctf, AstigmatismFollowsTheAzimuth) {
  CtfParams p;
  p.defocus_u = 12000;
  p.defocus_v = 8000;
  p.defocus_angle = 30;
  const auto e = CtfEvaluator::from(p);
  CtfParams iso = p;
  iso.defocus_v = iso.defocus_u = 12000; // along the azimuth the defocus is dU
  const auto eu = CtfEvaluator::from(iso);
  const float k = 0.05f, a = 30.f * 3.14159265f / 180.f;
  EXPECT_NEAR(e(k * std::cos(a), k * std::sin(a)), eu(k, 0.f), 1e-5f);
  iso.defocus_v = iso.defocus_u = 8000; // perpendicular: dV
  EXPECT_NEAR(e(-k * std::sin(a), k * std::cos(a)), CtfEvaluator::from(iso)(k, 0.f), 1e-5f);
}

TEST(Ctf, BfactorEnvelope) {
  CtfParams p;
  const float k = 0.1f;
  const float plain = CtfEvaluator::from(p)(k, 0.f);
  p.bfactor = 100;
  EXPECT_NEAR(CtfEvaluator::from(p)(k, 0.f), plain * std::exp(-100.f * k * k / 4.f), 1e-6f);
}

} // namespace
} // namespace frost::ctf
