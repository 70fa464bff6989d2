// Pair correlation on the device (docs/movie_align.md#pair-correlation; "Correlations" in
// docs/movie_align.md#the-cuda-backend): batches of pairs, each as products -> one batched C2R ->
// peak kernel; only the peak windows (48 bytes per pair) come back, and the host finishes them with
// refine_peak(), the CPU's own sub-pixel code.
#include <algorithm>

#include "frost/core/error.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/cuda/motion_tuning.hpp"
#include "motion_kernels.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

int pair_batch(const CudaMovie::Impl& m, const motion::WorkingSizes& sizes, int total) {
  if (m.options.pair_batch > 0) return std::min(m.options.pair_batch, total);
  const index_t cx = sizes.correlation.x, cy = sizes.correlation.y;
  // Product, map, and as much again for cuFFT's work area.
  const std::size_t per = 2 * (static_cast<std::size_t>((cx / 2 + 1) * cy) * 8 + static_cast<std::size_t>(cx * cy) * 4) +
                          sizeof(motion_kernels::DevicePeak) + sizeof(int2);
  const auto fit = static_cast<int>(std::max<std::size_t>(1, m.budget() / 2 / per));
  return balanced_batch(std::max(1, std::min({fit, 4096, total})), total);
}

} // namespace

std::vector<motion::PeakWindow> device_correlate(CudaMovie::Impl& m, const cufftComplex* spectra,
                                                 const motion::WorkingSizes& sizes, const std::vector<int2>& pairs,
                                                 double radius) {
  const int total = static_cast<int>(pairs.size());
  std::vector<motion::PeakWindow> out(pairs.size());
  if (total == 0) return out;
  const index_t cx = sizes.correlation.x, cy = sizes.correlation.y, hx = cx / 2 + 1;
  const int batch = pair_batch(m, sizes, total);
  DeviceBuffer<int2> d_pairs(static_cast<std::size_t>(batch));
  DeviceBuffer<cufftComplex> product(static_cast<std::size_t>(batch) * hx * cy);
  DeviceBuffer<float> maps(static_cast<std::size_t>(batch) * cx * cy);
  DeviceBuffer<motion_kernels::DevicePeak> d_peaks(static_cast<std::size_t>(batch));
  std::vector<motion_kernels::DevicePeak> peaks(static_cast<std::size_t>(batch));
  m.note_memory();
  const CorrelateLaunch launch =
      m.options.tuning ? select_correlate_launch(cx, cy, batch, m.options.device, *m.options.tuning, m.options.correlate)
                       : m.options.correlate;
  for (int k0 = 0; k0 < total; k0 += batch) {
    const int b = std::min(batch, total - k0);
    d_pairs.upload_async(pairs.data() + k0, static_cast<std::size_t>(b), m.stream.get());
    motion_kernels::pair_products(spectra, d_pairs.data(), b, hx, cy, product.data(), m.stream.get(), launch);
    // The product is scratch: the C2R may overwrite it.
    const fft::FftPlan c2r = m.planner->plan(fft::FftSpec::c2r(Shape::image(cx, cy, b)));
    c2r.execute(product.data(), maps.data(), on_stream(m.stream.get()));
    motion_kernels::find_peaks(maps.data(), cx, cy, b, radius, d_peaks.data(), m.stream.get());
    d_peaks.download_async(peaks.data(), static_cast<std::size_t>(b), m.stream.get());
    m.stream.synchronize(); // pageable download and the next batch's pair upload reuse host memory
    for (int k = 0; k < b; ++k) {
      const motion_kernels::DevicePeak& p = peaks[static_cast<std::size_t>(k)];
      motion::PeakWindow& w = out[static_cast<std::size_t>(k0 + k)];
      w.ix = p.ix;
      w.iy = p.iy;
      w.value = p.value;
      std::copy(p.v, p.v + 9, w.v);
    }
    m.stats.correlations += static_cast<std::size_t>(b);
  }
  m.note_memory();
  return out;
}

motion::PairMeasurement measurement_from(const motion::PeakWindow& window, motion::FramePair pair,
                                         const motion::WorkingSizes& sizes, const motion::CorrelationOptions& options) {
  motion::PairMeasurement m;
  m.pair = pair;
  m.peak = motion::refine_peak(window, options.search_radius, sizes.correlation.x, sizes.correlation.y,
                               options.subpixel);
  m.displacement = motion::pair_displacement(m.peak, sizes);
  return m;
}

} // namespace frost::cuda
