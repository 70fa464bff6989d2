#include "staged_batch.hpp"

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/insert_tuning.hpp"
#include "frost/cuda/tuning.hpp"

namespace frost::cuda::detail {

void StagedBatch::stage(const recon::SampleBatch& batch) {
  FROST_EXPECTS(!batch.holds_images(), "kernel timing takes a batch of prepared samples");
  Lane& L = acc_.lane(0);
  const DeviceState& D = acc_.device_of(L);
  DeviceGuard guard(D.id);
  L.reserve(batch, acc_.spec().layout, D.id);
  const cudaStream_t s = L.stream.get();
  const std::size_t pixels = batch.pixels() * static_cast<std::size_t>(batch.size());
  L.spectra.upload_async(reinterpret_cast<const recon::Cf*>(batch.spectra_data()), pixels, s);
  if (batch.has_gw()) L.gw.upload_async(batch.gw_data(), pixels, s);
  L.spaces.upload_async(batch.spaces(), static_cast<std::size_t>(batch.space_count()), s);
  args_.clear();
  for (int g = 0; g < acc_.spec().grids; ++g) args_.push_back(acc_.insert_args(L, g, batch));
  L.stream.synchronize();
}

void StagedBatch::launch(const InsertLaunchConfig& config, int grid) {
  FROST_EXPECTS(grid >= 0 && grid < static_cast<int>(args_.size()), "a staged grid");
  validate(config);
  Lane& L = acc_.lane(0);
  DeviceGuard guard(acc_.device_of(L).id);
  launch_insert(config, args_[static_cast<std::size_t>(grid)], L.stream.get());
}

void StagedBatch::zero_grid(int grid) {
  Lane& L = acc_.lane(0);
  DeviceState& D = acc_.device_of(L);
  DeviceGuard guard(D.id);
  auto& g = D.g[static_cast<std::size_t>(grid)];
  auto& w = D.w[static_cast<std::size_t>(grid)];
  FROST_CUDA_CHECK(cudaMemsetAsync(g.data(), 0, g.bytes(), L.stream.get()));
  FROST_CUDA_CHECK(cudaMemsetAsync(w.data(), 0, w.bytes(), L.stream.get()));
}

double StagedBatch::grid_difference(int ref, int out) {
  Lane& L = acc_.lane(0);
  DeviceState& D = acc_.device_of(L);
  DeviceGuard guard(D.id);
  const auto r = static_cast<std::size_t>(ref), o = static_cast<std::size_t>(out);
  const double dg = device_relative_max_difference(D.g[r].data(), D.g[o].data(), D.g[r].size(), L.stream.get());
  const double dw = device_relative_max_difference(D.w[r].data(), D.w[o].data(), D.w[r].size(), L.stream.get());
  return dg > dw ? dg : dw;
}

KernelTiming StagedBatch::time(const recon::SampleBatch& batch, int reps) {
  FROST_EXPECTS(reps >= 1, "reps >= 1");
  KernelTiming t;
  t.reps = reps;
  t.spaces = batch.space_count();
  if (batch.size() == 0) return t;
  stage(batch);
  Lane& L = acc_.lane(0);
  DeviceGuard guard(acc_.device_of(L).id);
  const cudaStream_t s = L.stream.get();
  const InsertLaunchConfig& config = acc_.spec().launch;
  launch(config, 0); // warm-up
  L.start[0].record(s);
  for (int r = 0; r < reps; ++r) launch(config, 0);
  L.stop[0].record(s);
  L.stop[0].synchronize();
  t.ms_per_launch = double(L.stop[0].elapsed_ms_since(L.start[0])) / reps;
  return t;
}

} // namespace frost::cuda::detail

namespace frost::cuda {

KernelTiming time_insert_kernel(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                const recon::SampleBatch& batch, int device, int reps,
                                const InsertLaunchConfig& launch) {
  detail::CudaAccumulator acc(settings, layout, 1, {device}, 1, launch);
  return detail::StagedBatch(acc).time(batch, reps);
}

/// Two grids on one device: 0 holds the reference insertion, 1 is the scratch cube.
struct InsertKernelBench::Impl {
  detail::CudaAccumulator acc;
  detail::StagedBatch staged;
  int spaces = 0;
  LaunchTimer timer; ///< on lane 0's stream; its events are made with `device` current (caller's guard)
  Impl(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout, int device,
       const InsertLaunchConfig& reference)
      : acc(settings, layout, 2, {device}, 1, reference), staged(acc), timer(staged.stream()) {}
};

InsertKernelBench::InsertKernelBench(const recon::ReconstructionSettings& settings, const recon::GridLayout& layout,
                                     const recon::SampleBatch& batch, int device, const InsertLaunchConfig& reference) {
  DeviceGuard guard(device);
  impl_ = std::make_unique<Impl>(settings, layout, device, reference);
  impl_->spaces = batch.space_count();
  impl_->staged.stage(batch);
  impl_->staged.launch(reference, 0);
  FROST_CUDA_CHECK(cudaStreamSynchronize(impl_->staged.stream()));
}

InsertKernelBench::~InsertKernelBench() = default;

int InsertKernelBench::spaces() const { return impl_->spaces; }

double InsertKernelBench::sample_ms(const InsertLaunchConfig& config) {
  DeviceGuard guard(impl_->staged.device());
  return impl_->timer.time_ms([&](cudaStream_t) { impl_->staged.launch(config, 1); });
}

double InsertKernelBench::difference(const InsertLaunchConfig& config) {
  DeviceGuard guard(impl_->staged.device());
  impl_->staged.zero_grid(1);
  impl_->staged.launch(config, 1);
  return impl_->staged.grid_difference(0, 1);
}

} // namespace frost::cuda
