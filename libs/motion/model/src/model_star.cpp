// Writing and reading the motion model in the frost alignment STAR layout
// (docs/movie_align.md#the-frost-alignment-star): raw pixels everywhere (the processing model is
// scaled by the binning on the way out and back on the way in), absolute 0-based frame indices,
// coefficients in storage order.
#include "frost/motion/model_star.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "exact_text.hpp"
#include "frost/core/error.hpp"

namespace frost::motion {

namespace {

using detail::exact_texts;
using detail::set_key;
using detail::set_key_int;
using detail::set_key_text;

/// data_general, added as the first block when absent.
meta::Block& general_block(meta::MetadataFile& file) {
  if (meta::Block* b = file.find(kGeneralBlock)) return *b;
  auto& blocks = file.blocks();
  blocks.insert(blocks.begin(), meta::Block(kGeneralBlock, true));
  return blocks.front();
}

/// A fresh, empty block `name` in place of an existing one, or appended.
meta::Block& fresh_block(meta::MetadataFile& file, const char* name) {
  if (meta::Block* b = file.find(name)) {
    *b = meta::Block(name);
    return *b;
  }
  return file.add_block(name);
}

void remove_block(meta::MetadataFile& file, const char* name) {
  auto& blocks = file.blocks();
  blocks.erase(std::remove_if(blocks.begin(), blocks.end(), [&](const meta::Block& b) { return b.name() == name; }),
               blocks.end());
}

const char* kind_name(LocalModelKind k) { return k == LocalModelKind::Total ? "total" : "residual"; }

[[noreturn]] void bad(const meta::MetadataFile& file, const std::string& problem) {
  throw_input_error(file.origin().empty() ? std::string("alignment metadata") : file.origin(), problem);
}

} // namespace

void write_motion_model(meta::MetadataFile& file, const MotionModel& model, int movie_frames) {
  FROST_EXPECTS(!model.global.empty(), "write_motion_model: the model has no global shifts");
  FROST_EXPECTS(model.binning > 0, "write_motion_model: binning must be positive");
  const double b = model.binning;
  const int n = model.frames();
  const int first = model.first_frame;

  { // data_general first: appending blocks below may move it in memory
    meta::Block& general = general_block(file);
    set_key(general, "rlnMicrographBinning", b);
    set_key_int(general, "frostFrameFirst", first);
    set_key_int(general, "frostFrameLast", first + n - 1);
    set_key_int(general, "frostReferenceFrame", first + model.reference);
    set_key_text(general, "frostMotionModel", model.local ? "bspline" : "global");
    set_key_text(general, "frostLocalModel", kind_name(model.kind));
    if (model.local) {
      const BSplineField& f = *model.local;
      set_key_int(general, "frostControlPointsX", f.lx);
      set_key_int(general, "frostControlPointsY", f.ly);
      set_key_int(general, "frostControlPointsT", f.lt);
      set_key(general, "frostKnotSpacingX", f.hx * b);
      set_key(general, "frostKnotSpacingY", f.hy * b);
      set_key(general, "frostKnotSpacingT", f.ht);
    }
  }

  // Global shifts: aligned frames, plus disabled rows for the rest of the movie when asked.
  const int total = std::max(movie_frames, first + n);
  std::vector<std::int64_t> number, index, enabled;
  std::vector<double> sx, sy;
  for (int frame = movie_frames > 0 ? 0 : first; frame < total; ++frame) {
    const bool aligned = frame >= first && frame < first + n;
    const Vec2 s = aligned ? model.global[static_cast<std::size_t>(frame - first)] : Vec2{};
    number.push_back(frame + 1);
    index.push_back(frame);
    sx.push_back(s.x * b);
    sy.push_back(s.y * b);
    enabled.push_back(aligned ? 1 : 0);
  }
  meta::Block& global = fresh_block(file, kGlobalShiftBlock);
  global.set_column("rlnMicrographFrameNumber", number);
  global.set_column("frostFrameIndex", index);
  global.set_column("rlnMicrographShiftX", exact_texts(sx));
  global.set_column("rlnMicrographShiftY", exact_texts(sy));
  global.set_column("frostEnabled", enabled);

  if (!model.local) {
    remove_block(file, kCoefficientBlock);
    return;
  }
  const BSplineField& f = *model.local;
  FROST_EXPECTS(f.cx.size() == static_cast<std::size_t>(f.size()) && f.cy.size() == f.cx.size(),
                "write_motion_model: coefficient count");
  std::vector<std::int64_t> ct, cy_index, cx_index;
  std::vector<double> vx, vy;
  for (int t = -1; t <= f.lt - 2; ++t) // storage order: time slowest, x fastest
    for (int y = -1; y <= f.ly - 2; ++y)
      for (int x = -1; x <= f.lx - 2; ++x) {
        const auto i = static_cast<std::size_t>(f.index(t, y, x));
        ct.push_back(t);
        cy_index.push_back(y);
        cx_index.push_back(x);
        vx.push_back(f.cx[i] * b);
        vy.push_back(f.cy[i] * b);
      }
  meta::Block& coefficients = fresh_block(file, kCoefficientBlock);
  coefficients.set_column("frostCoeffT", ct);
  coefficients.set_column("frostCoeffY", cy_index);
  coefficients.set_column("frostCoeffX", cx_index);
  coefficients.set_column("frostCoeffShiftX", exact_texts(vx));
  coefficients.set_column("frostCoeffShiftY", exact_texts(vy));
}

void write_local_fit(meta::MetadataFile& file, const MotionModel& model,
                     const std::vector<PatchMeasurement>& measurements, const BSplineFitResult& fit) {
  FROST_EXPECTS(fit.fitted.size() == measurements.size() && fit.outlier.size() == measurements.size(),
                "write_local_fit: the fit result does not belong to these measurements");
  const double b = model.binning;
  { // data_general first: appending blocks below may move it in memory
    meta::Block& general = general_block(file);
    set_key_int(general, "frostOutliersLocal", fit.rejected);
    set_key(general, "frostLocalFitRmsd", fit.rmsd * b);
    set_key(general, "frostLocalShift2_5", fit.shift_p2_5 * b);
    set_key(general, "frostLocalShift97_5", fit.shift_p97_5 * b);
  }

  std::vector<std::int64_t> patch, frame;
  std::vector<double> px, py, mx, my, fx, fy, weight;
  for (std::size_t i = 0; i < measurements.size(); ++i) {
    const PatchMeasurement& m = measurements[i];
    // The measurements are targets of the field; the file stores total shifts to apply.
    const Vec2 base = model.kind == LocalModelKind::Residual ? model.global_shift(m.t) : Vec2{};
    const Vec2 fitted = model.shift(m.x, m.y, m.t);
    patch.push_back(m.patch);
    frame.push_back(model.first_frame + static_cast<std::int64_t>(std::lround(m.t)));
    px.push_back(m.x * b);
    py.push_back(m.y * b);
    mx.push_back((base.x + m.shift.x) * b);
    my.push_back((base.y + m.shift.y) * b);
    fx.push_back(fitted.x * b);
    fy.push_back(fitted.y * b);
    weight.push_back(fit.outlier[i] ? 0.0 : m.weight);
  }
  meta::Block& local = fresh_block(file, kLocalShiftBlock);
  local.set_column("frostPatchIndex", patch);
  local.set_column("rlnCoordinateX", exact_texts(px));
  local.set_column("rlnCoordinateY", exact_texts(py));
  local.set_column("frostFrameIndex", frame);
  local.set_column("frostMeasuredShiftX", exact_texts(mx));
  local.set_column("frostMeasuredShiftY", exact_texts(my));
  local.set_column("frostFittedShiftX", exact_texts(fx));
  local.set_column("frostFittedShiftY", exact_texts(fy));
  local.set_column("frostWeight", exact_texts(weight));
}

MotionModel read_motion_model(const meta::MetadataFile& file) {
  MotionModel model;
  const meta::Block* general = file.find(kGeneralBlock);
  const auto has = [&](const char* label) { return general != nullptr && general->has(label) && general->rows() > 0; };
  if (has("rlnMicrographBinning")) model.binning = general->get_double("rlnMicrographBinning");
  if (!(model.binning > 0)) bad(file, "_rlnMicrographBinning must be positive");
  const double b = model.binning;
  if (has("frostLocalModel")) {
    const std::string kind = general->get_string("frostLocalModel");
    if (kind == "total")
      model.kind = LocalModelKind::Total;
    else if (kind != "residual")
      bad(file, "_frostLocalModel is '" + kind + "' (expected residual or total)");
  }

  // Global shifts of the enabled frames, which must be consecutive.
  const meta::Block* global = file.find(kGlobalShiftBlock);
  if (global == nullptr) bad(file, "no data_global_shift block");
  std::vector<std::int64_t> index;
  if (global->has("frostFrameIndex")) {
    index = global->ints("frostFrameIndex");
  } else {
    index = global->ints("rlnMicrographFrameNumber");
    for (auto& i : index) --i;
  }
  const std::vector<double> sx = global->doubles("rlnMicrographShiftX");
  const std::vector<double> sy = global->doubles("rlnMicrographShiftY");
  const std::vector<std::int64_t> enabled =
      global->has("frostEnabled") ? global->ints("frostEnabled") : std::vector<std::int64_t>(index.size(), 1);
  std::vector<std::pair<std::int64_t, Vec2>> frames;
  for (std::size_t r = 0; r < index.size(); ++r)
    if (enabled[r] > 0) frames.push_back({index[r], Vec2{sx[r] / b, sy[r] / b}});
  if (frames.empty()) bad(file, "data_global_shift has no enabled frame");
  std::sort(frames.begin(), frames.end(), [](const auto& a, const auto& c) { return a.first < c.first; });
  for (std::size_t i = 1; i < frames.size(); ++i)
    if (frames[i].first != frames[i - 1].first + 1)
      bad(file, "data_global_shift: enabled frames are not consecutive (frame " + std::to_string(frames[i - 1].first) +
                    " then " + std::to_string(frames[i].first) + ")");
  model.first_frame = static_cast<int>(frames.front().first);
  for (const auto& f : frames) model.global.push_back(f.second);
  if (has("frostReferenceFrame")) {
    const std::int64_t reference = general->get_int("frostReferenceFrame") - model.first_frame;
    if (reference < 0 || reference >= model.frames())
      bad(file, "_frostReferenceFrame is outside the aligned frames");
    model.reference = static_cast<int>(reference);
  }

  const bool bspline = has("frostMotionModel") ? general->get_string("frostMotionModel") == "bspline"
                                                : file.find(kCoefficientBlock) != nullptr;
  if (!bspline) return model;
  const meta::Block* coefficients = file.find(kCoefficientBlock);
  if (coefficients == nullptr) bad(file, "_frostMotionModel is bspline but there is no data_bspline_coefficients");
  for (const char* key : {"frostControlPointsX", "frostControlPointsY", "frostControlPointsT", "frostKnotSpacingX",
                          "frostKnotSpacingY", "frostKnotSpacingT"})
    if (!has(key)) bad(file, std::string("data_general lacks _") + key + " for the B-spline model");
  BSplineField f;
  f.lx = static_cast<int>(general->get_int("frostControlPointsX"));
  f.ly = static_cast<int>(general->get_int("frostControlPointsY"));
  f.lt = static_cast<int>(general->get_int("frostControlPointsT"));
  f.hx = general->get_double("frostKnotSpacingX") / b;
  f.hy = general->get_double("frostKnotSpacingY") / b;
  f.ht = general->get_double("frostKnotSpacingT");
  if (f.lx < 3 || f.ly < 3 || f.lt < 3) bad(file, "B-spline control points must be >= 3");
  if (!(f.hx > 0 && f.hy > 0 && f.ht > 0)) bad(file, "B-spline knot spacings must be positive");
  if (coefficients->rows() != static_cast<std::size_t>(f.size()))
    bad(file, "data_bspline_coefficients has " + std::to_string(coefficients->rows()) + " rows for " +
                  std::to_string(f.size()) + " control points");
  const auto ct = coefficients->ints("frostCoeffT");
  const auto cy_index = coefficients->ints("frostCoeffY");
  const auto cx_index = coefficients->ints("frostCoeffX");
  const auto vx = coefficients->doubles("frostCoeffShiftX");
  const auto vy = coefficients->doubles("frostCoeffShiftY");
  f.cx.assign(static_cast<std::size_t>(f.size()), 0.0);
  f.cy.assign(static_cast<std::size_t>(f.size()), 0.0);
  std::vector<unsigned char> seen(static_cast<std::size_t>(f.size()), 0);
  for (std::size_t r = 0; r < ct.size(); ++r) {
    if (ct[r] < -1 || ct[r] > f.lt - 2 || cy_index[r] < -1 || cy_index[r] > f.ly - 2 || cx_index[r] < -1 ||
        cx_index[r] > f.lx - 2)
      bad(file, "data_bspline_coefficients row " + std::to_string(r + 1) + ": index outside the control grid");
    const auto i = static_cast<std::size_t>(
        f.index(static_cast<int>(ct[r]), static_cast<int>(cy_index[r]), static_cast<int>(cx_index[r])));
    if (seen[i]) bad(file, "data_bspline_coefficients row " + std::to_string(r + 1) + ": duplicate index");
    seen[i] = 1;
    f.cx[i] = vx[r] / b;
    f.cy[i] = vy[r] / b;
  }
  model.local = std::move(f);
  return model;
}

void write_motion_model_file(const std::string& path, const MotionModel& model, int movie_frames) {
  meta::MetadataFile file(meta::Dialect::Relion31);
  write_motion_model(file, model, movie_frames);
  file.write(path);
}

MotionModel read_motion_model_file(const std::string& path) {
  return read_motion_model(meta::MetadataFile::read(path));
}

} // namespace frost::motion
