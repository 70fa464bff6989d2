#include "frost/motion/global_alignment.hpp"

#include <limits>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/motion/frame_groups.hpp"
#include "frost/motion/pair_measurer.hpp"
#include "frost/motion/reference_frame.hpp"
#include "frost/motion/shift_solver.hpp"
#include "frost/motion/sum_alignment.hpp"

namespace frost::motion {

namespace {

// The robust solve of docs/movie_align.md#robust-least-squares on measured pairs (everything after
// the correlations).
void solve_pairs(const std::vector<PairMeasurement>& measured, int frames, const GlobalSettings& s,
                 GlobalAlignment& out) {
  const WorkingSizes& sizes = out.sizes;
  SolverOptions so;
  so.outlier_sigma = s.outlier_sigma;
  so.max_rounds = s.outlier_rounds;
  std::vector<PairEquation> eq = pair_equations(measured);
  std::vector<PairExclusion> exclusion(measured.size(), PairExclusion::None);
  for (const PairMeasurement& m : measured) out.edge_pairs += m.peak.edge ? 1 : 0;
  if (s.large_drift_bootstrap) {
    const Vec2 to_correlation{1.0 / sizes.to_processing_x(), 1.0 / sizes.to_processing_y()};
    PairSelection sel = select_pairs_for_large_drift(frames, measured, to_correlation, sizes.search_radius, so);
    exclusion = sel.exclusion;
    for (std::size_t k = 0; k < eq.size(); ++k) eq[k].usable = exclusion[k] == PairExclusion::None;
    out.warnings.insert(out.warnings.end(), sel.warnings.begin(), sel.warnings.end());
  } else if (out.edge_pairs > 0) {
    std::ostringstream w;
    w << out.edge_pairs << " of " << measured.size() << " pair correlation maxima lie on the search-radius boundary "
      << "(--maxShift " << s.max_shift << " A): those frames moved further apart than the search radius and their "
      << "pair shifts are unreliable; enable the large-drift pair selection or raise --maxShift";
    out.warnings.push_back(w.str());
  }

  const SolverResult res = solve_positions(frames, eq, so);
  if (!res.connected)
    out.warnings.push_back("the usable pairs do not link every frame; unlinked frames keep a zero shift "
                           "relative to their group");
  if (res.kept_for_connectivity > 0)
    out.warnings.push_back(std::to_string(res.kept_for_connectivity) +
                           " outlier pair(s) kept because dropping them would disconnect a frame");
  out.positions = res.positions;
  out.outliers = res.outliers;
  out.solver_rounds = res.rounds;
  out.r2_x = res.r2_x;
  out.r2_y = res.r2_y;
  out.residual_rms_x = res.residual_rms_x;
  out.residual_rms_y = res.residual_rms_y;
  out.pairs.resize(measured.size());
  for (std::size_t k = 0; k < measured.size(); ++k) {
    out.pairs[k] = {measured[k], exclusion[k], res.accepted[k] != 0};
    out.excluded_pairs += exclusion[k] != PairExclusion::None ? 1 : 0;
  }
}

void align_sum(View<const fft::Complex> spectra, const GlobalSettings& s, GlobalAlignment& out) {
  SumAlignment sa;
  if (s.sum_group > 1) { // sums of G frames aligned, their shifts interpolated to the frames
    const int n = static_cast<int>(spectra.shape.n);
    const FrameGroups groups = group_frames(n, s.sum_group);
    if (groups.count() < 3)
      throw_usage_error("--group-global " + std::to_string(s.sum_group) + " leaves " + std::to_string(groups.count()) +
                        " group(s) of the " + std::to_string(n) + " frames; the sum mode needs at least 3");
    const Image<fft::Complex> sums = group_spectra(spectra, groups);
    sa = align_to_sum(sums.cview(), out.sizes, s);
    sa.positions = positions_at_frames(sa.positions, groups);
  } else {
    sa = align_to_sum(spectra, out.sizes, s);
  }
  out.positions = sa.positions;
  out.solver_rounds = sa.iterations;
  out.edge_pairs = sa.edge_peaks;
  out.r2_x = out.r2_y = std::numeric_limits<double>::quiet_NaN();
  if (!sa.converged) {
    std::ostringstream w;
    w << "frame-versus-sum alignment stopped after " << sa.iterations << " iterations with an rms increment of "
      << sa.last_rms_increment << " px (--sum-tol " << s.sum_tolerance << ")";
    out.warnings.push_back(w.str());
  }
  if (sa.edge_peaks > 0)
    out.warnings.push_back(std::to_string(sa.edge_peaks) +
                           " frame-versus-sum correlation maxima lay on the search-radius boundary; raise --maxShift");
}

// An explicit --reference index is checked before the work, not after.
void check_reference(int n, const GlobalSettings& settings) {
  if (settings.reference == ReferenceRule::Index)
    choose_reference(std::vector<Vec2>(static_cast<std::size_t>(n)), settings.reference, settings.reference_index);
}

void finish(const GlobalSettings& settings, GlobalAlignment& out) {
  out.reference = choose_reference(out.positions, settings.reference, settings.reference_index);
  out.shifts = shifts_to_apply(out.positions, out.reference);
}

} // namespace

CorrelationOptions correlation_options(const WorkingSizes& sizes, const GlobalSettings& settings) {
  CorrelationOptions co;
  co.search_radius = sizes.search_radius;
  co.subpixel = settings.subpixel;
  co.pair_batch = settings.pair_batch;
  co.frame_window = settings.frame_window;
  return co;
}

GlobalAlignment align_global(PairMeasurer& frames, const GlobalSettings& settings) {
  const int n = frames.frame_count();
  if (n < 3) throw_usage_error("global alignment needs at least 3 frames, got " + std::to_string(n));
  check_reference(n, settings);
  GlobalAlignment out;
  out.mode = settings.mode;
  const Size2 size = frames.frame_size();
  out.sizes = working_sizes(size.x, size.y, settings);
  const Image<float> filter = lowpass_filter(out.sizes);
  if (settings.mode == GlobalMode::Sum) {
    const Image<fft::Complex> spectra = frames.spectra(out.sizes, filter.cview());
    align_sum(spectra.cview(), settings, out);
  } else {
    const std::vector<PairMeasurement> measured = frames.measure_pairs(
        out.sizes, filter.cview(), frame_pairs(n, settings.max_pair_distance), correlation_options(out.sizes, settings));
    solve_pairs(measured, n, settings, out);
  }
  finish(settings, out);
  return out;
}

GlobalAlignment align_measured_pairs(const std::vector<PairMeasurement>& measured, int frames,
                                     const WorkingSizes& sizes, const GlobalSettings& settings) {
  if (frames < 3) throw_usage_error("global alignment needs at least 3 frames, got " + std::to_string(frames));
  check_reference(frames, settings);
  GlobalAlignment out;
  out.mode = GlobalMode::Pairs;
  out.sizes = sizes;
  solve_pairs(measured, frames, settings, out);
  finish(settings, out);
  return out;
}

GlobalAlignment align_global(const std::vector<View<const float>>& frames, const GlobalSettings& settings) {
  HostPairMeasurer host(frames);
  return align_global(host, settings);
}

GlobalAlignment align_global(View<const float> stack, const GlobalSettings& settings) {
  return align_global(stack_frames(stack, "global alignment"), settings);
}

} // namespace frost::motion
