// frost_movie_align and the trust classes of issue 25: no output may name an input or another
// output (single movies, batches, --validate); batch names that collide are refused before the
// batch starts, and {movie_path} keeps folders apart; the RELION motion STAR names the references
// as applied and a dose that RELION's polishing can use; NaN/Inf and half-precision overflow are
// errors naming the stage, and a movie's outputs appear together or not at all; size-like options
// are bounded by the movie before its frames are loaded; outputs are checked before any movie is
// aligned, and a batch redoes a movie with any output missing; a gain that cannot be one is an
// input error; a run without an output option is refused. Every refusal leaves the inputs as they
// were, byte for byte. Movies are 128 px, 6 frames.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frost/io/image_io.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/gain_transform.hpp"
#include "frost/test/files.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

using test::exists;
using test::listing;
using test::slurp;
using test::Snapshot;

struct Result {
  int exit_code = -1;
  double seconds = 0;
  std::string out, err;
};

class MovieAlignTrust : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    const test::Outcome o = test::run_program(std::string(FROST_SIMULATE_EXE) +
                                                  " --mode movie --size 128 128 --frames 6 --trajectory T1 --gain "
                                                  "--dose 4 --contrast 0.2 --seed 3 --oroot " + file("m"),
                                              file("simulate.log"), 60);
    ASSERT_EQ(o.exit_code, 0) << o.err;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string file(const std::string& name) { return dir_->file(name); }
  static std::string movie() { return file("m.mrcs"); }
  static std::string gain() { return file("m_gain.mrc"); }

  /// Runs frost_movie_align (CPU, one thread) in the suite's folder (relative names as a user
  /// types them); stdout and stderr captured.
  static Result align(const std::string& args) { return program("--device cpu --thr 1 --progress none " + args); }
  static Result program(const std::string& args) {
    const auto start = test::Clock::now();
    const std::string log = file("align.log");
    const int status = std::system(("cd " + dir_->path() + " && " + FROST_MOVIE_ALIGN_EXE + " " + args + " >" + log +
                                    ".out 2>" + log + ".err")
                                       .c_str());
    Result r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.seconds = test::since(start);
    r.out = slurp(log + ".out");
    r.err = slurp(log + ".err");
    return r;
  }
  /// A copy of the movie, `factor` times its values, with `value` at (x, y) of frame `t` when t >= 0.
  static std::string scaled_movie(const std::string& name, float factor, int t = -1, float value = 0) {
    io::LoadedImage m = io::read_stack(movie());
    for (float& v : m.image) v *= factor;
    if (t >= 0) m.image(50, 40, 0, t) = value;
    io::MrcWriteOptions o;
    o.pixel_size = 1.0;
    o.content = io::Content::Stack;
    io::write_image(file(name), m.image.cview(), o);
    return file(name);
  }
  static test::TempDir* dir_;
};
test::TempDir* MovieAlignTrust::dir_ = nullptr;

