// FFTW wisdom import/export, all under the process-wide planner lock.
#include "frost/fft/wisdom.hpp"

#include <fftw3.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "fftw_global.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"

namespace frost::fft {

bool import_wisdom(const std::string& path) {
  detail::fftw_init();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  const std::string text = read_text_file(path);
  std::lock_guard<std::mutex> lock(detail::fftw_mutex());
  if (fftwf_import_wisdom_from_string(text.c_str()) == 0)
    throw_input_error(path, "not valid FFTW single-precision wisdom");
  return true;
}

void export_wisdom(const std::string& path) { write_text_file_atomic(path, wisdom_string()); }

bool import_system_wisdom() {
  detail::fftw_init();
  std::lock_guard<std::mutex> lock(detail::fftw_mutex());
  return fftwf_import_system_wisdom() != 0;
}

std::string wisdom_string() {
  detail::fftw_init();
  std::lock_guard<std::mutex> lock(detail::fftw_mutex());
  std::unique_ptr<char, decltype(&std::free)> text(fftwf_export_wisdom_to_string(), &std::free);
  if (!text) FROST_THROW(ExitCode::Runtime, "fftwf_export_wisdom_to_string failed");
  return text.get();
}

void forget_wisdom() {
  detail::fftw_init();
  std::lock_guard<std::mutex> lock(detail::fftw_mutex());
  fftwf_forget_wisdom();
}

} // namespace frost::fft
