// The CPU's precise table gather: dispatch, the portable 4 x 4 window and the box walk
// (docs/reconstruct_fourier.md#the-cpu-gather-kernel).
#include "frost/reconstruction/cpu_gather.hpp"

#include <cstdlib>
#include <cstring>

#include "cpu_gather_avx2.hpp"
#include "cpu_gather_walk.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

/// The `rows` x 4 window without branches: out-of-reach taps weigh 0. The taps are added in the
/// order of gather_taps and a zero weight adds an exact zero, so the sums equal gather_taps' sums.
struct BlockWindow {
  bool operator()(const Cf* F, const Real* gw, int fx, Real u, Real v, Real w, int i0, int j0, Real r2,
                  const BlobTableView& t, Real& gr, Real& gi, Real& ws, int rows) const {
    Real du2[4], dvw[4];
    for (int q = 0; q < 4; ++q) {
      const Real du = u - static_cast<Real>(j0 + q);
      du2[q] = du * du;
    }
    for (int r = 0; r < rows; ++r) {
      const Real dv = v - static_cast<Real>(i0 + r);
      dvw[r] = dv * dv + w * w;
    }
    const Real lim = r2 < t.radius2 ? r2 : t.radius2;
    Real sr = 0, si = 0, sw = 0;
    for (int r = 0; r < rows; ++r) {
      const Cf* row = F + r * fx;
      const Real* grow = gw ? gw + r * fx : nullptr;
      for (int q = 0; q < 4; ++q) {
        const Real d2 = du2[q] + dvw[r];
        int i = static_cast<int>(d2 * t.inv_step + Real(0.5));
        i = i < t.size ? i : t.size - 1;
        const Real k = d2 <= lim ? t.data[i] : Real(0);
        sr += k * row[q].re;
        si += k * row[q].im;
        sw += grow ? k * grow[q] : k;
      }
    }
    gr = sr;
    gi = si;
    ws = sw;
    return sw != Real(0);
  }
};

/// gather_taps for every voxel (the GPU's tap loop).
struct SharedTaps {
  const SampleView& s;
  const TraverseSpace& ts;
  BlobTableView table;
  Real radius;
  bool operator()(Real u, Real v, Real w, Real& gr, Real& gi, Real& ws) const {
    return gather_taps<0>(ts, u, v, w, s, radius, TableWeight{table}, gr, gi, ws);
  }
};

bool avx2_usable() {
  if constexpr (sizeof(Real) != sizeof(float)) return false;
  return cpu_avx2::available();
}

} // namespace

CpuTapKernel default_cpu_tap_kernel() {
  static const CpuTapKernel chosen = [] {
    const char* env = std::getenv("FROST_CPU_GATHER");
    if (env && std::strcmp(env, "shared") == 0) return CpuTapKernel::Shared;
    if (env && std::strcmp(env, "block") == 0) return CpuTapKernel::Block;
    return avx2_usable() ? CpuTapKernel::Avx2 : CpuTapKernel::Block;
  }();
  return chosen;
}

const char* cpu_tap_kernel_name(CpuTapKernel k) {
  switch (k) {
  case CpuTapKernel::Shared: return "shared";
  case CpuTapKernel::Block: return "block";
  case CpuTapKernel::Avx2: return "avx2";
  }
  return "?";
}

bool space_touches_box(const TraverseSpace& ts, const SampleView& s, Real radius, const VoxelBox& box) {
  const double half = 0.5 * s.M;
  double c[3], e[3];
  for (int d = 0; d < 3; ++d) {
    c[d] = 0.5 * (box.lo[d] + box.hi[d]) - half;
    e[d] = 0.5 * (box.hi[d] - box.lo[d]);
  }
  if (box.hi[0] < ts.min_x || box.lo[0] > ts.max_x || box.hi[1] < ts.min_y || box.lo[1] > ts.max_y ||
      box.hi[2] < ts.min_z || box.lo[2] > ts.max_z)
    return false;
  const auto& T = ts.transform_inv.m;
  // Distance of the box centre to the slice plane against the box's extent along the normal.
  const double w = double(T[2][0]) * c[0] + double(T[2][1]) * c[1] + double(T[2][2]) * c[2];
  const double reach = std::abs(double(T[2][0])) * e[0] + std::abs(double(T[2][1])) * e[1] +
                       std::abs(double(T[2][2])) * e[2];
  if (std::abs(w) > reach + radius + cpu_walk::kMarginLength) return false;
  // Behind the half-plane: u = row 0 of T.
  const double u = double(T[0][0]) * c[0] + double(T[0][1]) * c[1] + double(T[0][2]) * c[2];
  const double ureach = std::abs(double(T[0][0])) * e[0] + std::abs(double(T[0][1])) * e[1] +
                        std::abs(double(T[0][2])) * e[2];
  if (u + ureach < -radius - cpu_walk::kMarginLength) return false;
  // Outside the sphere: nearest point of the box to the centre.
  double near2 = 0;
  for (int d = 0; d < 3; ++d) {
    const double o = std::max(0.0, std::abs(c[d]) - e[d]);
    near2 += o * o;
  }
  return near2 <= double(ts.max_distance_sqr) + cpu_walk::kMarginSquare;
}

void gather_space_box(const TraverseSpace& ts, const SampleView& s, const BlobTableView& table, Real radius,
                      const VoxelBox& box, const CpuGridSink& sink, CpuTapKernel kernel) {
  if (kernel == CpuTapKernel::Avx2 && avx2_usable()) {
    cpu_avx2::gather_space_box(ts, s, table, radius, box, sink);
    return;
  }
  if (kernel == CpuTapKernel::Shared) {
    cpu_walk::walk_box(ts, s, radius, box, sink, cpu_walk::ScalarColumn{}, SharedTaps{s, ts, table, radius});
    return;
  }
  const cpu_walk::WindowOrShared<BlockWindow> taps{s, ts, table, radius, radius * radius, cpu_walk::window_fits(s, radius), {},
                                                    cpu_walk::window_rows(radius)};
  cpu_walk::walk_box(ts, s, radius, box, sink, cpu_walk::ScalarColumn{}, taps);
}

namespace detail {
bool window_taps(CpuTapKernel kernel, const Cf* F, const Real* gw, int fx, Real u, Real v, Real w, int i0, int j0,
                 Real r2, const BlobTableView& table, Real& gr, Real& gi, Real& ws, int rows) {
  if (kernel == CpuTapKernel::Avx2 && avx2_usable())
    return cpu_avx2::window_taps(F, gw, fx, u, v, w, i0, j0, r2, table, gr, gi, ws, rows);
  return BlockWindow{}(F, gw, fx, u, v, w, i0, j0, r2, table, gr, gi, ws, rows);
}
} // namespace detail

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
