#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/reconstruction/accumulator.hpp"
#include "frost/reconstruction/cpu_gather.hpp"
#include "frost/reconstruction/cpu_scatter.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/scatter.hpp"
#include "cpu_space_queue.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

/// Plain adds: within one traverse space a voxel belongs to one column, and the spaces are
/// processed one after the other, so no two threads touch the same voxel at once.
struct HostAdd {
  RealComplex* g;
  Real* w;
  int side;
  void operator()(int x, int y, int z, Real gr, Real gi, Real ws) const {
    const std::size_t i = (std::size_t(z) * side + y) * side + x;
    g[i] += RealComplex(gr, gi);
    w[i] += ws;
  }
};

template <class Weight>
void insert_spaces(const SampleBatch& batch, FullGrid& grid, const ReconstructionSettings& settings,
                   const Weight& weight) {
  const SampleView view = batch.view();
  const HostAdd add{grid.data.data(), grid.weight.data(), grid.side()};
  const Real radius = static_cast<Real>(settings.blob.radius);
  const int spaces = batch.space_count();
  for (int s = 0; s < spaces; ++s) {
    const TraverseSpace& ts = batch.spaces()[s];
    const int a0 = ts.dir == kPlaneYZ ? ts.min_y : ts.min_x;
    const int b0 = ts.dir == kPlaneXY ? ts.min_y : ts.min_z;
    const int na = ts.columns_a(), nb = ts.columns_b();
#pragma omp parallel for schedule(static)
    for (int j = 0; j < nb; ++j)
      for (int i = 0; i < na; ++i) {
        if (settings.fast)
          gather_column_nearest(ts, a0 + i, b0 + j, view, add);
        else
          gather_column(ts, a0 + i, b0 + j, view, radius, weight, add);
      }
  }
}

/// Edge of the cubes the precise table gather walks one at a time (every queued space per cube,
/// so the cube stays in the core's cache: docs/reconstruct_fourier.md#the-cpu-gather-kernel), or
/// of the rows of the scatter's bars; FROST_CPU_BRICK sets both.
int brick_edge(bool separable) {
  static const int chosen = [] {
    const char* env = std::getenv("FROST_CPU_BRICK");
    const int e = env ? std::atoi(env) : 0;
    return e > 0 ? e : 0;
  }();
  // The scatter's bars (docs/reconstruct_fourier.md#the-separable-kernel) are 20 x 20 rows: fewer
  // samples straddle two bars than at 16, and a bar's rows still stay in the caches.
  return chosen > 0 ? chosen : (separable ? 20 : 16);
}

/// The 1-D factor of the separable kernel computed on the fly: the blob formula with the 1-D
/// normalisation of `windows`.
DynamicWeight separable_dynamic_weight(const BlobParams& p, const WindowTable& windows) {
  DynamicWeight w;
  w.inv_radius2 = static_cast<float>(1.0 / (p.radius * p.radius));
  w.alpha = static_cast<float>(p.alpha);
  w.order = p.order;
  w.scale = static_cast<float>(windows.scale() / bessel_i(p.order, p.alpha));
  return w;
}

/// The separable kernel's window table for `settings` (any radius: the window follows it).
WindowTable separable_windows(const ReconstructionSettings& settings) {
  return WindowTable(settings.blob, scatter_window(static_cast<Real>(settings.blob.radius)));
}

/// The precise modes on the CPU: bricks spread over the threads, each brick taking the spaces in
/// batch order, so every voxel sums its contributions in the same order for any thread count.
/// The blob gathers per voxel (`table`); the separable kernel scatters per sample (`windows`).
void insert_bricks(const SampleView& view, const TraverseSpace* ts, int spaces, FullGrid& grid,
                   const ReconstructionSettings& settings, const BlobTable& table, const WindowTable& windows) {
  const CpuGridSink sink{grid.data.data(), grid.weight.data(), grid.side()};
  const BlobTableView tv = table.view();
  const WindowTableView wv = window_table_view(windows);
  const bool separable = settings.kernel == Kernel::Separable;
  const bool dynamic = settings.interp == Interpolation::Dynamic;
  const DynamicWeight dyn = separable_dynamic_weight(settings.blob, windows);
  const Real radius = static_cast<Real>(settings.blob.radius);
  const Real reach = static_cast<Real>(insertion_reach(settings));
  const CpuTapKernel kernel = default_cpu_tap_kernel();
  const int edge = brick_edge(separable);
  const int per_axis = (grid.side() + edge - 1) / edge;
  // The scatter's boxes span the whole x axis (bars of edge x edge rows): a window's x row is
  // then never split between two threads (docs/reconstruct_fourier.md#the-separable-kernel).
  const int per_x = separable ? 1 : per_axis;
  const int boxes = per_x * per_axis * per_axis;
#pragma omp parallel for num_threads(num_threads()) schedule(dynamic, 1)
  for (int q = 0; q < boxes; ++q) {
    VoxelBox box;
    const int idx[3] = {q % per_x, (q / per_x) % per_axis, q / (per_x * per_axis)};
    for (int d = 0; d < 3; ++d) {
      box.lo[d] = idx[d] * edge;
      box.hi[d] = std::min(box.lo[d] + edge - 1, grid.side() - 1);
    }
    if (separable) box.hi[0] = grid.side() - 1;
    for (int s = 0; s < spaces; ++s) {
      if (!space_touches_box(ts[s], view, reach, box)) continue;
      if (!separable)
        gather_space_box(ts[s], view, tv, radius, box, sink, kernel);
      else if (dynamic)
        scatter_space_box(ts[s], view, dyn, radius, box, sink, kernel);
      else
        scatter_space_box(ts[s], view, wv, box, sink, kernel);
    }
  }
}

