#include "fft_storage.hpp"

#include <filesystem>
#include <utility>

#include "frost/core/log.hpp"
#include "frost/fft/fftw_wisdom_file.hpp"

namespace frost::movie_align {

std::string storage_directory(const std::string& path) {
  if (path.empty()) return {};
  namespace fs = std::filesystem;
  std::error_code ec;
  if (path.back() == '/' || fs::is_directory(path, ec)) {
    std::string dir = path;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    return dir;
  }
  const fs::path parent = fs::path(path).parent_path();
  return (parent.empty() ? fs::path("frost-cache") : parent / "frost-cache").string();
}

FftStorage::FftStorage(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  const bool loaded = fft::load_fftw_wisdom(dir_, fft::Precision::F32);
  log_info("--storage: FFT cache " + dir_ + (loaded ? " (FFTW wisdom loaded)" : " (no FFTW wisdom there yet)"));
}

void FftStorage::save() const {
  if (dir_.empty()) return;
  if (fft::save_fftw_wisdom(dir_, fft::Precision::F32))
    log_detail("--storage: FFTW wisdom saved to " + fft::fftw_wisdom_file(dir_, fft::Precision::F32));
}

} // namespace frost::movie_align
