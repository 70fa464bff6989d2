// frost_align_significant and the defects of issue 25 ("Trust"): an output naming an input,
// RELION 3.1 STAR input, outputs the next program can read (image paths, pixel size, Å origins),
// non-finite values, outputs checked before the work and written as a set, a --max-shift that
// rejects everything, size-like options bounded by the input. Every refusal is checked for its
// exit status, a message naming the file or option, and inputs left byte-identical.
//
// Data: 24 projections of frost_simulate's 32³ phantom at 2 Å/px, written with relative paths
// (data/p.mrcs, p.star, p.xmd) and a 46-reference gallery saved by the program itself. Every
// command runs with the temporary folder as working directory, as a user in a project would.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "frost/io/image_io.hpp"
#include "frost/metadata/block.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/test/files.hpp"
#include "frost/test/sanitizers.hpp" // the address-space check runs outside AddressSanitizer builds
#include "frost/test/support.hpp"

namespace frost {
namespace {
namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string err;
};

using test::exists;
using test::slurp;

class AlignTrust : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    fs::create_directories(file("data"));
    ASSERT_EQ(sh(std::string(FROST_SIMULATE_EXE) + " --mode projections --oroot data/p --box 32 --count 24 --sampling 2" +
                 " --max_shift 2 --snr 5 --seed 3 -v 0")
                  .code,
              0);
    // The program's own gallery, repeatable with -r: 46 directions at 30 degrees.
    const Result g = align("-i data/p.xmd --volume data/p_phantom.mrc --sampling 30 --save-gallery data/gal -o first/a.xmd");
    ASSERT_EQ(g.code, 0) << g.err;
    for (const char* f : {"data/p.mrcs", "data/p.star", "data/p.xmd", "data/p_phantom.mrc", "data/gal.mrcs", "data/gal.xmd"})
      inputs_.add(file(f));
    ASSERT_EQ(meta::read_block(file("data/gal.xmd")).rows(), std::size_t(kRefs));
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  static constexpr int kImages = 24, kRefs = 46;

  static std::string file(const std::string& name) { return dir_->file(name); }
  /// `command` run by /bin/sh in the test folder; stderr kept.
  static Result sh(const std::string& command) {
    const std::string err = file("last.err");
    const int status = std::system(("cd '" + dir_->path() + "' && (" + command + ") >/dev/null 2>'" + err + "'").c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(err)};
  }
  static Result align(const std::string& args) {
    return sh(std::string(FROST_ALIGN_EXE) + " --device cpu --thr 1 -v 1 " + args);
  }
  static std::string base() { return "-i data/p.xmd -r data/gal.xmd "; }
  /// The input files are what they were after the set-up.
  static void expect_inputs_unchanged(const std::string& when) {
    inputs_.expect_unchanged(when);
  }
  /// Exit `code`, a message holding every entry of `names`, no alignment started, inputs intact.
  static void expect_refused(const std::string& args, int code, const std::vector<std::string>& names) {
    const Result r = align(args);
    EXPECT_EQ(r.code, code) << args << "\n" << r.err;
    for (const std::string& n : names) EXPECT_NE(r.err.find(n), std::string::npos) << args << ": no '" << n << "' in\n" << r.err;
    EXPECT_EQ(r.err.find("aligning"), std::string::npos) << args << ": the alignment started\n" << r.err;
    expect_inputs_unchanged(args);
  }

  static test::TempDir* dir_;
  static test::Snapshot inputs_;
};
test::TempDir* AlignTrust::dir_ = nullptr;
test::Snapshot AlignTrust::inputs_;

