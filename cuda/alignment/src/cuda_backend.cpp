// The CUDA backend of the all-pairs aligner (docs/align_significant.md#cuda-backend and
// #memory-plan). Host-compiler code: the tile loops, cuFFT plans (frost::fft, Backend::Cuda) and the
// launches of the fused steps (alignment_fused.hpp) or of the cuFFT pipeline (alignment_kernels.hpp);
// the memory plan is memory_plan.cpp. A batch of B images runs 2B trajectories: [0, B)
// rotation-first, [B, 2B) shift-first; in each half-iteration one half does a rotation step while the
// other does a shift step, so every cuFFT plan has batch B and the scratch holds one half at a time
// (the fused steps have no shared scratch: each order then runs on its own stream).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "align_sizes.hpp"
#include "frost/alignment/math/polar.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/alignment.hpp"
#include "frost/cuda/alignment_fused.hpp"
#include "frost/cuda/alignment_kernels.hpp"
#include "frost/cuda/alignment_tiled.hpp"
#include "frost/cuda/check.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/fft/planner.hpp"

namespace frost::cuda {

namespace {

using align::PairResult;
using align::Pose2;
using namespace align_detail;

class CudaAlignBackend final : public align::AlignmentBackend {
public:
  explicit CudaAlignBackend(const CudaAlignOptions& opts) : opts_(opts) {
    int count = 0;
    const cudaError_t st = cudaGetDeviceCount(&count);
    if (st != cudaSuccess) {
      cudaGetLastError();
      FROST_THROW(ExitCode::Device, std::string("CUDA aligner: no usable CUDA device (") + cudaGetErrorString(st) +
                                        "); use --device cpu");
    }
    if (opts.device < 0 || opts.device >= count)
      FROST_THROW(ExitCode::Device, "CUDA aligner: device " + std::to_string(opts.device) + " requested but " +
                                        std::to_string(count) + " CUDA device(s) are visible");
    if (!(opts.memory_fraction > 0 && opts.memory_fraction <= 1))
      FROST_THROW(ExitCode::Usage, "CUDA aligner: memory fraction must be in (0, 1]");
    cudaDeviceProp prop{};
    FROST_CUDA_CHECK(cudaGetDeviceProperties(&prop, opts.device));
    name_ = prop.name;
  }

  std::string describe() const override {
    std::ostringstream os;
    os << "cuda: device " << opts_.device << " (" << name_ << "), cuFFT " << cufft_version_text();
    return os.str();
  }

