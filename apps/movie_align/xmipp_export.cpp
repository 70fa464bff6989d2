#include "xmipp_export.hpp"

#include <cstdint>
#include <string>

#include "frost/io/image_ref.hpp"
#include "frost/metadata/value_text.hpp"
#include "frost/motion/bspline_fit.hpp"
#include "frost/motion/local_measurements.hpp"

namespace frost::movie_align {

namespace {

std::string xmipp_sizes(const std::vector<double>& v) {
  std::string s = " ";
  for (double x : v) s += std::to_string(static_cast<long long>(x)) + " ";
  return s;
}

/// The B-spline of the total shift to apply: the fitted field itself in total mode, otherwise a
/// refit of -D_{p,t} on the same grid.
motion::BSplineField total_field(const motion::MotionModel& model, const motion::LocalAlignment& local,
                                 double* refit_rmsd) {
  if (model.kind == motion::LocalModelKind::Total) {
    if (refit_rmsd) *refit_rmsd = local.fit ? local.fit->rmsd : 0.0;
    return *model.local;
  }
  const auto targets = motion::local_fit_targets(local.patches, model.global, motion::LocalModelKind::Total);
  const motion::BSplineFitResult refit = motion::fit_bspline_field(targets, *model.local);
  if (refit_rmsd) *refit_rmsd = refit.rmsd;
  return refit.field;
}

} // namespace

meta::MetadataFile xmipp_alignment(const MovieFacts& f, const motion::MotionModel& model,
                                   const motion::LocalAlignment* local, double* refit_rmsd) {
  meta::MetadataFile file(meta::Dialect::Xmipp);
  {
    meta::Block& b = file.add_block("frameShifts");
    std::vector<std::string> image;
    std::vector<std::int64_t> enabled;
    std::vector<double> sx, sy, weight;
    for (int frame = 0; frame < f.movie_frames; ++frame) {
      image.push_back(io::make_image_address(frame, f.movie));
      const int t = frame - model.first_frame;
      const bool aligned = t >= 0 && t < model.frames();
      enabled.push_back(aligned ? 1 : -1);
      const motion::Vec2 s = aligned ? model.global[static_cast<std::size_t>(t)] : motion::Vec2{};
      sx.push_back(0.0 + s.x * model.binning);
      sy.push_back(0.0 + s.y * model.binning);
      weight.push_back(1.0);
    }
    b.set_column("image", image);
    b.set_column("enabled", enabled);
    b.set_column("shiftX", sx);
    b.set_column("shiftY", sy);
    b.set_column("weight", weight);
  }
  {
    meta::Block& r = file.add_block("referenceFrame", true);
    r.add_row();
    r.set_int(0, "ref", model.first_frame + model.reference);
  }
  if (local && model.local) {
    const motion::BSplineField total = total_field(model, *local, refit_rmsd);
    meta::Block& l = file.add_block("localAlignment", true);
    l.add_row();
    l.set_double(0, "localAlignmnentConf25Perc", local->fit ? local->fit->shift_p2_5 : 0.0); // Xmipp's spelling
    l.set_double(0, "localAlignmnentConf955Perc", local->fit ? local->fit->shift_p97_5 : 0.0);
    l.set_string(0, "localAlignmentPatches",
                 xmipp_sizes({static_cast<double>(local->grid.x.count), static_cast<double>(local->grid.y.count)}));
    l.set_string(0, "localAlignmentCoeffsX", meta::format_xmipp_vector(total.cx));
    l.set_string(0, "localAlignmentCoeffsY", meta::format_xmipp_vector(total.cy));
    l.set_string(0, "localAlignmentControlPoints",
                 xmipp_sizes({static_cast<double>(total.lx), static_cast<double>(total.ly), static_cast<double>(total.lt)}));
  }
  return file;
}

} // namespace frost::movie_align