// Class 1: no output may be an input or another output, with or without --validate.
TEST_F(AlignTrust, AnOutputNamingAnInputIsRefusedBeforeAnyWork) {
  fs::create_symlink("data/p.xmd", file("link.xmd"));
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {base() + "-o data/p.xmd", {"-o 'data/p.xmd' is the same file as -i"}},
      {base() + "-o p.star --odir data", {"the XMD beside -o", "data/p.xmd"}},
      {"-i data/p.star -r data/gal.xmd -o data/p.xmd", {"the STAR beside -o", "data/p.star"}},
      {"-i particles@data/p.star -r data/gal.xmd -o data/p.star", {"-o 'data/p.star'", "-i"}},
      {base() + "-o ./data/../data/gal.star", {"the XMD beside -o", "-r"}},
      {base() + "-o link.xmd", {"-o 'link.xmd'", "data/p.xmd"}},
      {base() + "-o out/a.xmd --write-cc-matrix data/p.mrcs", {"--write-cc-matrix", "image stack of -i"}},
      {base() + "-o out/a.xmd --oUpdatedRefs data/gal", {"--oUpdatedRefs", "-r"}},
      {base() + "-o out/a.xmd --oUpdatedRefs data/p", {"--oUpdatedRefs (metadata) 'data/p.xmd'", "-i"}},
      {"-i data/p.xmd --volume data/p_phantom.mrc --sampling 30 -o out/a.xmd --save-gallery data/p",
       {"--save-gallery (stack) 'data/p.mrcs'", "image stack of -i"}},
      {"-i data/p.xmd --volume data/gal.mrcs -o out/a.xmd --save-gallery data/gal", {"--save-gallery", "--volume"}},
      {base() + "-o out/a.xmd --write-cc-matrix out/a.star", {"every output needs its own name"}},
      {base() + "-o a.xmd --odir out --oUpdatedRefs a", {"--oUpdatedRefs (metadata) 'out/a.xmd'", "-o"}},
  };
  for (const auto& [args, names] : cases) {
    expect_refused(args, 2, names);
    expect_refused(args + " --validate", 2, names);
  }
  EXPECT_FALSE(exists(file("out/a.xmd")));
  EXPECT_FALSE(exists(file("out/a.star")));
}

// Class 4: RELION 3.1 STAR (data_optics first, frost_simulate's own), `block@file`, RELION 3.0
// (one table, pixel size from rlnDetectorPixelSize / rlnMagnification, origins in px), and a
// RELION 3.1 reference table: all give the poses the Xmipp input gives.
TEST_F(AlignTrust, RelionStarInputsGiveTheXmippPoses) {
  ASSERT_EQ(align(base() + "-o out4/xmd.xmd").code, 0);
  const Result r31 = align("-i data/p.star -r data/gal.xmd -o out4/r31.xmd");
  ASSERT_EQ(r31.code, 0) << r31.err;
  ASSERT_EQ(align("-i particles@data/p.star -r data/gal.xmd -o out4/spec.xmd").code, 0);

  // RELION 3.0: one unnamed table with pixel origins; 5 µm / 25000 = 2 Å.
  {
    const meta::MetadataFile in = meta::MetadataFile::read(file("data/p.star"));
    meta::Block b = in.block("particles");
    b.set_name("");
    for (const char* axis : {"X", "Y"}) {
      std::vector<double> v = b.doubles(std::string("rlnOrigin") + axis + "Angst");
      for (double& x : v) x /= 2;
      b.remove_column(std::string("rlnOrigin") + axis + "Angst");
      b.set_column(std::string("rlnOrigin") + axis, v);
    }
    b.remove_column("rlnOpticsGroup");
    b.set_column("rlnDetectorPixelSize", std::vector<double>(b.rows(), 5.0));
    b.set_column("rlnMagnification", std::vector<double>(b.rows(), 25000.0));
    meta::MetadataFile out(meta::Dialect::Relion30);
    out.blocks().push_back(b);
    out.write(file("data/p30.star"));
  }
  const Result r30 = align("-i data/p30.star -r data/gal.xmd -o out4/r30.xmd");
  ASSERT_EQ(r30.code, 0) << r30.err;

  // References as a RELION 3.1 STAR (optics first), with the `ref` ids of the gallery.
  {
    const meta::Block g = meta::read_block(file("data/gal.xmd"));
    meta::MetadataFile out(meta::Dialect::Relion31);
    meta::Block& optics = out.add_block("optics");
    optics.set_column("rlnOpticsGroup", std::vector<std::int64_t>{1});
    optics.set_column("rlnImagePixelSize", std::vector<double>{2.0});
    meta::Block& p = out.add_block("particles");
    std::vector<std::string> names;
    for (const std::string& n : g.strings("image")) names.push_back(n.substr(0, n.find('@') + 1) + "data/gal.mrcs");
    p.set_column("rlnImageName", names);
    p.set_column("rlnAngleRot", g.doubles("angleRot"));
    p.set_column("rlnAngleTilt", g.doubles("angleTilt"));
    p.set_column("rlnAnglePsi", g.doubles("anglePsi"));
    p.set_column("ref", g.ints("ref"));
    out.write(file("data/gal31.star"));
  }
  const Result rr = align("-i data/p.star -r data/gal31.star -o out4/refs31.xmd");
  ASSERT_EQ(rr.code, 0) << rr.err;

  const meta::Block want = meta::read_block(file("out4/xmd.xmd"));
  ASSERT_EQ(want.rows(), std::size_t(kImages));
  for (const char* out : {"out4/r31.xmd", "out4/spec.xmd", "out4/r30.xmd", "out4/refs31.xmd"}) {
    const meta::Block got = meta::read_block(file(out));
    ASSERT_EQ(got.rows(), want.rows()) << out;
    EXPECT_EQ(got.ints("ref"), want.ints("ref")) << out;
    // The same numbers; the text of a column read from the input may carry fewer digits.
    for (const char* label : {"angleRot", "angleTilt", "anglePsi", "shiftX", "shiftY", "corrIdx"}) {
      const auto g = got.doubles(label), w = want.doubles(label);
      for (std::size_t k = 0; k < w.size(); ++k) EXPECT_NEAR(g[k], w[k], 2e-5) << out << " " << label << " row " << k;
    }
    EXPECT_EQ(got.doubles("samplingRate"), std::vector<double>(kImages, 2.0)) << out;
    const meta::MetadataFile star = meta::MetadataFile::read(file(std::string(out).replace(std::strlen(out) - 3, 3, "star")));
    EXPECT_DOUBLE_EQ(star.block("optics").get_double("rlnImagePixelSize"), 2.0) << out;
  }
  expect_inputs_unchanged("RELION input");
}

