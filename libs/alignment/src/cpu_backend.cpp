// CPU backend of the all-pairs aligner: references in blocks (their F_R, G_R and statistics
// are computed once per block), pairs of a block spread over OpenMP threads, one
// CpuPairAligner (scratch) per thread. Results do not depend on the thread count: each pair is
// computed by the same sequential code whatever thread runs it.
#include <omp.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <vector>

#include "frost/alignment/backend.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/fft/versions.hpp"

namespace frost::align {

namespace {

class CpuBackend : public AlignmentBackend {
public:
  explicit CpuBackend(int threads) : threads_(threads > 0 ? threads : num_threads()) {}

  std::string describe() const override {
    std::ostringstream os;
    os << "cpu: " << threads_ << " thread(s), " << fft::fftw_version();
    return os.str();
  }

  void align_all(View<const float> references, View<const float> images, const AlignSettings& settings,
                 PairResult* results, const PairsDone& progress) override {
    const Shape rs = references.shape, is = images.shape;
    if (rs.x != rs.y || is.x != is.y || rs.x != is.x || rs.z != 1 || is.z != 1)
      FROST_THROW(ExitCode::Runtime, "align_all: references " + to_string(rs) + " and images " + to_string(is) +
                                         " must be square 2-D images of one size");
    const int x = static_cast<int>(rs.x);
    const std::size_t n_ref = static_cast<std::size_t>(rs.n), n_img = static_cast<std::size_t>(is.n);
    const std::size_t pixels = std::size_t(x) * x;
    if (n_ref == 0 || n_img == 0) return;

    // Plans and scratch are made here, outside the parallel region, so nothing throws inside it.
    std::vector<std::unique_ptr<CpuPairAligner>> workers;
    for (int t = 0; t < threads_; ++t) workers.push_back(std::make_unique<CpuPairAligner>(x, x));

    std::vector<float> mirrored;
    if (settings.check_mirrors) {
      mirrored.resize(pixels * n_img);
      for (std::size_t i = 0; i < n_img; ++i) mirror_x(images.data + i * pixels, x, x, mirrored.data() + i * pixels);
    }

    // Reference blocks bound the memory of the precomputed spectra (about 2.5·X² floats each).
    const std::size_t block = std::max<std::size_t>(1, std::min<std::size_t>(n_ref, 64));
    std::vector<ReferenceData> data(block);
    std::size_t done = 0;
    for (std::size_t r0 = 0; r0 < n_ref; r0 += block) {
      const std::size_t nr = std::min(block, n_ref - r0);
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1)
      for (std::size_t k = 0; k < nr; ++k)
        workers[static_cast<std::size_t>(omp_get_thread_num())]->prepare_reference(
            references.data + (r0 + k) * pixels, data[k]);

      const std::size_t pairs = nr * n_img;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 4)
      for (std::size_t p = 0; p < pairs; ++p) {
        const std::size_t k = p / n_img, i = p % n_img;
        CpuPairAligner& w = *workers[static_cast<std::size_t>(omp_get_thread_num())];
        results[(r0 + k) * n_img + i] =
            w.align(data[k], images.data + i * pixels, mirrored.empty() ? nullptr : mirrored.data() + i * pixels,
                    settings);
      }
      done += pairs;
      if (progress) progress(done);
    }
  }

private:
  int threads_;
};

} // namespace

std::unique_ptr<AlignmentBackend> make_cpu_backend(int threads) { return std::make_unique<CpuBackend>(threads); }

} // namespace frost::align
