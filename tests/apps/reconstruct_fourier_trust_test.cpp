// frost_reconstruct_fourier trust (issue 25): no run destroys an input, no run finishes with a
// silently wrong map. One class per test: an output naming an input (exit 2 before any work);
// missing angle columns and Xmipp's legacy labels; the pixel size of Xmipp files; pixels that
// overflow the reconstruction and a non-finite map (never written); an empty half set; files
// checked before the work and outputs written as a set; an optics image size that disagrees with
// the stack; a row with an extra value; a relative image path beside the STAR file winning over a
// same-named file in the working directory. Every case asserts the exit code, that the message
// names the file or option, and that the inputs are byte-identical afterwards. Data: 24
// projections of a 16^3 phantom at 2 A/px from frost_simulate.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/io/image_io.hpp"
#include "frost/io/mrc_writer.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/test/files.hpp"
#include "frost/test/log_capture.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"
#include "outputs.hpp"

namespace frost {
namespace {

constexpr double kTimeout = 120; // seconds for any single program run

using test::exists;

/// Runs `exe args` in the folder `cwd`; stdout and stderr come back in the outcome.
test::Outcome run_in(const std::string& cwd, const std::string& exe, const std::string& args) {
  static int counter = 0;
  const std::string log = cwd + "/run" + std::to_string(++counter);
  return test::run_program("sh -c 'cd \"" + cwd + "\" && exec " + exe + " " + args + "'", log, kTimeout);
}

double rel_l2(const Image<float>& a, const Image<float>& b) {
  return test::relative_l2(a.data(), b.data(), static_cast<std::size_t>(a.size()));
}

/// The simulated data set, made once per test process, and a record of the bytes of every
/// input so that each test can assert that none changed.
class ReconstructTrust : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    const test::Outcome o = run_in(dir_->path(), FROST_SIMULATE_EXE,
                                   "--mode projections --box 16 --count 24 --sampling 2 --seed 3 --oroot sim");
    ASSERT_EQ(o.exit_code, 0) << o.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    for (const char* f : {"sim.mrcs", "sim.star", "sim.xmd", "sim_phantom.mrc"}) remember(file(f));
  }
  void TearDown() override {
    inputs_.expect_unchanged("after the test");
  }

  static std::string file(const std::string& name) { return dir_->file(name); }
  /// Records `path`'s bytes now; TearDown asserts that they are the same at the end.
  void remember(const std::string& path) {
    ASSERT_TRUE(exists(path)) << path;
    inputs_.add(path);
  }
  /// frost_reconstruct_fourier on the CPU with one thread, in the data folder.
  static test::Outcome reconstruct(const std::string& args) {
    return run_in(dir_->path(), FROST_RECONSTRUCT_EXE, "--device cpu --thr 1 " + args);
  }
  /// sim.star (or sim.xmd) changed by `edit`, written as `name` in the data folder.
  template <class Edit>
  void derived(const std::string& from, const std::string& name, Edit edit) {
    meta::MetadataFile f = meta::MetadataFile::read(file(from));
    edit(f);
    f.write(file(name));
    remember(file(name));
  }

  static test::TempDir* dir_;
  test::Snapshot inputs_;
};
test::TempDir* ReconstructTrust::dir_ = nullptr;

