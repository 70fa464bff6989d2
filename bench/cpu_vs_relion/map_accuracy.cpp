#include "map_accuracy.hpp"

#include <algorithm>
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/reconstruction/fsc.hpp"

namespace frost::bench {

namespace {

constexpr double kPi = 3.14159265358979323846;

double mean_of_shells(const recon::FscCurve& f, index_t n) {
  double sum = 0;
  int shells = 0;
  for (std::size_t s = 1; s < f.fsc.size() && s <= std::size_t(n / 2); ++s, ++shells) sum += f.fsc[s];
  return shells ? sum / shells : 0;
}

/// The map times the soft sphere of MapAccuracy::mean_fsc_masked.
Image<float> soft_sphere(const Image<float>& a) {
  const index_t n = a.shape().x;
  const double c = std::floor(0.5 * double(n)), r0 = 0.45 * n, r1 = 0.5 * n;
  Image<float> m(a.shape());
  for (index_t z = 0; z < n; ++z)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x) {
        const double r = std::sqrt((x - c) * (x - c) + (y - c) * (y - c) + (z - c) * (z - c));
        const double t = std::clamp((r1 - r) / (r1 - r0), 0.0, 1.0);
        const index_t i = (z * n + y) * n + x;
        m.data()[i] = static_cast<float>(a.data()[i] * (0.5 - 0.5 * std::cos(kPi * t)));
      }
  return m;
}

} // namespace

MapAccuracy map_accuracy(const std::string& map, const std::string& truth, double pixel_size) {
  const Image<float> a = io::read_volume(map).image, b = io::read_volume(truth).image;
  FROST_EXPECTS(a.shape() == b.shape() && a.shape().x == a.shape().y && a.shape().y == a.shape().z,
                "map_accuracy: " + map + " and " + truth + " must be cubes of one size");
  const index_t n = a.shape().x;
  const double c = std::floor(0.5 * double(n)), r2 = (0.45 * n) * (0.45 * n);
  double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0, count = 0;
  for (index_t z = 0; z < n; ++z)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x) {
        const double dx = x - c, dy = y - c, dz = z - c;
        if (dx * dx + dy * dy + dz * dz > r2) continue;
        const double va = a.data()[(z * n + y) * n + x], vb = b.data()[(z * n + y) * n + x];
        sa += va;
        sb += vb;
        saa += va * va;
        sbb += vb * vb;
        sab += va * vb;
        count += 1;
      }
  MapAccuracy m;
  const double cov = sab - sa * sb / count, va = saa - sa * sa / count, vb = sbb - sb * sb / count;
  m.ncc = cov / std::sqrt(va * vb);
  const recon::FscCurve f = recon::fsc_volumes(a.cview(), b.cview(), pixel_size);
  m.fsc_05 = f.resolution_05();
  m.fsc_0143 = f.resolution_0143();
  m.mean_fsc = mean_of_shells(f, n);
  const Image<float> am = soft_sphere(a), bm = soft_sphere(b);
  m.mean_fsc_masked = mean_of_shells(recon::fsc_volumes(am.cview(), bm.cview(), pixel_size), n);
  return m;
}

} // namespace frost::bench
