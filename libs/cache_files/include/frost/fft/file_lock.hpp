#pragma once
/// @file file_lock.hpp
/// @brief The old names of two cache helpers, now in frost/cache/ (namespace frost::cache). Only
/// apps/tune still uses them; it moves to frost/cache/ with the apps-side work of the backend
/// seam, and this header goes then. Nothing else may include it.
#include "frost/cache/text_hash.hpp"
#include "frost/cache/timestamps.hpp"

namespace frost::fft::detail {

using cache::hex64;
using cache::iso8601_at;

} // namespace frost::fft::detail
