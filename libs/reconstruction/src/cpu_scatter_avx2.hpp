#pragma once
// The AVX2 + FMA compilation of the CPU scatter walk (cpu_scatter_avx2.cpp); callers check
// cpu_avx2::available() first.
#include "frost/reconstruction/cpu_gather.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/scatter.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_avx2 {
void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const WindowTableView& table,
                       const VoxelBox& box,
                       const CpuGridSink& sink);
void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const DynamicWeight& dynamic, Real radius,
                       const VoxelBox& box,
                       const CpuGridSink& sink);
} // namespace cpu_avx2
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
