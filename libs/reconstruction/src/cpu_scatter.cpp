// The CPU scatter with the separable kernel: dispatch between the reference, the portable walk and
// its AVX2 compilation (docs/reconstruct_fourier.md#the-separable-kernel).
#include "frost/reconstruction/cpu_scatter.hpp"

#include "cpu_gather_avx2.hpp"
#include "cpu_scatter_avx2.hpp"
#include "cpu_scatter_walk.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

/// scatter_sample for every sample of `ts`, keeping the voxels inside `box`.
template <class Window>
void scatter_reference_box(const TraverseSpace& ts, const SampleView& s, const Window& win, const VoxelBox& box,
                           const CpuGridSink& sink) {
  const std::size_t side = static_cast<std::size_t>(sink.side);
  auto add = [&](int x, int y, int z, Real gr, Real gi, Real ws) {
    if (x < box.lo[0] || x > box.hi[0] || y < box.lo[1] || y > box.hi[1] || z < box.lo[2] || z > box.hi[2]) return;
    const std::size_t idx = (std::size_t(z) * side + std::size_t(y)) * side + std::size_t(x);
    sink.g[idx] += RealComplex(gr, gi);
    sink.w[idx] += ws;
  };
  for (int i = 0; i < s.fy; ++i)
    for (int j = 0; j < s.fx; ++j) scatter_sample(ts, j, i, s, win, add);
}

void avx2_walk(const TraverseSpace& ts, const SampleView& s, const TableWindow& win, const VoxelBox& box,
               const CpuGridSink& sink) {
  cpu_avx2::scatter_space_box(ts, s, win.table, box, sink);
}
void avx2_walk(const TraverseSpace& ts, const SampleView& s, const DynamicWindow& win, const VoxelBox& box,
               const CpuGridSink& sink) {
  cpu_avx2::scatter_space_box(ts, s, win.weight, win.size == 3 ? Real(1.5) : Real(2), box, sink);
}

template <class Window>
void dispatch(const TraverseSpace& ts, const SampleView& s, const Window& win, const VoxelBox& box,
              const CpuGridSink& sink, CpuTapKernel kernel) {
  if (kernel == CpuTapKernel::Shared) {
    scatter_reference_box(ts, s, win, box, sink);
  } else if (kernel == CpuTapKernel::Avx2 && sizeof(Real) == sizeof(float) && cpu_avx2::available()) {
    avx2_walk(ts, s, win, box, sink);
  } else {
    cpu_scatter_walk::scatter_box(ts, s, win, box, sink);
  }
}

} // namespace

void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const WindowTableView& table,
                       const VoxelBox& box, const CpuGridSink& sink, CpuTapKernel kernel) {
  dispatch(ts, s, TableWindow{table}, box, sink, kernel);
}

void scatter_space_box(const TraverseSpace& ts, const SampleView& s, const DynamicWeight& dynamic, Real radius,
                       const VoxelBox& box, const CpuGridSink& sink, CpuTapKernel kernel) {
  dispatch(ts, s, DynamicWindow{dynamic, scatter_window(radius)}, box, sink, kernel);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
