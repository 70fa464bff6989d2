// CudaMovie: the frames on the device, and the global-stage methods (spectra, pair measurements)
// over the device stages of this folder.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/planner.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

std::unique_ptr<CudaMovie::Impl> make_impl(int count, motion::Size2 size, int first_frame,
                                           const CudaMotionOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (count < 1 || size.x < 1 || size.y < 1)
    throw_usage_error("CudaMovie: a movie needs at least one frame of positive size");
  const int devices = cuda_device_count();
  if (options.device < 0 || options.device >= devices)
    FROST_THROW(ExitCode::Device, "CUDA device " + std::to_string(options.device) + " does not exist (" +
                                      std::to_string(devices) + " visible)");
  DeviceGuard guard(options.device);
  auto m = std::make_unique<CudaMovie::Impl>();
  m->options = options;
  m->count = count;
  m->size = size;
  m->first_frame = first_frame;
  const std::size_t bytes = static_cast<std::size_t>(count) * static_cast<std::size_t>(size.x * size.y) * sizeof(float);
  const auto [free_b, total_b] = memory_info();
  if (bytes > free_b) {
    std::ostringstream msg;
    msg << "the movie (" << count << " frames of " << size.x << "x" << size.y << ", " << (bytes >> 20)
        << " MiB) does not fit in the free memory of CUDA device " << options.device << " (" << (free_b >> 20)
        << " of " << (total_b >> 20) << " MiB free)";
    FROST_THROW(ExitCode::Device, msg.str());
  }
  m->frames = DeviceBuffer<float>(bytes / sizeof(float));
  m->stats.frame_bytes = bytes;
  m->planner = fft::shared_planner(fft::Backend::Cuda, options.device);
  m->note_memory();
  m->stats.context_ms = ms_since(start);
  return m;
}

} // namespace

void CudaMovie::prepare_device(int device) {
  const int devices = cuda_device_count();
  if (device < 0 || device >= devices)
    FROST_THROW(ExitCode::Device, "CUDA device " + std::to_string(device) + " does not exist (" +
                                      std::to_string(devices) + " visible)");
  DeviceGuard guard(device);
  FROST_CUDA_CHECK(cudaFree(nullptr)); // creates the primary context
  fft::shared_planner(fft::Backend::Cuda, device);
}

void CudaMovie::Impl::note_memory() {
  const auto [free_b, total_b] = memory_info();
  stats.peak_used_bytes = std::max(stats.peak_used_bytes, total_b - free_b);
}

std::size_t CudaMovie::Impl::budget() const {
  const auto [free_b, total_b] = memory_info();
  (void)total_b;
  return static_cast<std::size_t>(static_cast<double>(free_b) * std::clamp(options.memory_fraction, 0.05, 1.0));
}

namespace {

/// Runs one of the upload stages on the movie's device and records its wall time.
template <class Upload>
void timed_upload(CudaMovie::Impl& m, Upload upload) {
  DeviceGuard guard(m.options.device);
  const auto t = std::chrono::steady_clock::now();
  upload();
  m.stats.upload_ms = ms_since(t);
}

} // namespace

CudaMovie::CudaMovie(int count, motion::Size2 size, int first_frame, const FrameProducer& produce,
                     const CudaMotionOptions& options)
    : impl_(make_impl(count, size, first_frame, options)) {
  timed_upload(*impl_, [&] { impl_->upload(produce); });
}

CudaMovie::CudaMovie(int count, motion::Size2 size, int first_frame, const StoredFrameSource& source,
                     const CudaMotionOptions& options)
    : impl_(make_impl(count, size, first_frame, options)) {
  timed_upload(*impl_, [&] { impl_->upload_stored(source); });
}

CudaMovie::CudaMovie(int count, motion::Size2 size, int first_frame, const EerFrameSource& source,
                     const CudaMotionOptions& options)
    : impl_(make_impl(count, size, first_frame, options)) {
  timed_upload(*impl_, [&] { impl_->upload_eer(source); });
}

CudaMovie::CudaMovie(const std::vector<View<const float>>& frames, int first_frame, const CudaMotionOptions& options)
    : impl_(make_impl(static_cast<int>(frames.size()),
                      frames.empty() ? motion::Size2{} : motion::Size2{frames[0].shape.x, frames[0].shape.y},
                      first_frame, options)) {
  for (std::size_t t = 0; t < frames.size(); ++t)
    if (frames[t].shape.x != frames[0].shape.x || frames[t].shape.y != frames[0].shape.y || frames[t].shape.z != 1)
      throw_usage_error("frame " + std::to_string(t) + " is " + to_string(frames[t].shape) + ", expected " +
                        to_string(frames[0].shape));
  const std::size_t bytes = static_cast<std::size_t>(impl_->pixels()) * sizeof(float);
  timed_upload(*impl_, [&] {
    impl_->upload([&](int i, float* dst) { std::memcpy(dst, frames[static_cast<std::size_t>(i)].data, bytes); });
  });
}

