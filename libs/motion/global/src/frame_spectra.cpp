#include "frost/motion/frame_spectra.hpp"

#include <algorithm>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/planner.hpp"
#include "frost/motion/fourier_crop.hpp"

namespace frost::motion {

namespace {

/// The loop of both overloads: frame_at(t, buffer) gives frame t (buffer: a frame-sized
/// image of the calling thread, for frames that must be made first).
template <class FrameAt>
Image<fft::Complex> spectra_of(int n, const WorkingSizes& sizes, View<const float> filter, bool buffered,
                               FrameAt frame_at) {
  const index_t mx = sizes.transform.x, my = sizes.transform.y;
  const index_t cx = sizes.correlation.x, cy = sizes.correlation.y;
  FROST_EXPECTS(mx <= sizes.frame.x && my <= sizes.frame.y && cx <= mx && cy <= my, "inconsistent working sizes");

  Image<fft::Complex> out(Shape::image(cx / 2 + 1, cy, n));
  const Shape window = Shape::image(mx, my);
  fft::PlanOptions one_thread; // frames run in parallel; a 1-thread plan keeps results thread-count independent
  one_thread.threads = 1;
  const fft::FftPlan forward = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(window), one_thread);
  const index_t x0 = (sizes.frame.x - mx) / 2, y0 = (sizes.frame.y - my) / 2; // centred window
  const float scale = 1.0f / static_cast<float>(static_cast<double>(mx) * static_cast<double>(my));

#pragma omp parallel num_threads(num_threads())
  {
    Image<float> real(window);
    Image<fft::Complex> spectrum(window.half_spectrum());
    Image<float> buffer(buffered ? Shape::image(sizes.frame.x, sizes.frame.y) : Shape{});
#pragma omp for schedule(dynamic)
    for (int t = 0; t < n; ++t) {
      const View<const float> f = frame_at(t, buffer);
      for (index_t y = 0; y < my; ++y) {
        const float* row = &f(x0, y0 + y);
        std::copy(row, row + mx, &real(0, y));
      }
      forward.execute(real.cview(), spectrum.view());
      View<fft::Complex> dst{out.data() + static_cast<index_t>(t) * (cx / 2 + 1) * cy, Shape::image(cx / 2 + 1, cy)};
      crop_half_spectrum(spectrum.cview(), dst, filter, scale);
    }
  }
  return out;
}

} // namespace

Image<fft::Complex> filtered_spectra(const std::vector<View<const float>>& frames, const WorkingSizes& sizes,
                                     View<const float> filter) {
  const int n = static_cast<int>(frames.size());
  for (int t = 0; t < n; ++t)
    if (frames[t].shape.x != sizes.frame.x || frames[t].shape.y != sizes.frame.y)
      throw_usage_error("frame " + std::to_string(t) + " is " + std::to_string(frames[t].shape.x) + "x" +
                        std::to_string(frames[t].shape.y) + " pixels, expected " + std::to_string(sizes.frame.x) +
                        "x" + std::to_string(sizes.frame.y));
  return spectra_of(n, sizes, filter, false, [&](int t, Image<float>&) { return frames[t]; });
}

Image<fft::Complex> filtered_spectra(int count, const FrameLoader& load, const WorkingSizes& sizes,
                                     View<const float> filter) {
  return spectra_of(count, sizes, filter, true, [&](int t, Image<float>& buffer) {
    load(t, buffer.data());
    return buffer.cview();
  });
}

} // namespace frost::motion