// Class 1: every output option naming an input, by the same name, another spelling or a link, and
// two outputs naming one file: exit 2 before any work, --validate included; the inputs unchanged.
TEST_F(MovieAlignTrust, AnOutputNamingAnInputOrAnotherOutputIsRefused) {
  ASSERT_EQ(::symlink(movie().c_str(), file("link.mrcs").c_str()), 0);
  {
    io::MrcWriteOptions o;
    Image<float> dark(Shape::image(128, 128));
    io::write_image(file("dark.mrc"), dark.cview(), o);
    std::ofstream(file("defects.txt")) << "0 0 1 1\n";
  }
  const Snapshot inputs({movie(), gain(), file("dark.mrc"), file("defects.txt")});
  const std::string in = "-i m.mrcs --gain m_gain.mrc --dark dark.mrc --defects defects.txt --skipLocalAlignment ";
  struct Case {
    std::string args, option, other;
  };
  const std::vector<Case> cases = {
      {"--oavg m.mrcs", "--oavg", "-i"},
      {"--oavg ./m.mrcs", "--oavg", "-i"},
      {"--oavg link.mrcs", "--oavg", "-i"},
      {"--oavg " + movie(), "--oavg", "-i"},
      {"-o m.mrcs", "-o", "-i"},
      {"--oaligned m.mrcs", "--oaligned", "-i"},
      {"--oavg m_gain.mrc", "--oavg", "--gain"},
      {"--oavg x.mrc --ostar_motion m_gain.mrc", "--ostar_motion", "--gain"},
      {"--oavg x.mrc --opsd dark.mrc", "--opsd", "--dark"},
      {"--oavg x.mrc --oavgInitial defects.txt", "--oavgInitial", "--defects"},
      {"--oavg x.mrc -o x.mrc", "--oavg", "-o"},
      {"--oavg x.mrc --oavg-nodw x.mrc", "--oavg-nodw", "--oavg"},
      {"--oavg h_EVN.mrc --ohalves h", "--ohalves", "--oavg"},
      {"--oavg mic.mrc -o mic_x.star --ostar_motion mic_x.star", "--ostar_motion", "-o"},
  };
  for (const Case& c : cases)
    for (const char* validate : {"", " --validate"}) {
      const Result o = align(in + c.args + validate);
      EXPECT_EQ(o.exit_code, 2) << c.args << validate << "\n" << o.err;
      EXPECT_NE(o.err.find(c.option), std::string::npos) << c.args << "\n" << o.err;
      EXPECT_NE(o.err.find("is the same file as " + c.other + " "), std::string::npos) << c.args << "\n" << o.err;
      inputs.expect_unchanged(c.args + validate);
      EXPECT_FALSE(exists(file("x.mrc")));
      EXPECT_FALSE(exists(file("mic.mrc")));
    }
}

// Class 1, the trajectories subcommand: --out naming the alignment or the coordinates is refused.
TEST_F(MovieAlignTrust, TrajectoriesNeverOverwriteTheirInputs) {
  ASSERT_EQ(align("-i m.mrcs --skipLocalAlignment -o tr/align.star").exit_code, 0);
  std::ofstream(file("tr/coords.star")) << "data_\nloop_\n_rlnCoordinateX\n_rlnCoordinateY\n10 20\n64 64\n";
  const Snapshot inputs({file("tr/align.star"), file("tr/coords.star")});
  for (const std::string out : {"tr/coords.star", "tr/align.star", "./tr/../tr/coords.star"}) {
    const Result r = program("trajectories --alignment tr/align.star --coords tr/coords.star --out " + out);
    EXPECT_EQ(r.exit_code, 2) << out << "\n" << r.err;
    EXPECT_NE(r.err.find("--out '" + out + "' is the same file as --"), std::string::npos) << r.err;
    inputs.expect_unchanged("trajectories --out " + out);
  }
  EXPECT_EQ(program("trajectories --alignment tr/align.star --coords tr/coords.star --out tr/traj.star").exit_code, 0);
  EXPECT_TRUE(exists(file("tr/traj.star")));
}

// Class 12: without an output option the alignment would land beside the movie (the raw-data
// folder): refused; the default -o follows the first output given, never the movie.
TEST_F(MovieAlignTrust, ARunWithoutAnOutputIsRefusedAndTheDefaultAlignmentFollowsTheOutputs) {
  const Snapshot inputs({movie(), gain()});
  // The movie's folder, without the test's own logs.
  const auto movie_folder = [] {
    std::vector<std::string> names = listing(dir_->path());
    names.erase(std::remove_if(names.begin(), names.end(),
                               [](const std::string& n) { return n.rfind("align.log.", 0) == 0; }),
                names.end());
    return names;
  };
  const std::vector<std::string> before = movie_folder();
  const Result none = align("-i m.mrcs --gain m_gain.mrc --skipLocalAlignment");
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("no output"), std::string::npos) << none.err;
  EXPECT_EQ(movie_folder(), before);
  const Result motion = align("-i m.mrcs --skipLocalAlignment --ostar_motion def/mic_motion.star");
  ASSERT_EQ(motion.exit_code, 0) << motion.err;
  EXPECT_TRUE(exists(file("def/mic_motion_align.star")));
  EXPECT_FALSE(exists(file("m_align.star")));
  inputs.expect_unchanged("default -o");
}

