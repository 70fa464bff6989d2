#include "frost/reconstruction/reconstruct.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "frost/core/error.hpp"
#include "frost/core/progress.hpp"
#include "frost/core/threads.hpp"
#include "frost/reconstruction/finalise.hpp"
#include "frost/reconstruction/sample_preparer.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Job {
  int grid;
  std::vector<std::size_t> particles;
};

/// First error wins; later ones are dropped. Workers poll stopped() to give up early.
class ErrorSlot {
public:
  void capture() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::current_exception();
    stop_ = true;
  }
  bool stopped() const { return stop_.load(); }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> stop_{false};
};

} // namespace

std::vector<HalfGrid> accumulate(const ReconstructionSettings& settings, const GridLayout& layout,
                                 const geom::SymmetryGroup& group,
                                 const std::vector<ParticleRecord>& particles, const ImageLoader& load,
                                 GridAccumulator& accumulator, const AccumulateOptions& options,
                                 PhaseTimes* times) {
  FROST_EXPECTS(options.grids == 1 || options.grids == 2, "options.grids == 1 || options.grids == 2");
  const int buffer = std::max(1, options.buffer_size);
  // Batches hold images of one grid only; jobs are made grid by grid in input order.
  std::vector<std::vector<std::size_t>> lists(options.grids);
  for (std::size_t i = 0; i < particles.size(); ++i) {
    if (settings.use_weights && particles[i].weight == 0.0) continue;
    lists[options.grids == 2 && particles[i].subset == 2 ? 1 : 0].push_back(i);
  }
  std::vector<Job> jobs;
  for (int g = 0; g < options.grids; ++g)
    for (std::size_t b = 0; b < lists[g].size(); b += buffer) {
      const std::size_t e = std::min(lists[g].size(), b + buffer);
      jobs.push_back({g, std::vector<std::size_t>(lists[g].begin() + b, lists[g].begin() + e)});
    }

  // The elements inserted per image, and the rotations the folded grids are summed over at the
  // end (grid_symmetry.hpp: exact grid subgroup, or the whole group in grid mode).
  const SymmetryPlan plan = plan_symmetry(group, settings.sym_mode);
  const geom::SymmetryGroup& inserted = plan.inserted;

  const int lanes = std::max(1, accumulator.lanes());
  const int threads = options.threads > 0 ? options.threads : num_threads();
  const int per_lane = std::max(1, threads / lanes);
  std::atomic<std::size_t> next{0};
  ErrorSlot error;
  std::mutex time_mutex;
  PhaseTimes total;

  auto run_lane = [&](int lane) {
    try {
      SampleBatch batch(layout, buffer, inserted.order(), settings.ctf != CtfMode::None, accumulator.host_memory(),
                        accumulator.fft_on_device());
      std::vector<std::unique_ptr<SamplePreparer>> preparers;
      std::vector<Image<float>> images(per_lane);
      for (int t = 0; t < per_lane; ++t)
        preparers.push_back(std::make_unique<SamplePreparer>(settings, layout, inserted));
      PhaseTimes mine;
      for (;;) {
        if (error.stopped()) break;
        const std::size_t j = next.fetch_add(1);
        if (j >= jobs.size()) break;
        const Job& job = jobs[j];
        const int count = static_cast<int>(job.particles.size());
        double load_s = 0, prep_s = 0;
#pragma omp parallel for num_threads(per_lane) schedule(static) reduction(+ : load_s, prep_s)
        for (int k = 0; k < count; ++k) {
          if (error.stopped()) continue;
          const int t = omp_get_thread_num();
          try {
            const ParticleRecord& p = particles[job.particles[k]];
            auto t0 = Clock::now();
            load(p, images[t]);
            auto t1 = Clock::now();
            const Image<float>& im = images[t];
            View<const float> view{im.data(), Shape::image(im.shape().x, im.shape().y)};
            preparers[t]->prepare(view, p, batch, k);
            load_s += std::chrono::duration<double>(t1 - t0).count();
            prep_s += seconds_since(t1);
          } catch (...) {
            error.capture();
          }
        }
        if (error.stopped()) break;
        batch.set_size(count);
        auto t2 = Clock::now();
        accumulator.insert(batch, job.grid, lane);
        mine.insert += seconds_since(t2);
        mine.load += load_s;
        mine.prepare += prep_s;
        if (options.progress) options.progress->advance(count);
      }
      std::lock_guard<std::mutex> lock(time_mutex);
      total.load += mine.load;
      total.prepare += mine.prepare;
      total.insert += mine.insert;
    } catch (...) {
      error.capture();
    }
  };

  if (lanes == 1) {
    run_lane(0);
  } else {
    std::vector<std::thread> workers;
    for (int l = 0; l < lanes; ++l) workers.emplace_back(run_lane, l);
    for (auto& w : workers) w.join();
  }
  error.rethrow();

  auto t3 = Clock::now();
  std::vector<HalfGrid> out;
  for (int g = 0; g < options.grids; ++g) out.emplace_back(layout);
  double symmetrise_s = 0;
  accumulator.finish_symmetrised(out, plan.grid, grid_symmetry_radius_sq(layout, grid_reach(settings)), &symmetrise_s);
  total.finish = seconds_since(t3) - symmetrise_s;
  total.symmetrise = symmetrise_s;
  if (times) {
    times->load += total.load;
    times->prepare += total.prepare;
    times->insert += total.insert;
    times->finish += total.finish;
    times->symmetrise += total.symmetrise;
  }
  return out;
}

Image<Real> reconstruct_cpu(const ReconstructionSettings& settings, const geom::SymmetryGroup& group,
                             View<const float> stack, const std::vector<ParticleRecord>& particles,
                             int buffer_size) {
  FROST_EXPECTS(stack.shape.n * stack.shape.z >= static_cast<index_t>(particles.size()), "stack.shape.n * stack.shape.z >= static_cast<index_t>(particles.size())");
  const GridLayout layout = make_grid_layout(settings);
  auto accumulator = make_cpu_accumulator(settings, layout, 1);
  const index_t n = stack.shape.x, plane = stack.shape.x * stack.shape.y;
  // particles[i] reads image i of the stack; the index travels in ParticleRecord::row.
  ImageLoader load = [&](const ParticleRecord& p, Image<float>& out) {
    if (out.shape().x != n || out.shape().y != stack.shape.y) out = Image<float>(Shape::image(n, stack.shape.y));
    std::copy(stack.data + static_cast<index_t>(p.row) * plane, stack.data + (static_cast<index_t>(p.row) + 1) * plane,
              out.data());
  };
  std::vector<ParticleRecord> indexed = particles;
  for (std::size_t i = 0; i < indexed.size(); ++i) indexed[i].row = i;
  AccumulateOptions opts;
  opts.buffer_size = buffer_size;
  auto grids = accumulate(settings, layout, group, indexed, load, *accumulator, opts);
  return finalise(grids[0], settings, layout);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