// Class 1: an output naming an input (or another output) is a usage error before any work,
// whatever the spelling (a symbolic link), also under --validate; nothing is written.
TEST_F(ReconstructTrust, OutputNamingAnInputIsRefusedBeforeAnyWork) {
  ASSERT_EQ(::symlink("sim.mrcs", file("link.mrcs").c_str()), 0);
  ASSERT_EQ(::symlink("sim_phantom.mrc", file("h_half1.mrc").c_str()), 0);
  struct Case {
    std::string args, names, other;
  };
  const std::vector<Case> cases = {
      {"-i sim.star -o sim.mrcs", "-o 'sim.mrcs'", "image stack of sim.star"},
      {"-i sim.star -o link.mrcs", "-o 'link.mrcs'", "image stack of sim.star"},
      {"-i sim.xmd -o sim.mrcs", "-o 'sim.mrcs'", "image stack of sim.xmd"},
      {"-i sim.star -o sim.mrcs --validate", "-o 'sim.mrcs'", "image stack of sim.star"},
      {"-i sim.star -o m.mrc --save_weights sim.star", "--save_weights 'sim.star'", "-i 'sim.star'"},
      {"-i sim.star -o sim_phantom.mrc --reference sim_phantom.mrc", "-o 'sim_phantom.mrc'", "--reference"},
      {"-i sim.star -o h.mrc --halves --reference sim_phantom.mrc", "half map 1 'h_half1.mrc'", "--reference"},
      {"-i sim.star -o w.mrc --halves --save_weights w_half2.mrc", "half map 2 'w_half2.mrc'", "--save_weights"},
      {"-i sim.star -o p.mrc --pictures --reference sim_phantom.mrc --halves --save_weights p_fsc.txt",
       "'p_fsc.txt'", "--save_weights"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const test::Outcome o = reconstruct(c.args);
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_MENTIONS(o, c.names);
    EXPECT_MENTIONS(o, c.other);
    EXPECT_EQ(o.err.find("reconstruction: N"), std::string::npos) << "the work ran: " << o.err;
  }
  for (const char* f : {"m.mrc", "h.mrc", "w.mrc", "w_half1.mrc", "p.mrc", "p_fsc.star"})
    EXPECT_FALSE(exists(file(f))) << f;
}

// Class 2: a reconstruction needs all three angles; a missing column is an input error naming
// the file and the label unless --missing_angles_zero says it means 0.
TEST_F(ReconstructTrust, MissingAngleColumnsAreAnErrorUnlessTheOptionSaysZero) {
  derived("sim.star", "notilt.star", [](meta::MetadataFile& f) { meta::particle_block(f).remove_column("rlnAngleTilt"); });
  derived("sim.star", "noangles.star", [](meta::MetadataFile& f) {
    for (const char* l : {"rlnAngleRot", "rlnAngleTilt", "rlnAnglePsi"}) meta::particle_block(f).remove_column(l);
  });
  derived("sim.xmd", "nopsi.xmd", [](meta::MetadataFile& f) { meta::particle_block(f).remove_column("anglePsi"); });
  derived("sim.star", "zerotilt.star", [](meta::MetadataFile& f) {
    meta::Block& b = meta::particle_block(f);
    b.set_column("rlnAngleTilt", std::vector<double>(b.rows(), 0.0));
  });

  const test::Outcome a = reconstruct("-i notilt.star -o a.mrc");
  EXPECT_EQ(a.exit_code, 3) << a.err;
  EXPECT_MENTIONS(a, "notilt.star");
  EXPECT_MENTIONS(a, "rlnAngleTilt");
  EXPECT_MENTIONS(a, "--missing_angles_zero");
  const test::Outcome b = reconstruct("-i noangles.star -o b.mrc");
  EXPECT_EQ(b.exit_code, 3) << b.err;
  EXPECT_MENTIONS(b, "noangles.star: no rlnAngleRot, rlnAngleTilt, rlnAnglePsi column");
  const test::Outcome c = reconstruct("-i nopsi.xmd -o c.mrc");
  EXPECT_EQ(c.exit_code, 3) << c.err;
  EXPECT_MENTIONS(c, "nopsi.xmd");
  EXPECT_MENTIONS(c, "anglePsi");
  for (const char* f : {"a.mrc", "b.mrc", "c.mrc"}) EXPECT_FALSE(exists(file(f))) << f;

  // With the option a missing tilt is 0, exactly as a tilt column of zeros, and the log says so.
  const test::Outcome z = reconstruct("-i notilt.star -o z.mrc --missing-angles-zero");
  ASSERT_EQ(z.exit_code, 0) << z.err;
  EXPECT_MENTIONS(z, "rlnAngleTilt");
  ASSERT_EQ(reconstruct("-i zerotilt.star -o zt.mrc").exit_code, 0);
  EXPECT_EQ(rel_l2(io::read_volume(file("z.mrc")).image, io::read_volume(file("zt.mrc")).image), 0.0);
}

// Class 2: Xmipp's legacy labels rot/tilt/psi (and Xoff/Yoff) are read, not taken as 0.
TEST_F(ReconstructTrust, XmippLegacyAngleLabelsAreRead) {
  derived("sim.xmd", "legacy.xmd", [](meta::MetadataFile& f) {
    meta::Block& b = meta::particle_block(f);
    const std::pair<const char*, const char*> renames[] = {
        {"angleRot", "rot"}, {"angleTilt", "tilt"}, {"anglePsi", "psi"}, {"shiftX", "Xoff"}, {"shiftY", "Yoff"}};
    for (const auto& [from, to] : renames) b.rename_column(from, to);
  });
  ASSERT_EQ(reconstruct("-i sim.xmd -o current.mrc").exit_code, 0);
  const test::Outcome o = reconstruct("-i legacy.xmd -o legacy.mrc");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err.find("warning"), std::string::npos) << o.err;
  EXPECT_EQ(rel_l2(io::read_volume(file("legacy.mrc")).image, io::read_volume(file("current.mrc")).image), 0.0);
}