class CpuAccumulator final : public GridAccumulator {
public:
  CpuAccumulator(const ReconstructionSettings& settings, const GridLayout& layout, int grids)
      : settings_(settings), layout_(layout), table_(settings.blob),
        windows_(separable_windows(settings)) {
    for (int g = 0; g < grids; ++g) {
      grids_.emplace_back(layout);
      folded_.emplace_back();
      since_fold_.push_back(0);
      queues_.emplace_back(getenv("FQ") ? std::size_t(atoi(getenv("FQ"))) << 20 : kQueueBytes);
    }
  }
  int lanes() const override { return 1; }
  void insert(const SampleBatch& batch, int grid, int /*lane*/) override {
    FROST_EXPECTS(grid >= 0 && grid < static_cast<int>(grids_.size()), "grid >= 0 && grid < static_cast<int>(grids_.size())");
    if (!bricked()) {
      insert_batch_cpu(batch, grids_[grid], settings_, table_);
    } else {
      CpuSpaceQueue& q = queues_[grid];
      q.append(batch);
      if (q.full()) flush(grid);
    }
    since_fold_[grid] += batch.space_count();
    if (fold_period_ > 0 && since_fold_[grid] >= fold_period_) fold_periodically(grid);
  }
  void finish(std::vector<HalfGrid>& out) override {
    FROST_EXPECTS(out.size() == grids_.size(), "out.size() == grids_.size()");
    for (std::size_t g = 0; g < grids_.size(); ++g) {
      flush(static_cast<int>(g));
      fold_cube(static_cast<int>(g), out[g]);
      if (folded_[g].M > 0) out[g] += folded_[g];
      grids_[g] = FullGrid(); // release the cube
      folded_[g] = HalfGrid();
    }
  }
  std::string describe() const override {
    std::ostringstream os;
    os << "cpu, " << num_threads() << " threads";
    if (bricked())
      os << ", " << cpu_tap_kernel_name(default_cpu_tap_kernel())
         << (settings_.kernel == Kernel::Separable ? " separable scatter" : " gather");
    return os.str();
  }

private:
  /// Spectra held back per grid before a brick pass (docs/reconstruct_fourier.md#the-cpu-gather-kernel).
  static constexpr std::size_t kQueueBytes = std::size_t(64) << 20;
  bool bricked() const {
    return !settings_.fast && (settings_.interp == Interpolation::Lookup || settings_.kernel == Kernel::Separable);
  }
  /// Adds the (fast mode: blob-convolved) fold of the cube into `into`.
  void fold_cube(int grid, HalfGrid& into) {
    if (settings_.fast) convolve_with_blob(grids_[grid], table_);
    fold_into(grids_[grid], into);
  }
  /// The periodic fold (docs/reconstruct_fourier.md#long-sums): the cube joins the double half
  /// grid and starts again from zero.
  void fold_periodically(int grid) {
    flush(grid);
    if (folded_[grid].M == 0) folded_[grid] = HalfGrid(layout_);
    fold_cube(grid, folded_[grid]);
    grids_[grid].clear();
    since_fold_[grid] = 0;
  }
  void flush(int grid) {
    CpuSpaceQueue& q = queues_[grid];
    if (q.empty()) return;
    insert_bricks(q.view(), q.spaces().data(), static_cast<int>(q.spaces().size()), grids_[grid], settings_, table_,
                  windows_);
    q.clear();
  }

  ReconstructionSettings settings_;
  GridLayout layout_;
  BlobTable table_;
  WindowTable windows_; ///< the separable kernel's window factors
  std::vector<FullGrid> grids_;
  std::vector<HalfGrid> folded_;          ///< per grid: the periodic folds' sum (M = 0 until the first)
  std::vector<std::int64_t> since_fold_;  ///< per grid: spaces inserted since the last fold
  std::vector<CpuSpaceQueue> queues_;
};

} // namespace

void insert_batch_cpu(const SampleBatch& batch, FullGrid& grid, const ReconstructionSettings& settings,
                      const BlobTable& table) {
  if (!settings.fast && (settings.interp == Interpolation::Lookup || settings.kernel == Kernel::Separable)) {
    insert_bricks(batch.view(), batch.spaces(), batch.space_count(), grid, settings, table,
                  separable_windows(settings));
  } else if (settings.fast) {
    insert_spaces(batch, grid, settings, TableWeight{table.view()});
  } else {
    const BlobParams& p = settings.blob;
    DynamicWeight w;
    w.inv_radius2 = static_cast<float>(1.0 / (p.radius * p.radius));
    w.alpha = static_cast<float>(p.alpha);
    w.order = p.order;
    w.scale = static_cast<float>(table.scale() / bessel_i(p.order, p.alpha));
    insert_spaces(batch, grid, settings, w);
  }
}

void GridAccumulator::finish_symmetrised(std::vector<HalfGrid>& out, const std::vector<Rotation9<double>>& rotations,
                                         double max_r2, double* symmetrise_s) {
  finish(out);
  if (rotations.size() < 2) return;
  const auto t0 = std::chrono::steady_clock::now();
  for (HalfGrid& g : out) symmetrise(g, rotations, max_r2);
  if (symmetrise_s) *symmetrise_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::unique_ptr<GridAccumulator> make_cpu_accumulator(const ReconstructionSettings& settings,
                                                      const GridLayout& layout, int grids) {
  return std::make_unique<CpuAccumulator>(settings, layout, grids);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
