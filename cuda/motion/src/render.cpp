// The render loop on the device (docs/movie_align.md#warping-and-summing; "Render" in
// docs/movie_align.md#the-cuda-backend), in batches of frames: the shift of every frame from the model (FrameShift, as
// the host), the B-spline prefilter of the whole batch (transpose, row filters, transpose back, column filters: every
// line filter is one thread per line on coalesced memory), one fused warp + sum kernel (per pixel the batch's frames in
// frame order, so every float sum is the host's), and for dose weighting one batched R2C of the batch's aligned frames
// (a single-frame plan per frame) and one accumulation kernel (weights from the shared table), one C2R at the end. The
// shifts of all frames go to the device first, so the batches are queued back to back with no wait between them. Other
// interpolations run the host renderer on a downloaded copy of the frames.
#include <algorithm>
#include <chrono>
#include <utility>
#include <future>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/cuda/staged_copy.hpp"
#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/frame_shift.hpp"
#include "frost/motion/sum_quality.hpp"
#include "motion_kernels.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

// Copies a device image into `host` (pageable) through the pinned staging blocks, after the
// work queued on `stream`.
void download_into(Image<float>& host, const float* d, cudaStream_t stream) {
  download_staged(host.data(), d, static_cast<std::size_t>(host.size()) * sizeof(float), stream);
}

// FrameAccumulator's --normalize mean: every pixel times 1/count in float.
void scale_by(Image<float>& img, int count) {
  const float f = 1.f / static_cast<float>(count);
  for (index_t i = 0; i < img.size(); ++i) img[i] *= f;
}

constexpr int kMaxRenderBatch = 16;

double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

/// Frames per render batch: transposed copy, coefficients, double scratch, and for dose
/// weighting the half spectra, per frame.
int render_batch(const CudaMovie::Impl& m, index_t n, index_t half, bool dose, int count) {
  const auto pixels = static_cast<std::size_t>(n);
  std::size_t per = pixels * (4 + 4 + 8);
  if (dose) per += static_cast<std::size_t>(half) * sizeof(cufftComplex);
  const auto fit = static_cast<int>(std::max<std::size_t>(1, m.budget() / 2 / per));
  return balanced_batch(std::max(1, std::min({fit, kMaxRenderBatch, count})), count);
}

/// The shift of every rendered frame as the kernels read it (FrameShift, as the host renderer
/// derives them), the B-spline planes of the spline frames side by side, and the half counts.
struct RenderInputs {
  std::vector<motion_kernels::RenderFrame> frames; ///< one per frame of the range
  std::vector<double> px, py;
  int even_count = 0, odd_count = 0;

  /// True when a frame of [k0, k0 + count) of the range moves (is not a plain copy).
  bool warps(int k0, int count) const {
    for (int k = k0; k < k0 + count; ++k)
      if (frames[static_cast<std::size_t>(k)].kind != motion_kernels::RenderFrame::Copy) return true;
    return false;
  }
};

RenderInputs render_inputs(const motion::MotionModel& model, motion::SumRange range, index_t nx,
                           const motion::SumOptions& options) {
  RenderInputs in;
  in.frames.resize(static_cast<std::size_t>(range.count));
  for (int k = 0; k < range.count; ++k) {
    const int f = range.first + k;
    const motion::FrameShift shift = motion::FrameShift::from_model(model, f - model.first_frame, nx);
    motion_kernels::RenderFrame& r = in.frames[static_cast<std::size_t>(k)];
    r = {};
    r.dose = options.dose_weighted ? motion::frame_dose(options.dose, f) : 0.0;
    if (shift.is_zero()) {
      r.kind = motion_kernels::RenderFrame::Copy;
    } else if (shift.is_constant()) {
      r.kind = motion_kernels::RenderFrame::Constant;
      r.sx = shift.constant_shift().x;
      r.sy = shift.constant_shift().y;
    } else {
      const motion::FrameShift::SplinePlanes sp = shift.spline_planes();
      r.kind = motion_kernels::RenderFrame::Spline;
      r.lx = sp.lx;
      r.ly = sp.ly;
      r.hx = sp.hx;
      r.hy = sp.hy;
      r.base_x = sp.base.x;
      r.base_y = sp.base.y;
      r.plane = static_cast<long long>(in.px.size());
      const std::size_t plane = static_cast<std::size_t>(sp.lx) * static_cast<std::size_t>(sp.ly);
      in.px.insert(in.px.end(), sp.px, sp.px + plane);
      in.py.insert(in.py.end(), sp.py, sp.py + plane);
    }
    ++(f % 2 == 0 ? in.even_count : in.odd_count);
  }
  return in;
}

