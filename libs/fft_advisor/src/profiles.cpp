// The built-in size profiles with their kernel-model constants (docs/fft_advisor.md#profiles).
// Changing any constant here changes answers: bump the profile's version (part of every cache key).
#include <algorithm>

#include "frost/core/error.hpp"
#include "frost/fft/advisor_types.hpp"

namespace frost::fft {

namespace {

/// CUDA 12 launch caps per prime, [0] float and [1] double.
std::array<std::map<int, int>, 2> cuda12_caps() {
  return {std::map<int, int>{{2, 11}, {3, 7}, {5, 4}, {7, 3}, {11, 3}},
          std::map<int, int>{{2, 11}, {3, 6}, {5, 5}, {7, 4}, {11, 3}}};
}

Profile make_cuda12() {
  Profile p;
  p.name = "cuda12";
  p.version = "cuda12-r1";
  p.primes = {2, 3, 5, 7, 11};
  p.real_rule = EvenRule::AboveRegular;
  p.complex_rule = EvenRule::AboveRegular;
  p.has_kernel_model = true;
  p.regular_limit = {5103, 2187}; // 3^6 x 7 and 3^7: every size up to these is one launch
  p.caps = cuda12_caps();
  return p;
}

Profile make_cuda8() {
  Profile p;
  p.name = "cuda8";
  p.version = "cuda8-r1";
  p.primes = {2, 3, 5, 7};
  p.real_rule = EvenRule::Always; // the paper's version made every candidate even
  p.complex_rule = EvenRule::Always;
  p.has_kernel_model = true;
  p.regular_limit = {0, 0};
  p.caps = {std::map<int, int>{{2, 10}, {3, 6}, {5, 3}, {7, 3}},
            std::map<int, int>{{2, 9}, {3, 5}, {5, 3}, {7, 3}}};
  return p;
}

Profile make_portable() {
  Profile p;
  p.name = "portable";
  p.version = "portable-r1";
  p.primes = {2, 3, 5, 7}; // what cuFFT and FFTW both handle well
  p.real_rule = EvenRule::Always;
  p.complex_rule = EvenRule::AboveRegular;
  p.has_kernel_model = true;
  p.regular_limit = {5103, 2187};
  p.caps = cuda12_caps();
  for (auto& caps : p.caps) caps.erase(11); // CUDA 12 constants restricted to 2, 3, 5, 7
  return p;
}

Profile make_fftw() {
  Profile p;
  p.name = "fftw";
  p.version = "fftw-r1";
  p.primes = {2, 3, 5, 7};
  p.single_extra_primes = {11, 13}; // FFTW manual: e + f of 11^e 13^f is 0 or 1
  p.real_rule = EvenRule::Always;   // frost's rule for the CPU r2c path (docs/fft_advisor.md#sizes-fftw-handles-well)
  p.complex_rule = EvenRule::Never;
  p.has_kernel_model = false;
  p.regular_limit = {0, 0};
  return p;
}

const std::vector<Profile>& profiles() {
  static const std::vector<Profile> all = {make_cuda12(), make_cuda8(), make_portable(), make_fftw()};
  return all;
}

} // namespace

const Profile& builtin_profile(const std::string& name) {
  for (const Profile& p : profiles())
    if (p.name == name) return p;
  std::string known;
  for (const Profile& p : profiles()) known += (known.empty() ? "" : ", ") + p.name;
  throw_usage_error("unknown FFT size profile '" + name + "' (known: " + known + ")");
}

std::vector<std::string> builtin_profile_names() {
  std::vector<std::string> names;
  for (const Profile& p : profiles()) names.push_back(p.name);
  return names;
}

} // namespace frost::fft
