// frost_simulate end to end: run the program, read everything it wrote back through the
// library, and check exit codes for bad input.
#include <sys/wait.h>

#include <cstdlib>

#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

int run(const std::string& args) {
  const std::string cmd = std::string(FROST_SIMULATE_EXE) + " " + args + " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(SimulateApp, ProjectionsReadBackWithTheirPoses) {
  test::TempDir d;
  const std::string root = d.file("proj");
  ASSERT_EQ(run("--mode projections --oroot " + root + " --box 32 --count 12 --max_shift 2 --ctf --snr 1 --sampling 3 --seed 4"), 0);
  const auto stack = io::read_stack(root + ".mrcs");
  EXPECT_EQ(stack.image.shape(), Shape::image(32, 32, 12));
  EXPECT_NEAR(stack.info.pixel_size[0], 3.0, 1e-6);
  const auto vol = io::read_volume(root + "_phantom.mrc");
  EXPECT_EQ(vol.image.shape(), Shape::volume(32, 32, 32));

  const auto star = meta::MetadataFile::read(root + ".star");
  const meta::Block& parts = meta::particle_block(star);
  ASSERT_EQ(parts.rows(), 12u);
  EXPECT_EQ(meta::particle_pixel_sizes(star)[0], 3.0);
  const auto names = parts.strings("rlnImageName");
  EXPECT_EQ(names[0], "000001@" + root + ".mrcs");
  // Each named image is the same as the stack's item.
  const auto third = io::read_image(names[2]);
  for (index_t i = 0; i < 32 * 32; ++i) ASSERT_EQ(third.image[i], stack.image[2 * 32 * 32 + i]);

  const auto xmd = meta::MetadataFile::read(root + ".xmd");
  const meta::Block& x = meta::particle_block(xmd);
  ASSERT_EQ(x.rows(), 12u);
  const auto rot_star = parts.doubles("rlnAngleRot"), rot_xmd = x.doubles("angleRot");
  const auto ox = parts.doubles("rlnOriginXAngst"), sx = x.doubles("shiftX");
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_NEAR(rot_star[i], rot_xmd[i], 1e-5);
    EXPECT_NEAR(ox[i], sx[i] * 3.0, 1e-4); // docs/formats.md#xmipp-and-relion-mapping: rlnOriginXAngst = shiftX * pixel size
    EXPECT_LE(std::abs(sx[i]), 2.0 + 1e-9);
  }
  EXPECT_TRUE(parts.has("rlnDefocusU"));

  // Same seed, same data; poses taken from the written STAR reproduce the clean images.
  ASSERT_EQ(run("--mode projections --oroot " + d.file("again") + " --box 32 --count 12 --max_shift 2 --ctf --snr 1 --sampling 3 --seed 4"), 0);
  const auto again = io::read_stack(d.file("again.mrcs"));
  for (index_t i = 0; i < again.image.size(); ++i) ASSERT_EQ(again.image[i], stack.image[i]);
  ASSERT_EQ(run("--mode projections --oroot " + d.file("a") + " --box 32 --seed 4 --sampling 3 --count 12 --max_shift 2"), 0);
  ASSERT_EQ(run("--mode projections --oroot " + d.file("b") + " --volume " + root + "_phantom.mrc --angles_from " +
                d.file("a.star") + " --sampling 3"),
            0);
  const auto a = io::read_stack(d.file("a.mrcs")), b = io::read_stack(d.file("b.mrcs"));
  ASSERT_EQ(a.image.shape(), b.image.shape());
  EXPECT_LT(test::relative_l2(b.image.data(), a.image.data(), static_cast<std::size_t>(a.image.size())), 1e-4);
}

TEST(SimulateApp, MovieAndTruthReadBack) {
  test::TempDir d;
  const std::string root = d.file("movie");
  ASSERT_EQ(run("--mode movie --oroot " + root + " --size 96 64 --frames 5 --trajectory T3 --gain --dose 2"), 0);
  const auto movie = io::read_stack(root + ".mrcs");
  EXPECT_EQ(movie.image.shape(), Shape::image(96, 64, 5));
  EXPECT_EQ(io::read_image(root + "_gain.mrc").image.shape(), Shape::image(96, 64));
  const auto truth = meta::MetadataFile::read(root + "_truth.star");
  EXPECT_EQ(truth.block("general").get_int("rlnImageSizeZ"), 5);
  const meta::Block& g = truth.block("global_shift");
  ASSERT_EQ(g.rows(), 5u);
  const auto sx = g.doubles("rlnMicrographShiftX"), dx = g.doubles("frostDisplacementX");
  EXPECT_EQ(sx[0], 0.0);
  EXPECT_NEAR(sx[4], -(dx[4] - dx[0]), 1e-5); // docs/conventions.md#shifts: shift to apply = -displacement
  EXPECT_EQ(truth.block("local_truth").rows(), 5u * 81u);
}

TEST(SimulateApp, ExitCodes) {
  test::TempDir d;
  EXPECT_EQ(run("--help"), 0);
  EXPECT_EQ(run("--mode phantom --oroot " + d.file("p") + " --box 16"), 0);
  EXPECT_EQ(io::read_volume(d.file("p.mrc")).image.shape(), Shape::volume(16, 16, 16));
  EXPECT_EQ(run("--mode phantom"), 2);                                  // missing --oroot
  EXPECT_EQ(run("--mode film --oroot x"), 2);                           // bad choice
  EXPECT_EQ(run("--mode movie --oroot x --size 8 8"), 2);               // too small
  EXPECT_EQ(run("--oroot " + d.file("q") + " --volume /nonexistent.mrc"), 3); // missing input
  // An output folder that cannot be made (a file stands in its way; a missing folder is made,
  // even at the root when the tests run as root).
  EXPECT_EQ(run("--oroot " + d.file("p.mrc") + "/q --box 16 --count 2"), 3);
}

} // namespace
} // namespace frost