CudaMovie::~CudaMovie() {
  if (impl_) cudaSetDevice(impl_->options.device); // buffers are freed on their device
}

int CudaMovie::frame_count() const { return impl_->count; }
motion::Size2 CudaMovie::frame_size() const { return impl_->size; }
const CudaMotionStats& CudaMovie::stats() const { return impl_->stats; }

std::string CudaMovie::describe() const {
  cudaDeviceProp p{};
  FROST_CUDA_CHECK(cudaGetDeviceProperties(&p, impl_->options.device));
  std::ostringstream o;
  o << "cuda:" << impl_->options.device << " " << p.name << " (cc " << p.major << "." << p.minor << ")";
  return o.str();
}

Image<float> CudaMovie::download_frames() const {
  DeviceGuard guard(impl_->options.device);
  Image<float> out(Shape::image(impl_->size.x, impl_->size.y, impl_->count));
  impl_->frames.download_async(out.data(), static_cast<std::size_t>(out.size()), impl_->stream.get());
  impl_->stream.synchronize();
  return out;
}

Image<fft::Complex> CudaMovie::spectra(const motion::WorkingSizes& sizes, View<const float> filter) {
  Impl& m = *impl_;
  DeviceGuard guard(m.options.device);
  const auto t = std::chrono::steady_clock::now();
  FROST_EXPECTS(sizes.frame.x == m.size.x && sizes.frame.y == m.size.y, "spectra: sizes are not the movie's");
  const index_t cx = sizes.correlation.x, cy = sizes.correlation.y;
  Image<fft::Complex> out(Shape::image(cx / 2 + 1, cy, m.count));
  DeviceBuffer<cufftComplex> d(static_cast<std::size_t>(out.size()));
  const DeviceBuffer<float> d_filter = upload_filter(filter, m.stream.get());
  device_spectra(m, m.frames.data(), m.size.x, m.size.y, m.count, sizes, d_filter.data(), d.data(),
                 spectra_batch(m, sizes, m.count));
  d.download_async(reinterpret_cast<cufftComplex*>(out.data()), d.size(), m.stream.get());
  m.stream.synchronize();
  m.stats.spectra_ms += ms_since(t);
  return out;
}

std::vector<motion::PairMeasurement> CudaMovie::measure_pairs(const motion::WorkingSizes& sizes,
                                                              View<const float> filter,
                                                              const std::vector<motion::FramePair>& pairs,
                                                              const motion::CorrelationOptions& options) {
  Impl& m = *impl_;
  DeviceGuard guard(m.options.device);
  FROST_EXPECTS(sizes.frame.x == m.size.x && sizes.frame.y == m.size.y, "measure_pairs: sizes are not the movie's");
  for (const motion::FramePair& p : pairs)
    FROST_EXPECTS(p.i >= 0 && p.i < p.j && p.j < m.count, "pair outside the frame range");
  auto t = std::chrono::steady_clock::now();
  const index_t per = (sizes.correlation.x / 2 + 1) * sizes.correlation.y;
  // The cropped spectra stay on the device (Falcon at C = 960: 148 MB for 40 frames).
  DeviceBuffer<cufftComplex> d(static_cast<std::size_t>(per) * static_cast<std::size_t>(m.count));
  const DeviceBuffer<float> d_filter = upload_filter(filter, m.stream.get());
  device_spectra(m, m.frames.data(), m.size.x, m.size.y, m.count, sizes, d_filter.data(), d.data(),
                 spectra_batch(m, sizes, m.count));
  m.stats.spectra_ms += ms_since(t);
  t = std::chrono::steady_clock::now();
  std::vector<int2> items(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) items[k] = {pairs[k].i, pairs[k].j};
  const std::vector<motion::PeakWindow> windows = device_correlate(m, d.data(), sizes, items, options.search_radius);
  std::vector<motion::PairMeasurement> out(pairs.size());
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(pairs.size()); ++k)
    out[static_cast<std::size_t>(k)] =
        measurement_from(windows[static_cast<std::size_t>(k)], pairs[static_cast<std::size_t>(k)], sizes, options);
  m.stats.correlate_ms += ms_since(t);
  return out;
}

} // namespace frost::cuda
