#include "frost/simulate/eer_movie.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/io/eer_encode.hpp"

namespace frost::sim {

namespace {

/// SplitMix64: a counter-based generator, so a pixel's draws depend only on (seed, frame, pixel).
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) (n small: the modulo bias is far below anything a test sees).
  std::uint32_t below(std::uint64_t n) { return static_cast<std::uint32_t>(next() % n); }
};

} // namespace

std::vector<std::vector<unsigned char>> split_into_eer_frames(const Image<float>& counts, const EerSplit& split) {
  const Shape s = counts.shape();
  const index_t pixels = s.x * s.y, fractions = s.z * s.n, g = split.group;
  if (g < 1) throw_usage_error("EER: at least one raw frame per fraction is needed");
  if (pixels > (index_t(1) << 32)) throw_usage_error("EER: a frame of more than 2^32 pixels cannot be coded");
  const int sub = split.encoding.symbol_bits == 4 ? 4 : 2; // sub-pixel positions per axis
  std::vector<std::vector<unsigned char>> streams(static_cast<std::size_t>(fractions * g));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(fractions));
#pragma omp parallel for num_threads(std::max(1, std::min<int>(num_threads(), static_cast<int>(fractions)))) \
    schedule(dynamic, 1)
  for (index_t f = 0; f < fractions; ++f) {
    try {
      std::vector<std::vector<io::EerEvent>> raw(static_cast<std::size_t>(g));
      const float* frame = counts.data() + f * pixels;
      std::vector<std::uint32_t> chosen;
      for (index_t p = 0; p < pixels; ++p) {
        const float v = frame[p];
        if (v == 0.0f) continue;
        if (!(v > 0.0f) || v != std::floor(v) || v > static_cast<float>(g))
          throw_usage_error("EER: frame " + std::to_string(f) + " holds " + std::to_string(v) + " counts at pixel " +
                            std::to_string(p) + "; EER needs whole counts of at most " + std::to_string(g) +
                            " (raw frames per fraction) per pixel");
        SplitMix rng{(static_cast<std::uint64_t>(split.seed) << 32) ^ (static_cast<std::uint64_t>(f) << 40) ^
                     static_cast<std::uint64_t>(p) * 0xD1B54A32D192ED03ull};
        chosen.clear();
        const auto c = static_cast<std::size_t>(v);
        while (chosen.size() < c) { // c distinct raw frames of the fraction
          const std::uint32_t r = rng.below(static_cast<std::uint64_t>(g));
          bool taken = false;
          for (std::uint32_t q : chosen) taken = taken || q == r;
          if (taken) continue;
          chosen.push_back(r);
          const std::uint64_t bits = rng.next();
          raw[r].push_back({static_cast<std::uint32_t>(p),
                            io::eer_symbol(static_cast<int>(bits % sub), static_cast<int>((bits >> 8) % sub),
                                           split.encoding.symbol_bits)});
        }
      }
      for (index_t r = 0; r < g; ++r)
        streams[static_cast<std::size_t>(f * g + r)] =
            io::encode_eer_frame(raw[static_cast<std::size_t>(r)], pixels, split.encoding);
    } catch (...) {
      errors[static_cast<std::size_t>(f)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return streams;
}

} // namespace frost::sim
