#include "frost/motion/interpolation_method.hpp"

#include "frost/core/error.hpp"

namespace frost::motion {

InterpolationMethod parse_interpolation_method(const std::string& text) {
  if (text == "bspline3") return InterpolationMethod::BSpline3;
  if (text == "bilinear") return InterpolationMethod::Bilinear;
  if (text == "fourier") return InterpolationMethod::Fourier;
  throw_usage_error("unknown interpolation '" + text + "' (expected bspline3, bilinear or fourier)");
}

std::string to_string(InterpolationMethod method) {
  switch (method) {
  case InterpolationMethod::BSpline3: return "bspline3";
  case InterpolationMethod::Bilinear: return "bilinear";
  case InterpolationMethod::Fourier: return "fourier";
  }
  return "?";
}

} // namespace frost::motion
