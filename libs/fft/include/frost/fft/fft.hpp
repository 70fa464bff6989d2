#pragma once
/// @file fft.hpp
/// @brief Everything a user of frost::fft needs: specs, planners, plans, buffers, scaling.
#include "frost/fft/buffer.hpp"
#include "frost/fft/plan.hpp"
#include "frost/fft/planner.hpp"
#include "frost/fft/scale.hpp"
#include "frost/fft/spec.hpp"
#include "frost/fft/versions.hpp"
#include "frost/fft/wisdom.hpp"
