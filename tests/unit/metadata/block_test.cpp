// Typed access and modification of columns and blocks.
#include "expect_error.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/value_text.hpp"

namespace frost::meta {
namespace {

TEST(MetaValueText, ParsingNumbers) {
  double d = 0;
  EXPECT_TRUE(parse_double("+1.5", d));
  EXPECT_EQ(d, 1.5);
  EXPECT_TRUE(parse_double("-7.04404e-04", d));
  EXPECT_EQ(d, -7.04404e-04);
  EXPECT_TRUE(parse_double(".5", d));
  EXPECT_FALSE(parse_double("", d));
  EXPECT_FALSE(parse_double("1@x", d));
  EXPECT_FALSE(parse_double(" 1", d));
  std::int64_t i = 0;
  EXPECT_TRUE(parse_int("38168", i));
  EXPECT_EQ(i, 38168);
  EXPECT_TRUE(parse_int("2.000000", i));
  EXPECT_EQ(i, 2);
  EXPECT_FALSE(parse_int("2.5", i));
  EXPECT_FALSE(parse_int("x", i));
  EXPECT_EQ(parse_vector("[1,2.5,-3]"), (std::vector<double>{1, 2.5, -3}));
  EXPECT_EQ(parse_vector(" 1 2\t3 "), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(parse_vector("[]"), std::vector<double>{});
  EXPECT_FALSE(parse_vector("[1,a]").has_value());
}

TEST(MetaColumn, TextIsParsedOnDemandAndKeptVerbatim) {
  Column c("rlnX");
  c.push_text("1.500000");
  c.push_text("abc");
  EXPECT_EQ(c.kind(), Column::Kind::Text);
  EXPECT_EQ(c.raw(0), "1.500000");
  double v = 0;
  EXPECT_TRUE(c.to_double(0, v));
  EXPECT_EQ(v, 1.5);
  EXPECT_FALSE(c.to_double(1, v));
  EXPECT_FALSE(c.all_numeric());
  c.set_text(1, "2");
  EXPECT_TRUE(c.all_numeric());
  c.set_double(0, 0.1);
  EXPECT_EQ(c.text(0), "0.1");
}

TEST(MetaColumn, NumericKindsConvertAndRefuseText) {
  Column c("n", Column::Kind::Int);
  c.push_int(3);
  c.push_text("4");
  c.push_double(5.0);
  EXPECT_EQ(c.kind(), Column::Kind::Int);
  c.push_double(2.5); // widens
  EXPECT_EQ(c.kind(), Column::Kind::Double);
  EXPECT_EQ(c.text(3), "2.5");
  const std::string m = test::error_message([&] { c.push_text("abc"); });
  EXPECT_NE(m.find("'n'"), std::string::npos) << m;
  c.convert(Column::Kind::Text);
  EXPECT_EQ(c.raw(0), "3");
  c.keep_rows({3, 0});
  EXPECT_EQ(c.size(), 2u);
  EXPECT_EQ(c.raw(0), "2.5");
}

TEST(MetaBlock, TypedColumnsAndErrorsNameFileBlockLabelRow) {
  MetadataFile f = MetadataFile::parse("data_particles\nloop_\n_rlnA\n_rlnB\n1 x\n2.5 3\n", "p.star");
  const Block& b = f.block("particles");
  EXPECT_EQ(b.doubles("rlnA"), (std::vector<double>{1, 2.5}));
  EXPECT_EQ(b.strings("rlnB"), (std::vector<std::string>{"x", "3"}));
  const std::string m = test::error_message([&] { (void)b.ints("rlnA"); });
  EXPECT_NE(m.find("p.star:6"), std::string::npos) << m;
  EXPECT_NE(m.find("data_particles"), std::string::npos) << m;
  EXPECT_NE(m.find("rlnA"), std::string::npos) << m;
  EXPECT_NE(m.find("row 2"), std::string::npos) << m;
  EXPECT_NE(m.find("not an integer"), std::string::npos) << m;
  const std::string m2 = test::error_message([&] { (void)b.get_double("rlnB", 0); });
  EXPECT_NE(m2.find("p.star:5"), std::string::npos) << m2;
  EXPECT_EQ(b.doubles_or("rlnMissing", 7.0), (std::vector<double>{7.0, 7.0}));
}

TEST(MetaBlock, ListBlockErrorsUseTheLabelLine) {
  MetadataFile f = MetadataFile::parse("data_general\n_rlnA 1\n_rlnB x\n", "g.star");
  const std::string m = test::error_message([&] { (void)f.block("general").get_double("rlnB"); });
  EXPECT_NE(m.find("g.star:3"), std::string::npos) << m;
  EXPECT_EQ(m.find("row"), std::string::npos) << m;
}

TEST(MetaBlock, BuildAndModify) {
  Block b("particles");
  b.set_column("rlnImageName", std::vector<std::string>{"1@a.mrcs", "2@a.mrcs", "3@a.mrcs"});
  b.set_column("rlnAngleRot", std::vector<double>{10, 20, 30});
  EXPECT_EQ(b.rows(), 3u);
  const std::size_t r = b.add_row();
  EXPECT_EQ(r, 3u);
  EXPECT_EQ(b.get_string("rlnImageName", 3), "");
  EXPECT_EQ(b.get_double("rlnAngleRot", 3), 0.0);
  b.set_string(3, "rlnImageName", "4@a.mrcs");
  b.set_double(3, "rlnAngleRot", 40);
  b.set_int(1, "rlnClassNumber", 2); // new column: zeros elsewhere
  EXPECT_EQ(b.ints("rlnClassNumber"), (std::vector<std::int64_t>{0, 2, 0, 0}));
  EXPECT_EQ(b.column("rlnClassNumber").kind(), Column::Kind::Int);
  b.rename_column("rlnAngleRot", "rlnAnglePsi");
  EXPECT_FALSE(b.has("rlnAngleRot"));
  b.keep_rows({3, 1});
  EXPECT_EQ(b.strings("rlnImageName"), (std::vector<std::string>{"4@a.mrcs", "2@a.mrcs"}));
  EXPECT_EQ(b.doubles("rlnAnglePsi"), (std::vector<double>{40, 20}));
  b.remove_column("rlnClassNumber");
  EXPECT_EQ(b.labels(), (std::vector<std::string>{"rlnImageName", "rlnAnglePsi"}));
  EXPECT_THROW(b.set_column("rlnAnglePsi", std::vector<double>{1, 2, 3}), Error); // wrong length
  EXPECT_THROW(b.add_column("rlnImageName"), Error);
}

TEST(MetaBlock, AppendRowsFromAnotherBlock) {
  MetadataFile in = MetadataFile::parse("data_\nloop_\n_image\n_angleRot\n_extra\na 1.5 keep\nb 2.5 me\n", "in.xmd");
  const Block& src = in.blocks()[0];
  Block out("");
  out.add_column("enabled", Column::Kind::Int);
  out.add_columns_from(src);
  out.append_row_from(src, 1);
  out.append_row_from(src, 0);
  EXPECT_EQ(out.labels(), (std::vector<std::string>{"enabled", "image", "angleRot", "extra"}));
  EXPECT_EQ(out.strings("image"), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(out.doubles("angleRot"), (std::vector<double>{2.5, 1.5}));
  EXPECT_EQ(out.ints("enabled"), (std::vector<std::int64_t>{0, 0}));
}

TEST(MetaFile, BlockSpecSplitting) {
  BlockSpec s = split_block_spec("frameShifts@mic_shifts.xmd");
  EXPECT_TRUE(s.has_block);
  EXPECT_EQ(s.block, "frameShifts");
  EXPECT_EQ(s.file, "mic_shifts.xmd");
  s = split_block_spec("plain.xmd");
  EXPECT_FALSE(s.has_block);
  EXPECT_EQ(s.file, "plain.xmd");
  s = split_block_spec("/data/user@host/x.star");
  EXPECT_FALSE(s.has_block);
  EXPECT_EQ(s.file, "/data/user@host/x.star");
}

TEST(MetaFile, DialectNames) {
  EXPECT_EQ(parse_dialect("star"), Dialect::Relion31);
  EXPECT_EQ(parse_dialect("xmd"), Dialect::Xmipp);
  EXPECT_EQ(parse_dialect("relion-5"), Dialect::Relion5);
  EXPECT_FALSE(parse_dialect("cs").has_value());
  EXPECT_EQ(dialect_name(Dialect::Relion30), "relion-3.0");
  EXPECT_EQ(default_version(Dialect::Relion5), 50001);
}

} // namespace
} // namespace frost::meta
