// Particle-level helpers: image addresses, data paths, pixel sizes, optics joins and the
// Xmipp <-> RELION mapping (docs/formats.md#particle-files and #xmipp-and-relion-mapping).
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cmath>

#include "expect_error.hpp"
#include "frost/core/atomic_file.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/metadata/xmipp_relion.hpp"

namespace frost::meta {
namespace {

TEST(MetaImageLocation, ParseAndFormat) {
  ImageLocation a = parse_image_location("000123@Extract/job005/mic.mrcs");
  EXPECT_EQ(a.index, 123u);
  EXPECT_EQ(a.path, "Extract/job005/mic.mrcs");
  ImageLocation b = parse_image_location("7@empiar_10076_7.mrc");
  EXPECT_EQ(b.index, 7u);
  EXPECT_EQ(format_image_location(b), "000007@empiar_10076_7.mrc");
  EXPECT_EQ(format_image_location({1234567, "s.mrcs"}), "1234567@s.mrcs");
  ImageLocation c = parse_image_location("images/proj_sh000001.spi");
  EXPECT_FALSE(c.has_index());
  EXPECT_EQ(format_image_location(c), "images/proj_sh000001.spi");
  EXPECT_EQ(parse_image_location("/data/a@b/x.mrc").path, "/data/a@b/x.mrc");
  EXPECT_EQ(parse_image_location("1@CtfFind/x_PS.ctf:mrc").path, "CtfFind/x_PS.ctf:mrc");
}

TEST(MetaImageLocation, BadIndicesAreInputErrors) {
  EXPECT_NE(test::error_message([] { parse_image_location("0@a.mrcs"); }).find("start at 1"), std::string::npos);
  EXPECT_NE(test::error_message([] { parse_image_location("x@a.mrcs"); }).find("x@a.mrcs"), std::string::npos);
  test::error_message([] { parse_image_location("@a.mrcs"); });
  test::error_message([] { parse_image_location("3@"); });
}

TEST(MetaImageLocation, TypeSuffix) {
  EXPECT_EQ(strip_type_suffix("a/b.ctf:mrc"), "a/b.ctf");
  EXPECT_EQ(strip_type_suffix("stack.mrcs"), "stack.mrcs");
  EXPECT_EQ(strip_type_suffix("C:/x/y.mrc"), "C:/x/y.mrc");
}

TEST(MetaImageLocation, RelativePathsFollowTheStarDirectoryThenTheWorkingDirectory) {
  test::TempDir dir, work;
  write_text_file_atomic(dir.file("stack.mrcs"), "x");
  const std::string star = dir.file("particles.star");
  EXPECT_EQ(resolve_data_path("/abs/stack.mrcs", star), "/abs/stack.mrcs");
  EXPECT_EQ(resolve_data_path("stack.mrcs", star), dir.file("stack.mrcs"));
  EXPECT_EQ(resolve_data_path("stack.mrcs:mrcs", star), dir.file("stack.mrcs:mrcs"));
  // Nowhere: RELION's project-relative path is returned unchanged.
  EXPECT_EQ(resolve_data_path("missing.mrcs", star), "missing.mrcs");
  EXPECT_EQ(resolve_data_path("stack.mrcs", star, PathBase::WorkingDirectory), "stack.mrcs");
  EXPECT_EQ(resolve_data_path("x.mrcs", star, PathBase::MetadataDirectory), dir.file("x.mrcs"));
  char cwd[PATH_MAX];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(::chdir(work.path().c_str()), 0);
  // Only in the working directory (a RELION project): the project path.
  write_text_file_atomic(work.file("own.mrcs"), "y");
  EXPECT_EQ(resolve_data_path("own.mrcs", star), "own.mrcs");
  EXPECT_EQ(resolve_data_path("stack.mrcs", "/elsewhere/p.star"), "stack.mrcs");
  // A same-named file in the working directory does not win over the one beside the STAR file.
  write_text_file_atomic(work.file("stack.mrcs"), "other data set");
  EXPECT_EQ(resolve_data_path("stack.mrcs", star), dir.file("stack.mrcs"));
  ASSERT_EQ(::chdir(cwd), 0);
}

// A table's rows resolve each distinct path once (one lookup, not one per row): a stack removed
// after its first row still resolves as it did, and another path is looked up afresh.
TEST(MetaImageLocation, ResolverLooksUpEachPathOnce) {
  test::TempDir dir;
  write_text_file_atomic(dir.file("stack.mrcs"), "x");
  DataPathResolver resolve(dir.file("particles.star"));
  EXPECT_EQ(resolve("stack.mrcs"), dir.file("stack.mrcs"));
  ASSERT_EQ(std::remove(dir.file("stack.mrcs").c_str()), 0);
  EXPECT_EQ(resolve("stack.mrcs"), dir.file("stack.mrcs"));
  EXPECT_EQ(resolve_data_path("stack.mrcs", dir.file("particles.star")), "stack.mrcs");
  write_text_file_atomic(dir.file("other.mrcs"), "y");
  EXPECT_EQ(resolve("other.mrcs"), dir.file("other.mrcs"));
  EXPECT_EQ(resolve("missing.mrcs"), "missing.mrcs");
}

TEST(MetaImageLocation, PathsWrittenIntoMetadataResolveFromItsFolder) {
  test::TempDir work;
  char cwd[PATH_MAX];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  ASSERT_EQ(::chdir(work.path().c_str()), 0);
  ASSERT_EQ(::mkdir("data", 0755), 0);
  ASSERT_EQ(::mkdir("out", 0755), 0);
  ASSERT_EQ(::symlink("data", "link"), 0);
  EXPECT_EQ(path_for_metadata("/abs/s.mrcs", "out/a.xmd"), "/abs/s.mrcs");
  EXPECT_EQ(path_for_metadata("data/s.mrcs", "out/a.xmd"), "../data/s.mrcs");
  EXPECT_EQ(path_for_metadata("data/s.mrcs:mrcs", "out/a.xmd"), "../data/s.mrcs:mrcs");
  EXPECT_EQ(path_for_metadata("s.mrcs", "a.xmd"), "s.mrcs");
  EXPECT_EQ(path_for_metadata("./data/../data/s.mrcs", "data/a.xmd"), "s.mrcs");
  EXPECT_EQ(path_for_metadata("link/s.mrcs", "data/a.xmd"), "s.mrcs"); // the folder's link resolved
  EXPECT_EQ(location_for_metadata("000003@data/s.mrcs", "out/a.xmd"), "000003@../data/s.mrcs");
  EXPECT_EQ(rebase_location("2@../data/s.mrcs", "out/a.xmd", "b.xmd"), "000002@data/s.mrcs");
  EXPECT_EQ(rebase_location("2@/abs/s.mrcs", "out/a.xmd", "b.xmd"), "000002@/abs/s.mrcs");
  ASSERT_EQ(::chdir(cwd), 0);
  EXPECT_EQ(data_files({"1@a.mrcs", "2@b.mrcs:mrcs", "3@a.mrcs", "b.mrcs"}), (std::vector<std::string>{"a.mrcs", "b.mrcs"}));
}

TEST(MetaParticles, Relion30PixelSizeFromDetectorAndMagnification) {
  EXPECT_NEAR(relion30_pixel_size(5.0, 38168), 1.31, 1e-3);
  test::error_message([] { relion30_pixel_size(5.0, 0); });
  FROST_REQUIRE_DATA(path, "cryodrgn/empiar_10076_7.star");
  const MetadataFile f = MetadataFile::read(path);
  const std::vector<double> px = particle_pixel_sizes(f);
  ASSERT_EQ(px.size(), 7u);
  for (double p : px) EXPECT_DOUBLE_EQ(p, 5.0 * 1e4 / 38168);
  FROST_REQUIRE_DATA(pf, "cryodrgn/FinalRefinement-OriginalParticles-PfCRT.star");
  const MetadataFile g = MetadataFile::read(pf);
  EXPECT_EQ(particle_block(g).name(), "images");
  EXPECT_DOUBLE_EQ(particle_pixel_sizes(g)[0], 1.035);
}

TEST(MetaParticles, SixOpticsGroupsJoin) {
  FROST_REQUIRE_DATA(path, "cryodrgn/relion31.6opticsgroups.star");
  const MetadataFile f = MetadataFile::read(path);
  const Block& optics = f.block("optics");
  const Block& particles = particle_block(f);
  EXPECT_EQ(particles.name(), "particles");
  const std::vector<std::size_t> rows = optics_rows(optics, particles);
  ASSERT_EQ(rows.size(), 139u);
  std::vector<int> count(6, 0);
  for (std::size_t r : rows) ++count.at(r);
  EXPECT_EQ(count, (std::vector<int>{48, 29, 5, 7, 26, 24}));
  EXPECT_EQ(rows[0], 5u); // particle 1 is in group 6
  const std::vector<double> px = particle_pixel_sizes(f);
  const std::vector<double> cs = optics_doubles(optics, particles, "rlnSphericalAberration");
  const std::vector<std::int64_t> group = particles.ints("rlnOpticsGroup");
  for (std::size_t p = 0; p < rows.size(); ++p) {
    EXPECT_DOUBLE_EQ(px[p], (group[p] == 2 || group[p] == 5) ? 1.24 : 1.25);
    EXPECT_DOUBLE_EQ(cs[p], group[p] == 4 ? 2.6 : 2.7);
  }
}

TEST(MetaParticles, JoinErrors) {
  MetadataFile f = MetadataFile::parse(
      "data_optics\nloop_\n_rlnOpticsGroup\n_rlnImagePixelSize\n1 1.0\n2 2.0\n\n"
      "data_particles\nloop_\n_rlnOpticsGroup\n1\n3\n", "j.star");
  const std::string m = test::error_message([&] { (void)particle_pixel_sizes(f); });
  EXPECT_NE(m.find("j.star:12"), std::string::npos) << m;
  EXPECT_NE(m.find("optics group 3"), std::string::npos) << m;
  MetadataFile single = MetadataFile::parse(
      "data_optics\nloop_\n_rlnOpticsGroup\n_rlnImagePixelSize\n1 1.5\n\ndata_particles\nloop_\n_rlnAngleRot\n1\n2\n", "s.star");
  EXPECT_EQ(particle_pixel_sizes(single), (std::vector<double>{1.5, 1.5}));
  MetadataFile none = MetadataFile::parse("data_particles\nloop_\n_rlnAngleRot\n1\n", "n.star");
  EXPECT_NE(test::error_message([&] { (void)particle_pixel_sizes(none); }).find("no pixel size"), std::string::npos);
}

TEST(MetaParticles, Relion31WithoutOpticsBlock) {
  FROST_REQUIRE_DATA(path, "ASPIRE-Python/rln_proj_65.star");
  const MetadataFile f = MetadataFile::read(path);
  EXPECT_EQ(f.dialect(), Dialect::Relion31);
  EXPECT_EQ(particle_block(f).rows(), 5u);
  test::error_message([&] { (void)particle_pixel_sizes(f); }); // no pixel size: 5 Å/px given by hand
  FROST_REQUIRE_DATA(shifted, "ASPIRE-Python/rln_proj_65_shifted.star");
  const MetadataFile g = MetadataFile::read(shifted);
  EXPECT_EQ(particle_pixel_sizes(g), std::vector<double>(4, 1.0));
  EXPECT_EQ(particle_block(g).doubles("rlnOriginX"), (std::vector<double>{6, 10, -8, -13}));
  EXPECT_EQ(particle_block(g).doubles("rlnOriginY"), (std::vector<double>{10, -5, 11, -3}));
}

TEST(MetaParticles, DerivedOpticsForRelion30) {
  MetadataFile f = MetadataFile::parse(
      "data_images\nloop_\n_rlnVoltage\n_rlnSphericalAberration\n_rlnAmplitudeContrast\n_rlnMagnification\n"
      "_rlnDetectorPixelSize\n300 2.7 0.1 10000 1.0\n300 2.7 0.1 10000 1.0\n200 2.7 0.1 10000 1.0\n"
      "300 2.7 0.1 20000 1.0\n",
      "o.star");
  const DerivedOptics d = derive_relion30_optics(particle_block(f));
  EXPECT_EQ(d.group, (std::vector<std::int64_t>{1, 1, 2, 3}));
  EXPECT_EQ(d.optics.rows(), 3u);
  EXPECT_EQ(d.optics.strings("rlnOpticsGroupName"),
            (std::vector<std::string>{"opticsGroup1", "opticsGroup2", "opticsGroup3"}));
  EXPECT_EQ(d.optics.doubles("rlnVoltage"), (std::vector<double>{300, 200, 300}));
  EXPECT_EQ(d.optics.doubles("rlnImagePixelSize"), (std::vector<double>{1.0, 1.0, 0.5}));
  FROST_REQUIRE_DATA(path, "cryodrgn/empiar_10076_7.star");
  const DerivedOptics e = derive_relion30_optics(particle_block(MetadataFile::read(path)));
  EXPECT_EQ(e.optics.rows(), 1u);
  EXPECT_EQ(e.group, std::vector<std::int64_t>(7, 1));
}

TEST(MetaParticles, PosesInPixelsForEveryDialect) {
  FROST_REQUIRE_DATA(shifted, "ASPIRE-Python/rln_proj_65_shifted.star");
  const ParticlePoses a = particle_poses(particle_block(MetadataFile::read(shifted)));
  EXPECT_EQ(a.shift_x, (std::vector<double>{6, 10, -8, -13}));
  EXPECT_EQ(a.shift_y, (std::vector<double>{10, -5, 11, -3}));
  EXPECT_DOUBLE_EQ(a.rot[0], 235.820138);
  EXPECT_DOUBLE_EQ(a.psi[3], 154.043384);
  FROST_REQUIRE_DATA(run, "em-testdata/run_it025_data.star");
  const MetadataFile f = MetadataFile::read(run);
  const ParticlePoses b = particle_poses(particle_block(f), particle_pixel_sizes(f));
  EXPECT_DOUBLE_EQ(b.shift_x[4785], -5.07511 / 3.54);
  EXPECT_DOUBLE_EQ(b.shift_y[4785], 9.084892 / 3.54);
  EXPECT_NE(test::error_message([&] { (void)particle_poses(particle_block(f)); }).find("rlnOriginXAngst"),
            std::string::npos);
  const MetadataFile x = MetadataFile::parse(
      "# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _rot\n _angleTilt\n _anglePsi\n _shiftX\n _flip\n"
      " a 1 2 3 4 0\n b 5 6 7 8 1\n", "x.xmd");
  const ParticlePoses c = particle_poses(x.blocks()[0]);
  EXPECT_EQ(c.rot, (std::vector<double>{1, 5}));
  EXPECT_EQ(c.tilt, (std::vector<double>{2, 186}));
  EXPECT_EQ(c.psi, (std::vector<double>{3, -7}));
  EXPECT_EQ(c.shift_x, (std::vector<double>{4, -8}));
  EXPECT_EQ(c.shift_y, (std::vector<double>{0, 0}));
}

// ---- Xmipp <-> RELION -------------------------------------------------------------------

TEST(MetaXmippRelion, PoseWithoutFlipBothWays) {
  const XmippPose x{10, 20, 30, 1.5, -2.0, 0.5, false};
  const RelionPose r = xmipp_to_relion(x, 2.0);
  EXPECT_EQ(r.rot, 10);
  EXPECT_EQ(r.tilt, 20);
  EXPECT_EQ(r.psi, 30);
  EXPECT_EQ(r.origin_x_angst, 3.0); // same sign, times the pixel size
  EXPECT_EQ(r.origin_y_angst, -4.0);
  EXPECT_EQ(r.origin_z_angst, 1.0);
  const XmippPose back = relion_to_xmipp(r, 2.0);
  EXPECT_EQ(back.rot, x.rot);
  EXPECT_EQ(back.tilt, x.tilt);
  EXPECT_EQ(back.psi, x.psi);
  EXPECT_EQ(back.shift_x, x.shift_x);
  EXPECT_EQ(back.shift_y, x.shift_y);
  EXPECT_EQ(back.shift_z, x.shift_z);
  EXPECT_FALSE(back.flip);
  test::error_message([&] { (void)xmipp_to_relion(x, 0.0); });
}

TEST(MetaXmippRelion, FlipIsFoldedIntoThePose) {
  const XmippPose x{10, 20, 30, 1.5, -2.0, 0, true};
  const XmippPose u = unflip(x);
  EXPECT_EQ(u.tilt, 200);
  EXPECT_EQ(u.psi, -30);
  EXPECT_EQ(u.shift_x, -1.5);
  EXPECT_EQ(u.shift_y, -2.0);
  EXPECT_FALSE(u.flip);
  const RelionPose r = xmipp_to_relion(x, 1.5);
  EXPECT_EQ(r.tilt, 200);
  EXPECT_EQ(r.psi, -30);
  EXPECT_EQ(r.origin_x_angst, -2.25);
  // Back to Xmipp: the unflipped pose, no flip.
  const XmippPose back = relion_to_xmipp(r, 1.5);
  EXPECT_EQ(back.tilt, 200);
  EXPECT_EQ(back.shift_x, -1.5);
  EXPECT_FALSE(back.flip);
}

TEST(MetaXmippRelion, LabelMapsAndAliases) {
  EXPECT_EQ(relion_label_for("angleRot"), "rlnAngleRot");
  EXPECT_EQ(relion_label_for("shiftX"), "rlnOriginXAngst");
  EXPECT_EQ(relion_label_for("itemId"), "rlnImageId");
  EXPECT_EQ(relion_label_for("ctfQ0"), "rlnAmplitudeContrast");
  EXPECT_FALSE(relion_label_for("maxCC").has_value());
  EXPECT_EQ(xmipp_label_for("rlnImageName"), "image");
  EXPECT_EQ(xmipp_label_for("rlnOriginX"), "shiftX");
  EXPECT_EQ(xmipp_label_for("rlnClassNumber"), "ref3d");
  EXPECT_FALSE(xmipp_label_for("rlnRandomSubset").has_value());
  EXPECT_EQ(canonical_xmipp_label("CTF_Defocus_U"), "ctfDefocusU");
  EXPECT_EQ(canonical_xmipp_label("CTFModel"), "ctfModel");
  EXPECT_EQ(canonical_xmipp_label("image"), "image");
  FROST_REQUIRE_DATA(path, "xmipp/test.xmd");
  Block b = MetadataFile::read(path).blocks()[0];
  canonicalize_xmipp_labels(b);
  EXPECT_EQ(b.labels(), (std::vector<std::string>{"image", "ctfModel", "ctfDefocusU", "count",
                                                  "classificationData", "ref3d"}));
}

TEST(MetaXmippRelion, XmippBlockToRelionAndBack) {
  const MetadataFile x = MetadataFile::parse(
      "# XMIPP_STAR_1 *\n#\ndata_\nloop_\n _image\n _enabled\n _angleRot\n _angleTilt\n _anglePsi\n _shiftX\n"
      " _shiftY\n _flip\n _maxCC\n _ctfQ0\n _itemId\n"
      " 000001@s.mrcs 1 10 20 30 1.5 -2 0 0.9 -0.1 7\n"
      " 000002@s.mrcs -1 11 21 31 1 1 0 0.8 0.1 8\n"
      " 000003@s.mrcs 1 12 22 32 2 3 1 0.7 0.1 9\n",
      "x.xmd");
  const Block r = xmipp_to_relion(x.blocks()[0], 2.0);
  EXPECT_EQ(r.labels(), (std::vector<std::string>{"rlnImageName", "enabled", "rlnAngleRot", "rlnAngleTilt",
                                                  "rlnAnglePsi", "rlnOriginXAngst", "rlnOriginYAngst", "maxCC",
                                                  "rlnAmplitudeContrast", "rlnImageId"}));
  ASSERT_EQ(r.rows(), 2u); // the disabled row is dropped
  EXPECT_EQ(r.strings("rlnImageName"), (std::vector<std::string>{"000001@s.mrcs", "000003@s.mrcs"}));
  EXPECT_EQ(r.doubles("rlnAngleTilt"), (std::vector<double>{20, 202}));
  EXPECT_EQ(r.doubles("rlnAnglePsi"), (std::vector<double>{30, -32}));
  EXPECT_EQ(r.doubles("rlnOriginXAngst"), (std::vector<double>{3, -4}));
  EXPECT_EQ(r.doubles("rlnOriginYAngst"), (std::vector<double>{-4, 6}));
  EXPECT_EQ(r.doubles("rlnAmplitudeContrast"), (std::vector<double>{0.1, 0.1}));
  EXPECT_EQ(r.strings("maxCC"), (std::vector<std::string>{"0.9", "0.7"}));
  EXPECT_EQ(r.ints("rlnImageId"), (std::vector<std::int64_t>{7, 9}));

  const Block back = relion_to_xmipp(r, 2.0);
  EXPECT_EQ(back.labels(), (std::vector<std::string>{"image", "enabled", "angleRot", "angleTilt", "anglePsi",
                                                     "shiftX", "shiftY", "maxCC", "ctfQ0", "itemId"}));
  EXPECT_EQ(back.doubles("shiftX"), (std::vector<double>{1.5, -2}));
  EXPECT_EQ(back.doubles("shiftY"), (std::vector<double>{-2, 3}));
  EXPECT_EQ(back.doubles("angleTilt"), (std::vector<double>{20, 202}));
}

TEST(MetaXmippRelion, RelionFileToXmippUsesPerRowPixelSizes) {
  FROST_REQUIRE_DATA(path, "em-testdata/run_it025_data.star");
  const MetadataFile f = MetadataFile::read(path);
  const Block& p = particle_block(f);
  const Block x = relion_to_xmipp(p, particle_pixel_sizes(f));
  EXPECT_EQ(x.rows(), 4786u);
  EXPECT_DOUBLE_EQ(x.get_double("shiftX", 4785), -5.07511 / 3.54);
  EXPECT_DOUBLE_EQ(x.get_double("anglePsi", 0), -53.06426);
  EXPECT_EQ(x.get_string("image", 0), p.get_string("rlnImageName", 0));
  EXPECT_TRUE(x.has("rlnNormCorrection")); // no Xmipp equivalent: kept
  // RELION 3.0 pixel origins are already pixels.
  FROST_REQUIRE_DATA(pf, "ASPIRE-Python/rln_proj_65_centered.star");
  const MetadataFile g = MetadataFile::read(pf);
  const Block y = relion_to_xmipp(particle_block(g), 1.0);
  EXPECT_EQ(y.doubles("shiftX"), std::vector<double>(4, 0.0));
  EXPECT_FALSE(y.has("rlnOriginX")); // superseded by rlnOriginXAngst
  FROST_REQUIRE_DATA(ps, "ASPIRE-Python/rln_proj_65_shifted.star");
  const Block z = relion_to_xmipp(particle_block(MetadataFile::read(ps)), 5.0);
  EXPECT_EQ(z.doubles("shiftX"), (std::vector<double>{6, 10, -8, -13}));
}

TEST(MetaParticles, OnePixelSizeFromEveryDialect) {
  const MetadataFile relion = MetadataFile::parse(
      "# version 30001\ndata_optics\nloop_\n_rlnOpticsGroup\n_rlnImagePixelSize\n1 1.5\n\n"
      "# version 30001\ndata_particles\nloop_\n_rlnImageName\n_rlnOpticsGroup\n1@s.mrcs 1\n2@s.mrcs 1\n", "r.star");
  EXPECT_EQ(particle_pixel_size(relion), std::optional<double>(1.5));
  const MetadataFile rows = MetadataFile::parse("data_particles\nloop_\n_rlnImageName\n_rlnImagePixelSize\n1@s 2.5\n", "p.star");
  EXPECT_EQ(particle_pixel_size(rows), std::optional<double>(2.5));
  FROST_REQUIRE_DATA(v30, "cryodrgn/empiar_10076_7.star");
  EXPECT_DOUBLE_EQ(*particle_pixel_size(MetadataFile::read(v30)), 5.0 * 1e4 / 38168);
  const MetadataFile xmipp = MetadataFile::parse(
      "# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _samplingRate\n 1@s.mrcs 3.25\n 2@s.mrcs 3.25\n", "x.xmd");
  EXPECT_EQ(particle_pixel_size(xmipp), std::optional<double>(3.25));
  EXPECT_EQ(particle_pixel_sizes(xmipp), (std::vector<double>{3.25, 3.25}));
  // None named: nothing, and the caller says what it uses instead.
  const MetadataFile none = MetadataFile::parse("# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n 1@s.mrcs\n", "n.xmd");
  EXPECT_FALSE(particle_pixel_size(none).has_value());
  // Values that are no pixel size, and several sizes, name the file and the row.
  const MetadataFile zero = MetadataFile::parse("# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _samplingRate\n a 1\n b 0\n", "z.xmd");
  const std::string z = test::error_message([&] { (void)particle_pixel_size(zero); });
  EXPECT_NE(z.find("z.xmd:7"), std::string::npos) << z;
  EXPECT_NE(z.find("samplingRate"), std::string::npos) << z;
  const MetadataFile mixed = MetadataFile::parse(
      "data_optics\nloop_\n_rlnOpticsGroup\n_rlnImagePixelSize\n1 1.0\n2 2.0\n\n"
      "data_particles\nloop_\n_rlnImageName\n_rlnOpticsGroup\n1@s 1\n2@s 2\n", "m.star");
  const std::string m = test::error_message([&] { (void)particle_pixel_size(mixed); });
  EXPECT_NE(m.find("m.star"), std::string::npos) << m;
  EXPECT_NE(m.find("different pixel sizes"), std::string::npos) << m;
}

// An Xmipp table (images in `image`) that keeps RELION labels it was converted with is read as
// Xmipp: its angles are found (frost_align_significant's .xmd of a STAR input).
TEST(MetaParticles, XmippTableWithRelionLabelsIsXmipp) {
  const ParticlePoses p = particle_poses(particle_block(MetadataFile::parse(
      "# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _angleRot\n _angleTilt\n _anglePsi\n _shiftX\n _rlnOpticsGroup\n"
      " 1@s.mrcs 10 20 30 1.5 1\n", "x.xmd")));
  EXPECT_TRUE(p.missing_angles.empty());
  EXPECT_EQ(p.rot, (std::vector<double>{10}));
  EXPECT_EQ(p.tilt, (std::vector<double>{20}));
  EXPECT_EQ(p.psi, (std::vector<double>{30}));
  EXPECT_EQ(p.shift_x, (std::vector<double>{1.5}));
  // Without `image`, RELION labels make a RELION table.
  const ParticlePoses r = particle_poses(
      particle_block(MetadataFile::parse("data_\nloop_\n_rlnAngleRot\n_rlnAngleTilt\n_rlnAnglePsi\n4 5 6\n", "r.star")));
  EXPECT_TRUE(r.missing_angles.empty());
  EXPECT_EQ(r.tilt, (std::vector<double>{5}));
}

// A table chosen by name (block@file) gives its own pixel size; data_optics still joins.
TEST(MetaParticles, PixelSizeOfAChosenTable) {
  const MetadataFile two = MetadataFile::parse("# XMIPP_STAR_1 *\ndata_a\nloop_\n _image\n _samplingRate\n 1@s 2\n\n"
                                               "data_b\nloop_\n _image\n _samplingRate\n 1@t 3\n", "two.xmd");
  EXPECT_EQ(particle_pixel_size(two), std::optional<double>(2.0));
  EXPECT_EQ(particle_pixel_size(two, two.block("b")), std::optional<double>(3.0));
  EXPECT_EQ(particle_pixel_sizes(two, two.block("b")), (std::vector<double>{3.0}));
  const MetadataFile relion = MetadataFile::parse(
      "data_optics\nloop_\n_rlnOpticsGroup\n_rlnImagePixelSize\n1 1.5\n\n"
      "data_particles\nloop_\n_rlnImageName\n_rlnOpticsGroup\n1@s.mrcs 1\n", "r.star");
  EXPECT_EQ(particle_pixel_size(relion, relion.block("particles")), std::optional<double>(1.5));
}

TEST(MetaParticles, MissingAnglesAreListed) {
  const auto poses = [](const std::string& text) {
    return particle_poses(particle_block(MetadataFile::parse(text, "a.star")));
  };
  const ParticlePoses all = poses("data_\nloop_\n_rlnImageName\n_rlnAngleRot\n_rlnAngleTilt\n_rlnAnglePsi\n1@s 1 2 3\n");
  EXPECT_TRUE(all.missing_angles.empty());
  EXPECT_EQ(missing_angles_error(all, "--x"), "");
  const ParticlePoses no_tilt = poses("data_\nloop_\n_rlnImageName\n_rlnAngleRot\n_rlnAnglePsi\n1@s 1 3\n");
  EXPECT_EQ(no_tilt.missing_angles, (std::vector<std::string>{"rlnAngleTilt"}));
  EXPECT_EQ(no_tilt.tilt, (std::vector<double>{0.0}));
  const std::string e = missing_angles_error(no_tilt, "--missing_angles_zero");
  EXPECT_NE(e.find("rlnAngleTilt"), std::string::npos) << e;
  EXPECT_NE(e.find("--missing_angles_zero"), std::string::npos) << e;
  const ParticlePoses none = poses("data_\nloop_\n_rlnImageName\n_rlnOriginX\n1@s 1\n");
  EXPECT_EQ(none.missing_angles, (std::vector<std::string>{"rlnAngleRot", "rlnAngleTilt", "rlnAnglePsi"}));
  // Xmipp: current names or the legacy rot/tilt/psi and Xoff/Yoff, current names first.
  const ParticlePoses legacy = poses("# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _rot\n _tilt\n _psi\n _Xoff\n _Yoff\n"
                                     " a 10 20 30 1.5 -2\n");
  EXPECT_TRUE(legacy.missing_angles.empty());
  EXPECT_EQ(legacy.rot, (std::vector<double>{10}));
  EXPECT_EQ(legacy.tilt, (std::vector<double>{20}));
  EXPECT_EQ(legacy.psi, (std::vector<double>{30}));
  EXPECT_EQ(legacy.shift_x, (std::vector<double>{1.5}));
  EXPECT_EQ(legacy.shift_y, (std::vector<double>{-2}));
  const ParticlePoses both = poses("# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _rot\n _angleRot\n _angleTilt\n _anglePsi\n"
                                   " a 1 2 3 4\n");
  EXPECT_EQ(both.rot, (std::vector<double>{2}));
  const ParticlePoses xmipp_rot = poses("# XMIPP_STAR_1 *\ndata_\nloop_\n _image\n _angleRot\n a 1\n");
  EXPECT_EQ(xmipp_rot.missing_angles, (std::vector<std::string>{"angleTilt", "anglePsi"}));
}

} // namespace
} // namespace frost::meta
