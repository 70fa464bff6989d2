#include "frost/simulate/phantom.hpp"

#include <cmath>
#include <random>

#include "frost/core/error.hpp"

namespace frost::sim {

std::vector<Blob> random_blobs(int box, int count, std::uint32_t seed) {
  FROST_EXPECTS(box > 0 && count >= 0, "random_blobs: box must be positive");
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), u01(0.0, 1.0);
  const double radius = 0.35 * box;
  std::vector<Blob> blobs;
  while (static_cast<int>(blobs.size()) < count) {
    Blob b;
    b.x = unit(rng);
    b.y = unit(rng);
    b.z = unit(rng);
    if (b.x * b.x + b.y * b.y + b.z * b.z > 1.0) continue; // rejection sampling inside the ball
    b.x *= radius;
    b.y *= radius;
    b.z *= radius;
    b.sigma = box * (0.02 + 0.04 * u01(rng));
    b.amplitude = 0.5 + 0.5 * u01(rng);
    blobs.push_back(b);
  }
  return blobs;
}

Image<float> render_blobs(int box, const std::vector<Blob>& blobs) {
  Image<float> vol(Shape::volume(box, box, box));
  const int c = box / 2;
#pragma omp parallel for
  for (int z = 0; z < box; ++z) {
    for (const Blob& b : blobs) {
      // Only voxels within 4 sigma contribute noticeably; skip the rest of the box.
      const double reach = 4.0 * b.sigma;
      const double dz = z - c - b.z;
      if (std::abs(dz) > reach) continue;
      const int y0 = std::max(0, static_cast<int>(std::floor(c + b.y - reach)));
      const int y1 = std::min(box - 1, static_cast<int>(std::ceil(c + b.y + reach)));
      const int x0 = std::max(0, static_cast<int>(std::floor(c + b.x - reach)));
      const int x1 = std::min(box - 1, static_cast<int>(std::ceil(c + b.x + reach)));
      const double inv2s2 = 1.0 / (2.0 * b.sigma * b.sigma);
      for (int y = y0; y <= y1; ++y) {
        const double dy = y - c - b.y;
        for (int x = x0; x <= x1; ++x) {
          const double dx = x - c - b.x;
          vol(x, y, z) += static_cast<float>(b.amplitude * std::exp(-(dx * dx + dy * dy + dz * dz) * inv2s2));
        }
      }
    }
  }
  return vol;
}

} // namespace frost::sim