// Class 4: the README's volume-mode example and the cluster script's STAR example, as written,
// on frost_simulate's demo names (particles.star, map.mrc) in a folder of their own.
TEST_F(AlignTrust, ReadmeAndClusterExamplesReadTheDemoStar) {
  fs::create_directories(file("demo"));
  ASSERT_EQ(sh("cd demo && " + std::string(FROST_SIMULATE_EXE) +
               " --mode projections --oroot particles --box 32 --count 24 --sampling 2 --snr 5 --seed 4 -v 0 && " +
               "cp particles_phantom.mrc map.mrc")
                .code,
            0);
  const Result readme = sh("cd demo && " + std::string(FROST_ALIGN_EXE) +
                        " -i particles.star -o angles.xmd --volume map.mrc --sampling 15 --sym d7 --save-gallery gal"
                        " --thr 1");
  ASSERT_EQ(readme.code, 0) << readme.err;
  EXPECT_EQ(meta::read_block(file("demo/angles.xmd")).rows(), std::size_t(kImages));
  EXPECT_TRUE(exists(file("demo/gal.mrcs")) && exists(file("demo/gal.xmd")));
#if defined(FROST_MPIEXEC_EXE)
  const std::string exe = FROST_ALIGN_EXE;
  const Result cluster = sh("cd demo && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                         "OMPI_MCA_rmaps_base_oversubscribe=1 MPIRUN='" FROST_MPIEXEC_EXE "' FROST_BIN='" +
                         exe.substr(0, exe.find_last_of('/')) +
                         "' NP=2 FROST_DEVICE=cpu THREADS=1 bash " FROST_CLUSTER_SCRIPTS
                         "/align_significant.mpirun.sh particles.star out/angles.xmd --volume map.mrc --sampling 10"
                         " --sym c1");
  ASSERT_EQ(cluster.code, 0) << cluster.err;
  EXPECT_NE(cluster.err.find("2 rank(s)"), std::string::npos) << cluster.err;
  EXPECT_EQ(meta::read_block(file("demo/out/angles.xmd")).rows(), std::size_t(kImages));
#endif
}