// Class 3: two listed movies of one name in different folders would share `{movie}` outputs:
// refused before the batch starts (exit 2, both movies named, nothing written); {movie_path}
// keeps them apart. A missing movie or an output naming a listed movie is refused the same way.
TEST_F(MovieAlignTrust, BatchNameCollisionsAreRefusedBeforeTheBatchAndMoviePathKeepsFoldersApart) {
  ::mkdir(file("a").c_str(), 0755);
  ::mkdir(file("b").c_str(), 0755);
  std::ofstream(file("a/m.mrcs"), std::ios::binary) << slurp(movie());
  scaled_movie("b/m.mrcs", 2.0f);
  std::ofstream(file("ab.txt")) << "a/m.mrcs\nb/m.mrcs\n";
  const Snapshot inputs({file("a/m.mrcs"), file("b/m.mrcs"), file("ab.txt")});

  const Result clash = align("-i ab.txt --skipLocalAlignment --oavg 'col/{movie}.mrc'");
  EXPECT_EQ(clash.exit_code, 2) << clash.err;
  EXPECT_NE(clash.err.find("of movie a/m.mrcs"), std::string::npos) << clash.err;
  EXPECT_NE(clash.err.find("of movie b/m.mrcs"), std::string::npos) << clash.err;
  EXPECT_FALSE(exists(file("col/m.mrc")));
  EXPECT_FALSE(exists(file("col/m_align.star")));
  inputs.expect_unchanged("{movie} collision");

  const Result apart = align("-i ab.txt --skipLocalAlignment --oavg 'sep/{movie_path}.mrc'");
  ASSERT_EQ(apart.exit_code, 0) << apart.err;
  EXPECT_NE(apart.out.find("2 aligned, 0 skipped, 0 failed"), std::string::npos) << apart.out;
  ASSERT_TRUE(exists(file("sep/a/m.mrc")));
  ASSERT_TRUE(exists(file("sep/b/m.mrc")));
  EXPECT_TRUE(exists(file("sep/a/m_align.star")));
  EXPECT_TRUE(exists(file("sep/b/m_align.star")));
  EXPECT_NE(slurp(file("sep/a/m.mrc")), slurp(file("sep/b/m.mrc"))); // b's movie is twice a's
  inputs.expect_unchanged("{movie_path}");

  const Result onto = align("-i ab.txt --skipLocalAlignment --oavg '{movie_path}.mrcs'");
  EXPECT_EQ(onto.exit_code, 2) << onto.err;
  EXPECT_NE(onto.err.find("an input is never overwritten"), std::string::npos) << onto.err;
  inputs.expect_unchanged("batch output onto a movie");

  std::ofstream(file("gap.txt")) << "a/m.mrcs\nnothere/m.mrcs\n";
  const Result gap = align("-i gap.txt --skipLocalAlignment --oavg 'gap/{movie_path}.mrc'");
  EXPECT_EQ(gap.exit_code, 3) << gap.err;
  EXPECT_NE(gap.err.find("nothere/m.mrcs"), std::string::npos) << gap.err;
  EXPECT_FALSE(exists(file("gap/a/m.mrc"))); // refused before the first movie
  inputs.expect_unchanged("missing movie");
}