// Class 5: the pixel size of an Xmipp file is its samplingRate (the map came out at 1 A/px);
// --sampling still wins.
TEST_F(ReconstructTrust, XmippSamplingRateIsThePixelSize) {
  const test::Outcome o = reconstruct("-i sim.xmd -o x.mrc");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err.find("no pixel size"), std::string::npos) << o.err;
  EXPECT_NEAR(io::read_volume(file("x.mrc")).info.pixel_size[0], 2.0, 1e-6);
  ASSERT_EQ(reconstruct("-i sim.xmd -o y.mrc --sampling 3").exit_code, 0);
  EXPECT_NEAR(io::read_volume(file("y.mrc")).info.pixel_size[0], 3.0, 1e-6);
  // The same map as from the RELION file, at the same pixel size.
  ASSERT_EQ(reconstruct("-i sim.star -o s.mrc").exit_code, 0);
  const auto s = io::read_volume(file("s.mrc"));
  EXPECT_NEAR(s.info.pixel_size[0], 2.0, 1e-6);
  EXPECT_LE(rel_l2(io::read_volume(file("x.mrc")).image, s.image), 1e-5);
}

/// sim.mrcs with `count` pixels of image 6 (row 6) set to `value`, as `name`, and a STAR naming it.
void corrupt_stack(const std::string& dir, const std::string& name, float value, int count) {
  io::LoadedImage stack = io::read_stack(dir + "/sim.mrcs");
  const index_t n = stack.image.shape().x * stack.image.shape().y;
  for (int k = 0; k < count; ++k) stack.image[5 * n + 8 * stack.image.shape().x + 4 + k] = value;
  io::MrcWriteOptions o;
  o.mode = io::MrcMode::Float32;
  o.content = io::Content::Stack;
  o.pixel_size = 2.0;
  io::write_image(dir + "/" + name + ".mrcs", stack.image.cview(), o);
  meta::MetadataFile f = meta::MetadataFile::read(dir + "/sim.star");
  meta::Block& b = meta::particle_block(f);
  std::vector<std::string> names = b.strings("rlnImageName");
  for (auto& s : names) s.replace(s.find("sim.mrcs"), 8, name + ".mrcs");
  b.set_column("rlnImageName", names);
  f.write(dir + "/" + name + ".star");
}

// Class 7: pixels that overflow the single-precision sums (four at 3e38 made an all-NaN half
// map with exit 0) and non-finite pixels are input errors naming the stack, the image and the
// metadata row; no output is written. A weight beyond 1e20 likewise.
TEST_F(ReconstructTrust, OverflowingPixelsAreInputErrorsNamingTheImage) {
  corrupt_stack(dir_->path(), "huge", 3e38f, 4);
  corrupt_stack(dir_->path(), "one", 1e38f, 1);
  corrupt_stack(dir_->path(), "nan", std::nanf(""), 1);
  for (const char* f : {"huge.mrcs", "huge.star", "one.mrcs", "one.star", "nan.mrcs", "nan.star"}) remember(file(f));
  for (const char* name : {"huge", "one", "nan"}) {
    SCOPED_TRACE(name);
    const test::Outcome o = reconstruct(std::string("-i ") + name + ".star -o bad.mrc --halves");
    EXPECT_EQ(o.exit_code, 3) << o.err;
    EXPECT_MENTIONS(o, std::string(name) + ".mrcs: image 6 (" + name + ".star row 6)");
  }
  for (const char* f : {"bad.mrc", "bad_half1.mrc", "bad_half2.mrc", "bad_fsc.star", "bad_fsc.txt"})
    EXPECT_FALSE(exists(file(f))) << f;

  derived("sim.star", "weights.star", [](meta::MetadataFile& f) {
    meta::Block& b = meta::particle_block(f);
    std::vector<double> w(b.rows(), 1.0);
    w[5] = 3e38;
    b.set_column("rlnParticleFigureOfMerit", w);
  });
  const test::Outcome w = reconstruct("-i weights.star -o weighted.mrc --fom_weighting");
  EXPECT_EQ(w.exit_code, 3) << w.err;
  EXPECT_MENTIONS(w, "weights.star: row 6: weight 3e+38");
  EXPECT_FALSE(exists(file("weighted.mrc")));
}

