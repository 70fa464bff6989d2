#include "shift_accuracy.hpp"

#include <cmath>
#include <limits>

#include "frost/core/error.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/relion_polynomial.hpp"

namespace frost::bench {
namespace {

using motion::Vec2;

std::vector<Vec2> referenced(std::vector<Vec2> s) {
  const Vec2 first = s.empty() ? Vec2{} : s.front();
  for (Vec2& v : s) v = {v.x - first.x, v.y - first.y};
  return s;
}

double rms(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  FROST_EXPECTS(a.size() == b.size() && !a.empty(), "shift error: trajectories of different lengths");
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += (a[i].x - b[i].x) * (a[i].x - b[i].x) + (a[i].y - b[i].y) * (a[i].y - b[i].y);
  return std::sqrt(sum / double(a.size()));
}

/// rms of a - b after taking off the mean of a - b.
double centred_rms(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  FROST_EXPECTS(a.size() == b.size() && !a.empty(), "shift error: trajectories of different lengths");
  Vec2 mean;
  for (std::size_t i = 0; i < a.size(); ++i) mean = {mean.x + (a[i].x - b[i].x) / a.size(), mean.y + (a[i].y - b[i].y) / a.size()};
  std::vector<Vec2> shifted = a;
  for (Vec2& v : shifted) v = {v.x - mean.x, v.y - mean.y};
  return rms(shifted, b);
}

std::vector<Vec2> shifts_of(const meta::Block& b) {
  const auto x = b.doubles("rlnMicrographShiftX"), y = b.doubles("rlnMicrographShiftY");
  std::vector<Vec2> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = {x[i], y[i]};
  return out;
}

double local_rms(const std::vector<std::vector<Vec2>>& est, const MotionTruth& t) {
  double sum = 0, n = 0;
  for (std::size_t p = 0; p < t.points.size(); ++p) {
    const double e = rms(referenced(est[p]), referenced(t.local[p]));
    sum += e * e * double(t.local[p].size());
    n += double(t.local[p].size());
  }
  return std::sqrt(sum / n);
}

} // namespace

MotionTruth read_motion_truth(const std::string& truth_star) {
  const meta::MetadataFile f = meta::MetadataFile::read(truth_star);
  MotionTruth t;
  t.global = shifts_of(f.block("global_shift"));
  const meta::Block& l = f.block("local_truth");
  const auto frame = l.ints("rlnMicrographFrameNumber");
  const auto x = l.doubles("rlnCoordinateX"), y = l.doubles("rlnCoordinateY");
  const auto dx = l.doubles("frostDisplacementX"), dy = l.doubles("frostDisplacementY");
  for (std::size_t i = 0; i < frame.size(); ++i) {
    std::size_t p = 0;
    while (p < t.points.size() && (t.points[p].x != x[i] || t.points[p].y != y[i])) ++p;
    if (p == t.points.size()) {
      t.points.push_back({x[i], y[i]});
      t.local.emplace_back(t.global.size());
    }
    // The displacement of the specimen; the shift that undoes it is its negative.
    t.local[p].at(static_cast<std::size_t>(frame[i] - 1)) = {-dx[i], -dy[i]};
  }
  return t;
}

void write_truth_coordinates(const MotionTruth& truth, const std::string& path) {
  std::string text = "\ndata_coordinates\n\nloop_\n_rlnCoordinateX\n_rlnCoordinateY\n";
  for (const Vec2& p : truth.points) text += std::to_string(p.x) + " " + std::to_string(p.y) + "\n";
  meta::MetadataFile::parse(text, path).write(path);
}

ShiftError frost_shift_error(const std::string& align_star, const std::string& trajectories_star,
                             const MotionTruth& truth) {
  ShiftError e;
  const std::vector<Vec2> global = shifts_of(meta::MetadataFile::read(align_star).block("global_shift"));
  e.global_rms = rms(referenced(global), referenced(truth.global));
  e.global_rms_centred = centred_rms(global, truth.global);
  const meta::MetadataFile file = meta::MetadataFile::read(trajectories_star);
  const meta::Block& b = file.block("trajectories");
  const auto x = b.doubles("rlnCoordinateX"), y = b.doubles("rlnCoordinateY");
  const auto frame = b.ints("frostFrameIndex");
  const std::vector<Vec2> s = shifts_of(b);
  std::vector<std::vector<Vec2>> est(truth.points.size(), std::vector<Vec2>(truth.global.size()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::size_t best = 0;
    double d = std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < truth.points.size(); ++p) {
      const double q = std::hypot(truth.points[p].x - x[i], truth.points[p].y - y[i]);
      if (q < d) d = q, best = p;
    }
    est[best].at(static_cast<std::size_t>(frame[i])) = s[i];
  }
  e.local_rms = local_rms(est, truth);
  return e;
}

ShiftError relion_shift_error(const std::string& motion_star, const MotionTruth& truth) {
  const meta::MetadataFile f = meta::MetadataFile::read(motion_star);
  ShiftError e;
  const std::vector<Vec2> global = shifts_of(f.block("global_shift"));
  e.global_rms = rms(referenced(global), referenced(truth.global));
  e.global_rms_centred = centred_rms(global, truth.global);
  const meta::Block& g = f.block("general");
  const double width = g.doubles("rlnImageSizeX").at(0), height = g.doubles("rlnImageSizeY").at(0);
  motion::RelionPolynomial poly;
  if (const meta::Block* m = f.find("local_motion_model")) {
    const auto idx = m->ints("rlnMotionModelCoeffsIdx");
    const auto c = m->doubles("rlnMotionModelCoeff");
    for (std::size_t i = 0; i < idx.size(); ++i) {
      if (idx[i] < motion::kRelionPolynomialTerms)
        poly.cx.at(static_cast<std::size_t>(idx[i])) = c[i];
      else
        poly.cy.at(static_cast<std::size_t>(idx[i] - motion::kRelionPolynomialTerms)) = c[i];
    }
  }
  std::vector<std::vector<Vec2>> est(truth.points.size());
  for (std::size_t p = 0; p < truth.points.size(); ++p)
    for (std::size_t t = 0; t < global.size(); ++t) {
      const Vec2 l = poly.evaluate(double(t), truth.points[p].x / width - 0.5, truth.points[p].y / height - 0.5);
      est[p].push_back({global[t].x + l.x, global[t].y + l.y});
    }
  e.local_rms = local_rms(est, truth);
  return e;
}

} // namespace frost::bench
