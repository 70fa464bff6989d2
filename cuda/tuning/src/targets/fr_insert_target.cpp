// frost_tune's `fr_insert` target: the reconstruction's column insertion kernel on a synthetic
// batch of the program's default size (--bufferSize 25 images, times the inserted symmetry
// elements), presets recon-<box>-<sym> for box 32..256 and C1 / I.
#include <cstdio>
#include <optional>

#include "frost/core/device.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/insert_tuning.hpp"
#include "frost/cuda/tuning.hpp"
#include "frost/geometry/symmetry.hpp"
#include "frost/reconstruction/grid_symmetry.hpp"
#include "frost/reconstruction/synthetic_problem.hpp"
#include "targets.hpp"

namespace frost::tuning::detail {
namespace {

/// The program's default batch (frost_reconstruct_fourier --bufferSize).
constexpr int kPresetImages = 25;

struct Preset {
  int box;
  std::string sym;
};

Preset parse_preset(const std::string& name) {
  for (int box : {32, 64, 128, 256})
    for (const char* sym : {"c1", "i"})
      if (name == "recon-" + std::to_string(box) + "-" + sym) return {box, sym};
  FROST_THROW(ExitCode::Usage, "fr_insert: unknown preset '" + name + "' (recon-<32|64|128|256>-<c1|i>)");
}

class FrInsertTarget final : public TuneTarget {
public:
  FrInsertTarget(const std::string& preset, int device) {
    const Preset p = parse_preset(preset);
    settings_.box = p.box;
    layout_ = recon::make_grid_layout(settings_);
    const geom::SymmetryGroup group = geom::parse_symmetry(p.sym == "i" ? "i" : "c1");
    const geom::SymmetryGroup inserted = recon::plan_symmetry(group, settings_.sym_mode).inserted;
    const auto images = recon::synthetic_images(p.box, 8);
    const auto particles = recon::synthetic_particles(kPresetImages, static_cast<std::uint32_t>(p.box) * 31u + 7u);
    batch_ = std::make_unique<recon::SampleBatch>(
        recon::prepared_batch(settings_, layout_, inserted, images, particles, kPresetImages, HostMemory::Pageable));
    const CudaDeviceInfo info = cuda_device_info(device);
    uuid_ = info.uuid;
    space_.emplace(cuda::fr_insert_kernel_space(settings_, cuda::device_limits(device)));
    key_ = tuning::tuning_key(space_->kernel, space_->space, info,
                              cuda::fr_insert_problem_key(settings_, layout_, batch_->space_count()).str());
    bench_ = std::make_unique<cuda::InsertKernelBench>(settings_, layout_, *batch_, device,
                                                        cuda::insert_launch_from(space_->default_config));
    describe_ = preset + ": " + recon::describe(layout_) + ", " + std::to_string(kPresetImages) + " images x " +
                std::to_string(inserted.order()) + " symmetry elements = " + std::to_string(batch_->space_count()) +
                " traverse spaces per launch";
  }

  const KernelSpace& space() const override { return *space_; }
  const TuningKey& key() const override { return key_; }
  std::string describe() const override { return describe_; }
  /// Float atomics sum a voxel's contributions in a launch-dependent order; the sums of a
  /// voxel differ by a few ulps of the largest partial sum (measured worst on an H100 goes in
  /// the note), well inside 1e-5 of the cube's largest value.
  double tolerance() const override { return 1e-5; }
  double sample_ms(const NamedConfig& c) override { return bench_->sample_ms(cuda::insert_launch_from(c)); }
  double difference(const NamedConfig& c) override { return bench_->difference(cuda::insert_launch_from(c)); }
  std::string gpu_uuid() const override { return uuid_; }

private:
  recon::ReconstructionSettings settings_;
  recon::GridLayout layout_;
  std::unique_ptr<recon::SampleBatch> batch_;
  std::optional<KernelSpace> space_; ///< set in the constructor (no default-constructed space)
  TuningKey key_;
  std::unique_ptr<cuda::InsertKernelBench> bench_;
  std::string describe_, uuid_;
};

} // namespace

std::unique_ptr<TuneTarget> make_fr_insert_target(const std::string& preset, int device) {
  return std::make_unique<FrInsertTarget>(preset, device);
}

} // namespace frost::tuning::detail