// Class 7, the net below the input checks: a map with a non-finite voxel is not written (exit 1
// naming the map), and within an output set the maps written before it do not appear either.
TEST_F(ReconstructTrust, NonFiniteMapIsNeverWritten) {
  Image<float> good(Shape::volume(8, 8, 8)), bad(Shape::volume(8, 8, 8));
  for (index_t i = 0; i < good.size(); ++i) good[i] = bad[i] = static_cast<float>(i % 7);
  bad[100] = std::numeric_limits<float>::infinity();
  write_text_file_atomic(file("old_half2.mrc"), "previous output");
  try {
    OutputSet outputs;
    app::write_map(file("new_half1.mrc"), good, 2.0, "test", "half map 1");
    app::write_map(file("old_half2.mrc"), bad, 2.0, "test", "half map 2");
    outputs.commit();
    FAIL() << "a non-finite map was written";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Runtime);
    const std::string m = e.what();
    EXPECT_NE(m.find("half map 2 (" + file("old_half2.mrc") + ") has 1 non-finite voxels"), std::string::npos) << m;
  }
  EXPECT_FALSE(exists(file("new_half1.mrc")));
  EXPECT_EQ(test::slurp(file("old_half2.mrc")), "previous output");
}

// Class 9: --halves with an empty half set is an input error naming the file and the half, and
// no FSC is written (it was all zero, logged as "inf A", exit 0).
TEST_F(ReconstructTrust, EmptyHalfSetIsAnError) {
  derived("sim.star", "onehalf.star", [](meta::MetadataFile& f) {
    meta::Block& b = meta::particle_block(f);
    b.set_column("rlnRandomSubset", std::vector<std::int64_t>(b.rows(), 1));
  });
  derived("sim.star", "single.star", [](meta::MetadataFile& f) {
    meta::Block& b = meta::particle_block(f);
    b.keep_rows(std::vector<std::size_t>{0});
    b.remove_column("rlnRandomSubset");
  });
  const test::Outcome o = reconstruct("-i onehalf.star -o e.mrc --halves");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_MENTIONS(o, "onehalf.star: --halves: half set 2 is empty");
  const test::Outcome s = reconstruct("-i single.star -o e.mrc --halves");
  EXPECT_EQ(s.exit_code, 3) << s.err;
  EXPECT_MENTIONS(s, "single.star: --halves: half set 1 is empty");
  for (const char* f : {"e.mrc", "e_half1.mrc", "e_half2.mrc", "e_fsc.star", "e_fsc.txt"})
    EXPECT_FALSE(exists(file(f))) << f;
  // One half alone is still a valid --subset run.
  EXPECT_EQ(reconstruct("-i onehalf.star -o subset1.mrc --subset 1").exit_code, 0);
}

