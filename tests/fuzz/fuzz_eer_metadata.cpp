// Fuzz target: the EER acquisition XML (tag 65001), which reaches the reader unchecked. Any text
// must parse without a crash, and a dose is either given (finite, positive) or its missing items
// are named.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "frost/io/eer_metadata.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  const std::string xml(reinterpret_cast<const char*>(data), size);
  const io::EerAcquisition a = io::parse_eer_metadata(xml);
  for (const index_t frames : {index_t(0), index_t(1), index_t(1000)}) {
    const std::optional<double> dose = a.raw_frame_dose(frames);
    if (dose && !(std::isfinite(*dose) && *dose > 0)) {
      std::fprintf(stderr, "fuzz_eer_metadata: dose per raw frame %g is not finite and positive\n", *dose);
      std::abort();
    }
  }
  if (a.raw_frame_dose(1).has_value() != a.missing_for_dose().empty()) {
    std::fprintf(stderr, "fuzz_eer_metadata: a dose and the list of missing items disagree\n");
    std::abort();
  }
  return 0;
}
