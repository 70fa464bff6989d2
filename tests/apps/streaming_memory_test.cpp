// Reconstruction streams its images (docs/reconstruct_fourier.md#memory): the peak resident memory
// of frost_reconstruct_fourier does not grow with the number of particles. 1,000 and 4,000
// projections of a 64³ phantom (16 and 66 MB of float32 stacks): the larger run's peak must stay
// within 10 % of the smaller one's (holding the 4,000 images would add the stack's 66 MB, about
// 40 %). Below about 1,000 such images the CPU insertion queue (at most 64 MiB of spectra) is not
// yet full, so the smaller run starts there. CPU; the scaled-down form of the 200,000 x 256² target.
#include <gtest/gtest.h>

#include <string>

#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

TEST(StreamingMemory, ReconstructionPeakDoesNotGrowWithTheParticles) {
  test::TempDir dir;
  const auto run = [&](const std::string& command, const std::string& log) {
    const test::Outcome o = test::run_program(command, dir.file(log), 300);
    EXPECT_EQ(o.exit_code, 0) << command << "\n" << o.err;
    return o;
  };
  run(std::string(FROST_SIMULATE_EXE) + " --mode phantom --box 64 --oroot " + dir.file("vol"), "vol");
  long peak[2] = {0, 0};
  const int counts[2] = {1000, 4000};
  for (int i = 0; i < 2; ++i) {
    const std::string root = dir.file("p" + std::to_string(counts[i]));
    run(std::string(FROST_SIMULATE_EXE) + " --mode projections --volume " + dir.file("vol.mrc") + " -n " +
            std::to_string(counts[i]) + " --oroot " + root,
        "sim" + std::to_string(i));
    const test::Outcome o = run(std::string(FROST_RECONSTRUCT_EXE) + " --device cpu --thr 2 -i " + root + ".star -o " +
                                    root + "_map.mrc",
                                "rec" + std::to_string(i));
    peak[i] = o.max_rss_kib;
    std::printf("%d images: peak resident memory %ld KiB\n", counts[i], peak[i]);
  }
  ASSERT_GT(peak[0], 0);
  EXPECT_LE(peak[1], peak[0] + peak[0] / 10) << "the peak grew with the number of particles";
}

} // namespace
} // namespace frost
