#pragma once
/// @file sample_batch.hpp
/// @brief A batch of prepared samples: the half-plane spectra of `capacity` images (CTF factor
/// applied), their optional per-pixel weight factors, and the traverse spaces of every (image,
/// symmetry element). One batch is what the insertion consumes in one call (step 7 of
/// docs/reconstruct_fourier.md#sample-preparation).
///
/// An image batch (--fftOnGPU, docs/reconstruct_fourier.md#cpu-and-gpu-split) holds the raw N x N
/// images, their shifts and CTF factors instead of the spectra: an accumulator that transforms on
/// its device (fft_on_device()) makes the samples itself with the per-pixel code of sample_math.hpp.
#include <vector>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/host_buffer.hpp"
#include "frost/fft/spec.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/settings.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

class SampleBatch {
public:
  SampleBatch() = default;
  /// Room for `capacity` images of `layout` with `symmetries` elements each. `with_gw`: keep
  /// the per-pixel weight factors (CTF modes). `memory`: pinned when a GPU reads the batch.
  SampleBatch(const GridLayout& layout, int capacity, int symmetries, bool with_gw,
              HostMemory memory = HostMemory::Pageable, bool images = false);

  const GridLayout& layout() const noexcept { return layout_; }
  int capacity() const noexcept { return capacity_; }
  int symmetries() const noexcept { return symmetries_; }
  bool has_gw() const noexcept { return with_gw_; }
  /// True for an image batch (raw images, shifts and CTF factors instead of spectra).
  bool holds_images() const noexcept { return images_; }
  /// Images prepared so far (slots 0..size-1 are valid).
  int size() const noexcept { return size_; }
  void set_size(int n);
  void clear() { set_size(0); }

  /// Slot `i`'s spectrum (fy rows of fx values) and weight factors.
  RealComplex* spectrum(int i) { return spectra_.data() + std::size_t(i) * pixels(); }
  const RealComplex* spectrum(int i) const { return spectra_.data() + std::size_t(i) * pixels(); }
  Real* gw(int i) { return with_gw_ ? gw_.data() + std::size_t(i) * pixels() : nullptr; }
  /// Image batch: slot `i`'s N x N image, its shift (x, y) [px] and CTF factors gf (nullptr
  /// without CTF).
  float* image(int i) { return raw_.data() + std::size_t(i) * image_pixels(); }
  double* shift(int i) { return shifts_.data() + 2 * std::size_t(i); }
  Real* gf(int i) { return with_gw_ && images_ ? gf_.data() + std::size_t(i) * pixels() : nullptr; }
  const float* images_data() const noexcept { return raw_.data(); }
  const double* shifts_data() const noexcept { return shifts_.data(); }
  const Real* gf_data() const noexcept { return with_gw_ && images_ ? gf_.data() : nullptr; }
  std::size_t image_pixels() const noexcept { return std::size_t(layout_.box) * layout_.box; }
  /// Traverse spaces of slot `i`: symmetries() of them.
  TraverseSpace* spaces(int i) { return spaces_.data() + std::size_t(i) * symmetries_; }

  /// All valid traverse spaces, image-major (slot 0's elements first).
  const TraverseSpace* spaces() const noexcept { return spaces_.data(); }
  int space_count() const noexcept { return size_ * symmetries_; }
  /// Raw host memory of the valid part, for uploads.
  const RealComplex* spectra_data() const noexcept { return spectra_.data(); }
  const Real* gw_data() const noexcept { return with_gw_ ? gw_.data() : nullptr; }
  std::size_t pixels() const noexcept { return std::size_t(layout_.fx) * layout_.fy; }

  /// The view the gather reads (host pointers).
  SampleView view() const;

private:
  GridLayout layout_;
  int capacity_ = 0, symmetries_ = 1, size_ = 0;
  bool with_gw_ = false, images_ = false;
  HostBuffer<RealComplex> spectra_;
  HostBuffer<float> raw_;
  HostBuffer<double> shifts_;
  HostBuffer<Real> gf_;
  HostBuffer<Real> gw_;
  HostBuffer<TraverseSpace> spaces_;
};

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
