#pragma once
// The finish's download pipeline (docs/reconstruct_fourier.md#the-cuda-backend): half-grid planes
// made on a device come down in chunks through two device and two pinned host buffers and are
// added into the host's double half grid; and the whole-cube download of the test hook.
#include <cuda_runtime.h>

#include <functional>

#include "device_state.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/reconstruction/grid.hpp"
#include "host_timing.hpp"

namespace frost::cuda::detail {

class PlaneDownload {
public:
  /// Enqueues on `stream` a kernel that writes half-grid planes [z0, z0 + nz) into `dst`
  /// (2 n interleaved values, then n weights).
  using Produce = std::function<void(int z0, int nz, float* dst, cudaStream_t stream)>;

  /// Runs `produce` chunk by chunk of whole planes on `device` and adds the chunks into `out`
  /// (double): chunk k + 1 is made and copied while the host adds chunk k.
  void to_host(int device, const recon::GridLayout& layout, recon::HalfGrid& out, const Produce& produce,
               FinishTimes& times);
  /// Frees the pinned staging buffers (kept between calls of to_host).
  void release();

private:
  HostBuffer<float> staging_[2]; ///< pinned chunks of the half grid
};

/// Grid g's cubes on `device` as they are (G as complex values, W), into `into`.
void download_cube(const DeviceState& device, int g, const recon::GridLayout& layout, recon::FullGrid& into);

} // namespace frost::cuda::detail
