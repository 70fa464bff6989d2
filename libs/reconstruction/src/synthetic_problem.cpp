#include "frost/reconstruction/synthetic_problem.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "frost/reconstruction/sample_preparer.hpp"

namespace frost::recon {

std::vector<Image<float>> synthetic_images(int box, int count) {
  std::vector<Image<float>> out;
  std::mt19937 rng(static_cast<std::uint32_t>(box) * 7919u + 1u);
  std::uniform_real_distribution<double> pos(-0.25 * box, 0.25 * box), amp(0.5, 1.5);
  const double sigma = std::max(1.0, box / 32.0);
  for (int n = 0; n < count; ++n) {
    Image<float> im(Shape::image(box, box));
    for (int b = 0; b < 6; ++b) {
      const double cx = box / 2 + pos(rng), cy = box / 2 + pos(rng), a = amp(rng);
      for (int y = 0; y < box; ++y)
        for (int x = 0; x < box; ++x) {
          const double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
          im(x, y) += static_cast<float>(a * std::exp(-d2 / (2 * sigma * sigma)));
        }
    }
    out.push_back(std::move(im));
  }
  return out;
}

std::vector<ParticleRecord> synthetic_particles(long long count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> angle(0.0, 360.0), cosine(-1.0, 1.0);
  std::vector<ParticleRecord> p(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < p.size(); ++i) {
    p[i].row = i;
    p[i].pose.rot = angle(rng);
    p[i].pose.tilt = std::acos(cosine(rng)) * 180.0 / 3.14159265358979323846;
    p[i].pose.psi = angle(rng);
  }
  return p;
}

ImageLoader synthetic_loader(const std::vector<Image<float>>& images) {
  return [&images](const ParticleRecord& p, Image<float>& out) {
    const Image<float>& src = images[p.row % images.size()];
    if (out.shape().x != src.shape().x || out.shape().y != src.shape().y) out = Image<float>(src.shape());
    std::copy(src.begin(), src.end(), out.begin());
  };
}

SampleBatch prepared_batch(const ReconstructionSettings& s, const GridLayout& layout, const geom::SymmetryGroup& group,
                           const std::vector<Image<float>>& images, const std::vector<ParticleRecord>& particles,
                           int buffer, HostMemory mem) {
  const int n = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(buffer), particles.size()));
  SampleBatch batch(layout, n, group.order(), false, mem);
  SamplePreparer prep(s, layout, group);
  for (int i = 0; i < n; ++i) {
    const Image<float>& im = images[static_cast<std::size_t>(i) % images.size()];
    prep.prepare(im.cview(), particles[static_cast<std::size_t>(i)], batch, i);
  }
  batch.set_size(n);
  return batch;
}

} // namespace frost::recon
