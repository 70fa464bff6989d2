// The local stage on the device (docs/movie_align.md#patch-stacks-and-the-rounding-correction;
// "Patches" in docs/movie_align.md#the-cuda-backend): batches of patch stacks built from the
// resident frames, their spectra and all their pair correlations in the same batched code as the
// frames'; the per-patch robust solve stays on the host.
#include <algorithm>
#include <chrono>
#include <cstdint>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "motion_kernels.hpp"
#include "movie_state.hpp"

namespace frost::cuda {

namespace {

int patch_batch(const CudaMovie::Impl& m, int patch_size, const motion::WorkingSizes& sizes, int patches) {
  if (m.options.patch_batch > 0) return std::min(m.options.patch_batch, patches);
  const auto p = static_cast<std::size_t>(patch_size);
  const auto n = static_cast<std::size_t>(m.count);
  const auto half = static_cast<std::size_t>((sizes.correlation.x / 2 + 1) * sizes.correlation.y);
  // Stack + its full half spectra (R2C batch of all its frames) + cropped spectra, per patch.
  const std::size_t per = n * (p * p * 4 + (p / 2 + 1) * p * 8 * 2 + half * 8);
  const auto fit = static_cast<int>(std::max<std::size_t>(1, m.budget() / 2 / per));
  return balanced_batch(std::max(1, std::min(fit, patches)), patches);
}

} // namespace

std::vector<std::vector<motion::PairMeasurement>> CudaMovie::measure_patches(
    const motion::PatchOffsets& offsets, const std::vector<motion::PatchCorner>& corners, int patch_size,
    const motion::WorkingSizes& sizes, View<const float> filter, const std::vector<motion::FramePair>& pairs,
    const motion::CorrelationOptions& options) {
  Impl& m = *impl_;
  DeviceGuard guard(m.options.device);
  const auto t_start = std::chrono::steady_clock::now();
  const int n = m.count, count = static_cast<int>(corners.size());
  const index_t p = patch_size;
  FROST_EXPECTS(offsets.x.size() == static_cast<std::size_t>(n) && offsets.y.size() == offsets.x.size(),
                "measure_patches: one offset per frame");
  FROST_EXPECTS(sizes.frame.x == p && sizes.frame.y == p, "measure_patches: sizes are not the patch's");
  for (const motion::FramePair& pr : pairs)
    FROST_EXPECTS(pr.i >= 0 && pr.i < pr.j && pr.j < n, "pair outside the frame range");
  std::vector<std::vector<motion::PairMeasurement>> out(corners.size());
  if (count == 0) return out;

  std::vector<int2> host_offsets(static_cast<std::size_t>(n)), host_corners(corners.size());
  for (int f = 0; f < n; ++f)
    host_offsets[static_cast<std::size_t>(f)] = {offsets.x[static_cast<std::size_t>(f)], offsets.y[static_cast<std::size_t>(f)]};
  for (std::size_t k = 0; k < corners.size(); ++k) host_corners[k] = {corners[k].x, corners[k].y};
  DeviceBuffer<int2> d_offsets(host_offsets.size()), d_corners(host_corners.size());
  d_offsets.upload_async(host_offsets.data(), host_offsets.size(), m.stream.get());
  d_corners.upload_async(host_corners.data(), host_corners.size(), m.stream.get());
  const DeviceBuffer<float> d_filter = upload_filter(filter, m.stream.get());

  const int batch = patch_batch(m, patch_size, sizes, count);
  const index_t per_spectrum = (sizes.correlation.x / 2 + 1) * sizes.correlation.y;
  DeviceBuffer<float> stacks(static_cast<std::size_t>(batch) * n * p * p);
  DeviceBuffer<cufftComplex> spectra(static_cast<std::size_t>(batch) * n * per_spectrum);
  std::vector<int2> item_pairs;
  for (int k0 = 0; k0 < count; k0 += batch) {
    const int b = std::min(batch, count - k0);
    motion_kernels::fill_patch_stacks(m.frames.data(), m.size.x, m.size.y, n, d_offsets.data(), offsets.average,
                                      d_corners.data() + k0, b, p, stacks.data(), m.stream.get());
    device_spectra(m, stacks.data(), p, p, b * n, sizes, d_filter.data(), spectra.data(), b * n);
    // Pairs of every patch of the batch, patch by patch: item k·N + i is frame i of patch k.
    item_pairs.clear();
    for (int k = 0; k < b; ++k)
      for (const motion::FramePair& pr : pairs) item_pairs.push_back({k * n + pr.i, k * n + pr.j});
    const std::vector<motion::PeakWindow> windows =
        device_correlate(m, spectra.data(), sizes, item_pairs, options.search_radius);
    // The host's sub-pixel refinement of every peak (independent per pair: any thread count
    // gives the same results).
    for (int k = 0; k < b; ++k) out[static_cast<std::size_t>(k0 + k)].resize(pairs.size());
    const auto per_patch = static_cast<std::int64_t>(pairs.size());
#pragma omp parallel for num_threads(num_threads()) schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(b) * per_patch; ++i) {
      const auto k = static_cast<std::size_t>(i / per_patch), q = static_cast<std::size_t>(i % per_patch);
      out[static_cast<std::size_t>(k0) + k][q] =
          measurement_from(windows[static_cast<std::size_t>(i)], pairs[q], sizes, options);
    }
  }
  m.stream.synchronize();
  m.stats.patches_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t_start).count();
  return out;
}

} // namespace frost::cuda
