#include "frost/picture/power_spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/fft.hpp"
#include "frost/picture/tone.hpp"

namespace frost::picture {

Image<float> mean_periodogram(View<const float> image, index_t n) {
  FROST_EXPECTS(image.shape.z == 1 && image.shape.n == 1, "mean_periodogram: expects one 2-D image");
  const index_t nx = image.shape.x, ny = image.shape.y;
  if (n < 2 || n % 2 != 0 || n > nx || n > ny)
    throw_usage_error("power spectrum tile size " + std::to_string(n) + " must be even, >= 2 and fit in the " +
                      std::to_string(nx) + "x" + std::to_string(ny) + " image");
  const index_t step = n / 2;
  const index_t tiles_x = (nx - n) / step + 1, tiles_y = (ny - n) / step + 1;

  // One batched FFT per row of tiles: few parallel regions, and each element of `power`
  // accumulates its tiles in a fixed order (thread-count independent).
  const Shape tile_shape = Shape::image(n, n);
  const Shape half = tile_shape.half_spectrum();
  const fft::FftPlan plan =
      fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(Shape::image(n, n, tiles_x)));
  Image<float> tiles(Shape::image(n, n, tiles_x));
  Image<fft::Complex> spectra(Shape::image(half.x, half.y, tiles_x));
  Image<double> power(half);
  const index_t per_tile = half.total();
  for (index_t ty = 0; ty < tiles_y; ++ty) {
#pragma omp parallel for num_threads(num_threads()) schedule(static)
    for (index_t r = 0; r < tiles_x * n; ++r) {
      const index_t tx = r / n, y = r % n;
      const float* src = image.data + (ty * step + y) * nx + tx * step;
      std::copy(src, src + n, tiles.data() + r * n);
    }
    plan.execute(tiles.cview(), spectra.view());
#pragma omp parallel for num_threads(num_threads()) schedule(static)
    for (index_t i = 0; i < per_tile; ++i) {
      double acc = power[i];
      for (index_t tx = 0; tx < tiles_x; ++tx) acc += static_cast<double>(std::norm(spectra[tx * per_tile + i]));
      power[i] = acc;
    }
  }

  // Full n x n plane from the half spectrum (|P(−k)| = |P(k)| for real input), zero frequency
  // moved to (n/2, n/2).
  const double inv_tiles = 1.0 / static_cast<double>(tiles_x * tiles_y);
  Image<float> out(tile_shape);
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t jy = 0; jy < n; ++jy) {
    for (index_t jx = 0; jx < n; ++jx) {
      const bool stored = jx <= n / 2;
      const index_t hx = stored ? jx : n - jx;
      const index_t hy = stored ? jy : (n - jy) % n;
      out((jx + step) % n, (jy + step) % n) = static_cast<float>(power(hx, hy) * inv_tiles);
    }
  }
  return out;
}

Raster power_spectrum_picture(View<const float> centred_power) {
  FROST_EXPECTS(centred_power.shape.z == 1 && centred_power.shape.n == 1 && centred_power.shape.x >= 3 &&
                    centred_power.shape.y >= 3,
                "power_spectrum_picture: expects one 2-D spectrum of at least 3x3");
  const index_t nx = centred_power.shape.x, ny = centred_power.shape.y;
  Image<float> logp(centred_power.shape);
  // The floor keeps log10 finite for exact zeros (e.g. a constant image) without lifting real data.
  float peak = 0;
  for (index_t i = 0; i < logp.size(); ++i)
    if (std::isfinite(centred_power[i])) peak = std::max(peak, centred_power[i]);
  const double floor = peak > 0 ? peak * 1e-20 : 1e-30;
  for (index_t i = 0; i < logp.size(); ++i)
    logp[i] = static_cast<float>(std::log10(std::max(static_cast<double>(centred_power[i]), floor)));
  const index_t cx = nx / 2, cy = ny / 2;
  logp(cx, cy) = 0.25f * (logp(cx - 1, cy) + logp(cx + 1, cy) + logp(cx, cy - 1) + logp(cx, cy + 1));
  return to_grey(logp.cview(), 1.0, 99.8);
}

} // namespace frost::picture
