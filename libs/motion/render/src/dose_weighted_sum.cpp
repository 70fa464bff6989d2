#include "frost/motion/dose_weighted_sum.hpp"

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/motion/warp_math.hpp"

namespace frost::motion {

Image<float> half_exposure_inverse(index_t nx, index_t ny, double pixel_size) {
  const Shape half = Shape::image(nx, ny).half_spectrum();
  Image<float> out(half);
  // k [1/Å] of each half-spectrum element; 1/(2 N_e) is 0 at k = 0, so the weight is exactly 1.
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t jy = 0; jy < half.y; ++jy)
    for (index_t jx = 0; jx < half.x; ++jx) out(jx, jy) = half_exposure_inverse_at(jx, jy, nx, ny, pixel_size);
  return out;
}

DoseWeightedSum::DoseWeightedSum(index_t nx, index_t ny, double pixel_size, DoseSchedule schedule)
    : nx_(nx), ny_(ny), schedule_(schedule) {
  FROST_EXPECTS(nx >= 2 && ny >= 2, "DoseWeightedSum: frame must be at least 2x2");
  FROST_EXPECTS(pixel_size > 0.0, "DoseWeightedSum: pixel size must be positive");
  validate(schedule_);
  const Shape shape = Shape::image(nx, ny);
  const Shape half = shape.half_spectrum();
  half_exposure_inv_ = half_exposure_inverse(nx, ny, pixel_size);
  weighted_ = Image<fft::Complex>(half);
  weight_sq_ = Image<float>(half);
  spectrum_ = Image<fft::Complex>(half);
  auto planner = fft::shared_planner(fft::Backend::Cpu);
  const fft::FftSpec spec = fft::FftSpec::r2c(shape);
  forward_ = planner->plan(spec);
  inverse_ = planner->plan(spec.inverse());
}

void DoseWeightedSum::add(int frame, View<const float> aligned) {
  FROST_EXPECTS(aligned.shape == Shape::image(nx_, ny_),
                "DoseWeightedSum::add: frame " + to_string(aligned.shape) + ", expected " +
                    to_string(Shape::image(nx_, ny_)));
  forward_.execute(aligned, spectrum_.view());
  const double dose = frame_dose(schedule_, frame);
  const index_t count = spectrum_.size();
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t i = 0; i < count; ++i) {
    const float w = dose_weight_from_table(dose, half_exposure_inv_[i]);
    weighted_[i] += w * spectrum_[i];
    weight_sq_[i] += w * w;
  }
  ++frames_added_;
}

Image<float> DoseWeightedSum::result() const {
  FROST_EXPECTS(frames_added_ > 0, "DoseWeightedSum::result: no frame was added");
  Image<fft::Complex> spectrum(weighted_.shape());
  const index_t count = spectrum.size();
  // The inverse FFT's 1/(nx·ny) is folded into the per-frequency normalisation.
  const double inv_n = 1.0 / static_cast<double>(nx_ * ny_);
#pragma omp parallel for num_threads(num_threads()) schedule(static)
  for (index_t i = 0; i < count; ++i)
    spectrum[i] = weighted_[i] * static_cast<float>(inv_n / std::sqrt(static_cast<double>(weight_sq_[i])));
  Image<float> out(Shape::image(nx_, ny_));
  inverse_.execute(spectrum.view(), out.view());
  return out;
}

} // namespace frost::motion
