#include "frost/fft/shell_sums.hpp"

#include <algorithm>

#include "frost/core/threads.hpp"

namespace frost::fft {

namespace {

/// Rows of the half spectrum are summed in this many fixed blocks, each on one thread.
constexpr int kRowBlocks = 64;

} // namespace

ShellSums shell_sums_from_array(const double* array, int rings) {
  const auto shells = static_cast<std::size_t>(shell_count(rings));
  ShellSums s;
  s.rings = rings;
  s.cross.assign(array, array + shells);
  s.power_a.assign(array + shells, array + 2 * shells);
  s.power_b.assign(array + 2 * shells, array + 3 * shells);
  s.band_a = array[3 * shells];
  s.band_b = array[3 * shells + 1];
  return s;
}

ShellSums shell_sums(const std::complex<float>* a, const std::complex<float>* b, index_t nx, index_t ny,
                     FrequencyBand band) {
  const int rings = shell_rings(nx, ny);
  const std::size_t size = shell_sums_array_size(rings);
  const long shells = shell_count(rings);
  const index_t hx = nx / 2 + 1;
  const index_t rows_per_block = (ny + kRowBlocks - 1) / kRowBlocks;
  std::vector<double> part(static_cast<std::size_t>(kRowBlocks) * size, 0.0);
#pragma omp parallel for num_threads(num_threads()) schedule(dynamic, 1)
  for (int block = 0; block < kRowBlocks; ++block) {
    double* p = part.data() + static_cast<std::size_t>(block) * size;
    const index_t y0 = block * rows_per_block, y1 = std::min(ny, y0 + rows_per_block);
    for (index_t y = y0; y < y1; ++y)
      for (index_t x = 0; x < hx; ++x) {
        const ShellElement e = shell_element(x, y, nx, ny);
        const std::size_t i = static_cast<std::size_t>(y * hx + x);
        const std::complex<double> A(a[i]), B(b[i]);
        const double pa = e.weight * std::norm(A), pb = e.weight * std::norm(B);
        const long s = shell_of(e.frequency, rings);
        if (s < shells) {
          p[s] += e.weight * (A * std::conj(B)).real();
          p[shells + s] += pa;
          p[2 * shells + s] += pb;
        }
        if (e.frequency >= band.lo && e.frequency <= band.hi) {
          p[3 * shells] += pa;
          p[3 * shells + 1] += pb;
        }
      }
  }
  std::vector<double> total(size, 0.0);
  for (int block = 0; block < kRowBlocks; ++block)
    for (std::size_t k = 0; k < size; ++k) total[k] += part[static_cast<std::size_t>(block) * size + k];
  return shell_sums_from_array(total.data(), rings);
}

} // namespace frost::fft
