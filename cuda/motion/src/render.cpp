// The render loop on the device (movie-alignment.md §7, §10.1 "Output"): for every frame of the
// sum range the shift from the model (FrameShift, as the host), B-spline prefilter, bspline3
// warp, sums in frame order (so each pixel's float sum is the host's), and the dose-weighted sum
// (R2C per aligned frame, weights from the shared table, one C2R). Other interpolations run the
// host renderer on a downloaded copy of the frames.
#include <algorithm>
#include <chrono>

#include "frost/core/error.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/motion/dose_weighted_sum.hpp"
#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/frame_shift.hpp"
#include "motion_kernels.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

Image<float> download(const DeviceBuffer<float>& d, index_t nx, index_t ny, cudaStream_t stream) {
  Image<float> img(Shape::image(nx, ny));
  d.download_async(img.data(), static_cast<std::size_t>(nx * ny), stream);
  FROST_CUDA_CHECK(cudaStreamSynchronize(stream));
  return img;
}

// FrameAccumulator's --normalize mean: every pixel times 1/count in float.
void scale_by(Image<float>& img, int count) {
  const float f = 1.f / static_cast<float>(count);
  for (index_t i = 0; i < img.size(); ++i) img[i] *= f;
}

} // namespace

motion::FrameSums CudaMovie::render(const motion::MotionModel& model, motion::SumRange range,
                                    motion::InterpolationMethod method, const motion::SumOptions& options) {
  Impl& m = *impl_;
  DeviceGuard guard(m.options.device);
  motion::check_render_request(m.first_frame, m.count, model, range, method);
  const auto t_start = std::chrono::steady_clock::now();
  if (method != motion::InterpolationMethod::BSpline3) {
    const Image<float> host = download_frames();
    motion::FrameSums sums = motion::render_movie(host.cview(), m.first_frame, model, range, method, options);
    m.stats.render_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_start).count();
    return sums;
  }
  const index_t nx = m.size.x, ny = m.size.y, n = nx * ny;
  const Shape frame = Shape::image(nx, ny);
  const index_t half = frame.half_spectrum().pixels_per_item();
  cudaStream_t s = m.stream.get();
  if (options.dose_weighted) {
    motion::validate(options.dose);
    FROST_EXPECTS(nx >= 2 && ny >= 2 && options.pixel_size > 0.0, "dose weighting: frame >= 2x2 and pixel size > 0");
  }

  DeviceBuffer<float> coeffs(static_cast<std::size_t>(n)), along_x(static_cast<std::size_t>(n)),
      aligned(static_cast<std::size_t>(n));
  DeviceBuffer<double> scratch(static_cast<std::size_t>(n));
  const bool halves_kept = options.aligned_sum || options.halves;
  DeviceBuffer<float> even(halves_kept ? n : 0), odd(halves_kept ? n : 0), unaligned(options.unaligned_sum ? n : 0);
  if (halves_kept) {
    even.zero_async(s);
    odd.zero_async(s);
  }
  if (options.unaligned_sum) unaligned.zero_async(s);
  DeviceBuffer<float> table, weight_sq;
  DeviceBuffer<cufftComplex> spectrum, weighted;
  fft::FftPlan forward, inverse;
  if (options.dose_weighted) {
    const Image<float> h = motion::half_exposure_inverse(nx, ny, options.pixel_size);
    table = DeviceBuffer<float>(static_cast<std::size_t>(half));
    table.upload_async(h.data(), static_cast<std::size_t>(half), s);
    spectrum = DeviceBuffer<cufftComplex>(static_cast<std::size_t>(half));
    weighted = DeviceBuffer<cufftComplex>(static_cast<std::size_t>(half));
    weight_sq = DeviceBuffer<float>(static_cast<std::size_t>(half));
    weighted.zero_async(s);
    weight_sq.zero_async(s);
    forward = m.planner->plan(fft::FftSpec::r2c(frame));
    inverse = m.planner->plan(fft::FftSpec::r2c(frame).inverse());
    FROST_CUDA_CHECK(cudaStreamSynchronize(s)); // the table's host copy dies at the end of this block
  }
  DeviceBuffer<double> planes_x, planes_y;
  m.note_memory();

  motion::FrameSums out;
  out.first_frame = range.first;
  out.frame_count = range.count;
  if (options.aligned_frames) out.aligned_frames = Image<float>(Shape::image(nx, ny, range.count));
  int even_count = 0, odd_count = 0;
  const int last = range.first + range.count - 1;
  for (int f = range.first; f <= last; ++f) {
    const float* raw = m.frames.data() + static_cast<index_t>(f - m.first_frame) * n;
    const motion::FrameShift shift = motion::FrameShift::from_model(model, f - model.first_frame, nx);
    const float* result = raw; // a zero shift copies the frame (warp_frame)
    if (!shift.is_zero()) {
      motion_kernels::bspline_prefilter(raw, nx, ny, scratch.data(), coeffs.data(), s);
      if (shift.is_constant()) {
        const motion::Vec2 c = shift.constant_shift();
        motion_kernels::warp_constant(coeffs.data(), nx, ny, c.x, c.y, along_x.data(), aligned.data(), s);
      } else {
        const motion::FrameShift::SplinePlanes sp = shift.spline_planes();
        const auto plane = static_cast<std::size_t>(sp.lx) * static_cast<std::size_t>(sp.ly);
        if (planes_x.size() != plane) {
          planes_x = DeviceBuffer<double>(plane);
          planes_y = DeviceBuffer<double>(plane);
        }
        // Pageable sources: the copies are staged before cudaMemcpyAsync returns.
        planes_x.upload_async(sp.px, plane, s);
        planes_y.upload_async(sp.py, plane, s);
        motion_kernels::warp_field(coeffs.data(), nx, ny, planes_x.data(), planes_y.data(), sp.lx, sp.ly, sp.hx, sp.hy,
                                   sp.base.x, sp.base.y, aligned.data(), s);
      }
      result = aligned.data();
    }
    if (halves_kept) {
      const bool is_even = f % 2 == 0;
      motion_kernels::accumulate(is_even ? even.data() : odd.data(), result, n, s);
      ++(is_even ? even_count : odd_count);
    }
    if (options.unaligned_sum) motion_kernels::accumulate(unaligned.data(), raw, n, s);
    if (options.dose_weighted) {
      forward.execute(result, spectrum.data(), on_stream(s));
      motion_kernels::dose_accumulate(spectrum.data(), table.data(), motion::frame_dose(options.dose, f), half,
                                      weighted.data(), weight_sq.data(), s);
    }
    if (options.aligned_frames)
      FROST_CUDA_CHECK(cudaMemcpyAsync(out.aligned_frames.data() + static_cast<index_t>(f - range.first) * n, result,
                                       static_cast<std::size_t>(n) * sizeof(float), cudaMemcpyDeviceToHost, s));
  }

  const bool mean = options.normalization == motion::SumNormalization::Mean;
  if (options.aligned_sum) {
    // Full sum = even half + odd half, as FrameAccumulator::finish.
    motion_kernels::add_images(even.data(), odd.data(), coeffs.data(), n, s);
    out.aligned = Image<float>(frame);
    FROST_CUDA_CHECK(cudaMemcpyAsync(out.aligned.data(), coeffs.data(), static_cast<std::size_t>(n) * sizeof(float),
                                     cudaMemcpyDeviceToHost, s));
  }
  if (options.halves) {
    out.even = download(even, nx, ny, s);
    out.odd = download(odd, nx, ny, s);
  }
  if (options.unaligned_sum) out.unaligned = download(unaligned, nx, ny, s);
  if (options.dose_weighted) {
    motion_kernels::dose_normalise(weighted.data(), weight_sq.data(), 1.0 / static_cast<double>(n), half,
                                   spectrum.data(), s);
    inverse.execute(spectrum.data(), aligned.data(), on_stream(s));
    out.dose_weighted = download(aligned, nx, ny, s);
  }
  m.stream.synchronize();
  if (mean) {
    if (options.aligned_sum) scale_by(out.aligned, range.count);
    if (options.halves && even_count > 0) scale_by(out.even, even_count);
    if (options.halves && odd_count > 0) scale_by(out.odd, odd_count);
    if (options.unaligned_sum) scale_by(out.unaligned, range.count);
  }
  m.stats.render_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_start).count();
  return out;
}

} // namespace frost::cuda
