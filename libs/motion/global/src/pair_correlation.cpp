#include "frost/motion/pair_correlation.hpp"

#include <algorithm>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/planner.hpp"
#include "frost/motion/correlation_math.hpp"

namespace frost::motion {

std::vector<FramePair> frame_pairs(int frames, int max_distance) {
  std::vector<FramePair> pairs;
  for (int i = 0; i < frames; ++i)
    for (int j = i + 1; j < frames; ++j)
      if (max_distance <= 0 || j - i <= max_distance) pairs.push_back({i, j});
  return pairs;
}

std::vector<int> window_schedule(const std::vector<FramePair>& pairs, int frames, int window) {
  const int w = window <= 0 ? std::max(frames, 1) : window;
  const int windows = (frames + w - 1) / w;
  // Window A = [a·w, (a+1)·w): its own pairs, then A x B for every later window B.
  std::vector<std::vector<int>> by_block(static_cast<std::size_t>(windows) * static_cast<std::size_t>(windows));
  for (int k = 0; k < static_cast<int>(pairs.size()); ++k) {
    const int a = pairs[k].i / w, b = pairs[k].j / w;
    by_block[static_cast<std::size_t>(a) * static_cast<std::size_t>(windows) + static_cast<std::size_t>(b)].push_back(k);
  }
  std::vector<int> order;
  order.reserve(pairs.size());
  for (int a = 0; a < windows; ++a)
    for (int b = a; b < windows; ++b) {
      const auto& block = by_block[static_cast<std::size_t>(a) * static_cast<std::size_t>(windows) + static_cast<std::size_t>(b)];
      order.insert(order.end(), block.begin(), block.end());
    }
  return order;
}

void correlation_map(View<const fft::Complex> gi, View<const fft::Complex> gj, View<fft::Complex> product,
                     View<float> map, const fft::FftPlan& c2r) {
  const index_t w = gi.shape.x, h = gi.shape.y;
  for (index_t y = 0; y < h; ++y) {
    const fft::Complex* a = &gi(0, y);
    const fft::Complex* b = &gj(0, y);
    fft::Complex* p = &product(0, y);
    // (-1)^(kx+ky) moves the zero shift to the centre of the even C_x x C_y map. The product is
    // written out: std::complex's operator* checks for NaN element by element, which keeps the
    // loop scalar (the values are the same for finite inputs).
    const float first = centring_sign(0, y);
    const float* af = reinterpret_cast<const float*>(a);
    const float* bf = reinterpret_cast<const float*>(b);
    float* pf = reinterpret_cast<float*>(p);
    for (index_t x = 0; x < w; ++x) {
      const float s = (x % 2 == 0) ? first : -first;
      const float ar = af[2 * x], ai = af[2 * x + 1], br = bf[2 * x], bi = bf[2 * x + 1];
      pf[2 * x] = (ar * br + ai * bi) * s;
      pf[2 * x + 1] = (ai * br - ar * bi) * s;
    }
  }
  c2r.execute(product, map);
}

std::vector<PairMeasurement> correlate_pairs(View<const fft::Complex> spectra, const std::vector<FramePair>& pairs,
                                             const WorkingSizes& sizes, const CorrelationOptions& options) {
  const index_t cx = sizes.correlation.x, cy = sizes.correlation.y;
  const Shape half = Shape::image(cx / 2 + 1, cy);
  FROST_EXPECTS(spectra.shape.x == half.x && spectra.shape.y == half.y && spectra.shape.z == 1,
                "spectra do not match the correlation size");
  const int frames = static_cast<int>(spectra.shape.n);
  for (const FramePair& p : pairs)
    FROST_EXPECTS(p.i >= 0 && p.i < p.j && p.j < frames, "pair outside the frame range");

  fft::PlanOptions one_thread; // pairs run in parallel
  one_thread.threads = 1;
  const fft::FftPlan inverse = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::c2r(Shape::image(cx, cy)), one_thread);

  const std::vector<int> order = window_schedule(pairs, frames, options.frame_window);
  const int total = static_cast<int>(order.size());
  const int batch = std::max(1, options.pair_batch);
  std::vector<PairMeasurement> out(pairs.size());

  // A batch is one thread's unit of work: pairs in schedule order, handed out `batch` at a time.
#pragma omp parallel num_threads(num_threads())
  {
    Image<fft::Complex> product(half);
    Image<float> map(Shape::image(cx, cy));
#pragma omp for schedule(dynamic, batch)
    for (int k = 0; k < total; ++k) {
      const int index = order[static_cast<std::size_t>(k)];
      const FramePair pr = pairs[static_cast<std::size_t>(index)];
      correlation_map(spectra.item(pr.i), spectra.item(pr.j), product.view(), map.view(), inverse);
      PairMeasurement& m = out[static_cast<std::size_t>(index)];
      m.pair = pr;
      m.peak = find_peak(map.cview(), options.search_radius, options.subpixel);
      m.displacement = pair_displacement(m.peak, sizes);
    }
  }
  return out;
}

} // namespace frost::motion