  void align_all(View<const float> references, View<const float> images, const align::AlignSettings& settings,
                 PairResult* results, const align::PairsDone& progress) override;

private:
  CudaAlignOptions opts_;
  std::string name_;
};

/// cuFFT plans of batch B for the steps that are not fused (external work area, shared:
/// everything runs on one stream).
struct Plans {
  fft::FftPlan r2c, c2r, ring_r2c, ring_c2r;
  std::size_t workspace = 0;
  Plans(fft::Planner& planner, const Sizes& z, std::size_t batch, bool shift_fft, bool ring_fft) {
    fft::PlanOptions o;
    o.external_workspace = true;
    const index_t b = static_cast<index_t>(batch);
    if (shift_fft) {
      r2c = planner.plan(fft::FftSpec::r2c(Shape{z.x, z.x, 1, b}), o);
      c2r = planner.plan(fft::FftSpec::c2r(Shape{z.x, z.x, 1, b}), o);
      workspace = std::max({workspace, r2c.workspace_bytes(), c2r.workspace_bytes()});
    }
    if (ring_fft) {
      ring_r2c = planner.plan(fft::FftSpec::r2c(Shape{z.ring_length, 1, 1, b * z.rings}), o);
      ring_c2r = planner.plan(fft::FftSpec::c2r(Shape{z.ring_length, 1, 1, b}), o);
      workspace = std::max({workspace, ring_r2c.workspace_bytes(), ring_c2r.workspace_bytes()});
    }
  }
};

void CudaAlignBackend::align_all(View<const float> references, View<const float> images,
                                 const align::AlignSettings& settings, PairResult* results,
                                 const align::PairsDone& progress) {
  namespace k = align_kernels;
  const Shape rs = references.shape, is = images.shape;
  if (rs.x != rs.y || is.x != is.y || rs.x != is.x || rs.z != 1 || is.z != 1)
    FROST_THROW(ExitCode::Runtime, "align_all: references " + to_string(rs) + " and images " + to_string(is) +
                                       " must be square 2-D images of one size");
  const int x = static_cast<int>(rs.x);
  if (x < 6 || x % 2 != 0)
    FROST_THROW(ExitCode::Runtime, "pair aligner: images must be even and at least 6 px (got " + std::to_string(x) +
                                       "x" + std::to_string(x) + ")");
  const std::size_t n_ref = static_cast<std::size_t>(rs.n), n_img = static_cast<std::size_t>(is.n);
  if (n_ref == 0 || n_img == 0) return;
  const Sizes z(x);
  const align::PolarGrid grid = align::make_polar_grid(x);
  const int sets = settings.check_mirrors ? 2 : 1;
  const int radius = settings.shift_radius(x);
  // Which steps are fused (alignment_fused.hpp) or tiled (alignment_tiled.hpp); the others run
  // the cuFFT pipeline.
  const bool fused_rot = opts_.fused;
  const ShiftKind kind = shift_kind(x, radius, opts_.fused, opts_.tiled_shift_everywhere);
  const bool fused_shift = kind == ShiftKind::OneBlock, tiled = kind == ShiftKind::Tiled;
  const bool cufft_shift = kind == ShiftKind::Cufft;
  // After a tiled shift step the rotation step reads polar samples that aligned_samples() draws
  // from the aligned image in shared memory (where its disc fits), else it samples the aligned image.
  const bool tiled_samples = tiled && fused_rot && fused_align::aligned_samples_supported(x);
  const int fused_ring_n = fused_align::ring_length(z.samples);

  DeviceGuard guard(opts_.device);
  Stream stream;
  const cudaStream_t st = stream.get();
  // The two orders of a batch are independent trajectories: with every step fused (no shared
  // scratch) each order runs on its own stream, so a shift-step block and a rotation-step block
  // share an SM (the first is latency-bound, the second bound by L1/shared memory).
  const bool two_streams = !cufft_shift && fused_rot;
  Stream order_stream[2];
  const cudaStream_t os[2] = {two_streams ? order_stream[0].get() : st, two_streams ? order_stream[1].get() : st};
  Event batch_ready(cudaEventDisableTiming), done0(cudaEventDisableTiming), done1(cudaEventDisableTiming);
  const Event* order_done[2] = {&done0, &done1};
  auto planner = fft::make_planner(fft::Backend::Cuda, opts_.device);

  // Memory plan (docs/align_significant.md#memory-plan): size B without work areas, make the plans,
  // re-plan with their work area; halve B while the work area does not fit.
  const std::size_t free_bytes = memory_info().first;
  AlignMemoryPlan mp =
      plan_alignment_memory(x, n_ref, n_img, sets, free_bytes, opts_.memory_fraction, 0, opts_, radius);
  std::unique_ptr<Plans> plans;
  for (;;) {
    plans = std::make_unique<Plans>(*planner, z, mp.batch, cufft_shift, !fused_rot);
    const AlignMemoryPlan again = plan_alignment_memory(x, n_ref, n_img, sets, free_bytes, opts_.memory_fraction,
                                                        plans->workspace, opts_, radius);
    if (again.batch >= mp.batch) { // the work area fits beside B: keep B and the plans
      mp.image_chunk = again.image_chunk;
      mp.reference_block = again.reference_block;
      break;
    }
    mp = again; // a smaller B (B decreases every round, and B = 1 always fits or throws)
  }
  const std::size_t B = mp.batch, chunk_cap = mp.image_chunk;
  const std::size_t block_cap = round_up(mp.reference_block, reference_group(kind, B));
  const int Bi = static_cast<int>(B);

  // Device buffers (zeroed once: FFTs of a partial batch read whole batches). The scratch of a
  // fused step lives in shared memory, so only the unfused steps get theirs.
  auto sized = [](bool needed, std::size_t n) { return needed ? n : std::size_t(1); };
  const std::size_t spec_per_ref = cufft_shift ? z.half : z.pixels;
  // Ring spectra per reference (see reference_rings) and per image pair (pair_rings: complex A + iB).
  const std::size_t rings_per_ref =
      fused_rot ? std::size_t(z.rings) * fused_align::ring_values(fused_ring_n) : z.polar_half;
  const std::size_t rings_per_pair = std::size_t(z.rings) * fused_ring_n;
  DeviceBuffer<std::byte> workspace(std::max<std::size_t>(plans->workspace, 1));
  DeviceBuffer<float> dev_images(std::size_t(sets) * chunk_cap * z.pixels);
  DeviceBuffer<float> ref_pixels(block_cap * z.pixels);
  DeviceBuffer<float2> ref_spec(block_cap * spec_per_ref), ref_polar(block_cap * rings_per_ref);
  const std::size_t pairs_cap = (chunk_cap + 1) / 2;
  DeviceBuffer<float2> raw_spectra(sized(!cufft_shift, std::size_t(sets) * pairs_cap * z.pixels));
  DeviceBuffer<double> ref_stats(2 * block_cap);
  // Between steps: aligned images (cuFFT or tiled shift step) or their polar samples (fused shift
  // step). The tiled step's scratch: each half's trajectory pairs' columns, each trajectory's rows.
  DeviceBuffer<float> aligned(sized(!fused_shift && !tiled_samples, 2 * B * z.pixels));
  DeviceBuffer<float> corr(sized(cufft_shift, B * z.pixels));
  const std::size_t half_pairs = (B + 1) / 2;
  DeviceBuffer<float2> tile_columns(sized(tiled, 2 * half_pairs * tiled_shift::column_scratch(x)));
  DeviceBuffer<float2> tile_rows(sized(tiled, 2 * B * tiled_shift::row_scratch(x, radius)));
  DeviceBuffer<float> samples(sized(fused_shift || tiled_samples, 2 * B * z.samples_total));
  // What the first steps from the identity read, the same for every reference, once per image
  // chunk: the raw images' polar samples and their pairs' ring spectra (fused rotation step), and
  // their R2C spectra (cuFFT shift step; the fused one reads raw_spectra).
  DeviceBuffer<float> raw_samples(sized(fused_rot, std::size_t(sets) * chunk_cap * z.samples_total));
  DeviceBuffer<float2> raw_rings(sized(fused_rot, std::size_t(sets) * pairs_cap * rings_per_pair));
  DeviceBuffer<float2> raw_half(sized(cufft_shift, std::size_t(sets) * chunk_cap * z.half));
  DeviceBuffer<float> polar(sized(!fused_rot, B * z.polar)), rho(sized(!fused_rot, B * z.ring_length));
  DeviceBuffer<float2> spec(sized(cufft_shift, B * z.half)), polar_spec(sized(!fused_rot, B * z.polar_half));
  DeviceBuffer<float2> sums(sized(!fused_rot, B * z.ring_half));
  DeviceBuffer<float2> tw_x(sized(!cufft_shift, std::size_t(x / 2))), tw_ring(sized(fused_rot, fused_ring_n / 2));
  DeviceBuffer<Pose2> poses(2 * B);
  DeviceBuffer<float> cc(2 * B);
  DeviceBuffer<PairResult> dev_results(std::size_t(sets) * block_cap * chunk_cap);
  DeviceBuffer<float> sin_t(std::size_t(z.samples)), cos_t(std::size_t(z.samples));
  for (auto* b : {&aligned, &corr, &polar, &rho, &ref_pixels}) b->zero_async(st);
  for (auto* b : {&spec, &polar_spec, &sums, &ref_spec, &ref_polar}) b->zero_async(st);
  if (!cufft_shift) fused_align::upload_twiddles(x, tw_x.data(), st);
  if (fused_rot) fused_align::upload_twiddles(fused_ring_n, tw_ring.data(), st);
  {
    std::vector<float> sv(std::size_t(z.samples)), cv(std::size_t(z.samples));
    for (int q = 0; q < z.samples; ++q) { // as the CPU estimator: float of the double sine and cosine
      const double phi = 2.0 * M_PI * q / z.samples;
      sv[std::size_t(q)] = static_cast<float>(std::sin(phi));
      cv[std::size_t(q)] = static_cast<float>(std::cos(phi));
    }
    sin_t.upload_async(sv.data(), sv.size(), st);
    cos_t.upload_async(cv.data(), cv.size(), st);
    stream.synchronize();
  }
  const fft::ExecOptions ex = on_stream(st, workspace.data());

  // One step of the trajectories [t0, t0 + b) (raw: their images). `first`: the pose is the
  // identity, the aligned image is the raw one; `next`: a later step reads the aligned image.
  // pre: the raw pairs' transforms of this batch (fused or tiled first shift step), or null; half: the
  // raw images' R2C spectra of this batch (cuFFT first shift step).
  auto shift_step = [&](int ref, std::size_t t0, const float* raw, const float2* pre, const float2* half, int b,
                        bool first, bool next, cudaStream_t hs) {
    if (fused_shift) {
      fused_align::shift_step(raw, first ? pre : nullptr, ref_spec.data() + std::size_t(ref) * spec_per_ref,
                              tw_x.data(), x, radius,
                              settings.subpixel, first, poses.data() + t0,
                              next ? samples.data() + t0 * z.samples_total : nullptr, grid, sin_t.data(), cos_t.data(),
                              b, hs);
      return;
    }
    float* d = aligned.data() + t0 * z.pixels;
    if (tiled) { // the next step (rotation) reads the aligned images' polar samples or samples them
      const std::size_t h = t0 == 0 ? 0 : 1;
      tiled_shift::shift_step(raw, first ? pre : nullptr, ref_spec.data() + std::size_t(ref) * spec_per_ref,
                              tw_x.data(), x, radius,
                              settings.subpixel, first, poses.data() + t0,
                              tile_columns.data() + h * half_pairs * tiled_shift::column_scratch(x),
                              tile_rows.data() + t0 * tiled_shift::row_scratch(x, radius), b, hs);
      if (next && tiled_samples)
        fused_align::aligned_samples(raw, poses.data() + t0, grid, sin_t.data(), cos_t.data(),
                                     samples.data() + t0 * z.samples_total, b, hs);
      else if (next)
        k::warp(raw, poses.data() + t0, d, x, b, hs);
      return;
    }
    const float2* rspec = ref_spec.data() + std::size_t(ref) * z.half;
    if (first) {
      k::shift_product(rspec, half, spec.data(), x, b, st);
    } else {
      plans->r2c.execute(d, spec.data(), ex);
      k::shift_product(rspec, spec.data(), spec.data(), x, b, st);
    }
    plans->c2r.execute(spec.data(), corr.data(), ex);
    k::shift_peak(corr.data(), x, radius, settings.subpixel, poses.data() + t0, nullptr, b, st);
    if (next) k::warp(raw, poses.data() + t0, d, x, b, st);
  };
  // raw_first: the raw images' polar samples (fused rotation step); rings_first: their pairs'
  // ring spectra, or null.
  auto rotation_step = [&](int ref, std::size_t t0, const float* raw, const float* raw_first,
                           const float2* rings_first, int b, bool first, bool next, cudaStream_t hs) {
    const float2* rings = ref_polar.data() + std::size_t(ref) * rings_per_ref;
    float* d = aligned.data() + t0 * z.pixels;
    if (fused_rot && first && rings_first) { // from the pairs' ring spectra
      fused_align::rotation_step_from_spectra(rings_first, rings, grid, tw_ring.data(), settings.subpixel,
                                              poses.data() + t0, b, hs);
    } else if (fused_rot && (first || fused_shift || tiled_samples)) {
      // from polar samples: the raw ones, or those the shift step (or aligned_samples) wrote
      const float* in = first ? raw_first : samples.data() + t0 * z.samples_total;
      fused_align::rotation_step(nullptr, in, rings, grid, sin_t.data(), cos_t.data(), tw_ring.data(),
                                 settings.subpixel, poses.data() + t0, b, hs);
    } else if (fused_rot) { // sampling the aligned image of the cuFFT shift step
      fused_align::rotation_step(d, nullptr, rings, grid, sin_t.data(), cos_t.data(), tw_ring.data(),
                                 settings.subpixel, poses.data() + t0, b, hs);
    } else {
      k::polar(first ? raw : d, grid, z.ring_length, sin_t.data(), cos_t.data(), polar.data(), b, st);
      plans->ring_r2c.execute(polar.data(), polar_spec.data(), ex);
      k::ring_sum(ref_polar.data() + std::size_t(ref) * z.polar_half, polar_spec.data(), sums.data(), z.rings,
                  z.ring_half, b, st);
      plans->ring_c2r.execute(sums.data(), rho.data(), ex);
      k::rotation_peak(rho.data(), z.samples, z.ring_length, settings.subpixel, poses.data() + t0, nullptr, b, st);
    }
    // Only the cuFFT shift step reads the aligned image: the fused and tiled ones warp the raw image
    // themselves.
    if (next && cufft_shift) k::warp(raw, poses.data() + t0, d, x, b, hs);
  };

  std::vector<float> mirrored;
  std::vector<PairResult> host(std::size_t(sets) * block_cap * chunk_cap);
  std::size_t done = 0;
  for (std::size_t c0 = 0; c0 < n_img; c0 += chunk_cap) {
    const std::size_t nc = std::min(chunk_cap, n_img - c0);
    dev_images.upload_async(images.data + c0 * z.pixels, nc * z.pixels, st);
    if (sets == 2) {
      mirrored.resize(nc * z.pixels);
      for (std::size_t i = 0; i < nc; ++i)
        align::mirror_x(images.data + (c0 + i) * z.pixels, x, x, mirrored.data() + i * z.pixels);
      FROST_CUDA_CHECK(cudaMemcpyAsync(dev_images.data() + chunk_cap * z.pixels, mirrored.data(),
                                       nc * z.pixels * sizeof(float), cudaMemcpyHostToDevice, st));
    }
    // Balanced batches: the same count of batches, each at most B images.
    const std::size_t n_batches = (nc + B - 1) / B, per_batch = (nc + n_batches - 1) / n_batches;
    // The first steps from the identity read what does not depend on the reference, computed
    // once per chunk: the raw images' polar samples and their pairs' transforms (pairs of the
    // chunk are those of every batch when batches start at even images).
    const bool pre_pairs = per_batch % 2 == 0 || n_batches == 1;
    for (int set = 0; set < sets; ++set) {
      const float* imgs = dev_images.data() + std::size_t(set) * chunk_cap * z.pixels;
      if (fused_rot) {
        float* set_samples = raw_samples.data() + std::size_t(set) * chunk_cap * z.samples_total;
        k::polar(imgs, grid, z.samples, sin_t.data(), cos_t.data(), set_samples, static_cast<int>(nc), st);
        if (pre_pairs)
          fused_align::pair_rings(set_samples, grid, tw_ring.data(),
                                  raw_rings.data() + std::size_t(set) * pairs_cap * rings_per_pair,
                                  static_cast<int>(nc), st);
      }
      if (fused_shift && pre_pairs)
        fused_align::pair_spectra(imgs, x, tw_x.data(), raw_spectra.data() + std::size_t(set) * pairs_cap * z.pixels,
                                  static_cast<int>(nc), st);
      if (tiled && pre_pairs)
        tiled_shift::spectra(imgs, 2, static_cast<int>(nc), x, tw_x.data(), tile_columns.data(),
                             static_cast<int>(2 * half_pairs),
                             raw_spectra.data() + std::size_t(set) * pairs_cap * z.pixels, st);
      if (cufft_shift) // the R2C plan has batch B: a last partial group goes through the scratch
        for (std::size_t g = 0; g < nc; g += B) {
          const std::size_t cnt = std::min(B, nc - g);
          float2* out = raw_half.data() + (std::size_t(set) * chunk_cap + g) * z.half;
          if (cnt == B) {
            plans->r2c.execute(imgs + g * z.pixels, out, ex);
            continue;
          }
          FROST_CUDA_CHECK(cudaMemcpyAsync(aligned.data(), imgs + g * z.pixels, cnt * z.pixels * sizeof(float),
                                           cudaMemcpyDeviceToDevice, st));
          plans->r2c.execute(aligned.data(), spec.data(), ex);
          FROST_CUDA_CHECK(cudaMemcpyAsync(out, spec.data(), cnt * z.half * sizeof(float2), cudaMemcpyDeviceToDevice,
                                           st));
        }
    }

    for (std::size_t r0 = 0; r0 < n_ref; r0 += mp.reference_block) {
      const std::size_t nr = std::min(mp.reference_block, n_ref - r0);
      // Reference block: pixels, F_R, G_R and statistics on the device
      // (docs/align_significant.md#reference-precomputation).
      ref_pixels.upload_async(references.data + r0 * z.pixels, nr * z.pixels, st);
      const int nri = static_cast<int>(nr);
      if (fused_shift)
        fused_align::reference_spectra(ref_pixels.data(), x, tw_x.data(), ref_spec.data(), nri, st);
      if (tiled)
        tiled_shift::spectra(ref_pixels.data(), 1, nri, x, tw_x.data(), tile_columns.data(),
                             static_cast<int>(2 * half_pairs), ref_spec.data(), st);
      if (fused_rot)
        fused_align::reference_rings(ref_pixels.data(), grid, sin_t.data(), cos_t.data(), tw_ring.data(),
                                     ref_polar.data(), nri, st);
      for (std::size_t g = 0; g < round_up(nr, B); g += B) { // cuFFT plans have batch B
        if (cufft_shift) plans->r2c.execute(ref_pixels.data() + g * z.pixels, ref_spec.data() + g * z.half, ex);
        if (!fused_rot) {
          k::polar(ref_pixels.data() + g * z.pixels, grid, z.ring_length, sin_t.data(), cos_t.data(), polar.data(),
                   Bi, st);
          plans->ring_r2c.execute(polar.data(), ref_polar.data() + g * z.polar_half, ex);
        }
      }
      k::statistics(ref_pixels.data(), static_cast<int>(z.pixels), ref_stats.data(), nri, st);

      for (std::size_t kr = 0; kr < nr; ++kr) {
        const int ref = static_cast<int>(kr);
        for (int set = 0; set < sets; ++set) {
          const float* set_images = dev_images.data() + std::size_t(set) * chunk_cap * z.pixels;
          for (std::size_t i0 = 0; i0 < nc; i0 += per_batch) {
            const int b = static_cast<int>(std::min(per_batch, nc - i0));
            const float* raw = set_images + i0 * z.pixels;
            const float* raw_first = raw_samples.data() + (std::size_t(set) * chunk_cap + i0) * z.samples_total;
            const float2* pre = !cufft_shift && pre_pairs
                                    ? raw_spectra.data() + (std::size_t(set) * pairs_cap + i0 / 2) * z.pixels
                                    : nullptr;
            const float2* rings_first =
                fused_rot && pre_pairs ? raw_rings.data() + (std::size_t(set) * pairs_cap + i0 / 2) * rings_per_pair
                                       : nullptr;
            const float2* half = raw_half.data() + (std::size_t(set) * chunk_cap + i0) * z.half;
            if (two_streams) { // the orders wait for the reference block and the last choose_order
              batch_ready.record(st);
              for (cudaStream_t h : os) FROST_CUDA_CHECK(cudaStreamWaitEvent(h, batch_ready.get(), 0));
            }
            // Both orders start from the raw image and the identity.
            k::init_poses(poses.data(), Bi, os[0]);
            k::init_poses(poses.data() + B, Bi, os[1]);
            const int iters = settings.iters;
            for (int it = 0; it < iters; ++it) {
              const bool first = it == 0, more = it + 1 < iters;
              rotation_step(ref, 0, raw, raw_first, rings_first, b, first, true, os[0]); // rotation-first half
              shift_step(ref, B, raw, pre, half, b, first, true, os[1]); // shift-first half
              shift_step(ref, 0, raw, pre, half, b, false, more, os[0]);
              rotation_step(ref, B, raw, raw_first, rings_first, b, false, more, os[1]);
            }
            const float* rp = ref_pixels.data() + kr * z.pixels;
            const double* rsd = ref_stats.data() + 2 * kr;
            for (int h = 0; h < 2; ++h) {
              const std::size_t t0 = h == 0 ? 0 : B;
              if (iters > 0) // the final aligned images, warped on the fly
                k::correlation_warped(rp, rsd, raw, poses.data() + t0, x, cc.data() + t0, b, os[h]);
              else
                k::correlation(rp, rsd, raw, static_cast<int>(z.pixels), cc.data() + t0, b, os[h]);
              if (two_streams) {
                order_done[h]->record(os[h]);
                FROST_CUDA_CHECK(cudaStreamWaitEvent(st, order_done[h]->get(), 0));
              }
            }
            PairResult* out = dev_results.data() + (std::size_t(set) * block_cap + kr) * chunk_cap + i0;
            k::choose_order(cc.data(), poses.data(), Bi, out, b, st);
          }
        }
      }
      // One download per tile; the mirror choice and --max-shift on the host (as CpuPairAligner::align).
      for (int set = 0; set < sets; ++set)
        FROST_CUDA_CHECK(cudaMemcpyAsync(host.data() + std::size_t(set) * block_cap * chunk_cap,
                                         dev_results.data() + std::size_t(set) * block_cap * chunk_cap,
                                         nr * chunk_cap * sizeof(PairResult), cudaMemcpyDeviceToHost, st));
      stream.synchronize();
      for (std::size_t kr = 0; kr < nr; ++kr)
        for (std::size_t i = 0; i < nc; ++i) {
          PairResult best = host[kr * chunk_cap + i];
          if (sets == 2) {
            const PairResult& m = host[(block_cap + kr) * chunk_cap + i];
            if (m.cc > best.cc) {
              best = m;
              best.flip = 1;
            }
          }
          if (settings.max_shift >= 0) {
            const align::PoseParameters p = align::pose_parameters(best.pose);
            if (std::hypot(double(p.shift_x), double(p.shift_y)) > settings.max_shift)
              best.cc = -std::numeric_limits<float>::infinity();
          }
          results[(r0 + kr) * n_img + c0 + i] = best;
        }
      done += nr * nc;
      if (progress) progress(done);
    }
  }
}

/// Several devices: references split into contiguous ranges (the remainder spread over the
/// first devices, so every reference is processed: quirk 1 of
/// docs/align_significant.md#known-quirks-of-the-reference-programs-we-do-not-copy), one host
/// thread per device.
class MultiDeviceBackend final : public align::AlignmentBackend {
public:
  MultiDeviceBackend(const CudaAlignOptions& opts, const std::vector<int>& devices) {
    for (std::size_t i = 0; i < devices.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (devices[i] == devices[j])
          FROST_THROW(ExitCode::Usage, "CUDA aligner: device " + std::to_string(devices[i]) + " listed twice");
    for (int id : devices) {
      CudaAlignOptions o = opts;
      o.device = id;
      parts_.push_back(std::make_unique<CudaAlignBackend>(o));
    }
  }

  std::string describe() const override {
    std::string out;
    for (const auto& p : parts_) out += (out.empty() ? "" : "; ") + p->describe();
    return out;
  }

  void align_all(View<const float> references, View<const float> images, const align::AlignSettings& settings,
                 PairResult* results, const align::PairsDone& progress) override {
    const std::size_t n_ref = static_cast<std::size_t>(references.shape.n);
    const std::size_t n_img = static_cast<std::size_t>(images.shape.n);
    const std::size_t pixels = static_cast<std::size_t>(references.shape.x * references.shape.y);
    const std::size_t n_dev = parts_.size();
    std::mutex mutex;
    std::vector<std::size_t> done(n_dev, 0);
    std::vector<std::exception_ptr> errors(n_dev);
    std::vector<std::thread> threads;
    for (std::size_t d = 0, r0 = 0; d < n_dev; ++d) {
      const std::size_t nr = n_ref / n_dev + (d < n_ref % n_dev ? 1 : 0);
      if (nr == 0) continue;
      View<const float> part{references.data + r0 * pixels, references.shape};
      part.shape.n = static_cast<index_t>(nr);
      PairResult* out = results + r0 * n_img;
      threads.emplace_back([&, d, part, out] {
        try {
          parts_[d]->align_all(part, images, settings, out, [&](std::size_t k) {
            if (!progress) return;
            std::lock_guard<std::mutex> lock(mutex);
            done[d] = k;
            std::size_t total = 0;
            for (std::size_t v : done) total += v;
            progress(total);
          });
        } catch (...) {
          errors[d] = std::current_exception();
        }
      });
      r0 += nr;
    }
    for (auto& t : threads) t.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }

private:
  std::vector<std::unique_ptr<CudaAlignBackend>> parts_;
};

} // namespace

std::unique_ptr<align::AlignmentBackend> make_cuda_align_backend(const CudaAlignOptions& opts) {
  return std::make_unique<CudaAlignBackend>(opts);
}

std::unique_ptr<align::AlignmentBackend> make_cuda_align_backend(const CudaAlignOptions& opts,
                                                                 const std::vector<int>& devices) {
  if (devices.empty()) FROST_THROW(ExitCode::Usage, "CUDA aligner: no device given");
  if (devices.size() == 1) {
    CudaAlignOptions o = opts;
    o.device = devices.front();
    return std::make_unique<CudaAlignBackend>(o);
  }
  return std::make_unique<MultiDeviceBackend>(opts, devices);
}

} // namespace frost::cuda