/// Events around the steps of one batch (device time per step, read after the last batch).
struct BatchEvents {
  Event start, filtered, warped, weighted;
};

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
  const int batch = render_batch(m, n, half, options.dose_weighted, range.count);
  const auto bn = static_cast<std::size_t>(batch) * static_cast<std::size_t>(n);

  // transposed: the row-filter layout, then the batch's aligned frames; coeffs: the B-spline
  // coefficients, then (after the last batch) the full sum and the dose-weighted micrograph.
  DeviceBuffer<float> transposed(bn), coeffs(bn);
  DeviceBuffer<double> scratch(bn);
  const bool halves_kept = options.aligned_sum || options.halves || options.quality;
  // The full sum on the device: returned, or the weighting check's reference.
  const bool full_sum = options.aligned_sum || (options.quality && options.dose_weighted);
  DeviceBuffer<float> even(halves_kept ? n : 0), odd(halves_kept ? n : 0), unaligned(options.unaligned_sum ? n : 0);
  if (halves_kept) {
    even.zero_async(s);
    odd.zero_async(s);
  }
  if (options.unaligned_sum) unaligned.zero_async(s);
  DeviceBuffer<float> table, weight_sq;
  DeviceBuffer<cufftComplex> spectra, weighted;
  // Dose weighting: a single-frame R2C per aligned frame and one C2R at the end, planned on a
  // CPU thread while the first batch is prefiltered and warped (planning takes tens of ms).
  struct Plans {
    fft::FftPlan r2c, c2r;
  };
  std::future<Plans> planned;
  Plans plans;
  if (options.dose_weighted) {
    const int device = m.options.device;
    fft::Planner* planner = m.planner.get();
    planned = std::async(std::launch::async, [device, planner, frame] {
      DeviceGuard g(device);
      return Plans{planner->plan(fft::FftSpec::r2c(frame)), planner->plan(fft::FftSpec::r2c(frame).inverse())};
    });
    // The weight table on the device (half_exposure_inverse element by element).
    table = DeviceBuffer<float>(static_cast<std::size_t>(half));
    motion_kernels::exposure_table(nx, ny, options.pixel_size, table.data(), s);
    spectra = DeviceBuffer<cufftComplex>(static_cast<std::size_t>(batch) * static_cast<std::size_t>(half));
    weighted = DeviceBuffer<cufftComplex>(static_cast<std::size_t>(half));
    weight_sq = DeviceBuffer<float>(static_cast<std::size_t>(half));
    weighted.zero_async(s);
    weight_sq.zero_async(s);
  }
  // Every frame's shift description (as the host renderer derives them) and the B-spline planes,
  // uploaded once: the batches are then queued back to back without waiting for each other.
  const RenderInputs inputs = render_inputs(model, range, nx, options);
  DeviceBuffer<motion_kernels::RenderFrame> d_frames(inputs.frames.size());
  d_frames.upload_async(inputs.frames.data(), inputs.frames.size(), s); // pageable: staged before returning
  DeviceBuffer<double> planes_x(inputs.px.size()), planes_y(inputs.py.size());
  if (!inputs.px.empty()) {
    planes_x.upload_async(inputs.px.data(), inputs.px.size(), s);
    planes_y.upload_async(inputs.py.data(), inputs.py.size(), s);
  }
  const int batches = (range.count + batch - 1) / batch;
  std::vector<BatchEvents> events(static_cast<std::size_t>(batches)); // device time of each step
  m.note_memory();
  m.stats.render_setup_ms += ms_between(t_start, std::chrono::steady_clock::now());

  motion::FrameSums out;
  out.first_frame = range.first;
  out.frame_count = range.count;
  if (options.aligned_frames) out.aligned_frames = Image<float>(Shape::image(nx, ny, range.count));
  const bool keep_aligned = options.aligned_frames || options.dose_weighted;
  for (int i = 0; i < batches; ++i) {
    const int f0 = range.first + i * batch;
    const int b = std::min(batch, range.first + range.count - f0);
    const motion_kernels::RenderFrame* d_batch = d_frames.data() + (f0 - range.first);
    const BatchEvents& ev = events[static_cast<std::size_t>(i)];
    const float* raw = m.frames.data() + static_cast<index_t>(f0 - m.first_frame) * n;
    ev.start.record(s);
    if (inputs.warps(f0 - range.first, b)) {
      // Rows: transpose so that each row is a column, filter, transpose back; then the columns.
      motion_kernels::transpose_frames(raw, nx, ny, b, transposed.data(), s);
      motion_kernels::prefilter_lines(transposed.data(), scratch.data(), ny, nx, ny, b, n, s);
      motion_kernels::transpose_frames(transposed.data(), ny, nx, b, coeffs.data(), s);
      motion_kernels::prefilter_lines(coeffs.data(), scratch.data(), nx, ny, nx, b, n, s);
    }
    ev.filtered.record(s);
    motion_kernels::warp_sum(raw, coeffs.data(), nx, ny, b, d_batch, f0 % 2, planes_x.data(), planes_y.data(),
                             halves_kept ? even.data() : nullptr, halves_kept ? odd.data() : nullptr,
                             options.unaligned_sum ? unaligned.data() : nullptr,
                             keep_aligned ? transposed.data() : nullptr, s);
    ev.warped.record(s);
    if (options.dose_weighted) {
      if (planned.valid()) plans = planned.get();
      for (int k = 0; k < b; ++k)
        plans.r2c.execute(transposed.data() + static_cast<index_t>(k) * n, spectra.data() + static_cast<index_t>(k) * half,
                    on_stream(s));
      motion_kernels::dose_accumulate(spectra.data(), b, d_batch, table.data(), half, weighted.data(),
                                      weight_sq.data(), s);
    }
    if (options.aligned_frames)
      FROST_CUDA_CHECK(cudaMemcpyAsync(out.aligned_frames.data() + static_cast<index_t>(f0 - range.first) * n,
                                       transposed.data(), static_cast<std::size_t>(b) * static_cast<std::size_t>(n) * sizeof(float),
                                       cudaMemcpyDeviceToHost, s));
    ev.weighted.record(s);
  }
  // The final images on the device, queued behind the batches: the aligned sum in
  // `coeffs`, the dose-weighted micrograph in `transposed` (free after the last batch).
  if (full_sum) motion_kernels::add_images(even.data(), odd.data(), coeffs.data(), n, s); // as FrameAccumulator::finish
  if (options.dose_weighted) {
    motion_kernels::dose_normalise(weighted.data(), weight_sq.data(), 1.0 / static_cast<double>(n), half,
                                   spectra.data(), s);
    plans.c2r.execute(spectra.data(), transposed.data(), on_stream(s));
  }
  // The quality numbers from the sums where they are (docs/movie_align.md#quality-of-the-sums):
  // two R2C and one shell-sum kernel per pair; only the sums' few thousand doubles come back.
  const std::size_t quality_size = fft::shell_sums_array_size(fft::shell_rings(nx, ny));
  DeviceBuffer<cufftComplex> quality_a, quality_b;
  DeviceBuffer<double> quality_sums(options.quality ? 2 * quality_size : 0);
  if (options.quality) {
    const fft::FftPlan r2c = m.planner->plan(fft::FftSpec::r2c(frame));
    quality_a = DeviceBuffer<cufftComplex>(static_cast<std::size_t>(half));
    quality_b = DeviceBuffer<cufftComplex>(static_cast<std::size_t>(half));
    const auto pair = [&](const float* a, const float* b, double* sums) {
      r2c.execute(a, quality_a.data(), on_stream(s));
      r2c.execute(b, quality_b.data(), on_stream(s));
      motion_kernels::shell_sums(quality_a.data(), quality_b.data(), nx, ny, motion::kWeightingBand, sums, s);
    };
    pair(even.data(), odd.data(), quality_sums.data());
    if (options.dose_weighted) pair(transposed.data(), coeffs.data(), quality_sums.data() + quality_size);
    m.note_memory();
  }
  // The host images (pageable: no page-locking, see download_staged), their pages faulted in by
  // the CPU threads while the device runs the batches.
  const auto host_image = [&](bool wanted) {
    Image<float> img;
    if (wanted) {
      img = Image<float>(frame);
      host_prefault(img.data(), static_cast<std::size_t>(img.size()) * sizeof(float));
    }
    return img;
  };
  out.aligned = host_image(options.aligned_sum);
  out.even = host_image(options.halves);
  out.odd = host_image(options.halves);
  out.unaligned = host_image(options.unaligned_sum);
  out.dose_weighted = host_image(options.dose_weighted);
  m.stream.synchronize(); // the batches' events are complete, the final images made
  for (const BatchEvents& ev : events) {
    m.stats.render_prefilter_ms += ev.filtered.elapsed_ms_since(ev.start);
    m.stats.render_warp_ms += ev.warped.elapsed_ms_since(ev.filtered);
    m.stats.render_dose_ms += ev.weighted.elapsed_ms_since(ev.warped);
  }
  if (!events.empty()) m.stats.render_batches_ms += events.back().weighted.elapsed_ms_since(events.front().start);
  const auto t_finish = std::chrono::steady_clock::now();

  const bool mean = options.normalization == motion::SumNormalization::Mean;
  if (options.aligned_sum) download_into(out.aligned, coeffs.data(), s);
  if (options.halves) {
    download_into(out.even, even.data(), s);
    download_into(out.odd, odd.data(), s);
  }
  if (options.unaligned_sum) download_into(out.unaligned, unaligned.data(), s);
  if (options.dose_weighted) download_into(out.dose_weighted, transposed.data(), s);
  m.stream.synchronize();
  if (options.quality) {
    std::vector<double> sums(quality_sums.size());
    quality_sums.download_async(sums.data(), sums.size(), s);
    m.stream.synchronize();
    const int rings = fft::shell_rings(nx, ny);
    motion::SumQuality q;
    q.halves = fft::shell_sums_from_array(sums.data(), rings);
    if (options.dose_weighted) {
      q.weighting = motion::weighting_check_sums(fft::shell_sums_from_array(sums.data() + quality_size, rings),
                                                 range.count);
    }
    out.quality = std::move(q);
  }
  if (mean) {
    if (options.aligned_sum) scale_by(out.aligned, range.count);
    if (options.halves && inputs.even_count > 0) scale_by(out.even, inputs.even_count);
    if (options.halves && inputs.odd_count > 0) scale_by(out.odd, inputs.odd_count);
    if (options.unaligned_sum) scale_by(out.unaligned, range.count);
  }
  m.note_memory();
  const auto t_end = std::chrono::steady_clock::now();
  m.stats.render_finish_ms += ms_between(t_finish, t_end);
  m.stats.render_ms += ms_between(t_start, t_end);
  return out;
}

} // namespace frost::cuda