// Class 10: a batch whose output folder cannot be made fails before the first movie is aligned
// (and writes none of the other outputs); missing folders are made. A movie is skipped only when
// every one of its outputs exists: one removed output redoes that movie alone.
TEST_F(MovieAlignTrust, BatchOutputsAreCheckedFirstAndResumeNeedsEveryOutput) {
  std::ofstream(file("list.txt")) << "m.mrcs\n" << scaled_movie("m2.mrcs", 3.0f) << "\n";
  std::ofstream(file("blocker")) << "a file, not a folder\n";
  const Snapshot inputs({movie(), file("m2.mrcs"), file("list.txt")});
  const Result blocked =
      align("-i list.txt --skipLocalAlignment -o 'ok/{movie}.star' --oavg 'blocker/{movie}.mrc'");
  EXPECT_EQ(blocked.exit_code, 3) << blocked.err;
  EXPECT_NE(blocked.err.find("blocker"), std::string::npos) << blocked.err;
  EXPECT_EQ(blocked.out.find("[1/2]"), std::string::npos) << blocked.out; // no movie was started
  EXPECT_FALSE(exists(file("ok/m.star")));

  const std::string args = "-i list.txt --skipLocalAlignment --oavg 'deep/er/{movie}.mrc' "
                           "--ostar_motion 'deep/er/{movie}_motion.star'";
  const Result first = align(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("2 aligned, 0 skipped"), std::string::npos) << first.out;
  ASSERT_EQ(std::remove(file("deep/er/m2_motion.star").c_str()), 0);
  const std::string kept = slurp(file("deep/er/m.mrc"));
  const Result resumed = align(args);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("1 aligned, 1 skipped"), std::string::npos) << resumed.out;
  EXPECT_TRUE(exists(file("deep/er/m2_motion.star")));
  EXPECT_EQ(slurp(file("deep/er/m.mrc")), kept);
  inputs.expect_unchanged("batch");
}

// Class 6: with --gain-rot/--gain-flip/--gain-invert the motion STAR names the gain as applied,
// written beside it (once per batch, the same file for every movie); a defect image under a
// transform likewise, a text defect file as given; the dose rate is 1 (RELION's default, with a
// warning) unless given.
TEST_F(MovieAlignTrust, RelionMotionStarNamesTheReferencesAsApplied) {
  const Snapshot inputs({movie(), gain()});
  const Result plain = align("-i m.mrcs --gain m_gain.mrc --skipLocalAlignment --ostar_motion r0/m.star");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const meta::MetadataFile star0 = meta::MetadataFile::read(file("r0/m.star"));
  const meta::Block& g0 = star0.block("general");
  EXPECT_EQ(g0.get_string("rlnMicrographGainName"), "m_gain.mrc");
  EXPECT_EQ(g0.get_double("rlnMicrographDoseRate"), 1.0);
  EXPECT_NE(plain.err.find("the dose is not known"), std::string::npos) << plain.err;
  EXPECT_EQ(listing(file("r0")), (std::vector<std::string>{"m.star", "m_align.star"}));

  const Result dosed = align("-i m.mrcs --skipLocalAlignment --dose-per-frame 2.5 --ostar_motion r1/m.star");
  ASSERT_EQ(dosed.exit_code, 0) << dosed.err;
  EXPECT_EQ(meta::MetadataFile::read(file("r1/m.star")).block("general").get_double("rlnMicrographDoseRate"), 2.5);
  EXPECT_EQ(dosed.err.find("the dose is not known"), std::string::npos) << dosed.err;

  // A defect image (one bad pixel at (3, 5) of the file) and the gain, rotated and flipped.
  Image<float> defects(Shape::image(128, 128));
  defects(3, 5) = 1.0f;
  io::write_image(file("bad.mrc"), defects.cview(), io::MrcWriteOptions{});
  std::ofstream(file("two.txt")) << "m.mrcs\n" << scaled_movie("m3.mrcs", 0.5f) << "\n";
  const Snapshot references({file("bad.mrc"), gain()});
  const Result turned = align("-i two.txt --gain m_gain.mrc --gain-rot 1 --gain-flip 2 --gain-invert "
                                     "--defects bad.mrc --skipLocalAlignment --oavg 'r2/{movie}.mrc' "
                                     "--ostar_motion 'r2/motion/{movie}.star'");
  ASSERT_EQ(turned.exit_code, 0) << turned.err;
  const std::string gain_copy = "r2/motion/m_gain_rot1_flip2_inverted.mrc",
                    defects_copy = "r2/motion/bad_rot1_flip2.mrc"; // beside the STARs
  for (const char* stem : {"m", "m3"}) {
    const meta::MetadataFile star = meta::MetadataFile::read(file("r2/motion/" + std::string(stem) + ".star"));
    const meta::Block& g = star.block("general");
    EXPECT_EQ(g.get_string("rlnMicrographGainName"), gain_copy) << stem;
    EXPECT_EQ(g.get_string("rlnMicrographDefectFile"), defects_copy) << stem;
  }
  const motion::GainTransform t{1, 2};
  const Image<float> original = io::read_image(gain()).image;
  const Image<float> oriented = motion::orient(original.cview(), t);
  const Image<float> copy = io::read_image(file(gain_copy)).image;
  ASSERT_EQ(copy.shape(), oriented.shape());
  for (index_t i = 0; i < copy.size(); ++i) ASSERT_FLOAT_EQ(copy[i], 1.0f / oriented[i]) << i;
  const Image<float> mask = io::read_image(file(defects_copy)).image;
  index_t ox = 0, oy = 0;
  motion::oriented_position(t, 128, 128, 3, 5, &ox, &oy);
  EXPECT_EQ(mask(ox, oy), 1.0f);
  EXPECT_EQ(std::count(mask.begin(), mask.end(), 1.0f), 1);
  EXPECT_NE(turned.err.find("wrote " + gain_copy), std::string::npos) << turned.err;
  EXPECT_EQ(turned.err.find("wrote " + gain_copy), turned.err.rfind("wrote " + gain_copy)); // once per batch

  // A text defect file is in frame coordinates: named as it is.
  std::ofstream(file("rects.txt")) << "3 5 2 2\n";
  const Result text = align("-i m.mrcs --gain-rot 1 --defects rects.txt --skipLocalAlignment "
                                   "--ostar_motion r3/m.star");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(meta::MetadataFile::read(file("r3/m.star")).block("general").get_string("rlnMicrographDefectFile"),
            "rects.txt");
  inputs.expect_unchanged("motion STAR");
  references.expect_unchanged("motion STAR references");
}

