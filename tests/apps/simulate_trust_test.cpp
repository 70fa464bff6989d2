// frost_simulate trust (issue 25): an output named from --oroot never replaces --angles_from or
// --volume (exit 2 before any work); --angles_from needs all three angles (a missing tilt was
// written as 0) unless --missing_angles_zero; every size and value option is bounded before
// anything is allocated (--contrast 1e30 hung); the files of a run appear together or not at
// all. Each case asserts the exit code, that the message names the option or file, and that
// the inputs are byte-identical afterwards.
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/test/files.hpp"
#include "frost/test/log_capture.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

constexpr double kTimeout = 60; // seconds; a hang fails instead of blocking CI

using test::exists;
using test::listing;

class SimulateTrust : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_EQ(simulate("--mode projections --box 16 --count 10 --max_shift 1 --sampling 2 --seed 2 --oroot sim").exit_code, 0);
    for (const char* f : {"sim.mrcs", "sim.star", "sim.xmd", "sim_phantom.mrc"}) remember(file(f));
  }
  void TearDown() override {
    inputs_.expect_unchanged("after the test");
  }
  std::string file(const std::string& name) const { return dir_.file(name); }
  void remember(const std::string& path) {
    ASSERT_TRUE(exists(path)) << path;
    inputs_.add(path);
  }
  /// frost_simulate in the test's folder; stderr comes back in the outcome.
  test::Outcome simulate(const std::string& args) {
    const std::string log = file("run" + std::to_string(++runs_));
    return test::run_program("sh -c 'cd \"" + dir_.path() + "\" && exec " + FROST_SIMULATE_EXE + " " + args + "'", log,
                             kTimeout);
  }
  /// Files of the folder that a run may have written: not the inputs and not the run logs.
  std::vector<std::string> outputs() const {
    std::vector<std::string> out;
    for (const std::string& n : listing(dir_.path()))
      if (!inputs_.holds(file(n)) && n.compare(0, 3, "run") != 0) out.push_back(n);
    return out;
  }

  test::TempDir dir_;
  test::Snapshot inputs_;
  int runs_ = 0;
};

// Class 1: no file written from --oroot may be --angles_from or --volume.
TEST_F(SimulateTrust, OutputsNamingAnInputAreRefused) {
  struct Case {
    std::string args, names, other;
  };
  const std::vector<Case> cases = {
      {"--oroot sim --angles_from sim.star --volume sim_phantom.mrc", "the RELION metadata 'sim.star'", "--angles_from"},
      {"--oroot sim --angles_from sim.xmd --volume sim_phantom.mrc", "the Xmipp metadata 'sim.xmd'", "--angles_from"},
      {"--oroot sim --angles_from ./sim.star --volume sim_phantom.mrc --validate", "'sim.star'", "--angles_from"},
      {"--oroot vol --volume vol.mrcs --count 2", "the projection stack 'vol.mrcs'", "--volume"},
      {"--mode phantom --oroot sim_phantom --volume sim_phantom.mrc", "the phantom 'sim_phantom.mrc'", "--volume"},
      {"--oroot sim --angles_from sim.star", "the RELION metadata 'sim.star'", "--angles_from"},
  };
  ASSERT_EQ(::symlink("sim_phantom.mrc", file("vol.mrcs").c_str()), 0); // a volume named like an output
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const test::Outcome o = simulate(c.args);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_MENTIONS(o, c.names);
    EXPECT_MENTIONS(o, c.other);
  }
  EXPECT_EQ(outputs(), std::vector<std::string>{"vol.mrcs"});
}