// Class 5: --odir outputs read by frost_reconstruct_fourier from another working directory; the
// STAR's optics pixel size is the input's 2 Å, origins are shift · 2 Å, the map header says 2 Å.
TEST_F(AlignTrust, OutputsWorkInTheNextProgramFromAnyFolder) {
  const Result r = align("-i data/p.star -r data/gal.xmd --odir out5/deep -o angles.xmd");
  ASSERT_EQ(r.code, 0) << r.err;
  const meta::Block xmd = meta::read_block(file("out5/deep/angles.xmd"));
  const meta::MetadataFile star = meta::MetadataFile::read(file("out5/deep/angles.star"));
  const meta::Block& optics = star.block("optics");
  const meta::Block& parts = star.block("particles");
  EXPECT_DOUBLE_EQ(optics.get_double("rlnImagePixelSize"), 2.0);
  EXPECT_EQ(optics.get_int("rlnImageSize"), 32);
  EXPECT_FALSE(parts.has("rlnImagePixelSize")) << "a per-row pixel size could contradict data_optics";
  ASSERT_EQ(parts.rows(), xmd.rows());
  const auto sx = xmd.doubles("shiftX"), sy = xmd.doubles("shiftY");
  const auto ox = parts.doubles("rlnOriginXAngst"), oy = parts.doubles("rlnOriginYAngst");
  double largest = 0;
  for (std::size_t k = 0; k < xmd.rows(); ++k) {
    EXPECT_NEAR(ox[k], 2 * sx[k], 1e-4) << k;
    EXPECT_NEAR(oy[k], 2 * sy[k], 1e-4) << k;
    largest = std::max(largest, std::abs(sx[k]));
  }
  EXPECT_GT(largest, 0.5) << "the data has shifts, so Å and px differ";
  EXPECT_EQ(xmd.doubles("samplingRate"), std::vector<double>(xmd.rows(), 2.0));
  // Relative image paths resolve from the output's folder.
  for (const std::string& name : parts.strings("rlnImageName")) {
    const std::string path = name.substr(name.find('@') + 1);
    EXPECT_NE(path.front(), '/') << name;
    EXPECT_TRUE(exists(file("out5/deep/" + path))) << name;
  }

  fs::create_directories(file("elsewhere"));
  const std::string rec = std::string(FROST_RECONSTRUCT_EXE) + " --device cpu --thr 1 --progress none -v 0 ";
  const Result from_star = sh("cd elsewhere && " + rec + "-i ../out5/deep/angles.star -o star_map.mrc");
  ASSERT_EQ(from_star.code, 0) << from_star.err;
  const io::LoadedImage map = io::read_volume(file("elsewhere/star_map.mrc"));
  EXPECT_EQ(map.image.shape().x, 32);
  EXPECT_NEAR(map.info.pixel_size[0], 2.0, 1e-6);
  const Result from_xmd = sh("cd elsewhere && " + rec + "-i ../out5/deep/angles.xmd -o xmd_map.mrc");
  ASSERT_EQ(from_xmd.code, 0) << from_xmd.err; // every image found from another folder

  // --pixel-size overrides the file's: optics and origins follow it.
  ASSERT_EQ(align("-i data/p.star -r data/gal.xmd --pixel-size 3 -o out5/px3.xmd").code, 0);
  const meta::MetadataFile px3 = meta::MetadataFile::read(file("out5/px3.star"));
  EXPECT_DOUBLE_EQ(px3.block("optics").get_double("rlnImagePixelSize"), 3.0);
  const auto ox3 = px3.block("particles").doubles("rlnOriginXAngst");
  for (std::size_t k = 0; k < xmd.rows(); ++k) EXPECT_NEAR(ox3[k], 3 * sx[k], 1e-4) << k;

  // --oUpdatedRefs with a relative --odir: the averages are named from their own metadata.
  ASSERT_EQ(align(base() + "--odir out5/cls -o a.xmd --oUpdatedRefs classes").code, 0);
  const meta::MetadataFile cls = meta::MetadataFile::read(file("out5/cls/classes.xmd"));
  EXPECT_EQ(cls.block("classes").get_string("image", 0), "000001@classes.stk");
  for (const meta::Block& b : cls.blocks()) {
    if (b.name() == "classes") continue;
    const std::string name = b.get_string("image", 0);
    EXPECT_TRUE(exists(file("out5/cls/" + name.substr(name.find('@') + 1)))) << b.name() << " " << name;
  }
  expect_inputs_unchanged("portable outputs");
}

// Class 5, the XMD half: the output's `samplingRate` gives frost_reconstruct_fourier's map
// the input's 2 A/px.
TEST_F(AlignTrust, XmdOutputGivesTheMapItsPixelSize) {
  ASSERT_EQ(align("-i data/p.star -r data/gal.xmd --odir out5x -o angles.xmd").code, 0);
  const Result r = sh(std::string(FROST_RECONSTRUCT_EXE) + " --device cpu --thr 1 --progress none -v 0 "
                                                        "-i out5x/angles.xmd -o out5x/map.mrc");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NEAR(io::read_volume(file("out5x/map.mrc")).info.pixel_size[0], 2.0, 1e-6);
}

