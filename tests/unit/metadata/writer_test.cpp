// Writers: RELION/Xmipp number formats, byte-identical re-writes of RELION-written files,
// read → write → read round trips of every shared file in both dialects.
#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/value_text.hpp"
#include "frost/test/support.hpp"

namespace frost::meta {
namespace {

const char* const kAllFiles[] = {
    "starfile/basic_double_quote.star", "starfile/basic_single_quote.star", "starfile/empty_loop.star",
    "starfile/loop_double_quote.star", "starfile/loop_single_quote.star", "starfile/one_loop.star",
    "starfile/postprocess.star", "starfile/rln3.1_data_style.star", "starfile/single_line_end_of_multiblock.star",
    "starfile/single_line_middle_of_multiblock.star", "starfile/two_basic_blocks.star",
    "starfile/two_single_line_loop_blocks.star", "cryodrgn/empiar_10076_7.star",
    "cryodrgn/FinalRefinement-OriginalParticles-PfCRT.star", "cryodrgn/relion31.6opticsgroups.star",
    "cryodrgn/relion5.star", "em-testdata/20170629_00049_frameImage_autopick.star", "em-testdata/autopick.star",
    "em-testdata/corrected_micrographs.star", "em-testdata/micrographs_ctf.star", "em-testdata/movie_frameImage.star",
    "em-testdata/mtf_k2_200kV.star", "em-testdata/particles_1k.star", "em-testdata/run_it025_data.star",
    "ASPIRE-Python/rln_proj_64.star", "ASPIRE-Python/rln_proj_64_centered.star", "ASPIRE-Python/rln_proj_65.star",
    "ASPIRE-Python/rln_proj_65_shifted.star", "xmipp/ReadWriteAppendBlock.xmd",
    "xmipp/ref_c1_exp_sampling.xmd", "xmipp/test.xmd", "xmipp/testBlock.xmd"};

/// Same blocks, labels and cell texts.
void expect_same_content(const MetadataFile& a, const MetadataFile& b) {
  ASSERT_EQ(a.block_count(), b.block_count());
  for (std::size_t i = 0; i < a.block_count(); ++i) {
    const Block& x = a.blocks()[i];
    const Block& y = b.blocks()[i];
    EXPECT_EQ(x.name(), y.name());
    EXPECT_EQ(x.is_list(), y.is_list()) << x.name();
    ASSERT_EQ(x.labels(), y.labels()) << x.name();
    ASSERT_EQ(x.rows(), y.rows()) << x.name();
    for (std::size_t c = 0; c < x.column_count(); ++c)
      for (std::size_t r = 0; r < x.rows(); ++r)
        ASSERT_EQ(x.column_at(c).text(r), y.column_at(c).text(r)) << x.name() << " " << x.column_at(c).label() << " row " << r;
  }
}

/// The lines of `text` from the first "data_" line to the last non-blank line.
std::string data_lines(const std::string& text) {
  const std::size_t at = text.find("\ndata_");
  std::string s = at == std::string::npos ? text : text.substr(at + 1);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

TEST(MetaFormat, RelionNumbers) {
  EXPECT_EQ(format_relion_double(1.0), "    1.000000");
  EXPECT_EQ(format_relion_double(0.0), "    0.000000");
  EXPECT_EQ(format_relion_double(-53.064264), "   -53.06426");
  EXPECT_EQ(format_relion_double(-161.739621), "  -161.73962");
  EXPECT_EQ(format_relion_double(7.04404e-4), "7.044040e-04");
  EXPECT_EQ(format_relion_double(-7.04404e-4), "-7.04404e-04");
  EXPECT_EQ(format_relion_double(376345.9), "3.763459e+05");
  EXPECT_EQ(format_relion_double(-376345.9), "-3.76346e+05");
  EXPECT_EQ(format_relion_double(99999.5), "99999.500000");
  EXPECT_EQ(format_relion_double(100000.0), "100000.00000"); // RELION's 12-character cut
  EXPECT_EQ(format_relion_int(24), "          24");
  EXPECT_EQ(format_relion_int(-3), "          -3");
  EXPECT_EQ(format_relion_vector({1.70554063513, 0, -2.5}), "[1.70554063513,0,-2.5]");
}

TEST(MetaFormat, XmippNumbers) {
  EXPECT_EQ(format_xmipp_double(-4.0091), "   -4.009100");
  EXPECT_EQ(format_xmipp_double(262.8), "  262.800000");
  EXPECT_EQ(format_xmipp_double(0.0005), "5.000000e-04");
  EXPECT_EQ(format_xmipp_int(619), "       619");
  EXPECT_EQ(format_xmipp_vector({1, 2, 3}), " 1.000000 2.000000 3.000000 ");
}

TEST(MetaFormat, Quoting) {
  EXPECT_EQ(quote_if_needed("plain", '"'), "plain");
  EXPECT_EQ(quote_if_needed("", '"'), "\"\"");
  EXPECT_EQ(quote_if_needed("a b", '"'), "\"a b\"");
  EXPECT_EQ(quote_if_needed("a b", '\''), "'a b'");
  EXPECT_EQ(quote_if_needed("say \" x", '"'), "'say \" x'");
  EXPECT_EQ(quote_if_needed("_label", '"'), "\"_label\"");
  EXPECT_EQ(quote_if_needed("#1", '"'), "\"#1\"");
  EXPECT_EQ(quote_if_needed("x#1", '"'), "x#1");
}

TEST(MetaWrite, RelionWrittenFilesAreReproducedByteForByte) {
  for (const char* name : {"em-testdata/run_it025_data.star", "em-testdata/movie_frameImage.star",
                           "em-testdata/corrected_micrographs.star", "em-testdata/micrographs_ctf.star",
                           "em-testdata/autopick.star", "em-testdata/20170629_00049_frameImage_autopick.star"}) {
    SCOPED_TRACE(name);
    FROST_REQUIRE_DATA(path, name);
    const std::string original = read_text_file(path);
    EXPECT_EQ(MetadataFile::parse(original, path).to_string(), original);
  }
}

TEST(MetaWrite, RelionDataLinesReproducedWhereTheHeaderDiffers) {
  // RELION 3.0 files start with a "# RELION; version ..." comment that frost does not keep;
  // the ASPIRE files were written by relion_project but end without RELION's " " line.
  for (const char* name : {"starfile/postprocess.star", "cryodrgn/FinalRefinement-OriginalParticles-PfCRT.star",
                           "ASPIRE-Python/rln_proj_64.star", "ASPIRE-Python/rln_proj_65.star"}) {
    SCOPED_TRACE(name);
    FROST_REQUIRE_DATA(path, name);
    const std::string original = read_text_file(path);
    const MetadataFile f = MetadataFile::parse(original, path);
    EXPECT_EQ(data_lines(f.to_string()), data_lines(original));
  }
}

TEST(MetaWrite, XmippWrittenFilesAreReproducedByteForByte) {
  for (const char* name : {"xmipp/ReadWriteAppendBlock.xmd", "xmipp/ref_c1_exp_sampling.xmd"}) {
    SCOPED_TRACE(name);
    FROST_REQUIRE_DATA(path, name);
    const std::string original = read_text_file(path);
    EXPECT_EQ(MetadataFile::parse(original, path).to_string(), original);
  }
}

TEST(MetaWrite, EveryFileRoundTripsInBothDialects) {
  if (test::data_file("starfile/one_loop.star").empty()) GTEST_SKIP() << "shared data not found";
  for (const char* name : kAllFiles) {
    SCOPED_TRACE(name);
    const std::string path = test::data_file(name);
    ASSERT_FALSE(path.empty());
    const MetadataFile f = MetadataFile::read(path);
    const MetadataFile same = MetadataFile::parse(f.to_string(), "same");
    expect_same_content(f, same);
    EXPECT_EQ(same.dialect(), f.dialect());
    const Dialect other = f.dialect() == Dialect::Xmipp ? Dialect::Relion31 : Dialect::Xmipp;
    const MetadataFile converted = MetadataFile::parse(f.to_string(other), "converted");
    expect_same_content(f, converted);
    EXPECT_EQ(converted.dialect(), other);
    // Writing twice gives the same text: the writer is a fixed point after one pass.
    EXPECT_EQ(same.to_string(), f.to_string());
  }
}

TEST(MetaWrite, DialectAndVersionArePreserved) {
  FROST_REQUIRE_DATA(path, "cryodrgn/relion5.star");
  const std::string text = MetadataFile::read(path).to_string();
  EXPECT_EQ(text.rfind("\n# version 50001\n\ndata_optics\n\nloop_ \n_rlnOpticsGroupName #1 \n", 0), 0u);
  FROST_REQUIRE_DATA(p30, "cryodrgn/empiar_10076_7.star");
  const std::string t30 = MetadataFile::read(p30).to_string();
  EXPECT_EQ(t30.find("# version"), std::string::npos);
  EXPECT_EQ(t30.rfind("\ndata_\n\nloop_ \n_rlnImageName #1 \n", 0), 0u);
  // "1" in rlnMicrographName is a string for RELION: padded to width 10, not 12.
  EXPECT_NE(t30.find("1@empiar_10076_7.mrc          1 "), std::string::npos) << t30;
  FROST_REQUIRE_DATA(px, "xmipp/test.xmd");
  const std::string tx = MetadataFile::read(px).to_string();
  EXPECT_EQ(tx.rfind("# XMIPP_STAR_1 * \n# \ndata_noname\nloop_\n _image\n _CTFModel\n", 0), 0u);
  EXPECT_NE(tx.find("' 1.000000\t 4.000000     9.000000 '"), std::string::npos) << tx;
}

TEST(MetaWrite, NewFileInRelionLayout) {
  MetadataFile f(Dialect::Relion31);
  Block& general = f.add_block("general", true);
  general.set_column("rlnImageSizeX", std::vector<std::int64_t>{3710});
  general.set_column("rlnMicrographMovieName", std::vector<std::string>{"Movies/m.tiff"});
  general.set_column("rlnMicrographOriginalPixelSize", std::vector<double>{0.885});
  Block& shifts = f.add_block("global_shift");
  shifts.set_column("rlnMicrographFrameNumber", std::vector<std::int64_t>{1, 2});
  shifts.set_column("rlnMicrographShiftX", std::vector<double>{0.0, -0.21954});
  shifts.set_column("rlnMicrographName", std::vector<std::string>{"a b", ""});
  const auto sp = [](std::size_t n) { return std::string(n, ' '); };
  // List labels are padded to 12 + the longest label (30 here); numbers are 12 wide.
  const std::string expected =
      "\n# version 30001\n\ndata_general\n\n"
      "_rlnImageSizeX" + sp(29) + "        3710\n"
      "_rlnMicrographMovieName" + sp(20) + "Movies/m.tiff\n"
      "_rlnMicrographOriginalPixelSize" + sp(12) + "    0.885000\n"
      " \n"
      "\n# version 30001\n\ndata_global_shift\n\nloop_ \n"
      "_rlnMicrographFrameNumber #1 \n_rlnMicrographShiftX #2 \n_rlnMicrographName #3 \n"
      "           1     0.000000      \"a b\" \n"
      "           2     -0.21954         \"\" \n"
      " \n";
  EXPECT_EQ(f.to_string(), expected);
  EXPECT_EQ(f.to_string(Dialect::Xmipp), "# XMIPP_STAR_1 * \n# \n"
                                         "data_general\n _rlnImageSizeX 3710\n _rlnMicrographMovieName Movies/m.tiff\n"
                                         " _rlnMicrographOriginalPixelSize 0.885000\n"
                                         "data_global_shift\nloop_\n _rlnMicrographFrameNumber\n _rlnMicrographShiftX\n"
                                         " _rlnMicrographName\n"
                                         "         1     0.000000 'a b' \n"
                                         "         2    -0.219540 '' \n");
}

TEST(MetaWrite, ReadModifyWriteKeepsUnknownLabelsAndOrder) {
  FROST_REQUIRE_DATA(path, "cryodrgn/relion31.6opticsgroups.star");
  MetadataFile f = MetadataFile::read(path);
  Block& p = f.block("particles");
  const std::vector<std::string> labels_before = p.labels();
  std::vector<double> psi = p.doubles("rlnAnglePsi");
  for (double& v : psi) v = -v;
  p.set_column("rlnAnglePsi", psi);
  p.set_column("rlnFrostScore", std::vector<double>(p.rows(), 0.5));
  p.set_string(3, "rlnImageName", "9@new.mrcs");
  test::TempDir dir;
  const std::string out = dir.file("out.star");
  f.write(out);
  const MetadataFile back = MetadataFile::read(out);
  EXPECT_EQ(back.dialect(), Dialect::Relion31);
  const Block& q = back.block("particles");
  std::vector<std::string> expected_labels = labels_before;
  expected_labels.push_back("rlnFrostScore");
  EXPECT_EQ(q.labels(), expected_labels);
  EXPECT_DOUBLE_EQ(q.get_double("rlnAnglePsi", 0), 82.17809);
  EXPECT_EQ(q.get_string("rlnImageName", 3), "9@new.mrcs");
  EXPECT_EQ(q.get_string("rlnImageName", 2), p.get_string("rlnImageName", 2));
  // Untouched columns keep every digit of the input, vectors included.
  EXPECT_EQ(back.block("optics").get_string("rlnOddZernike", 0),
            f.block("optics").get_string("rlnOddZernike", 0));
  EXPECT_EQ(q.get_string("rlnDefocusU", 0), "10352.805929");
  EXPECT_EQ(read_text_file(out), f.to_string());
}

TEST(MetaWrite, WriteFailureIsAnInputErrorNamingThePath) {
  MetadataFile f;
  f.add_block("x", true).set_column("a", std::vector<double>{1});
  try {
    f.write("/nonexistent-dir/out.star");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/out.star"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace frost::meta