// Class 2: --angles_from needs rot, tilt and psi; a missing one is an input error naming the file
// and label (nothing written), or 0 with --missing_angles_zero. Xmipp's legacy labels are read.
TEST_F(SimulateTrust, AnglesFromNeedsAllThreeAngles) {
  meta::MetadataFile f = meta::MetadataFile::read(file("sim.star"));
  meta::particle_block(f).remove_column("rlnAngleTilt");
  f.write(file("notilt.star"));
  remember(file("notilt.star"));
  const test::Outcome o = simulate("--oroot out --angles_from notilt.star --box 16");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_MENTIONS(o, "notilt.star");
  EXPECT_MENTIONS(o, "rlnAngleTilt");
  EXPECT_MENTIONS(o, "--missing_angles_zero");
  // The phantom was made before the poses were read: it went with the failed run.
  EXPECT_EQ(outputs(), std::vector<std::string>{});

  const test::Outcome z = simulate("--oroot zero --angles_from notilt.star --volume sim_phantom.mrc --sampling 2 "
                                   "--missing-angles-zero");
  ASSERT_EQ(z.exit_code, 0) << z.err;
  EXPECT_MENTIONS(z, "rlnAngleTilt");
  const meta::Block written = meta::particle_block(meta::MetadataFile::read(file("zero.star")));
  const meta::Block source = meta::particle_block(meta::MetadataFile::read(file("sim.star")));
  EXPECT_EQ(written.doubles("rlnAngleTilt"), std::vector<double>(10, 0.0));
  EXPECT_EQ(written.doubles("rlnAngleRot"), source.doubles("rlnAngleRot"));
  EXPECT_EQ(written.doubles("rlnAnglePsi"), source.doubles("rlnAnglePsi"));

  meta::MetadataFile x = meta::MetadataFile::read(file("sim.xmd"));
  meta::Block& b = meta::particle_block(x);
  for (const auto& [from, to] : {std::pair<const char*, const char*>{"angleRot", "rot"}, {"angleTilt", "tilt"}, {"anglePsi", "psi"}})
    b.rename_column(from, to);
  x.write(file("legacy.xmd"));
  remember(file("legacy.xmd"));
  const test::Outcome l = simulate("--oroot legacy_out --angles_from legacy.xmd --volume sim_phantom.mrc --sampling 2");
  ASSERT_EQ(l.exit_code, 0) << l.err;
  const meta::Block relayed = meta::particle_block(meta::MetadataFile::read(file("legacy_out.star")));
  for (const char* label : {"rlnAngleRot", "rlnAngleTilt", "rlnAnglePsi"}) {
    const auto a = relayed.doubles(label), s = source.doubles(label);
    ASSERT_EQ(a.size(), s.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], s[i], 1e-5) << label << " row " << i;
  }
}

// Class 8: every size and value option is bounded before anything is allocated: a usage error
// naming the option, at once (--contrast 1e30 hung), and no file.
TEST_F(SimulateTrust, SizesAndValuesAreBoundedBeforeAllocating) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--mode movie --size 32 32 --frames 2 --contrast 1e30", "--contrast"},
      {"--mode movie --size 32 32 --frames 2 --dose 1e30", "--dose"},
      {"--mode movie --size 32 32 --frames 2 --hf 1e30", "--hf"},
      {"--mode movie --size 32 32 --frames 2 --time_constant 1e30", "--time_constant"},
      {"--mode movie --size 100000 32 --frames 2", "--size"},
      {"--mode movie --size 65536 65536 --frames 100", "--frames"},
      {"--mode phantom --box 2048 --blobs 100000", "--blobs"},
      {"--count 100000000 --box 64", "--count"},
      {"--count 100000000 --volume sim_phantom.mrc", "--count"},
      {"--count 4 --box 16 --snr 1e-300", "--snr"},
      {"--count 4 --box 16 --max_shift 1e30", "--max_shift"},
      {"--count 4 --box 16 --max_shift 17", "--max_shift"},
      {"--count 4 --box 16 --ctf --defocus_range 0 1e30", "--defocus_range"},
      {"--count 4 --box 16 --ctf --voltage 1e30", "--voltage"},
      {"--count 4 --box 16 --ctf --cs 1e30", "--cs"},
      {"--count 4 --box 16 --sampling 1e30", "--sampling"},
  };
  for (const auto& [args, option] : cases) {
    SCOPED_TRACE(args);
    const test::Outcome o = simulate(args + " --oroot bounded");
    EXPECT_EQ(o.exit_code, 2) << o.status() << "\n" << o.err;
    EXPECT_MENTIONS(o, option);
    EXPECT_LT(o.seconds, 10.0);
  }
  EXPECT_EQ(outputs(), std::vector<std::string>{});
  // At the limits of the count model a small movie is quick.
  const test::Outcome edge = simulate("--mode movie --size 32 32 --frames 2 --contrast 10 --hf 10 --dose 1e4 --oroot edge");
  EXPECT_EQ(edge.exit_code, 0) << edge.status() << "\n" << edge.err;
}

// Class 10: the files of a run appear together, with no temporaries left beside them.
TEST_F(SimulateTrust, FilesOfARunAppearTogether) {
  ASSERT_EQ(simulate("--mode movie --size 32 32 --frames 2 --gain --oroot m").exit_code, 0);
  std::vector<std::string> names = outputs();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"m.mrcs", "m_gain.mrc", "m_truth.star"}));
  ASSERT_EQ(simulate("--count 3 --box 16 --oroot p").exit_code, 0);
  names = outputs();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"m.mrcs", "m_gain.mrc", "m_truth.star", "p.mrcs", "p.star", "p.xmd",
                                             "p_phantom.mrc"}));
}

} // namespace
} // namespace frost