// Class 5: pixel sizes that contradict each other are input errors naming the file.
TEST_F(AlignTrust, ContradictoryPixelSizesAreInputErrors) {
  ASSERT_EQ(meta::read_block(file("data/gal.xmd")).get_double("samplingRate"), 2.0);
  meta::MetadataFile g = meta::MetadataFile::read(file("data/gal.xmd"));
  g.blocks().front().set_column("samplingRate", std::vector<double>(kRefs, 2.5));
  g.blocks().front().set_column("image", [&] {
    std::vector<std::string> v;
    for (const std::string& n : g.blocks().front().strings("image")) v.push_back(n.substr(0, n.find('@') + 1) + "gal.mrcs");
    return v;
  }());
  g.write(file("data/gal25.xmd"));
  expect_refused("-i data/p.xmd -r data/gal25.xmd -o out5b/a.xmd", 3, {"data/gal25.xmd", "2.5 A/px", "2 A/px"});
  // An optics rlnImageSize the stack does not have.
  std::string star = slurp(file("data/p.star"));
  const std::string row = "opticsGroup1     2.000000           32";
  ASSERT_NE(star.find(row), std::string::npos);
  star.replace(star.find(row), row.size(), "opticsGroup1     2.000000           48");
  std::ofstream(file("data/p48.star")) << star;
  expect_refused("-i data/p48.star -r data/gal.xmd -o out5b/a.xmd", 3, {"data/p48.star", "rlnImageSize is 48"});
  EXPECT_FALSE(exists(file("out5b/a.xmd")));
}

// Class 7: a pixel the single-precision alignment cannot hold (1e38), like a NaN, is an input
// error naming the stack and the image; nothing is written.
TEST_F(AlignTrust, ImagesTheAlignmentCannotHoldAreInputErrors) {
  std::string stack = slurp(file("data/p.mrcs"));
  ASSERT_EQ(stack.size(), 1024u + kImages * 32 * 32 * sizeof(float)) << "no extended header";
  const std::size_t pixel = 1024 + (4 * 32 * 32 + 9 * 32 + 7) * sizeof(float); // image 5, pixel (7, 9)
  for (const float v : {1e38f, std::nanf("")}) {
    const bool big = v == 1e38f;
    std::string bad = stack;
    std::memcpy(&bad[pixel], &v, sizeof v);
    const std::string name = big ? "big" : "nan";
    std::ofstream(file("data/" + name + ".mrcs"), std::ios::binary) << bad;
    std::string xmd = slurp(file("data/p.xmd"));
    for (std::size_t at; (at = xmd.find("data/p.mrcs")) != std::string::npos;) xmd.replace(at, 11, "data/" + name + ".mrcs");
    std::ofstream(file("data/" + name + ".xmd")) << xmd;
    const std::string before = slurp(file("data/" + name + ".mrcs"));
    expect_refused("-i data/" + name + ".xmd -r data/gal.xmd -o out7/" + name + ".xmd", 3,
                   {"data/" + name + ".mrcs", "000005@", big ? "too large" : "NaN at pixel (7, 9)"});
    EXPECT_FALSE(exists(file("out7/" + name + ".xmd")));
    EXPECT_FALSE(exists(file("out7/" + name + ".star")));
    EXPECT_TRUE(slurp(file("data/" + name + ".mrcs")) == before);
  }
}

