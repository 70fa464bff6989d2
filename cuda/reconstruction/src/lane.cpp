#include "lane.hpp"

#include <climits>
#include <string>

#include "frost/core/error.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/fft/planner.hpp"
#include "host_timing.hpp"
#include "memory_plan.hpp"
#include "prepare_kernel.hpp"

namespace frost::cuda::detail {

void Lane::harvest(int k) {
  if (!pending[k]) return;
  counters.kernel_ms += stop[k].elapsed_ms_since(start[k]);
  pending[k] = false;
}

void Lane::reserve(const recon::SampleBatch& batch, const recon::GridLayout& layout, int device_id) {
  const std::size_t pixels = batch.pixels() * static_cast<std::size_t>(batch.capacity());
  const std::size_t space_count = static_cast<std::size_t>(batch.capacity()) * batch.symmetries();
  const bool need_gw = batch.has_gw();
  if (batch.holds_images()) reserve_fft(batch, layout, device_id);
  if (spectra.size() >= pixels && spaces.size() >= space_count && (!need_gw || gw.size() >= pixels)) return;
  // gather.hpp indexes a batch's pixels with int.
  if (pixels > static_cast<std::size_t>(INT_MAX))
    FROST_THROW(ExitCode::Usage, "CUDA reconstruction: a batch of " + std::to_string(batch.capacity()) +
                                     " images of " + std::to_string(batch.pixels()) +
                                     " samples is too large; use a smaller --bufferSize");
  const std::size_t bytes = pixels * (sizeof(recon::Cf) + (need_gw ? sizeof(float) : 0)) +
                            space_count * sizeof(recon::TraverseSpace);
  stream.synchronize(); // a running kernel may still read the old buffers
  spectra = DeviceBuffer<recon::Cf>();
  gw = DeviceBuffer<float>();
  spaces = DeviceBuffer<recon::TraverseSpace>();
  check_batch_fits(device_id, bytes, batch.capacity());
  spectra = DeviceBuffer<recon::Cf>(pixels);
  if (need_gw) gw = DeviceBuffer<float>(pixels);
  spaces = DeviceBuffer<recon::TraverseSpace>(space_count);
}

void Lane::reserve_fft(const recon::SampleBatch& batch, const recon::GridLayout& layout, int device_id) {
  const int cap = batch.capacity();
  if (fft_capacity >= cap && (!batch.has_gw() || gf.size() >= batch.pixels() * static_cast<std::size_t>(cap)))
    return;
  const int P = layout.padded;
  const std::size_t image_px = batch.image_pixels() * static_cast<std::size_t>(cap);
  const std::size_t padded_px = std::size_t(P) * P * static_cast<std::size_t>(cap);
  const std::size_t freq_px = std::size_t(P) * (P / 2 + 1) * static_cast<std::size_t>(cap);
  const std::size_t bytes = image_px * sizeof(float) + padded_px * sizeof(float) + freq_px * sizeof(recon::Cf) +
                            (batch.has_gw() ? batch.pixels() * cap * sizeof(float) : 0);
  stream.synchronize(); // a running kernel may still read the old buffers
  raw = DeviceBuffer<float>();
  padded = DeviceBuffer<float>();
  freq = DeviceBuffer<recon::Cf>();
  gf = DeviceBuffer<float>();
  check_fft_batch_fits(device_id, bytes, cap, P);
  raw = DeviceBuffer<float>(image_px);
  padded = DeviceBuffer<float>(padded_px);
  freq = DeviceBuffer<recon::Cf>(freq_px);
  shifts = DeviceBuffer<double>(2 * static_cast<std::size_t>(cap));
  if (batch.has_gw()) gf = DeviceBuffer<float>(batch.pixels() * static_cast<std::size_t>(cap));
  r2c = fft::shared_planner(fft::Backend::Cuda, device_id)->plan(fft::FftSpec::r2c(Shape{P, P, 1, cap}));
  fft_capacity = cap;
}

double Lane::upload(const recon::SampleBatch& batch) {
  const cudaStream_t s = stream.get();
  const std::size_t pixels = batch.pixels() * static_cast<std::size_t>(batch.size());
  const int space_count = batch.space_count();
  double bytes = 0;
  if (batch.holds_images()) {
    const std::size_t image_px = batch.image_pixels() * static_cast<std::size_t>(batch.size());
    raw.upload_async(batch.images_data(), image_px, s);
    shifts.upload_async(batch.shifts_data(), 2 * static_cast<std::size_t>(batch.size()), s);
    if (batch.has_gw()) gf.upload_async(batch.gf_data(), pixels, s);
    bytes += double(image_px) * sizeof(float) + 2.0 * batch.size() * sizeof(double) +
             (batch.has_gw() ? double(pixels) * sizeof(float) : 0.0);
  } else {
    spectra.upload_async(reinterpret_cast<const recon::Cf*>(batch.spectra_data()), pixels, s);
    bytes += double(pixels) * sizeof(recon::Cf);
  }
  if (batch.has_gw()) gw.upload_async(batch.gw_data(), pixels, s);
  spaces.upload_async(batch.spaces(), static_cast<std::size_t>(space_count), s);
  bytes += (batch.has_gw() ? double(pixels) * sizeof(float) : 0.0) + double(space_count) * sizeof(recon::TraverseSpace);
  copied.record(s);
  return bytes;
}

void Lane::prepare_images(int count, bool with_gf, const recon::GridLayout& layout) {
  const cudaStream_t s = stream.get();
  const int P = layout.padded;
  launch_pad_images(raw.data(), count, layout.box, P, padded.data(), s);
  // The plan transforms the lane's whole capacity; slots past `count` hold stale inputs that
  // nothing reads.
  r2c.execute(padded.data(), freq.data(), on_stream(s));
  CropArgs c;
  c.count = count;
  c.P = P;
  c.fx = layout.fx;
  c.fy = layout.fy;
  c.M = layout.M;
  c.limit = layout.max_frequency_sq();
  launch_crop_spectra(freq.data(), shifts.data(), with_gf ? gf.data() : nullptr, c, spectra.data(), s);
}

void Lane::wait_for_copies() {
  const auto t0 = Clock::now();
  copied.synchronize();
  counters.wait_s += seconds_since(t0);
}

void Lane::release_batch_buffers() {
  spectra = DeviceBuffer<recon::Cf>();
  gw = DeviceBuffer<float>();
  spaces = DeviceBuffer<recon::TraverseSpace>();
  raw = DeviceBuffer<float>();
  padded = DeviceBuffer<float>();
  gf = DeviceBuffer<float>();
  freq = DeviceBuffer<recon::Cf>();
  shifts = DeviceBuffer<double>();
  fft_capacity = 0;
}

} // namespace frost::cuda::detail
