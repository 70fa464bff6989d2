#include "frost/motion/frame_shift.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "frost/core/error.hpp"
#include "frost/motion/warp_math.hpp"

namespace frost::motion {

namespace {

bool finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

} // namespace

FrameShift FrameShift::constant(Vec2 shift) {
  FROST_EXPECTS(finite(shift), "FrameShift::constant: shift is not finite");
  FrameShift s;
  s.kind_ = Kind::Constant;
  s.constant_ = shift;
  return s;
}

FrameShift FrameShift::from_field(Field field) {
  FROST_EXPECTS(static_cast<bool>(field), "FrameShift::from_field: empty function");
  FrameShift s;
  s.kind_ = Kind::Field;
  s.field_ = std::move(field);
  return s;
}

FrameShift FrameShift::from_model(const MotionModel& model, int t, index_t width) {
  FROST_EXPECTS(t >= 0 && t < static_cast<int>(model.global.size()),
                "FrameShift::from_model: aligned-frame index " + std::to_string(t) + " outside the model's " +
                    std::to_string(model.global.size()) + " frames");
  const Vec2 global = model.global[static_cast<std::size_t>(t)];
  FROST_EXPECTS(finite(global), "FrameShift::from_model: global shift of frame " + std::to_string(t) + " is not finite");
  if (!model.local) return constant(global);

  const BSplineField& f = *model.local;
  FROST_EXPECTS(f.lx >= 3 && f.ly >= 3 && f.lt >= 3, "FrameShift::from_model: B-spline needs >= 3 control points per axis");
  FROST_EXPECTS(f.cx.size() == static_cast<std::size_t>(f.size()) && f.cy.size() == f.cx.size(),
                "FrameShift::from_model: B-spline coefficient count does not match its grid");
  FROST_EXPECTS(width >= 1, "FrameShift::from_model: width must be positive");
  FROST_EXPECTS(f.hx > 0 && f.hy > 0 && f.ht > 0, "FrameShift::from_model: B-spline knot spacings must be positive");
  for (std::size_t i = 0; i < f.cx.size(); ++i)
    FROST_EXPECTS(std::isfinite(f.cx[i]) && std::isfinite(f.cy[i]), "FrameShift::from_model: B-spline coefficient is not finite");

  FrameShift s;
  s.kind_ = Kind::Spline;
  s.constant_ = model.kind == LocalModelKind::Residual ? global : Vec2{};
  FoldedSpline& sp = s.spline_;
  sp.lx = f.lx;
  sp.ly = f.ly;
  sp.hx = f.hx;
  sp.hy = f.hy;

  // Time factors once per frame: fold the lt planes into one.
  const std::size_t plane = static_cast<std::size_t>(f.lx) * static_cast<std::size_t>(f.ly);
  sp.px.assign(plane, 0.0);
  sp.py.assign(plane, 0.0);
  const double u = static_cast<double>(t) / f.ht;
  for (int n = -1; n <= f.lt - 2; ++n) {
    const double bt = bspline_basis(u - n);
    if (bt == 0.0) continue;
    const std::size_t base = static_cast<std::size_t>(f.index(n, -1, -1));
    for (std::size_t i = 0; i < plane; ++i) {
      sp.px[i] += bt * f.cx[base + i];
      sp.py[i] += bt * f.cy[base + i];
    }
  }

  // x factors once per column.
  sp.width = width;
  sp.column_index.resize(static_cast<std::size_t>(4 * width));
  sp.tap_weight.resize(static_cast<std::size_t>(4 * width));
  sp.run_start.clear();
  for (index_t x = 0; x < width; ++x) {
    int idx[4];
    double w[4];
    control_taps(static_cast<double>(x) / f.hx, f.lx, idx, w);
    const std::size_t c = static_cast<std::size_t>(4 * x);
    bool same = x > 0;
    for (int i = 0; i < 4; ++i) {
      same = same && sp.column_index[c - 4 + static_cast<std::size_t>(i)] == idx[i] + 1;
      sp.column_index[c + static_cast<std::size_t>(i)] = idx[i] + 1;
      sp.tap_weight[static_cast<std::size_t>(i) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] = w[i];
    }
    if (!same) sp.run_start.push_back(x);
  }
  sp.run_start.push_back(width);
  return s;
}

FrameShift::SplinePlanes FrameShift::spline_planes() const {
  FROST_EXPECTS(kind_ == Kind::Spline, "FrameShift::spline_planes: the shift is not a B-spline field");
  return {spline_.lx, spline_.ly, spline_.hx, spline_.hy, constant_, spline_.px.data(), spline_.py.data()};
}

Vec2 FrameShift::constant_shift() const {
  FROST_EXPECTS(is_constant(), "FrameShift::constant_shift: the shift varies over the frame");
  return constant_;
}

void FrameShift::FoldedSpline::fold_row(double y, double* rx, double* ry) const {
  for (int l = 0; l < lx; ++l) rx[l] = ry[l] = 0.0;
  int idx[4];
  double w[4];
  control_taps(y / hy, ly, idx, w);
  for (int j = 0; j < 4; ++j) {
    if (w[j] == 0.0) continue;
    const std::size_t base = static_cast<std::size_t>(idx[j] + 1) * static_cast<std::size_t>(lx);
    for (int l = 0; l < lx; ++l) {
      rx[l] += w[j] * px[base + static_cast<std::size_t>(l)];
      ry[l] += w[j] * py[base + static_cast<std::size_t>(l)];
    }
  }
}

Vec2 FrameShift::at(double x, double y) const {
  switch (kind_) {
  case Kind::Constant: return constant_;
  case Kind::Field: return field_(x, y);
  case Kind::Spline: {
    std::vector<double> rx(static_cast<std::size_t>(spline_.lx)), ry(rx.size());
    spline_.fold_row(y, rx.data(), ry.data());
    int idx[4];
    double w[4];
    control_taps(x / spline_.hx, spline_.lx, idx, w);
    Vec2 s = constant_;
    for (int i = 0; i < 4; ++i) {
      if (w[i] == 0.0) continue;
      s.x += w[i] * rx[static_cast<std::size_t>(idx[i] + 1)];
      s.y += w[i] * ry[static_cast<std::size_t>(idx[i] + 1)];
    }
    return s;
  }
  }
  return {};
}

void FrameShift::row(index_t y, index_t width, double* sx, double* sy) const {
  switch (kind_) {
  case Kind::Constant:
    for (index_t x = 0; x < width; ++x) {
      sx[x] = constant_.x;
      sy[x] = constant_.y;
    }
    return;
  case Kind::Field:
    for (index_t x = 0; x < width; ++x) {
      const Vec2 s = field_(static_cast<double>(x), static_cast<double>(y));
      sx[x] = s.x;
      sy[x] = s.y;
    }
    return;
  case Kind::Spline: {
    FROST_EXPECTS(width == spline_.width, "FrameShift::row: made for width " + std::to_string(spline_.width) +
                                              ", asked for " + std::to_string(width));
    std::vector<double> rx(static_cast<std::size_t>(spline_.lx)), ry(rx.size());
    spline_.fold_row(static_cast<double>(y), rx.data(), ry.data());
    // Run by run (columns with the same four control points), the taps added in the order
    // i = 0..3 as column_index lists them: a loop over x the compiler vectorises.
    const std::size_t W = static_cast<std::size_t>(width);
    const double* w0 = spline_.tap_weight.data();
    const double *w1 = w0 + W, *w2 = w1 + W, *w3 = w2 + W;
    for (std::size_t r = 0; r + 1 < spline_.run_start.size(); ++r) {
      const index_t x0 = spline_.run_start[r], x1 = spline_.run_start[r + 1];
      const int* idx = spline_.column_index.data() + 4 * x0;
      const double cx0 = rx[idx[0]], cx1 = rx[idx[1]], cx2 = rx[idx[2]], cx3 = rx[idx[3]];
      const double cy0 = ry[idx[0]], cy1 = ry[idx[1]], cy2 = ry[idx[2]], cy3 = ry[idx[3]];
      for (index_t x = x0; x < x1; ++x) {
        double ax = constant_.x, ay = constant_.y;
        ax += w0[x] * cx0;
        ay += w0[x] * cy0;
        ax += w1[x] * cx1;
        ay += w1[x] * cy1;
        ax += w2[x] * cx2;
        ay += w2[x] * cy2;
        ax += w3[x] * cx3;
        ay += w3[x] * cy3;
        sx[x] = ax;
        sy[x] = ay;
      }
    }
    return;
  }
  }
}

} // namespace frost::motion
