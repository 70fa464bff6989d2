#include "frost/motion/fourier_crop.hpp"

#include <algorithm>

#include "frost/core/error.hpp"

namespace frost::motion {

void crop_half_spectrum(View<const fft::Complex> full, View<fft::Complex> cropped, View<const float> filter,
                        float scale) {
  const index_t cw = cropped.shape.x, ch = cropped.shape.y;
  FROST_EXPECTS(ch % 2 == 0 && full.shape.y % 2 == 0, "Fourier crop needs even row counts");
  FROST_EXPECTS(cw <= full.shape.x && ch <= full.shape.y, "Fourier crop cannot enlarge a spectrum");
  FROST_EXPECTS(filter.data == nullptr || (filter.shape.x == cw && filter.shape.y == ch),
                "low-pass filter shape differs from the cropped spectrum");
  for (index_t y = 0; y < ch; ++y) {
    fft::Complex* out = &cropped(0, y);
    if (y == 0) {
      std::fill(out, out + cw, fft::Complex(0.f, 0.f)); // k_y = 0 row
      continue;
    }
    const fft::Complex* in = &full(0, crop_source_row(y, ch, full.shape.y));
    out[0] = fft::Complex(0.f, 0.f); // k_x = 0 column
    if (filter.data == nullptr) {
      for (index_t x = 1; x < cw; ++x) out[x] = in[x] * scale;
    } else {
      const float* h = &filter(0, y);
      for (index_t x = 1; x < cw; ++x) out[x] = in[x] * (h[x] * scale);
    }
  }
}

} // namespace frost::motion
