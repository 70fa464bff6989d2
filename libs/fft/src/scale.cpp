// Host-side scaling: the explicit normalisation step (transforms never normalise themselves).
#include "frost/fft/scale.hpp"

#include <cstdint>

namespace frost::fft {

double inverse_scale(const FftSpec& spec) { return 1.0 / static_cast<double>(spec.signal_elements()); }

void scale(float* data, std::size_t count, float factor) {
  const auto n = static_cast<std::int64_t>(count);
  // Below ~1M values the thread start-up costs more than the loop.
#pragma omp parallel for schedule(static) if (n > (1 << 20))
  for (std::int64_t i = 0; i < n; ++i) data[i] *= factor;
}

void scale(Complex* data, std::size_t count, float factor) {
  // std::complex<float> is two floats (array-compatible by the standard).
  scale(reinterpret_cast<float*>(data), 2 * count, factor);
}

} // namespace frost::fft
