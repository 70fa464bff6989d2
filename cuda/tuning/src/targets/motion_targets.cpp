// frost_tune's movie-alignment targets: `ma_correlate` (pair products of the global alignment:
// every pair of the movie's frames in one launch) and `fourier_crop_filter` (crop + filter of one
// batch of frame spectra), at the working sizes of frost_movie_align's defaults (pixel size
// 1 Å, --maxResForCorrelation 30 Å) for the detectors of the movie benchmark: presets k3
// (5760 x 4092 x 30) and falcon (4096 x 4096 x 40).
#include <optional>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/motion_tuning.hpp"
#include "frost/cuda/tuning.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/working_sizes.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "targets.hpp"

namespace frost::tuning::detail {
namespace {

struct MoviePreset {
  index_t width, height;
  int frames;
};

MoviePreset parse_movie_preset(const std::string& kernel, const std::string& name) {
  if (name == "k3") return {5760, 4092, 30};
  if (name == "falcon") return {4096, 4096, 40};
  FROST_THROW(ExitCode::Usage, kernel + ": unknown preset '" + name + "' (k3, falcon)");
}

/// Frames per spectra batch: the pipeline's balanced batch of at most 16 (device_spectra.cpp).
int spectra_batch(int frames) {
  const int batches = (frames + 15) / 16;
  return (frames + batches - 1) / batches;
}

/// What both movie targets share: sizes, key and description.
class MovieTarget : public TuneTarget {
public:
  MovieTarget(KernelSpace space, const std::string& preset, int device)
      : space_(std::move(space)), preset_(parse_movie_preset(space_.kernel, preset)) {
    sizes_ = motion::working_sizes(preset_.width, preset_.height, motion::GlobalSettings{});
    const CudaDeviceInfo info = cuda_device_info(device);
    uuid_ = info.uuid;
    key_ = tuning::tuning_key(space_.kernel, space_.space, info, "");
    name_ = preset + " " + std::to_string(preset_.width) + "x" + std::to_string(preset_.height) + "x" +
            std::to_string(preset_.frames) + ": " + motion::to_string(sizes_);
  }
  const KernelSpace& space() const override { return space_; }
  const TuningKey& key() const override { return key_; }
  /// Pure kernels: every configuration computes each element with the same operations.
  double tolerance() const override { return 0.0; }
  std::string gpu_uuid() const override { return uuid_; }

protected:
  KernelSpace space_;
  MoviePreset preset_;
  motion::WorkingSizes sizes_;
  TuningKey key_;
  std::string name_, uuid_;
};

class CorrelateTarget final : public MovieTarget {
public:
  CorrelateTarget(const std::string& preset, int device)
      : MovieTarget(tuning::ma_correlate_space(cuda::device_limits(device)), preset, device) {
    const index_t cx = sizes_.correlation.x, cy = sizes_.correlation.y;
    const int pairs = preset_.frames * (preset_.frames - 1) / 2;
    key_.problem = cuda::ma_correlate_problem_key(cx, cy, pairs).str();
    bench_.emplace(cx, cy, preset_.frames, pairs, device);
    name_ += ", " + std::to_string(pairs) + " pairs per launch";
  }
  std::string describe() const override { return name_; }
  double sample_ms(const NamedConfig& c) override { return bench_->sample_ms(cuda::correlate_launch_from(c)); }
  double difference(const NamedConfig& c) override { return bench_->difference(cuda::correlate_launch_from(c)); }

private:
  std::optional<cuda::CorrelateKernelBench> bench_;
};

class CropFilterTarget final : public MovieTarget {
public:
  CropFilterTarget(const std::string& preset, int device)
      : MovieTarget(tuning::fourier_crop_filter_space(cuda::device_limits(device)), preset, device) {
    const int count = spectra_batch(preset_.frames);
    key_.problem = cuda::crop_filter_problem_key(sizes_.transform.x, sizes_.transform.y, sizes_.correlation.x,
                                                 sizes_.correlation.y, count)
                       .str();
    bench_.emplace(sizes_.transform.x, sizes_.transform.y, sizes_.correlation.x, sizes_.correlation.y, count, device);
    name_ += ", " + std::to_string(count) + " spectra per launch";
  }
  std::string describe() const override { return name_; }
  double sample_ms(const NamedConfig& c) override { return bench_->sample_ms(cuda::crop_filter_launch_from(c)); }
  double difference(const NamedConfig& c) override { return bench_->difference(cuda::crop_filter_launch_from(c)); }

private:
  std::optional<cuda::CropFilterKernelBench> bench_;
};

} // namespace

std::unique_ptr<TuneTarget> make_ma_correlate_target(const std::string& preset, int device) {
  return std::make_unique<CorrelateTarget>(preset, device);
}

std::unique_ptr<TuneTarget> make_crop_filter_target(const std::string& preset, int device) {
  return std::make_unique<CropFilterTarget>(preset, device);
}

} // namespace frost::tuning::detail
