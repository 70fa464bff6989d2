// Scratch-size models for CPU-only runs (docs/fft_advisor.md#options-batch-and-memory): the
// documented worst case (D9) and the paper's measured per-element figures (U8, U9).
#include <cmath>

#include "frost/fft/advisor_backend.hpp"
#include "frost/fft/heuristic.hpp"

namespace frost::fft {

namespace {

std::size_t complex_bytes(Precision p) { return p == Precision::F64 ? 16 : 8; }

std::size_t signal_elements(const Candidate& c) {
  return static_cast<std::size_t>(c.size.x) * static_cast<std::size_t>(c.size.y) *
         static_cast<std::size_t>(c.size.z);
}

class WorstCaseScratch final : public ScratchModel {
public:
  std::size_t scratch_bytes(const Candidate& c) const override {
    // D9: 8 complex elements (of the transform's precision) per signal element, times the batch.
    return 8 * signal_elements(c) * static_cast<std::size_t>(c.batch) * complex_bytes(c.precision);
  }
  std::string name() const override { return "worst"; }
};

/// True when every dimension is 7-smooth (the documentation's "recommended" sizes).
bool recommended(const Extent& e) {
  for (int d = 0; d < 3; ++d) {
    index_t m = e[d];
    for (index_t p : {2, 3, 5, 7})
      while (m % p == 0) m /= p;
    if (m != 1) return false;
  }
  return true;
}

class PaperScratch final : public ScratchModel {
public:
  std::size_t scratch_bytes(const Candidate& c) const override {
    const bool dbl = c.precision == Precision::F64;
    // kB per 1000 signal elements (U8, U9). The figures are binary kilobytes: 3.9 kB / 1000
    // elements is 4 bytes per element, 31.25 kB is exactly 32 bytes.
    double kb;
    if (!recommended(c.size))
      kb = dbl ? 63.0 : 31.0;
    else if (c.kind != Kind::C2C && c.size.x % 2 == 1)
      kb = dbl ? 31.25 : 15.62; // odd recommended real sizes (a = 0), U9
    else
      kb = dbl ? 7.8 : 3.9;
    const double elements = static_cast<double>(signal_elements(c)) * static_cast<double>(c.batch);
    return static_cast<std::size_t>(std::ceil(elements * kb * 1024.0 / 1000.0));
  }
  std::string name() const override { return "paper"; }
};

} // namespace

std::unique_ptr<ScratchModel> worst_case_scratch_model() { return std::make_unique<WorstCaseScratch>(); }
std::unique_ptr<ScratchModel> paper_scratch_model() { return std::make_unique<PaperScratch>(); }

} // namespace frost::fft