// Class 7: a movie pixel at 3e38 overflows the sums: exit 3 naming the movie and the stage, and
// no output of the movie at all, not even the finite unaligned sum written before the failing
// halves (one output set per movie).
TEST_F(MovieAlignTrust, NonFiniteOutputsAreErrorsAndAMoviesOutputsComeAsASet) {
  const std::string huge = scaled_movie("huge.mrcs", 1.0f, 2, 3e38f);
  const Snapshot inputs({huge});
  const Result o = align("-i huge.mrcs --skipLocalAlignment --oavgInitial nf/initial.mrc --ohalves nf/half "
                                "-o nf/align.star");
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_NE(o.err.find("huge.mrcs"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(" frames (--ohalves) holds"), std::string::npos) << o.err; // after the finite initial sum
  EXPECT_NE(o.err.find("NaN/Inf"), std::string::npos) << o.err;
  EXPECT_EQ(listing(file("nf")), std::vector<std::string>{});
  const Result mic = align("-i huge.mrcs --skipLocalAlignment --oavg nf/mic.mrc");
  EXPECT_EQ(mic.exit_code, 3) << mic.err;
  EXPECT_NE(mic.err.find("aligned sum (--oavg)"), std::string::npos) << mic.err;
  EXPECT_FALSE(exists(file("nf/mic.mrc")));
  inputs.expect_unchanged("3e38 pixel");
}

// Class 7: --float16 --opsd writes the spectrum divided by its median, every value finite and in
// the half range; a micrograph beyond the half range is an error naming --float16 and the stage.
TEST_F(MovieAlignTrust, Float16OutputsStayInTheHalfRange) {
  const Result psd = align("-i m.mrcs --skipLocalAlignment --float16 --opsd h16/psd.mrc --psd-size 64");
  ASSERT_EQ(psd.exit_code, 0) << psd.err;
  const io::LoadedImage p = io::read_image(file("h16/psd.mrc"));
  std::vector<float> v(p.image.begin(), p.image.end());
  for (float x : v) ASSERT_TRUE(std::isfinite(x) && x >= 0 && x <= 65504.0f) << x;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  EXPECT_NEAR(v[v.size() / 2], 1.0, 0.01);

  scaled_movie("bright.mrcs", 20000.0f);
  const Result big = align("-i bright.mrcs --skipLocalAlignment --float16 --oavg h16/big.mrc");
  EXPECT_EQ(big.exit_code, 3) << big.err;
  EXPECT_NE(big.err.find("--float16"), std::string::npos) << big.err;
  EXPECT_NE(big.err.find("aligned sum (--oavg)"), std::string::npos) << big.err;
  EXPECT_FALSE(exists(file("h16/big.mrc")));
}

// Class 8: size-like options that the movie cannot hold are usage errors naming the option, found
// before the frames are loaded (the patch count used to run until the host memory ran out).
TEST_F(MovieAlignTrust, SizeOptionsBeyondTheMovieAreRefusedBeforeLoading) {
  const Snapshot inputs({movie()});
  struct Case {
    std::string args, option;
  };
  const std::vector<Case> cases = {
      {"--patches 1000 1000 --minLocalRes 64", "--patches 1000 1000"},
      {"--patches 2 40 --minLocalRes 64", "--patches 2 40"},
      {"--minLocalRes 64 --controlPoints 100 4 4", "--controlPoints 100 4 4"},
      {"--minLocalRes 64 --controlPoints 4 4 100", "--controlPoints 4 4 100"},
      {"--minLocalRes 5000", "--minLocalRes"},
      {"--bin 100", "--bin"},
      {"--skipLocalAlignment --reference 99", "--reference 99"},
      {"--skipLocalAlignment --global-mode sum --group-global 4", "--group-global 4"},
      {"--maxResForCorrelation 2", "--maxResForCorrelation 2"},
  };
  for (const Case& c : cases) {
    const Result o = align("-i m.mrcs --oavg sz/mic.mrc -v 2 " + c.args);
    EXPECT_EQ(o.exit_code, 2) << c.args << "\n" << o.err;
    EXPECT_NE(o.err.find(c.option), std::string::npos) << c.args << "\n" << o.err;
    // "processed at" is logged once the frames are loaded.
    EXPECT_EQ(o.err.find("processed at"), std::string::npos) << c.args << ": the frames were loaded first\n" << o.err;
    EXPECT_LT(o.seconds, 10.0) << c.args;
  }
  EXPECT_FALSE(exists(file("sz/mic.mrc")));
  inputs.expect_unchanged("size options");
  // The largest grid that fits is accepted.
  EXPECT_EQ(align("-i m.mrcs --oavg sz/mic.mrc --patches 2 2 --minLocalRes 64 --controlPoints 6 6 8").exit_code, 0);
}

// Class 11: a gain that is zero everywhere or has negative values: exit 3 naming the gain file
// (the micrograph used to come out zero, exit 0).
TEST_F(MovieAlignTrust, AGainThatCannotBeOneIsAnInputError) {
  Image<float> zero(Shape::image(128, 128));
  io::write_image(file("zero_gain.mrc"), zero.cview(), io::MrcWriteOptions{});
  Image<float> negative = io::read_image(gain()).image;
  negative(7, 9) = -1.0f;
  io::write_image(file("neg_gain.mrc"), negative.cview(), io::MrcWriteOptions{});
  const Snapshot inputs({movie(), file("zero_gain.mrc"), file("neg_gain.mrc")});
  const Result z = align("-i m.mrcs --gain zero_gain.mrc --skipLocalAlignment --oavg g/z.mrc");
  EXPECT_EQ(z.exit_code, 3) << z.err;
  EXPECT_NE(z.err.find("zero_gain.mrc: the gain reference is zero everywhere"), std::string::npos) << z.err;
  const Result n = align("-i m.mrcs --gain neg_gain.mrc --skipLocalAlignment --oavg g/n.mrc");
  EXPECT_EQ(n.exit_code, 3) << n.err;
  EXPECT_NE(n.err.find("neg_gain.mrc: the gain reference holds 1 negative value(s)"), std::string::npos) << n.err;
  EXPECT_NE(n.err.find("(7, 9)"), std::string::npos) << n.err;
  EXPECT_FALSE(exists(file("g/z.mrc")));
  EXPECT_FALSE(exists(file("g/n.mrc")));
  inputs.expect_unchanged("bad gains");
}

} // namespace
} // namespace frost
