// Every shared STAR/XMD file (shared/data/SOURCES.md) parses into the expected blocks, and
// spot-checked values read back exactly.
#include <chrono>

#include "expect_error.hpp"
#include "frost/core/error.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/test/support.hpp"

namespace frost::meta {
namespace {

struct BlockShape {
  const char* name;
  std::size_t labels;
  std::size_t rows; // 1 for list blocks
  bool list;
};

struct FileShape {
  const char* path;
  Dialect dialect;
  std::vector<BlockShape> blocks;
};

// Counted independently of frost (by hand and with a throw-away script).
const std::vector<FileShape>& all_files() {
  static const std::vector<FileShape> files = {
      {"starfile/basic_double_quote.star", Dialect::Relion30, {{"", 4, 1, true}}},
      {"starfile/basic_single_quote.star", Dialect::Relion30, {{"", 4, 1, true}}},
      {"starfile/empty_loop.star", Dialect::Relion30, {{"", 1, 0, false}}},
      {"starfile/loop_double_quote.star", Dialect::Relion30, {{"", 8, 2, false}}},
      {"starfile/loop_single_quote.star", Dialect::Relion30, {{"", 8, 2, false}}},
      {"starfile/one_loop.star", Dialect::Relion30, {{"", 12, 16, false}}},
      {"starfile/postprocess.star", Dialect::Relion30,
       {{"general", 6, 1, true}, {"fsc", 7, 49, false}, {"guinier", 3, 49, false}}},
      {"starfile/rln3.1_data_style.star", Dialect::Relion30,
       {{"block_1", 7, 1, false}, {"block_2", 5, 2, false}, {"block_3", 5, 2, false}}},
      {"starfile/single_line_end_of_multiblock.star", Dialect::Relion30,
       {{"block_1", 5, 2, false}, {"block_2", 5, 1, false}}},
      {"starfile/single_line_middle_of_multiblock.star", Dialect::Relion30,
       {{"block_1", 5, 1, false}, {"block_2", 5, 1, false}}},
      {"starfile/two_basic_blocks.star", Dialect::Relion30, {{"block_0", 3, 1, true}, {"block_1", 3, 1, true}}},
      {"starfile/two_single_line_loop_blocks.star", Dialect::Relion30,
       {{"block_0", 3, 1, false}, {"block_1", 3, 1, false}}},
      {"cryodrgn/empiar_10076_7.star", Dialect::Relion30, {{"", 10, 7, false}}},
      {"cryodrgn/FinalRefinement-OriginalParticles-PfCRT.star", Dialect::Relion30, {{"images", 22, 5, false}}},
      {"cryodrgn/relion31.6opticsgroups.star", Dialect::Relion31,
       {{"optics", 18, 6, false}, {"particles", 23, 139, false}}},
      {"cryodrgn/relion5.star", Dialect::Relion5, {{"optics", 18, 1, false}, {"particles", 26, 17, false}}},
      {"em-testdata/20170629_00049_frameImage_autopick.star", Dialect::Relion31, {{"", 5, 195, false}}},
      {"em-testdata/autopick.star", Dialect::Relion31, {{"coordinate_files", 2, 24, false}}},
      {"em-testdata/corrected_micrographs.star", Dialect::Relion31,
       {{"optics", 8, 1, false}, {"micrographs", 7, 24, false}}},
      {"em-testdata/micrographs_ctf.star", Dialect::Relion31, {{"optics", 8, 1, false}, {"micrographs", 9, 24, false}}},
      {"em-testdata/movie_frameImage.star", Dialect::Relion31,
       {{"general", 11, 1, true},
        {"global_shift", 3, 24, false},
        {"local_motion_model", 2, 36, false},
        {"hot_pixels", 2, 219, false},
        {"local_shift", 5, 600, false}}},
      {"em-testdata/mtf_k2_200kV.star", Dialect::Relion30, {{"mtf_k2_200kv", 2, 200, false}}},
      {"em-testdata/particles_1k.star", Dialect::Relion31, {{"optics", 9, 1, false}, {"particles", 13, 1000, false}}},
      {"em-testdata/run_it025_data.star", Dialect::Relion31, {{"optics", 10, 1, false}, {"particles", 25, 4786, false}}},
      {"ASPIRE-Python/rln_proj_64.star", Dialect::Relion31, {{"particles", 7, 5, false}}},
      {"ASPIRE-Python/rln_proj_64_centered.star", Dialect::Relion31, {{"optics", 7, 1, false}, {"particles", 7, 4, false}}},
      {"ASPIRE-Python/rln_proj_64_shifted.star", Dialect::Relion31, {{"optics", 7, 1, false}, {"particles", 7, 4, false}}},
      {"ASPIRE-Python/rln_proj_65.star", Dialect::Relion31, {{"particles", 7, 5, false}}},
      {"ASPIRE-Python/rln_proj_65_centered.star", Dialect::Relion31, {{"optics", 7, 1, false}, {"particles", 9, 4, false}}},
      {"ASPIRE-Python/rln_proj_65_shifted.star", Dialect::Relion31, {{"optics", 7, 1, false}, {"particles", 7, 4, false}}},
      {"xmipp/ReadWriteAppendBlock.xmd", Dialect::Xmipp, {{"one", 2, 2, false}, {"two", 2, 2, false}, {"three", 2, 2, false}}},
      {"xmipp/ref_c1_exp_sampling.xmd", Dialect::Xmipp,
       {{"extra", 2, 1, true}, {"neighbors", 0, 0, false}, {"projectionDirections", 7, 22, false}}},
      {"xmipp/test.xmd", Dialect::Xmipp, {{"noname", 6, 3, false}}},
      {"xmipp/testBlock.xmd", Dialect::Xmipp, {{"b1", 6, 3, false}, {"b2", 6, 3, false}, {"b3", 6, 3, false}}},
  };
  return files;
}

TEST(MetaDataFiles, EveryFileHasTheExpectedBlocks) {
  if (test::data_file("starfile/one_loop.star").empty()) GTEST_SKIP() << "shared data not found";
  for (const FileShape& shape : all_files()) {
    SCOPED_TRACE(shape.path);
    const std::string path = test::data_file(shape.path);
    ASSERT_FALSE(path.empty()) << "missing " << shape.path;
    const MetadataFile f = MetadataFile::read(path);
    EXPECT_EQ(dialect_name(f.dialect()), dialect_name(shape.dialect));
    ASSERT_EQ(f.block_count(), shape.blocks.size());
    for (std::size_t i = 0; i < shape.blocks.size(); ++i) {
      const Block& b = f.blocks()[i];
      EXPECT_EQ(b.name(), shape.blocks[i].name);
      EXPECT_EQ(b.column_count(), shape.blocks[i].labels) << b.name();
      EXPECT_EQ(b.rows(), shape.blocks[i].rows) << b.name();
      EXPECT_EQ(b.is_list(), shape.blocks[i].list) << b.name();
      EXPECT_EQ(b.origin(), path);
    }
  }
}

TEST(MetaDataFiles, QuotedStringsInListsAndLoops) {
  for (const char* name : {"starfile/basic_single_quote.star", "starfile/basic_double_quote.star"}) {
    FROST_REQUIRE_DATA(path, name);
    const MetadataFile f = MetadataFile::read(path);
    const Block& b = f.blocks()[0];
    EXPECT_EQ(b.get_string("no_quote_string"), "noquote");
    EXPECT_EQ(b.get_string("quote_string"), "quote string");
    EXPECT_EQ(b.get_string("whitespace_string"), " ");
    EXPECT_EQ(b.get_string("empty_string"), "");
  }
  for (const char* name : {"starfile/loop_single_quote.star", "starfile/loop_double_quote.star"}) {
    FROST_REQUIRE_DATA(path, name);
    const MetadataFile f = MetadataFile::read(path);
    const Block& b = f.blocks()[0];
    EXPECT_EQ(b.strings("quote_string"), (std::vector<std::string>{"quote string", "quote string"}));
    EXPECT_EQ(b.strings("whitespace_string"), (std::vector<std::string>{" ", " "}));
    EXPECT_EQ(b.strings("number_and_string"), (std::vector<std::string>{"4.0", "noquote"}));
    EXPECT_EQ(b.strings("number_and_empty"), (std::vector<std::string>{"5.0", ""}));
    EXPECT_EQ(b.doubles("number"), (std::vector<double>{6.0, 7.0}));
    EXPECT_EQ(b.strings("empty_string_and_normal_string"), (std::vector<std::string>{"", "test"}));
  }
}

TEST(MetaDataFiles, RunIt025ParsesFastWithExactValues) {
  FROST_REQUIRE_DATA(path, "em-testdata/run_it025_data.star");
  const auto t0 = std::chrono::steady_clock::now();
  const MetadataFile f = MetadataFile::read(path);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 0.5) << "2 MB STAR took " << seconds << " s";
  const Block& optics = f.block("optics");
  EXPECT_EQ(optics.get_string("rlnMtfFileName"), "mtf_k2_200kV.star");
  EXPECT_DOUBLE_EQ(optics.get_double("rlnImagePixelSize"), 3.54);
  EXPECT_EQ(optics.get_int("rlnImageSize"), 64);
  const Block& p = f.block("particles");
  ASSERT_EQ(p.rows(), 4786u);
  EXPECT_DOUBLE_EQ(p.get_double("rlnCoordinateX", 0), 451.529419);
  EXPECT_EQ(p.get_int("rlnClassNumber", 0), 4);
  EXPECT_DOUBLE_EQ(p.get_double("rlnAnglePsi", 0), -53.06426);
  EXPECT_EQ(p.get_string("rlnImageName", 0), "000001@Extract/job005/Movies/20170629_00021_frameImage.mrcs");
  EXPECT_EQ(p.get_string("rlnImageName", 4785), "000195@Extract/job005/Movies/20170629_00049_frameImage.mrcs");
  EXPECT_EQ(p.get_int("rlnClassNumber", 4785), 10);
  EXPECT_DOUBLE_EQ(p.get_double("rlnOriginXAngst", 4785), -5.07511);
  EXPECT_DOUBLE_EQ(p.get_double("rlnLogLikeliContribution", 4785), 10775.388672);
  EXPECT_EQ(p.source_line(4785), 4835u);
  const std::vector<std::int64_t> classes = p.ints("rlnClassNumber");
  EXPECT_EQ(classes.size(), 4786u);
}

TEST(MetaDataFiles, MotionStarHasFiveBlocks) {
  FROST_REQUIRE_DATA(path, "em-testdata/movie_frameImage.star");
  const MetadataFile f = MetadataFile::read(path);
  const Block& g = f.block("general");
  EXPECT_EQ(g.get_int("rlnImageSizeX"), 3710);
  EXPECT_EQ(g.get_int("rlnImageSizeY"), 3838);
  EXPECT_EQ(g.get_int("rlnImageSizeZ"), 24);
  EXPECT_EQ(g.get_string("rlnMicrographMovieName"), "Movies/20170629_00030_frameImage.tiff");
  EXPECT_DOUBLE_EQ(g.get_double("rlnMicrographOriginalPixelSize"), 0.885);
  EXPECT_DOUBLE_EQ(g.get_double("rlnMicrographDoseRate"), 1.277);
  EXPECT_EQ(g.get_int("rlnMotionModelVersion"), 1);
  const Block& s = f.block("global_shift");
  EXPECT_EQ(s.ints("rlnMicrographFrameNumber").back(), 24);
  EXPECT_DOUBLE_EQ(s.get_double("rlnMicrographShiftX", 2), 1.521142);
  EXPECT_DOUBLE_EQ(s.get_double("rlnMicrographShiftY", 2), -0.21954);
  EXPECT_DOUBLE_EQ(s.get_double("rlnMicrographShiftY", 23), -8.39650);
  const Block& m = f.block("local_motion_model");
  EXPECT_EQ(m.ints("rlnMotionModelCoeffsIdx").back(), 35);
  EXPECT_DOUBLE_EQ(m.get_double("rlnMotionModelCoeff", 0), 0.026351);
  EXPECT_DOUBLE_EQ(f.block("hot_pixels").get_double("rlnCoordinateX", 218), 1915.0);
  EXPECT_DOUBLE_EQ(f.block("local_shift").get_double("rlnMicrographShiftY", 599), -3.76897);
}

TEST(MetaDataFiles, ParticlesWithoutColumnIndices) {
  FROST_REQUIRE_DATA(path, "em-testdata/particles_1k.star");
  const MetadataFile f = MetadataFile::read(path);
  EXPECT_DOUBLE_EQ(f.block("optics").get_double("rlnImagePixelSize"), 1.36793);
  EXPECT_EQ(f.block("optics").get_string("rlnOpticsGroupName"), "opticsGroup1");
  const Block& p = f.block("particles");
  EXPECT_EQ(p.labels().front(), "rlnImageId");
  EXPECT_EQ(p.get_int("rlnImageId", 0), 2);
  EXPECT_EQ(p.get_int("rlnImageId", 999), 2610);
  EXPECT_EQ(p.get_string("rlnImageName", 999), "000039@Runs/003181_ProtRelionRefine3D/extra/input/mic_000069.mrcs");
  EXPECT_DOUBLE_EQ(p.get_double("rlnDefocusU", 999), 7413.458496);
}

TEST(MetaDataFiles, Relion5VectorsAndMatrix) {
  FROST_REQUIRE_DATA(path, "cryodrgn/relion5.star");
  const MetadataFile f = MetadataFile::read(path);
  EXPECT_EQ(f.version(), 50001);
  const Block& o = f.block("optics");
  const std::vector<double> odd = o.get_vector("rlnOddZernike");
  ASSERT_EQ(odd.size(), 6u);
  EXPECT_DOUBLE_EQ(odd[0], 0.0680480107376);
  EXPECT_DOUBLE_EQ(odd[5], -1.36333410593);
  EXPECT_EQ(o.get_vector("rlnEvenZernike").size(), 9u);
  EXPECT_DOUBLE_EQ(o.get_double("rlnMagMat01"), -7.04404e-04);
  EXPECT_EQ(o.get_int("rlnCtfDataAreCtfPremultiplied"), 0);
  const Block& p = f.block("particles");
  EXPECT_EQ(p.get_string("rlnImageName", 0), "1@toy_images_a.mrcs");
  EXPECT_DOUBLE_EQ(p.get_double("rlnLogLikeliContribution", 0), 8.546714e+05);
}

TEST(MetaDataFiles, SixOpticsGroups) {
  FROST_REQUIRE_DATA(path, "cryodrgn/relion31.6opticsgroups.star");
  const MetadataFile f = MetadataFile::read(path);
  EXPECT_EQ(f.version(), 30001); // no version line: RELION 3.1 because of data_optics
  const Block& o = f.block("optics");
  EXPECT_EQ(o.ints("rlnOpticsGroup"), (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(o.get_string("rlnOpticsGroupName", 3), "opticsGroup1");
  EXPECT_DOUBLE_EQ(o.get_double("rlnSphericalAberration", 3), 2.6);
  const Block& p = f.block("particles");
  EXPECT_EQ(p.get_int("rlnOpticsGroup", 0), 6);
  EXPECT_DOUBLE_EQ(p.get_double("rlnAngleRot", 0), -128.10516);
  EXPECT_DOUBLE_EQ(p.get_double("rlnAnglePsi", 0), -82.17809);
  EXPECT_EQ(p.get_int("rlnGroupNumber", 138), 2695);
}

TEST(MetaDataFiles, Relion30Files) {
  FROST_REQUIRE_DATA(path, "cryodrgn/empiar_10076_7.star");
  const MetadataFile file = MetadataFile::read(path);
  const Block& b = file.blocks()[0];
  EXPECT_EQ(b.get_string("rlnImageName", 6), "7@empiar_10076_7.mrc");
  EXPECT_EQ(b.get_string("rlnMicrographName", 6), "7");
  EXPECT_DOUBLE_EQ(b.get_double("rlnDefocusU", 0), 15301.1);
  EXPECT_EQ(b.get_int("rlnMagnification", 0), 38168);
  FROST_REQUIRE_DATA(pf, "cryodrgn/FinalRefinement-OriginalParticles-PfCRT.star");
  const MetadataFile f = MetadataFile::read(pf);
  const Block& p = f.block("images");
  EXPECT_DOUBLE_EQ(p.get_double("rlnOriginX", 1), -0.14062);
  EXPECT_DOUBLE_EQ(p.get_double("rlnOriginY", 1), 0.046875);
  EXPECT_DOUBLE_EQ(p.get_double("rlnMagnification", 0), 10000.0);
  EXPECT_DOUBLE_EQ(p.get_double("rlnDetectorPixelSize", 0), 1.035);
}

TEST(MetaDataFiles, XmippVectorsBlocksAndLegacyLabels) {
  FROST_REQUIRE_DATA(path, "xmipp/test.xmd");
  const MetadataFile file = MetadataFile::read(path);
  const Block& b = file.blocks()[0];
  EXPECT_EQ(b.labels(), (std::vector<std::string>{"image", "CTFModel", "CTF_Defocus_U", "count",
                                                  "classificationData", "ref3d"}));
  EXPECT_EQ(b.get_vector("classificationData", 1), (std::vector<double>{1, 4, 9}));
  EXPECT_EQ(b.get_vector("classificationData", 2), (std::vector<double>{1, 8, 27}));
  EXPECT_EQ(b.ints("ref3d"), (std::vector<std::int64_t>{-1, 2, -3}));
  EXPECT_EQ(b.doubles("CTF_Defocus_U"), (std::vector<double>{-100, 200, -300}));
  FROST_REQUIRE_DATA(blocks, "xmipp/testBlock.xmd");
  const Block b2 = read_block("b2@" + blocks);
  EXPECT_EQ(b2.name(), "b2");
  EXPECT_EQ(b2.get_string("image", 0), "000001@pythoninterface/proj_ctf_2.stk");
  EXPECT_EQ(read_block(blocks).name(), "b1");
}

TEST(MetaDataFiles, XmippSamplingFileWithEmptyBlock) {
  FROST_REQUIRE_DATA(path, "xmipp/ref_c1_exp_sampling.xmd");
  const MetadataFile f = MetadataFile::read(path);
  EXPECT_DOUBLE_EQ(f.block("extra").get_double("sampling_rate"), 0.0523599);
  EXPECT_DOUBLE_EQ(f.block("extra").get_double("neighborhoodRadius"), 0.996195);
  const Block& d = f.block("projectionDirections");
  EXPECT_EQ(d.get_int("neighbor", 0), 619);
  EXPECT_EQ(d.get_int("neighbor", 21), 496);
  EXPECT_DOUBLE_EQ(d.get_double("angleTilt", 21), 36.348986);
}

TEST(MetaDataFiles, XmippRowWithAnExtraValueIsRefused) {
  // Row 1 of this Xmipp test file has ten values for nine labels. Xmipp ignores the last one,
  // which reads psi as 10 and shiftX as 262.8: a value was lost or gained somewhere in the row,
  // so frost refuses it, naming the file and line, as for any other STAR file.
  FROST_REQUIRE_DATA(path, "xmipp/experimental_images.xmd");
  const std::string m = test::error_message([&] { (void)MetadataFile::read(path); });
  EXPECT_NE(m.find(path + ":14"), std::string::npos) << m;
  EXPECT_NE(m.find("row has 10 values, data_noname has 9 labels"), std::string::npos) << m;
}

TEST(MetaDataFiles, ReadBlockNamesMissingBlockAndFile) {
  FROST_REQUIRE_DATA(path, "xmipp/testBlock.xmd");
  try {
    (void)read_block("b9@" + path);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("data_b9"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("testBlock.xmd"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace frost::meta
