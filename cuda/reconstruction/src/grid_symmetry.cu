// The grid symmetrisation on the GPU (grid_symmetry.hpp, docs/reconstruct_fourier.md#symmetry): the
// folded half grid is uploaded, every voxel takes recon::symmetrised_voxel (grid_symmetry.hpp, the
// code the CPU loop runs) in double, and the result is downloaded over the host grid. One thread
// per voxel, x fastest, so neighbouring threads read neighbouring rotated positions.
#include <string>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/reconstruction.hpp"
#include "frost/reconstruction/grid_symmetry.hpp"
#include "insert_kernel.hpp"

namespace frost::cuda {
namespace {

__global__ void symmetrise_kernel(recon::HalfGridRef<double> in, const recon::Rotation9<double>* __restrict__ rotations,
                                  int count, double max_r2, double* __restrict__ data, double* __restrict__ weight) {
  const int nx = in.M / 2 + 1, side = in.M + 1;
  const long long voxels = static_cast<long long>(nx) * side * side;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < voxels;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int x = static_cast<int>(i % nx);
    const int y = static_cast<int>((i / nx) % side);
    const int z = static_cast<int>(i / (static_cast<long long>(nx) * side));
    double re, im, w;
    recon::symmetrised_voxel(in, rotations, count, max_r2, x, y, z, re, im, w);
    data[2 * i] = re;
    data[2 * i + 1] = im;
    weight[i] = w;
  }
}

__global__ void symmetrise_planes_kernel(recon::HalfGridRef<float> in,
                                         const recon::Rotation9<double>* __restrict__ rotations, int count,
                                         double max_r2, int z0, long long n, float* __restrict__ out) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const int nx = in.M / 2 + 1, side = in.M + 1;
  const int x = static_cast<int>(i % nx);
  const int y = static_cast<int>((i / nx) % side);
  const int z = z0 + static_cast<int>(i / (static_cast<long long>(nx) * side));
  double re, im, w;
  recon::symmetrised_voxel(in, rotations, count, max_r2, x, y, z, re, im, w);
  out[2 * i] = static_cast<float>(re);
  out[2 * i + 1] = static_cast<float>(im);
  out[2 * n + i] = static_cast<float>(w);
}

} // namespace

namespace detail {

void launch_symmetrise_planes(const SymmetrisePlanesArgs& a, cudaStream_t stream) {
  const long long n = static_cast<long long>(a.nz) * (a.M + 1) * (a.M / 2 + 1);
  if (n <= 0) return;
  constexpr int kThreads = 256;
  const long long blocks = (n + kThreads - 1) / kThreads;
  if (blocks > 2147483647LL)
    FROST_THROW(ExitCode::Runtime, "symmetrisation kernel: " + std::to_string(n) + " voxels exceed the launch limits");
  const recon::HalfGridRef<float> in{a.data, a.weight, a.M};
  symmetrise_planes_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, a.rotations, a.count, a.max_r2,
                                                                                   a.z0, n, a.out);
  FROST_CHECK_LAUNCH();
  FROST_SYNC_CHECK(stream);
}

} // namespace detail

void symmetrise_half_grid(recon::HalfGrid& grid, const std::vector<recon::Rotation9<double>>& rot, double max_r2,
                          int device) {
  if (rot.size() < 2) return;
  recon::symmetrise_kx0_plane(grid); // as the CPU path: the storage convention assumes it
  DeviceGuard guard(device);
  const std::size_t voxels = grid.weight.size();
  DeviceBuffer<recon::Rotation9<double>> d_rot(rot.size());
  DeviceBuffer<double> d_in(3 * voxels), d_out(3 * voxels); // data (2 per voxel), then weight
  FROST_CUDA_CHECK(cudaMemcpy(d_rot.data(), rot.data(), rot.size() * sizeof(rot[0]), cudaMemcpyHostToDevice));
  FROST_CUDA_CHECK(cudaMemcpy(d_in.data(), grid.data.data(), 2 * voxels * sizeof(double), cudaMemcpyHostToDevice));
  FROST_CUDA_CHECK(
      cudaMemcpy(d_in.data() + 2 * voxels, grid.weight.data(), voxels * sizeof(double), cudaMemcpyHostToDevice));
  const recon::HalfGridRef<double> in{d_in.data(), d_in.data() + 2 * voxels, grid.M};
  const int threads = 256;
  const long long blocks_needed = (static_cast<long long>(voxels) + threads - 1) / threads;
  const unsigned blocks = static_cast<unsigned>(blocks_needed < 1048576 ? blocks_needed : 1048576);
  symmetrise_kernel<<<blocks, threads>>>(in, d_rot.data(), static_cast<int>(rot.size()), max_r2, d_out.data(),
                                         d_out.data() + 2 * voxels);
  FROST_CHECK_LAUNCH();
  FROST_CUDA_CHECK(cudaDeviceSynchronize());
  FROST_CUDA_CHECK(cudaMemcpy(grid.data.data(), d_out.data(), 2 * voxels * sizeof(double), cudaMemcpyDeviceToHost));
  FROST_CUDA_CHECK(
      cudaMemcpy(grid.weight.data(), d_out.data() + 2 * voxels, voxels * sizeof(double), cudaMemcpyDeviceToHost));
}

} // namespace frost::cuda
