#pragma once
/// @file frame_shift.hpp
/// @brief The shift to apply at every pixel of one frame (docs/movie_align.md#warping-a-frame).
///
/// A frame is warped as A(x) = F(x − s(x)). FrameShift holds s for one frame in a form that is
/// cheap per pixel: a constant (global models), the motion model at one frame (its B-spline
/// folded over time once per frame, its x factors tabulated once per column, so a pixel costs
/// four multiply-adds per component), or any field given as a function (tests, other callers).
#include <functional>
#include <vector>

#include "frost/core/shape.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

class FrameShift {
public:
  using Field = std::function<Vec2(double x, double y)>;

  /// The same shift at every pixel [processing px].
  static FrameShift constant(Vec2 shift);
  /// @brief The model's shift at aligned-frame index `t` (0 = model.global[0]) for a frame of
  /// `width` processing pixels: model.shift(x, y, t) at every pixel (global shift of frame t
  /// plus the B-spline field in `residual` mode, the field alone in `total` mode). A model
  /// without a local part gives a constant.
  /// @throw frost::Error(Runtime) when t is outside the model or the field is inconsistent.
  static FrameShift from_model(const MotionModel& model, int t, index_t width);
  /// Any field s(x, y), called once per pixel.
  static FrameShift from_field(Field field);

  bool is_constant() const noexcept { return kind_ == Kind::Constant; }
  /// A constant shift of exactly (0, 0): the frame is copied.
  bool is_zero() const noexcept { return is_constant() && constant_.x == 0.0 && constant_.y == 0.0; }
  /// @throw frost::Error(Runtime) unless is_constant().
  Vec2 constant_shift() const;

  /// True for a shift made by from_model() from a model with a B-spline field.
  bool is_spline() const noexcept { return kind_ == Kind::Spline; }
  /// The B-spline of a spline shift folded over time, for evaluation elsewhere (the CUDA warp
  /// uploads the planes and runs spline_shift_at() of warp_math.hpp per pixel, the same
  /// arithmetic as row()). Pointers stay valid while this FrameShift lives.
  struct SplinePlanes {
    int lx = 0, ly = 0;
    double hx = 1, hy = 1;
    Vec2 base;                              ///< added to the spline (global shift in residual mode)
    const double* px = nullptr;             ///< ly·lx, index (m+1)·lx + (l+1)
    const double* py = nullptr;
  };
  /// @throw frost::Error(Runtime) unless is_spline().
  SplinePlanes spline_planes() const;

  /// Shift at pixel (x, y), evaluated directly (no column table).
  Vec2 at(double x, double y) const;
  /// @brief Shifts of columns 0 … width−1 of row y into sx[], sy[].
  /// @throw frost::Error(Runtime) when a model shift was made for another width.
  void row(index_t y, index_t width, double* sx, double* sy) const;

private:
  enum class Kind { Constant, Spline, Field };

  /// The B-spline at one frame: control planes with the time factors folded in, plus the
  /// column table (four control indices and weights per column; weight 0 marks a control point
  /// beyond the grid).
  struct FoldedSpline {
    int lx = 0, ly = 0;
    double hx = 1, hy = 1;
    std::vector<double> px, py; ///< ly·lx, index (m+1)·lx + (l+1)
    index_t width = 0;
    std::vector<int> column_index;      ///< 4 per column: l+1
    /// The columns in runs that share their four indices, with the weights β(x/hx − l) tap by tap
    /// (tap_weight[i·width + x]), so that row() evaluates a run as a vector loop.
    std::vector<index_t> run_start;     ///< first column of each run, then width
    std::vector<double> tap_weight;     ///< 4·width
    /// Sums over the control rows m of β(y/hy − m)·plane[m][·] (lx values per component).
    void fold_row(double y, double* rx, double* ry) const;
  };

  Kind kind_ = Kind::Constant;
  Vec2 constant_{};  ///< the shift (Constant) or the global part added to the spline (Spline)
  FoldedSpline spline_;
  Field field_;
};

} // namespace frost::motion
