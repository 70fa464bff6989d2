#pragma once
// --storage (docs/movie_align.md#command-line; Xmipp's --storage, which Scipion sets to
// <extra>/fftBenchmark.txt): where frost_movie_align keeps its persistent FFT cache.
#include <string>

namespace frost::movie_align {

/// @brief The cache directory for --storage `path` (default $FROST_STORAGE; "" = none): an
/// existing directory, or a path ending in '/', is the directory itself; any other path names a
/// file (Xmipp's cuFFT benchmark file) and the cache goes to the `frost-cache` folder beside it:
/// `<extra>/fftBenchmark.txt` -> `<extra>/frost-cache`. Nothing is written at `path` itself.
std::string storage_directory(const std::string& path);

/// @brief The FFTW wisdom of one run: loaded from `dir` (fftw_wisdom_file(), the file that
/// `frost_fft_advisor wisdom --cache-dir DIR` prepares) when made, saved back by save(). FFTW
/// plans then follow that wisdom. An empty `dir` does nothing.
class FftStorage {
public:
  explicit FftStorage(std::string dir);
  void save() const;

private:
  std::string dir_;
};

} // namespace frost::movie_align
