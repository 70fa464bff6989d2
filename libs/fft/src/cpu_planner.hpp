#pragma once
// The CPU (FFTW) planner, made by make_planner(Backend::Cpu).
#include <memory>

#include "frost/fft/planner.hpp"

namespace frost::fft::detail {

std::shared_ptr<Planner> make_cpu_planner();

} // namespace frost::fft::detail
