#pragma once
// The AVX2 copy of the CPU gather (docs/reconstruct_fourier.md#the-cpu-gather-kernel): float
// builds on x86-64 only; elsewhere available() is false and the other two are never called.
#include "frost/reconstruction/cpu_gather.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_avx2 {

/// True when this build has the AVX2 code and the processor runs it (AVX2 and FMA).
bool available();

void gather_space_box(const TraverseSpace& ts, const SampleView& s, const BlobTableView& table, Real radius,
                      const VoxelBox& box, const CpuGridSink& sink);

bool window_taps(const Cf* F, const Real* gw, int fx, Real u, Real v, Real w, int i0, int j0, Real r2,
                 const BlobTableView& table, Real& gr, Real& gi, Real& ws, int rows);

} // namespace cpu_avx2
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
