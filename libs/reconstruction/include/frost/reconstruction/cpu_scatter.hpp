#pragma once
/// @file cpu_scatter.hpp
/// @brief The CPU's scatter with the separable kernel (docs/reconstruct_fourier.md#the-separable-kernel):
/// the additions of scatter_sample (scatter.hpp) restricted to one brick of the cube, so that
/// threads owning different bricks never write the same voxel.
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/cpu_gather.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/scatter.hpp"
#include "frost/reconstruction/precision.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// @brief Adds every sample pixel of `ts` into the voxels of `box` its window reaches, with the
/// window factors from `table` (a WindowTable) or computed by `dynamic` for kernel radius
/// `radius` (which sets the window, scatter_window). Kernel
/// Shared runs scatter_sample for every sample and keeps the voxels inside the box (the
/// reference); Block and Avx2 walk only the samples that reach the box, the portable and the
/// AVX2 compilation of one walk.
void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const WindowTableView& table,
                       const VoxelBox& box,
                       const CpuGridSink& sink, CpuTapKernel kernel);
void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const DynamicWeight& dynamic, Real radius,
                       const VoxelBox& box,
                       const CpuGridSink& sink, CpuTapKernel kernel);

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
