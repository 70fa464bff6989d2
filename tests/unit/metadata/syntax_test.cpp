// STAR/XMD syntax accepted by the reader (docs/formats.md#star-syntax and #xmd-syntax), on text in
// memory so that each rule is tested alone.
#include "expect_error.hpp"
#include "frost/metadata/metadata_file.hpp"

namespace frost::meta {
namespace {

MetadataFile parse(const std::string& text) { return MetadataFile::parse(text, "mem.star"); }

TEST(MetaStarSyntax, NamedAndUnnamedBlocks) {
  const MetadataFile f = parse("data_\nloop_\n_a\n1\n\ndata_named\n_b 2\n");
  ASSERT_EQ(f.block_count(), 2u);
  EXPECT_EQ(f.blocks()[0].name(), "");
  EXPECT_EQ(f.blocks()[1].name(), "named");
  EXPECT_FALSE(f.blocks()[0].is_list());
  EXPECT_TRUE(f.blocks()[1].is_list());
  EXPECT_EQ(f.block("named").get_int("b"), 2);
}

TEST(MetaStarSyntax, LoopWithTrailingSpaceAndIndexedLabels) {
  const MetadataFile f = parse("data_t\n\nloop_ \n_rlnA #1 \n_rlnB #2\n 1.5  x \n 2.5  y \n \n");
  const Block& b = f.block("t");
  EXPECT_EQ(b.labels(), (std::vector<std::string>{"rlnA", "rlnB"}));
  EXPECT_EQ(b.rows(), 2u);
  EXPECT_EQ(b.doubles("rlnA"), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(b.strings("rlnB"), (std::vector<std::string>{"x", "y"}));
}

TEST(MetaStarSyntax, CommentsAnywhereOutsideQuotes) {
  const MetadataFile f = parse("# header\ndata_t # the block\nloop_\n_a # first\n# between\n1 # row\n"
                               "# inside the table\n2\n");
  const Block& b = f.block("t");
  EXPECT_EQ(b.ints("a"), (std::vector<std::int64_t>{1, 2}));
}

TEST(MetaStarSyntax, QuotedValues) {
  const MetadataFile f = parse("data_\nloop_\n_s\n_t\n_u\n'a b' \"c d\" \"\"\n' ' x''y 'it's'\n");
  const Block& b = f.blocks()[0];
  EXPECT_EQ(b.strings("s"), (std::vector<std::string>{"a b", " "}));
  EXPECT_EQ(b.strings("t"), (std::vector<std::string>{"c d", "x''y"}));
  EXPECT_EQ(b.strings("u"), (std::vector<std::string>{"", "it's"}));
}

TEST(MetaStarSyntax, HashInsideQuotesAndValuesIsData) {
  const MetadataFile f = parse("data_\nloop_\n_a\n_b\n'x # y' file#2.mrc\n");
  EXPECT_EQ(f.blocks()[0].get_string("a"), "x # y");
  EXPECT_EQ(f.blocks()[0].get_string("b"), "file#2.mrc");
}

TEST(MetaStarSyntax, RelionAndXmippVectors) {
  const MetadataFile f = parse("data_\nloop_\n_rlnOddZernike\n_v\n[1.5,-2,0] ' 1.0\t2.0  3.0 '\n");
  const Block& b = f.blocks()[0];
  EXPECT_EQ(b.get_vector("rlnOddZernike"), (std::vector<double>{1.5, -2, 0}));
  EXPECT_EQ(b.get_vector("v"), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(b.get_string("v"), " 1.0\t2.0  3.0 ");
}

TEST(MetaStarSyntax, EmptyAndSingleRowLoops) {
  const MetadataFile f = parse("data_a\nloop_\n_x #1\n\ndata_b\nloop_\n_y\n7\ndata_c\nloop_\ndata_d\nloop_\n_z\n");
  ASSERT_EQ(f.block_count(), 4u);
  EXPECT_EQ(f.block("a").rows(), 0u);
  EXPECT_EQ(f.block("a").column_count(), 1u);
  EXPECT_EQ(f.block("b").rows(), 1u);
  EXPECT_EQ(f.block("c").column_count(), 0u);
  EXPECT_EQ(f.block("d").rows(), 0u);
}

TEST(MetaStarSyntax, TableEndsAtBlankLineDataLoopOrEof) {
  const MetadataFile f = parse("data_a\nloop_\n_x\n1\n2\n\n\ndata_b\nloop_\n_y\n3\ndata_c\nloop_\n_z\n4\n5");
  EXPECT_EQ(f.block("a").rows(), 2u);
  EXPECT_EQ(f.block("b").rows(), 1u);
  EXPECT_EQ(f.block("c").ints("z"), (std::vector<std::int64_t>{4, 5})); // no newline at the end
}

TEST(MetaStarSyntax, CrLfLineEndsAreTolerated) {
  const MetadataFile f = parse("\r\n# version 30001\r\n\r\ndata_t\r\n\r\nloop_ \r\n_rlnA #1 \r\n1.25 \r\n \r\n");
  EXPECT_EQ(f.dialect(), Dialect::Relion31);
  EXPECT_EQ(f.block("t").get_double("rlnA"), 1.25);
  EXPECT_EQ(f.block("t").get_string("rlnA"), "1.25");
}

TEST(MetaStarSyntax, ListBlockAlignedValuesAndQuotedStrings) {
  const MetadataFile f = parse("data_general\n\n_rlnImageSizeX          3710\n_rlnName   'a name'\n_e \"\"\n \n");
  const Block& b = f.block("general");
  EXPECT_TRUE(b.is_list());
  EXPECT_EQ(b.rows(), 1u);
  EXPECT_EQ(b.get_int("rlnImageSizeX"), 3710);
  EXPECT_EQ(b.get_string("rlnName"), "a name");
  EXPECT_EQ(b.get_string("e"), "");
}

TEST(MetaStarSyntax, XmippLabelsWithLeadingSpaceAndListBlock) {
  const MetadataFile f = parse("# XMIPP_STAR_1 * \n# \ndata_extra\n _sampling_rate 0.5\ndata_t\nloop_\n _image\n _ref\n"
                               " 000001@s.stk 3 \n");
  EXPECT_EQ(f.dialect(), Dialect::Xmipp);
  EXPECT_DOUBLE_EQ(f.block("extra").get_double("sampling_rate"), 0.5);
  EXPECT_EQ(f.block("t").get_string("image"), "000001@s.stk");
}

TEST(MetaStarSyntax, DialectDetection) {
  EXPECT_EQ(parse("data_\nloop_\n_rlnA\n1\n").dialect(), Dialect::Relion30);
  EXPECT_EQ(parse("# RELION; version 3.0.6\ndata_\nloop_\n_rlnA\n1\n").dialect(), Dialect::Relion30);
  EXPECT_EQ(parse("\n# version 30001\ndata_\nloop_\n_rlnA\n1\n").dialect(), Dialect::Relion31);
  EXPECT_EQ(parse("\n# version 50001\ndata_\nloop_\n_rlnA\n1\n").dialect(), Dialect::Relion5);
  EXPECT_EQ(parse("\n# version 50001\ndata_\nloop_\n_rlnA\n1\n").version(), 50001);
  EXPECT_EQ(parse("data_optics\nloop_\n_rlnOpticsGroup\n1\n").dialect(), Dialect::Relion31);
  EXPECT_EQ(parse("# XMIPP_STAR_1 *\ndata_\nloop_\n_x\n1\n").dialect(), Dialect::Xmipp);
  EXPECT_EQ(parse("data_\nloop_\n_image\n_angleRot\na 1\n").dialect(), Dialect::Xmipp);
  EXPECT_EQ(parse("data_\nloop_\n_val1\n1\n").dialect(), Dialect::Relion30);
}

TEST(MetaStarSyntax, ByteOrderMarkIsSkipped) {
  EXPECT_EQ(parse("\xEF\xBB\xBF" "data_x\n_a 1\n").block("x").get_int("a"), 1);
}

// ---- malformed input: frost::Error(Input) naming the file and the line -------------------

TEST(MetaStarSyntaxErrors, UnterminatedQuote) {
  const std::string m = test::error_message([] { parse("data_\nloop_\n_a\n_b\n'open x\n"); });
  EXPECT_NE(m.find("mem.star:5"), std::string::npos) << m;
  EXPECT_NE(m.find("unterminated quote"), std::string::npos) << m;
}

TEST(MetaStarSyntaxErrors, RowWithTooFewValues) {
  const std::string m = test::error_message([] { parse("data_p\nloop_\n_a\n_b\n_c\n1 2 3\n4 5\n"); });
  EXPECT_NE(m.find("mem.star:7"), std::string::npos) << m;
  EXPECT_NE(m.find("2 values"), std::string::npos) << m;
  EXPECT_NE(m.find("data_p"), std::string::npos) << m;
}

TEST(MetaStarSyntaxErrors, RowWithTooManyValues) {
  const std::string m = test::error_message([] { parse("data_p\nloop_\n_a\n1 2\n"); });
  EXPECT_NE(m.find("mem.star:4"), std::string::npos) << m;
  EXPECT_NE(m.find("row has 2 values, data_p has 1 labels"), std::string::npos) << m;
  // A RELION 3.1 particle row with one value too many, after good rows.
  const std::string r = test::error_message([] {
    parse("# version 30001\ndata_optics\nloop_\n_rlnOpticsGroup\n_rlnImagePixelSize\n1 2.0\n\n"
          "# version 30001\ndata_particles\nloop_\n_rlnImageName\n_rlnAngleRot\n1@s.mrcs 10\n2@s.mrcs 20 7\n");
  });
  EXPECT_NE(r.find("mem.star:14"), std::string::npos) << r;
  EXPECT_NE(r.find("data_particles"), std::string::npos) << r;
}

TEST(MetaStarSyntaxErrors, XmippRowsNeedOneValuePerLabelToo) {
  // Xmipp itself ignores values beyond the labels; such a row has lost or gained a value
  // somewhere, so which column holds what is a guess: refused as in any STAR file.
  const std::string m = test::error_message([] { parse("# XMIPP_STAR_1 *\ndata_\nloop_\n _a\n _b\n1 2\n4 5 6\n"); });
  EXPECT_NE(m.find("mem.star:7"), std::string::npos) << m;
  EXPECT_NE(m.find("row has 3 values"), std::string::npos) << m;
  const std::string f = test::error_message([] { parse("# XMIPP_STAR_1 *\ndata_\nloop_\n _a\n _b\n1 2\n4\n"); });
  EXPECT_NE(f.find("mem.star:7"), std::string::npos) << f;
}

TEST(MetaStarSyntaxErrors, ListLabelWithoutValue) {
  const std::string m = test::error_message([] { parse("data_g\n_a 1\n_b\n"); });
  EXPECT_NE(m.find("mem.star:3"), std::string::npos) << m;
  EXPECT_NE(m.find("_b has no value"), std::string::npos) << m;
}

TEST(MetaStarSyntaxErrors, MissingLabelIsNamedOnAccess) {
  const MetadataFile f = parse("data_particles\nloop_\n_rlnA\n1\n");
  const std::string m = test::error_message([&] { (void)f.block("particles").doubles("rlnDefocusU"); });
  EXPECT_NE(m.find("mem.star"), std::string::npos) << m;
  EXPECT_NE(m.find("data_particles"), std::string::npos) << m;
  EXPECT_NE(m.find("rlnDefocusU"), std::string::npos) << m;
  EXPECT_NE(m.find("rlnA"), std::string::npos) << m; // the labels that do exist
}

TEST(MetaStarSyntaxErrors, BadValueNamesRowAndLine) {
  const MetadataFile f = parse("data_particles\nloop_\n_rlnA\n1\n# c\nabc\n");
  const std::string m = test::error_message([&] { (void)f.block("particles").doubles("rlnA"); });
  EXPECT_NE(m.find("mem.star:6"), std::string::npos) << m;
  EXPECT_NE(m.find("row 2"), std::string::npos) << m;
  EXPECT_NE(m.find("'abc' is not a number"), std::string::npos) << m;
}

TEST(MetaStarSyntaxErrors, StructuralMistakes) {
  EXPECT_NE(test::error_message([] { parse("1 2\ndata_\n"); }).find("mem.star:1"), std::string::npos);
  EXPECT_NE(test::error_message([] { parse("data_\n1 2\n"); }).find("outside a loop_"), std::string::npos);
  EXPECT_NE(test::error_message([] { parse("data_\nloop_\n_a\n1\n\n2\n"); }).find("after the end of the table"),
            std::string::npos);
  EXPECT_NE(test::error_message([] { parse("data_\nloop_\n_a\n1\n_b\n"); }).find("after the data rows"),
            std::string::npos);
  EXPECT_NE(test::error_message([] { parse("data_\nloop_\n_a\n_a\n"); }).find("appears twice"), std::string::npos);
  EXPECT_NE(test::error_message([] { parse("data_\n_a 1\nloop_\n_b\n"); }).find("one table or one list"),
            std::string::npos);
  EXPECT_NE(test::error_message([] { parse("data_\nloop_\n1\n"); }).find("without labels"), std::string::npos);
}

TEST(MetaStarSyntaxErrors, MissingBlockListsThoseThatExist) {
  const MetadataFile f = parse("data_optics\n_a 1\ndata_particles\n_b 2\n");
  const std::string m = test::error_message([&] { (void)f.block("images"); });
  EXPECT_NE(m.find("data_optics, data_particles"), std::string::npos) << m;
}

TEST(MetaStarSyntaxErrors, MissingFileIsAnInputError) {
  const std::string m = test::error_message([] { (void)MetadataFile::read("/nonexistent/x.star"); });
  EXPECT_NE(m.find("/nonexistent/x.star"), std::string::npos) << m;
}

} // namespace
} // namespace frost::meta
