#include "frost/motion/global_alignment.hpp"

#include <limits>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/motion/frame_spectra.hpp"
#include "frost/motion/reference_frame.hpp"
#include "frost/motion/shift_solver.hpp"
#include "frost/motion/sum_alignment.hpp"

namespace frost::motion {

namespace {

void align_pairs(View<const fft::Complex> spectra, int frames, const GlobalSettings& s, GlobalAlignment& out) {
  const WorkingSizes& sizes = out.sizes;
  CorrelationOptions co;
  co.search_radius = sizes.search_radius;
  co.subpixel = s.subpixel;
  co.pair_batch = s.pair_batch;
  co.frame_window = s.frame_window;
  const std::vector<PairMeasurement> measured =
      correlate_pairs(spectra, frame_pairs(frames, s.max_pair_distance), sizes, co);

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
  const SumAlignment sa = align_to_sum(spectra, out.sizes, s);
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

} // namespace

GlobalAlignment align_global(const std::vector<View<const float>>& frames, const GlobalSettings& settings) {
  const int n = static_cast<int>(frames.size());
  if (n < 3) throw_usage_error("global alignment needs at least 3 frames, got " + std::to_string(n));
  if (settings.reference == ReferenceRule::Index) // checked before the work, not after
    choose_reference(std::vector<Vec2>(static_cast<std::size_t>(n)), settings.reference, settings.reference_index);
  GlobalAlignment out;
  out.mode = settings.mode;
  out.sizes = working_sizes(frames[0].shape.x, frames[0].shape.y, settings);
  const Image<float> filter = lowpass_filter(out.sizes);
  const Image<fft::Complex> spectra = filtered_spectra(frames, out.sizes, filter.cview());
  if (settings.mode == GlobalMode::Sum) align_sum(spectra.cview(), settings, out);
  else align_pairs(spectra.cview(), n, settings, out);
  out.reference = choose_reference(out.positions, settings.reference, settings.reference_index);
  out.shifts = shifts_to_apply(out.positions, out.reference);
  return out;
}

GlobalAlignment align_global(View<const float> stack, const GlobalSettings& settings) {
  if (stack.shape.z != 1) throw_usage_error("global alignment expects a stack of 2-D frames, got " + to_string(stack.shape));
  std::vector<View<const float>> frames;
  for (index_t t = 0; t < stack.shape.n; ++t) frames.push_back(stack.item(t));
  return align_global(frames, settings);
}

} // namespace frost::motion