// Class 10: --reference is checked before the computation (missing, or a box unlike the map's);
// a failed run leaves the outputs of an earlier run as they were.
TEST_F(ReconstructTrust, ReferenceIsCheckedBeforeTheWorkAndOldOutputsStay) {
  ASSERT_EQ(reconstruct("-i sim.star -o r.mrc --halves --save_weights r_w.mrc").exit_code, 0);
  std::map<std::string, std::string> before;
  for (const char* f : {"r.mrc", "r_half1.mrc", "r_half2.mrc", "r_fsc.star", "r_fsc.txt", "r_w.mrc"})
    before[f] = test::slurp(file(f));

  const test::Outcome missing = reconstruct("-i sim.star -o r.mrc --halves --save_weights r_w.mrc --reference nope.mrc");
  EXPECT_EQ(missing.exit_code, 3) << missing.err;
  EXPECT_MENTIONS(missing, "nope.mrc");
  EXPECT_MENTIONS(missing, "--reference");
  EXPECT_EQ(missing.err.find("reconstruction: N"), std::string::npos) << "the work ran: " << missing.err;

  ASSERT_EQ(run_in(dir_->path(), FROST_SIMULATE_EXE, "--mode phantom --box 24 --oroot big").exit_code, 0);
  remember(file("big.mrc"));
  const test::Outcome box = reconstruct("-i sim.star -o r.mrc --halves --save_weights r_w.mrc --reference big.mrc");
  EXPECT_EQ(box.exit_code, 3) << box.err;
  EXPECT_MENTIONS(box, "big.mrc: reference is 24x24x24 but the map will be 16x16x16");
  EXPECT_EQ(box.err.find("reconstruction: N"), std::string::npos) << "the work ran: " << box.err;
  EXPECT_FALSE(exists(file("r_fsc_reference.txt")));
  for (const auto& [f, bytes] : before) EXPECT_EQ(test::slurp(file(f)), bytes) << f;
}

// Class 11: an optics rlnImageSize that disagrees with the stack is an input error naming the file.
TEST_F(ReconstructTrust, OpticsImageSizeMustBeTheStacks) {
  derived("sim.star", "size.star", [](meta::MetadataFile& f) {
    f.block("optics").set_column("rlnImageSize", std::vector<std::int64_t>{24});
  });
  const test::Outcome o = reconstruct("-i size.star -o sized.mrc");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_MENTIONS(o, "size.star: row 1: rlnImageSize of data_optics is 24");
  EXPECT_MENTIONS(o, "16x16 px");
  EXPECT_FALSE(exists(file("sized.mrc")));
}

// Class 11: a data row with one value more than there are labels is refused, naming file and line.
TEST_F(ReconstructTrust, RowWithAnExtraValueIsRefused) {
  std::string text = test::slurp(file("sim.star"));
  const std::size_t at = text.find("000007@sim.mrcs");
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = text.find('\n', at);
  text.insert(end, " 12.5");
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  write_text_file_atomic(file("extra.star"), text);
  remember(file("extra.star"));
  const test::Outcome o = reconstruct("-i extra.star -o extra.mrc");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_MENTIONS(o, "extra.star:" + std::to_string(line) + ": row has 10 values, data_particles has 9 labels");
  EXPECT_FALSE(exists(file("extra.mrc")));
}

// Class 12: a relative image path is looked up beside the STAR file first; a same-named stack in
// the working directory (here 24 px) no longer wins, and is not touched.
TEST_F(ReconstructTrust, StackBesideTheStarWinsOverTheWorkingDirectory) {
  const std::string work = file("work");
  ASSERT_EQ(::mkdir(work.c_str(), 0755), 0);
  ASSERT_EQ(run_in(work, FROST_SIMULATE_EXE, "--mode projections --box 24 --count 24 --seed 9 --oroot sim").exit_code, 0);
  remember(work + "/sim.mrcs");
  const test::Outcome o = run_in(work, FROST_RECONSTRUCT_EXE, "--device cpu --thr 1 -i ../sim.star -o map.mrc");
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(io::read_volume(work + "/map.mrc").image.shape(), Shape::volume(16, 16, 16));
  ASSERT_EQ(reconstruct("-i sim.star -o here.mrc").exit_code, 0);
  EXPECT_EQ(rel_l2(io::read_volume(work + "/map.mrc").image, io::read_volume(file("here.mrc")).image), 0.0);
  // The stack beside the STAR is an input from the working directory too.
  const test::Outcome same = run_in(work, FROST_RECONSTRUCT_EXE, "--device cpu -i ../sim.star -o ../sim.mrcs");
  EXPECT_EQ(same.exit_code, 2) << same.err;
  EXPECT_MENTIONS(same, "image stack of ../sim.star");
}

} // namespace
} // namespace frost
