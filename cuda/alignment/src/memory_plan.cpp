// The memory budget of the CUDA aligner (docs/align_significant.md#memory-plan): bytes per batch image and
// per resident reference of the pipeline that runs, and the plan of B, the reference block and the
// image chunk (a pure function, tested without a GPU).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>

#include "align_sizes.hpp"
#include "frost/alignment/math/pose2d.hpp"
#include "frost/alignment/settings.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/alignment.hpp"
#include "frost/cuda/alignment_fused.hpp"
#include "frost/cuda/alignment_tiled.hpp"
#include "frost/fft/heuristic.hpp"
#include "frost/fft/size_advisor.hpp"

namespace frost::cuda {

using align::PairResult;
using align::Pose2;

namespace align_detail {

std::string mib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return buf;
}

int ring_transform_length(int samples) {
  if (fft::is_smooth(samples, fft::profile_for(fft::Policy::Portable, fft::Backend::Cuda))) return samples;
  fft::SizeQuery q;
  q.shape = {2 * static_cast<index_t>(samples), 1, 1};
  q.max_change_pct = 50;
  q.policy = fft::Policy::Portable;
  try {
    return static_cast<int>(fft::advise(q).shape.x);
  } catch (const std::exception&) {
    return 2 * samples; // correct, if not fast
  }
}

ShiftKind shift_kind(int x, int radius, bool fused, bool tiled_everywhere) {
  if (!fused) return ShiftKind::Cufft;
  const bool one_block = fused_align::shift_supported(x);
  if (one_block && !tiled_everywhere) return ShiftKind::OneBlock;
  if (tiled_shift::supported(x, radius)) return ShiftKind::Tiled;
  return one_block ? ShiftKind::OneBlock : ShiftKind::Cufft;
}

std::size_t reference_group(ShiftKind kind, std::size_t batch) { return kind == ShiftKind::Cufft ? batch : 1; }

std::size_t batch_bytes(int x, ShiftKind kind, int radius, bool fused_rot) {
  const Sizes z(x);
  std::size_t b = 2 * sizeof(Pose2) + 2 * sizeof(float); // poses and CCs
  switch (kind) {
  case ShiftKind::OneBlock: b += 2 * 4 * z.samples_total; break; // the polar samples between steps
  case ShiftKind::Tiled: // aligned images or their polar samples, the pair's column scratch, both
                         // trajectories' peak rows
    b += 2 * 4 * std::max(z.pixels, z.samples_total) + 8 * tiled_shift::column_scratch(x) +
         2 * 8 * tiled_shift::row_scratch(x, radius);
    break;
  case ShiftKind::Cufft: b += 2 * 4 * z.pixels + 8 * z.half + 4 * z.pixels; break; // + spectrum, correlation
  }
  if (!fused_rot) b += 4 * z.polar + 8 * z.polar_half                 // polar samples and ring spectra
                       + 8 * std::size_t(z.ring_half) + 4 * std::size_t(z.ring_length); // ring sums and rho
  return b;
}

std::size_t reference_bytes(int x, ShiftKind kind, bool fused_rot) {
  const Sizes z(x);
  const std::size_t rings =
      fused_rot ? std::size_t(z.rings) * fused_align::ring_values(fused_align::ring_length(z.samples)) : z.polar_half;
  return 4 * z.pixels + 8 * (kind != ShiftKind::Cufft ? z.pixels : z.half) + 8 * rings + 2 * sizeof(double);
}

} // namespace align_detail

using namespace align_detail;

namespace {
int radius_or_default(int x, int radius) { return radius >= 0 ? radius : x / 4; }
} // namespace

std::size_t align_batch_bytes_per_image(int x, bool fused, int radius) {
  radius = radius_or_default(x, radius);
  return batch_bytes(x, shift_kind(x, radius, fused, false), radius, fused);
}

std::size_t align_reference_bytes(int x, bool fused, int radius) {
  return reference_bytes(x, shift_kind(x, radius_or_default(x, radius), fused, false), fused);
}

AlignMemoryPlan plan_alignment_memory(int x, std::size_t n_ref, std::size_t n_img, int sets, std::size_t free_bytes,
                                      double fraction, std::size_t workspace, const CudaAlignOptions& opts,
                                      int radius) {
  FROST_EXPECTS(n_ref > 0 && n_img > 0 && sets >= 1, "plan_alignment_memory: empty problem");
  radius = radius_or_default(x, radius);
  const ShiftKind kind = shift_kind(x, radius, opts.fused, opts.tiled_shift_everywhere);
  const std::size_t bb = batch_bytes(x, kind, radius, opts.fused), rb = reference_bytes(x, kind, opts.fused);
  // Resident per image: its pixels, and what the first steps of every reference read: with the
  // fused rotation step its polar samples and half of its pair's ring spectra; half of its pair's
  // 2-D transform (fused or tiled shift step) or its R2C spectrum (cuFFT shift step).
  const Sizes zs(x);
  const std::size_t pair_rings = std::size_t(zs.rings) * fused_align::ring_length(zs.samples) * 8 / 2;
  std::size_t resident = 4 * zs.pixels + (kind != ShiftKind::Cufft ? 4 * zs.pixels : 8 * zs.half);
  if (opts.fused) resident += 4 * zs.samples_total + pair_rings;
  const std::size_t image_bytes = resident * std::size_t(sets);
  const double usable = fraction * double(free_bytes) - double(kReserveBytes) - double(workspace);
  auto fail = [&](const std::string& what) {
    std::ostringstream os;
    os << "CUDA aligner: " << what << " (" << x << " px images; " << mib(double(free_bytes)) << " free x "
       << fraction << " - " << mib(double(kReserveBytes)) << " reserve - " << mib(double(workspace))
       << " cuFFT work area); raise --gpu-mem-fraction or free the device";
    FROST_THROW(ExitCode::Device, os.str());
  };
  if (usable < double(bb + rb + image_bytes)) fail("not enough device memory for one image, reference and batch");
  const std::size_t avail = static_cast<std::size_t>(usable);
  AlignMemoryPlan p;
  p.batch = std::min<std::size_t>(
      {n_img, std::size_t(std::max(1, opts.max_batch)), std::max<std::size_t>(1, avail / 4 / bb)});
  std::size_t rest = avail - p.batch * bb;
  std::size_t block = std::min<std::size_t>({n_ref, std::size_t(std::max(1, opts.max_reference_block)),
                                             std::max<std::size_t>(1, rest / 2 / rb)});
  // cuFFT prepares references in groups of B (its plans have batch B): the block is then
  // allocated as a multiple of B. The fused steps prepare any count.
  const std::size_t group = reference_group(kind, p.batch);
  std::size_t cap = round_up(block, group);
  if (cap * rb > rest) { // the rounding must fit too
    block = std::max<std::size_t>(1, rest / rb / group * group);
    cap = round_up(block, group);
    if (cap * rb > rest) fail("not enough device memory for one reference block");
  }
  rest -= cap * rb;
  const std::size_t per_image = image_bytes + std::size_t(sets) * cap * sizeof(PairResult);
  p.image_chunk = std::min(n_img, rest / per_image);
  if (p.image_chunk == 0) fail("not enough device memory for the image chunk");
  if (p.image_chunk < p.batch) {
    p.batch = p.image_chunk;
    cap = round_up(block, reference_group(kind, p.batch));
  }
  p.reference_block = block;
  p.bytes = p.batch * bb + cap * rb + p.image_chunk * (image_bytes + std::size_t(sets) * cap * sizeof(PairResult));
  return p;
}

} // namespace frost::cuda
