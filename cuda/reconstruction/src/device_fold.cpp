#include "device_fold.hpp"

#include "frost/cuda/check.hpp"
#include "insert_kernel.hpp"

namespace frost::cuda::detail {
namespace {

FoldArgs fold_args(const DeviceState& device, int g, const AccumulatorSpec& spec) {
  FoldArgs args;
  args.g = device.g[static_cast<std::size_t>(g)].data();
  args.w = device.w[static_cast<std::size_t>(g)].data();
  args.M = spec.layout.M;
  if (spec.settings.fast) {
    args.taps = device.taps.data();
    args.tap_count = static_cast<int>(device.taps.size());
  }
  return args;
}

/// The producer of PlaneDownload::to_host for a kernel whose arguments `Args` carry the planes
/// [z0, z0 + nz) and the output: `args` with those set, launched by `launch`.
template <class Args>
PlaneDownload::Produce planes_of(const Args& args, void (*launch)(const Args&, cudaStream_t)) {
  return [args, launch](int z0, int nz, float* dst, cudaStream_t stream) {
    Args a = args;
    a.z0 = z0;
    a.nz = nz;
    a.out = dst;
    launch(a, stream);
  };
}

/// The remaining cube folded into the device's double half grid (after periodic folds).
void fold_rest(DeviceState& device, int g, const AccumulatorSpec& spec) {
  Stream stream;
  launch_fold_add(fold_args(device, g, spec), device.folded[static_cast<std::size_t>(g)].data(), stream.get());
  stream.synchronize();
}

} // namespace

void fold_into_device_half(DeviceState& device, int g, const AccumulatorSpec& spec) {
  DeviceGuard guard(device.id);
  const std::size_t i = static_cast<std::size_t>(g);
  Stream stream;
  if (device.folded[i].size() == 0) {
    device.folded[i] = DeviceBuffer<double>(3 * static_cast<std::size_t>(spec.layout.half_voxels()));
    device.folded[i].zero_async(stream.get());
  }
  launch_fold_add(fold_args(device, g, spec), device.folded[i].data(), stream.get());
  device.g[i].zero_async(stream.get());
  device.w[i].zero_async(stream.get());
  stream.synchronize();
}

void fold_to_host(DeviceState& device, int g, const AccumulatorSpec& spec, recon::HalfGrid& out,
                  PlaneDownload& download, FinishTimes& times) {
  const std::size_t i = static_cast<std::size_t>(g);
  if (device.folded[i].size() == 0) {
    download.to_host(device.id, spec.layout, out, planes_of(fold_args(device, g, spec), &launch_fold), times);
    return;
  }
  DeviceGuard guard(device.id);
  auto t0 = Clock::now();
  fold_rest(device, g, spec);
  times.download_s += seconds_since(t0);
  const double* half = device.folded[i].data();
  const int M = spec.layout.M;
  download.to_host(device.id, spec.layout, out,
                   [half, M](int z0, int nz, float* dst, cudaStream_t stream) {
                     launch_half_to_float(half, M, z0, nz, dst, stream);
                   },
                   times);
}

void fold_symmetrise_to_host(DeviceState& device, int g, const AccumulatorSpec& spec, recon::HalfGrid& out,
                             const std::vector<recon::Rotation9<double>>& rotations, double max_r2,
                             double* symmetrise_s, PlaneDownload& download, FinishTimes& times) {
  DeviceGuard guard(device.id);
  auto t0 = Clock::now();
  const recon::GridLayout& layout = spec.layout;
  const std::size_t hv = static_cast<std::size_t>(layout.half_voxels());
  const std::size_t i = static_cast<std::size_t>(g);
  DeviceBuffer<float> half;
  if (device.folded[i].size() == 0) {
    half = DeviceBuffer<float>(3 * hv); // (re, im) interleaved, then the weights: launch_fold's layout
    Stream stream;
    FoldArgs a = fold_args(device, g, spec);
    a.z0 = 0;
    a.nz = layout.side();
    a.out = half.data();
    launch_fold(a, stream.get());
    launch_kx0_average(half.data(), half.data() + 2 * hv, layout.M, stream.get());
    stream.synchronize();
  } else {
    // After periodic folds: the rest of the cube joins the double half grid, which is rounded
    // to float once, where the cube alone would have been folded.
    fold_rest(device, g, spec);
    device.release_float_cube(g);
    half = DeviceBuffer<float>(3 * hv);
    Stream stream;
    launch_half_to_float(device.folded[i].data(), layout.M, 0, layout.side(), half.data(), stream.get());
    launch_kx0_average(half.data(), half.data() + 2 * hv, layout.M, stream.get());
    stream.synchronize();
  }
  device.release_cube(g); // folded: its memory goes to the chunk buffers
  DeviceBuffer<recon::Rotation9<double>> rot(rotations.size());
  FROST_CUDA_CHECK(cudaMemcpy(rot.data(), rotations.data(), rotations.size() * sizeof(rotations[0]),
                              cudaMemcpyHostToDevice));
  times.download_s += seconds_since(t0);
  t0 = Clock::now();
  SymmetrisePlanesArgs args;
  args.data = half.data();
  args.weight = half.data() + 2 * hv;
  args.M = layout.M;
  args.rotations = rot.data();
  args.count = static_cast<int>(rotations.size());
  args.max_r2 = max_r2;
  download.to_host(device.id, layout, out, planes_of(args, &launch_symmetrise_planes), times);
  if (symmetrise_s) *symmetrise_s += seconds_since(t0);
}

} // namespace frost::cuda::detail