// Class 10: every output is checked before the alignment (a folder that cannot be made is exit 3
// naming it), and the outputs of a run appear together: a run that fails after the alignment
// leaves neither its gallery nor its tables, and the previous outputs stay.
TEST_F(AlignTrust, OutputsAreCheckedFirstAndWrittenAsASet) {
  expect_refused(base() + "-o out10/a.xmd --write-cc-matrix data/p.mrcs/cc.bin", 3, {"data/p.mrcs", "--write-cc-matrix"});
  expect_refused(base() + "-o out10/a.xmd --odir . --oUpdatedRefs data/p.xmd/classes", 3, {"data/p.xmd", "--oUpdatedRefs"});
  expect_refused("-i data/p.xmd --volume data/p_phantom.mrc -o out10/a.xmd --save-gallery data/p.star/gal", 3,
                 {"data/p.star", "--save-gallery"});
  EXPECT_FALSE(exists(file("out10/a.xmd")));

  ASSERT_EQ(align(base() + "-o out10/set/a.xmd --write-cc-matrix out10/set/cc.bin").code, 0);
  std::map<std::string, std::string> previous;
  for (const char* f : {"a.xmd", "a.star", "cc.bin"}) previous[f] = slurp(file(std::string("out10/set/") + f));
  const Result late = align("-i data/p.xmd --volume data/p_phantom.mrc --sampling 30 --max-shift 0.001 -o out10/set/a.xmd"
                         " --write-cc-matrix out10/set/cc.bin --save-gallery out10/set/gal");
  EXPECT_EQ(late.code, 1) << late.err;
  EXPECT_NE(late.err.find("aligning"), std::string::npos) << "this run fails after the alignment\n" << late.err;
  for (const auto& [f, bytes] : previous) EXPECT_TRUE(slurp(file("out10/set/" + f)) == bytes) << f;
  EXPECT_FALSE(exists(file("out10/set/gal.mrcs")));
  EXPECT_FALSE(exists(file("out10/set/gal.xmd")));
  for (const auto& e : fs::directory_iterator(file("out10/set")))
    EXPECT_EQ(e.path().filename().string().find(".frost-tmp-"), std::string::npos) << e.path();
  expect_inputs_unchanged("output checks");
}

// Class 11: a --max-shift that cannot work is a usage error; one that rejects every pose of this
// data stops the run (exit 1) naming the option, with nothing written.
TEST_F(AlignTrust, MaxShiftRejectingEverythingIsAnError) {
  for (const char* v : {"0", "-0.5"}) {
    expect_refused(base() + "-o out11/a.xmd --max-shift " + v, 2, {"--max-shift"});
    expect_refused(base() + "-o out11/a.xmd --validate --max-shift " + v, 2, {"--max-shift"});
  }
  const Result r = align(base() + "-o out11/a.xmd --max-shift 0.001");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("--max-shift 0.001 px rejected every pose"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(file("out11/a.xmd")));
  EXPECT_FALSE(exists(file("out11/a.star")));
  // A limit the poses meet keeps every image.
  const Result ok = align(base() + "-o out11/b.xmd --max-shift 100");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(meta::read_block(file("out11/b.xmd")).rows(), std::size_t(kImages));
  expect_inputs_unchanged("--max-shift");
}

// Class 8: size-like options are bounded by the input before anything large is allocated.
TEST_F(AlignTrust, SizeOptionsAreBoundedByTheInput) {
  expect_refused(base() + "-o out8/a.xmd --shift-search 17", 2, {"--shift-search 17", "16 px"});
  ASSERT_EQ(align(base() + "-o out8/b.xmd --shift-search 16").code, 0);
  expect_refused(base() + "-o out8/a.xmd --keepBestN 47", 3, {"--keepBestN 47", "46"});
#ifdef FROST_TEST_UNDER_ASAN
  GTEST_SKIP() << "the host-memory bound is checked under ulimit -v, where an ASan build cannot start";
#endif
  // 4.1 million directions at --sampling 0.1 for 512 px images: terabytes, refused at once,
  // before the map is even read.
  Image<float> two(Shape::image(512, 512, 2));
  for (index_t i = 0; i < two.shape().total(); ++i) two[i] = float(i % 97);
  io::write_image(file("data/big512.mrcs"), two.cview());
  std::ofstream(file("data/big512.xmd")) << "# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n 1@big512.mrcs\n 2@big512.mrcs\n";
  const auto t0 = std::chrono::steady_clock::now();
  // Under a 16 GiB address-space limit, so that a missing check fails here instead of
  // exhausting the machine.
  const Result mem = sh("ulimit -v 16777216 && " + std::string(FROST_ALIGN_EXE) +
                        " --device cpu --thr 1 -i data/big512.xmd --volume data/p_phantom.mrc --sampling 0.1 -o out8/c.xmd");
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(mem.code, 1) << mem.err;
  EXPECT_NE(mem.err.find("--sampling 0.1"), std::string::npos) << mem.err;
  EXPECT_NE(mem.err.find("GiB of host memory"), std::string::npos) << mem.err;
  EXPECT_LT(secs, 30.0);
  EXPECT_FALSE(exists(file("out8/c.xmd")));
  expect_inputs_unchanged("size options");
}

} // namespace
} // namespace frost
