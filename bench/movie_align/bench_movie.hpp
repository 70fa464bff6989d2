#pragma once
// frost_bench_movie_align: the synthetic movies and the hardware floors (main.cpp runs the cases).
#include <string>

#include "frost/core/shape.hpp"

namespace frost::bench {

/// One benchmark movie size (docs/movie_align.md#benchmarks).
struct MovieSize {
  std::string name;   ///< falcon, k2, k2super, k3, k3super
  index_t x = 0, y = 0;
  int frames = 0;
};

/// @brief Writes a synthetic counting movie (MRC mode 0, counts 0..15) of `size` to `path`: a
/// smooth random specimen drifting by a sub-pixel trajectory, Poisson-like counts from a fast
/// hash. Returns the seconds it took. Frames are generated in parallel.
double write_synthetic_movie(const std::string& path, const MovieSize& size, double pixel_size);

/// What the floors of one size measured on GPU `device` (zeros when there is none).
struct Floors {
  double h2d_gbs = 0;      ///< pinned host-to-device bandwidth [GB/s]
  double fft_ms = 0;       ///< one R2C of one full frame (cuFFT), after warm-up [ms]
  double upload_ms = 0;    ///< raw float32 movie bytes / h2d_gbs [ms]
  double floor_ms = 0;     ///< upload_ms + frames · fft_ms
  double file_floor_ms = 0; ///< the same with the file's bytes (mode 0: one byte a pixel) uploaded
  std::string device;      ///< planner description
};

/// Measures the floors on CUDA device `device` through frost::fft (no CUDA headers here).
Floors measure_floors(const MovieSize& size, int device);

} // namespace frost::bench
