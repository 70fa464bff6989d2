#include "map_accuracy.hpp"

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/reconstruction/fsc.hpp"

namespace frost::bench {

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
  double sum = 0;
  int shells = 0;
  for (std::size_t s = 1; s < f.fsc.size() && s <= std::size_t(n / 2); ++s, ++shells) sum += f.fsc[s];
  m.mean_fsc = shells ? sum / shells : 0;
  return m;
}

} // namespace frost::bench
