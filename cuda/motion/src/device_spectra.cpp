// Filtered, cropped spectra on the device (docs/movie_align.md#working-sizes-and-the-low-pass-filter):
// batched out-of-place R2C of the transform windows (the frames themselves when they are not cropped),
// then one kernel that crops, filters, normalises and zeroes the axes (motion_kernels::crop_filter).
#include <algorithm>

#include "frost/core/error.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/cuda/motion_tuning.hpp"
#include "motion_kernels.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

DeviceBuffer<float> upload_filter(View<const float> filter, cudaStream_t stream) {
  if (filter.data == nullptr) return {};
  DeviceBuffer<float> d(static_cast<std::size_t>(filter.shape.total()));
  d.upload_async(filter.data, d.size(), stream);
  return d;
}

int spectra_batch(const CudaMovie::Impl& m, const motion::WorkingSizes& sizes, int count) {
  if (m.options.frame_batch > 0) return std::min(m.options.frame_batch, count);
  const index_t mx = sizes.transform.x, my = sizes.transform.y;
  // Window copy, half spectrum, and as much again for cuFFT's work area.
  const std::size_t per = 2 * (static_cast<std::size_t>(mx * my) * 4 + static_cast<std::size_t>((mx / 2 + 1) * my) * 8);
  const auto fit = static_cast<int>(std::max<std::size_t>(1, m.budget() / 2 / per));
  return balanced_batch(std::max(1, std::min({fit, 16, count})), count);
}

void device_spectra(CudaMovie::Impl& m, const float* images, index_t nx, index_t ny, int count,
                    const motion::WorkingSizes& sizes, const float* filter, cufftComplex* out, int batch) {
  const index_t mx = sizes.transform.x, my = sizes.transform.y, cx = sizes.correlation.x, cy = sizes.correlation.y;
  FROST_EXPECTS(mx <= nx && my <= ny && cx <= mx && cy <= my && mx % 2 == 0 && my % 2 == 0 && cy % 2 == 0,
                "device_spectra: inconsistent working sizes");
  const bool window = mx != nx || my != ny;
  const index_t x0 = (nx - mx) / 2, y0 = (ny - my) / 2; // centred window, as filtered_spectra
  const float scale = 1.0f / static_cast<float>(static_cast<double>(mx) * static_cast<double>(my));
  const index_t per_out = (cx / 2 + 1) * cy;
  DeviceBuffer<float> windows(window ? static_cast<std::size_t>(batch) * mx * my : 0);
  DeviceBuffer<cufftComplex> full(static_cast<std::size_t>(batch) * (mx / 2 + 1) * my);
  m.note_memory();
  const CropFilterLaunch launch = m.options.tuning ? select_crop_filter_launch(mx, my, cx, cy, batch, m.options.device,
                                                                               *m.options.tuning, m.options.crop_filter)
                                                   : m.options.crop_filter;
  for (int t0 = 0; t0 < count; t0 += batch) {
    const int b = std::min(batch, count - t0);
    const float* in = images + static_cast<index_t>(t0) * nx * ny;
    if (window) {
      motion_kernels::copy_windows(in, nx, ny, x0, y0, mx, my, b, windows.data(), m.stream.get());
      in = windows.data();
    }
    const fft::FftPlan r2c = m.planner->plan(fft::FftSpec::r2c(Shape::image(mx, my, b)));
    r2c.execute(in, full.data(), on_stream(m.stream.get()));
    motion_kernels::crop_filter(full.data(), mx, my, b, filter, scale, out + static_cast<index_t>(t0) * per_out, cx,
                                cy, m.stream.get(), launch);
  }
  m.note_memory();
  // The work buffers are freed on return: the stream must be done with them.
  m.stream.synchronize();
}

} // namespace frost::cuda
