#pragma once
/// @file wisdom.hpp
/// @brief FFTW wisdom (single precision) shared by every CPU planner of the process.
///
/// Wisdom is planning knowledge that lets later FFTW_MEASURE/PATIENT plans of the same problem
/// skip the measurement. It is valid only for the same machine and the same FFTW build. Every
/// function here takes the process-wide FFTW planner lock.
#include <string>

namespace frost::fft {

/// @brief Adds the wisdom in `path` to the process.
/// @return false when the file does not exist.
/// @throw frost::Error(Input) when it exists but is not valid FFTW single-precision wisdom.
bool import_wisdom(const std::string& path);
/// @brief Writes all wisdom of the process to `path` atomically (temporary file + rename).
/// @throw frost::Error(Input) naming the path when it cannot be written.
void export_wisdom(const std::string& path);
/// Adds the system wisdom (/etc/fftw/wisdomf); false when there is none.
bool import_system_wisdom();
/// All wisdom of the process as text.
std::string wisdom_string();
/// Forgets all wisdom (plans already made are unaffected).
void forget_wisdom();

} // namespace frost::fft
