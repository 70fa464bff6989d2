#pragma once
/// @file cpu_gather.hpp
/// @brief The CPU's precise table gather (docs/reconstruct_fourier.md#the-cpu-gather-kernel): the
/// same voxels and the same tap weights as gather_column (gather.hpp), computed brick by brick with
/// the 4 x 4 taps of a voxel as one SIMD block. Only the order of the additions inside a voxel
/// differs from the shared per-voxel code.
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/precision.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Which tap code a CPU gather runs.
enum class CpuTapKernel {
  Shared, ///< gather_taps of gather.hpp, tap by tap (the GPU's code)
  Block,  ///< the 4 x 4 window without branches, portable C++
  Avx2    ///< the 4 x 4 window as two AVX2 vectors with a table gather (x86-64 with AVX2 + FMA)
};

/// The fastest kernel this CPU runs: Avx2 where the processor has AVX2 and FMA and Real is float,
/// else Block. FROST_CPU_GATHER=shared|block|avx2 overrides it (an unavailable choice falls back).
CpuTapKernel default_cpu_tap_kernel();
const char* cpu_tap_kernel_name(CpuTapKernel k);

/// Where the sums go: the full cube of side `side` (x fastest).
struct CpuGridSink {
  RealComplex* g = nullptr;
  Real* w = nullptr;
  int side = 0;
};

/// Voxel box [lo, hi] (inclusive) on each axis.
struct VoxelBox {
  int lo[3] = {0, 0, 0};
  int hi[3] = {0, 0, 0};
};

/// @brief The precise gather of `ts` restricted to the voxels of `box`: every voxel that
/// gather_column would visit and that voxel_on_slice accepts gets the kernel-weighted sum of its
/// taps (times the image weight) added to `sink`. Columns are walked only over the part of the
/// line that can pass voxel_on_slice (sphere, slab and half-plane solved per column, with a margin
/// that leaves the decision to voxel_on_slice).
void gather_space_box(const TraverseSpace& ts, const SampleView& s, const BlobTableView& table, Real radius,
                      const VoxelBox& box, const CpuGridSink& sink, CpuTapKernel kernel);

/// True when the slab of `ts` (half-width `radius`) may reach a voxel of `box` (a conservative test).
bool space_touches_box(const TraverseSpace& ts, const SampleView& s, Real radius, const VoxelBox& box);

namespace detail {
/// The tap window of one voxel for kernels Block and Avx2: `rows` (4, or 3 when radius < 1.5)
/// rows from i0 by 4 columns from j0; the sums of gather_taps when the window lies inside the
/// sample (the caller checks it; radius < 2). Exposed for the tests.
bool window_taps(CpuTapKernel kernel, const Cf* F, const Real* gw, int fx, Real u, Real v, Real w, int i0, int j0,
                 Real r2, const BlobTableView& table, Real& gr, Real& gi, Real& ws, int rows = 4);
} // namespace detail

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
