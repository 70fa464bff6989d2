#include "frost/motion/global_settings.hpp"

#include <cctype>
#include <cstdlib>

#include "frost/core/error.hpp"

namespace frost::motion {

namespace {

std::string lower(const std::string& s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

} // namespace

std::string to_string(FftSizeRule r) { return r == FftSizeRule::Exact ? "exact" : "fast"; }

std::string to_string(GlobalMode m) { return m == GlobalMode::Pairs ? "pairs" : "sum"; }

FftSizeRule parse_fft_size_rule(const std::string& text) {
  const std::string t = lower(text);
  if (t == "exact") return FftSizeRule::Exact;
  if (t == "fast") return FftSizeRule::Fast;
  if (t == "advisor") throw_usage_error("--fft-sizes advisor needs a GPU (--device); use fast or exact on the CPU");
  throw_usage_error("--fft-sizes: expected fast, exact or advisor but got '" + text + "'");
}

GlobalMode parse_global_mode(const std::string& text) {
  const std::string t = lower(text);
  if (t == "pairs") return GlobalMode::Pairs;
  if (t == "sum") return GlobalMode::Sum;
  throw_usage_error("--global-mode: expected pairs or sum but got '" + text + "'");
}

void parse_reference(const std::string& text, GlobalSettings& settings) {
  const std::string t = lower(text);
  if (t == "minimax") {
    settings.reference = ReferenceRule::Minimax;
  } else if (t == "first") {
    settings.reference = ReferenceRule::First;
  } else if (t == "middle") {
    settings.reference = ReferenceRule::Middle;
  } else {
    char* end = nullptr;
    const long v = std::strtol(t.c_str(), &end, 10);
    if (t.empty() || end == nullptr || *end != '\0' || v < 0 || v > 1000000)
      throw_usage_error("--reference: expected minimax, first, middle or a frame index but got '" + text + "'");
    settings.reference = ReferenceRule::Index;
    settings.reference_index = static_cast<int>(v);
  }
}

} // namespace frost::motion
