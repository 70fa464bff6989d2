#include "frost/motion/local_settings.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

std::string to_string(LocalModelKind kind) { return kind == LocalModelKind::Total ? "total" : "residual"; }

LocalModelKind parse_local_model(const std::string& text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (t == "residual") return LocalModelKind::Residual;
  if (t == "total") return LocalModelKind::Total;
  throw_usage_error("--local-model: expected residual or total but got '" + text + "'");
}

int patch_working_size(double requested, FftSizeRule rule, int limit) {
  if (!(requested > 0) || !std::isfinite(requested))
    throw_usage_error("the requested patch size (--minLocalRes / pixel size) must be positive");
  const auto minimum = static_cast<index_t>(std::ceil(requested - 1e-9));
  index_t p = minimum + (minimum % 2);
  if (rule == FftSizeRule::Fast) p = next_fast_even_size(p);
  const index_t even_limit = limit - (limit % 2);
  // A fast size may overshoot a frame that still holds the requested edge: use the frame's even
  // size then (the patch grid reports frames smaller than the request itself).
  if (p > even_limit && minimum <= even_limit) p = even_limit;
  return static_cast<int>(std::max<index_t>(p, 2));
}

} // namespace frost::motion
