#pragma once
/// @file working_sizes.hpp
/// @brief Sizes and sampling of the global alignment
/// (docs/movie_align.md#working-sizes-and-the-low-pass-filter): the transformed frame window M, the
/// correlation grid C, the scale k, and the Gaussian low-pass H.
#include <string>

#include "frost/core/image.hpp"
#include "frost/motion/global_settings.hpp"

namespace frost::motion {

/// c = sqrt(1 / (2 ln 2)): with sigma = c·Ts_c/R the Gaussian is exactly 0.5 at frequency 1/R.
inline constexpr double kLowpassConstant = 0.84932180028801904272;

/// Width and height of one grid (x = columns).
struct Size2 {
  index_t x = 0, y = 0;
  friend bool operator==(const Size2& a, const Size2& b) { return a.x == b.x && a.y == b.y; }
};

/// @brief The grids of one global alignment and their sampling.
struct WorkingSizes {
  Size2 frame;              ///< X_b x Y_b: processing frame
  Size2 transform;          ///< M: centred window of the frame that is Fourier transformed (even)
  Size2 correlation;        ///< C: Fourier-cropped correlation grid (even, <= M)
  double pixel_size = 1;    ///< Ts_b [Å/px]
  double max_resolution = 30; ///< R [Å]
  double target_pixel = 0;  ///< Ts' = R / (8c) [Å/px]
  double scale = 0;         ///< k = Ts_b / Ts'
  double search_radius = 0; ///< rho = (S / Ts_b)·(C_x / M_x) [correlation px]

  /// Ts_c = Ts_b·M/C per axis [Å/px] (uses M, not the frame size: quirk 3 of
  /// docs/movie_align.md#known-quirks-of-the-reference-programs-we-do-not-copy).
  double correlation_pixel_x() const { return pixel_size * static_cast<double>(transform.x) / static_cast<double>(correlation.x); }
  double correlation_pixel_y() const { return pixel_size * static_cast<double>(transform.y) / static_cast<double>(correlation.y); }
  /// Processing pixels per correlation pixel, M/C per axis.
  double to_processing_x() const { return static_cast<double>(transform.x) / static_cast<double>(correlation.x); }
  double to_processing_y() const { return static_cast<double>(transform.y) / static_cast<double>(correlation.y); }
};

/// Ts' = R / (8c): the pixel size whose Nyquist frequency is 4 sigma of the low-pass.
double target_pixel_size(double max_resolution);
/// Sets gs.pixel_size = `pixel_size` (Ts_b) and, where gs.max_resolution_is_default, raises R to
/// 7 Ts_b when that is coarser (the correlation scale must stay below 1: R > 8c Ts_b).
void set_processing_pixel_size(GlobalSettings& gs, double pixel_size);
/// @brief k = Ts_b / Ts'. @throw frost::Error(Usage) when k >= 1, i.e. R <= 8c·Ts_b ≈ 6.79·Ts_b.
double correlation_scale(double pixel_size, double max_resolution);

/// True for n = 2^a 3^b 5^c 7^d (n >= 1).
bool is_seven_smooth(index_t n);
/// Smallest even 7-smooth size >= n (n >= 1).
index_t next_fast_even_size(index_t n);
/// Largest even 7-smooth size <= n, or 0 when there is none (n < 2).
index_t previous_fast_even_size(index_t n);

/// @brief All working sizes (docs/movie_align.md#working-sizes-and-the-low-pass-filter) for a frame
/// of width x height processing pixels. C = smallest even integer >= k·X_b per axis (then rounded
/// up by the Fast rule), never above M.
/// @throw frost::Error(Usage) for k >= 1, non-positive lengths, or a frame smaller than 4x4.
WorkingSizes working_sizes(index_t width, index_t height, const GlobalSettings& settings);

/// One line for logs and metadata, e.g. "frame 4096x4096, transform 4096x4096, correlation 960x960, k 0.2265".
std::string to_string(const WorkingSizes& s);

/// H at physical spatial frequency `frequency` [1/Å]: exp(-f²R² / (2c²)); H(1/R) = 0.5.
double lowpass_gain(double frequency, double max_resolution);

/// @brief H sampled on the correlation half spectrum, shape (C_x/2+1) x C_y (FFT index order:
/// row j holds frequency j for j <= C_y/2, j - C_y above). Frequencies are physical (index / (M·Ts_b)),
/// which equals sigma = c·Ts_c/R in cycles per correlation pixel along each axis.
Image<float> lowpass_filter(const WorkingSizes& sizes);

} // namespace frost::motion
