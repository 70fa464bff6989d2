// EMAN2 .hdf stacks (docs/formats.md#hdf5): files written here with the HDF5 C API in EMAN2's layout.
#include <hdf5.h>

#include "frost/core/error.hpp"
#include "frost/io/eman_hdf_reader.hpp"
#include "frost/io/image_io.hpp"
#include "frost/test/support.hpp"

namespace frost::io {
namespace {

/// Writes /MDF/images/<i>/image for each image ([ny][nx] or [nz][ny][nx]) with `type` on disk,
/// and EMAN.apix_x/y/z on each image group when apix > 0.
void write_eman(const std::string& path, const std::vector<std::vector<float>>& images,
                const std::vector<hsize_t>& dims, hid_t type, double apix) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5Gclose(H5Gcreate2(file, "/MDF", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  const hid_t images_group = H5Gcreate2(file, "/MDF/images", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const int count = int(images.size());
  const hid_t scalar = H5Screate(H5S_SCALAR);
  const hid_t max_attr = H5Acreate2(images_group, "imageid_max", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
  const int max_id = count - 1;
  H5Awrite(max_attr, H5T_NATIVE_INT, &max_id);
  H5Aclose(max_attr);
  for (int i = 0; i < count; ++i) {
    const std::string g = "/MDF/images/" + std::to_string(i);
    const hid_t group = H5Gcreate2(file, g.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (apix > 0)
      for (const char* name : {"EMAN.apix_x", "EMAN.apix_y", "EMAN.apix_z"}) {
        const hid_t a = H5Acreate2(group, name, H5T_IEEE_F32LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
        const float v = float(apix);
        H5Awrite(a, H5T_NATIVE_FLOAT, &v);
        H5Aclose(a);
      }
    const hid_t space = H5Screate_simple(int(dims.size()), dims.data(), nullptr);
    const hid_t ds = H5Dcreate2(group, "image", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, images[std::size_t(i)].data());
    H5Dclose(ds);
    H5Sclose(space);
    H5Gclose(group);
  }
  H5Sclose(scalar);
  H5Gclose(images_group);
  H5Fclose(file);
}

std::vector<std::vector<float>> ramp_images(int count, std::size_t pixels) {
  std::vector<std::vector<float>> out(std::size_t(count), std::vector<float>(pixels, 0.f));
  for (int i = 0; i < count; ++i)
    for (std::size_t p = 0; p < pixels; ++p) out[std::size_t(i)][p] = float(i * 1000 + int(p)) - 17.f;
  return out;
}

TEST(EmanHdf, FloatStackWithPixelSize) {
  test::TempDir dir;
  const std::string p = dir.file("particles.hdf");
  const auto images = ramp_images(3, 7 * 5);
  write_eman(p, images, {5, 7}, H5T_IEEE_F32LE, 1.75); // [ny][nx]
  EmanHdfReader r(p);
  EXPECT_EQ(r.info().format, FileFormat::EmanHdf);
  EXPECT_EQ(r.info().content, Content::Stack);
  EXPECT_EQ(r.info().shape, Shape::image(7, 5, 3));
  EXPECT_EQ(r.info().sample, SampleType::Float32);
  EXPECT_NEAR(r.info().pixel(), 1.75, 1e-6);
  const Image<float> second = read_image("2@" + p).image;
  EXPECT_EQ(second.shape(), Shape::image(7, 5));
  EXPECT_EQ(second(3, 2), images[1][2 * 7 + 3]); // x fastest: row y=2, column x=3
  const LoadedImage all = read_stack(p);
  for (int i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < images[0].size(); ++k) ASSERT_EQ(all.image[index_t(i) * 35 + index_t(k)], images[std::size_t(i)][k]);
  EXPECT_EQ(image_count(p), 3);
  EXPECT_THROW(read_image("4@" + p), Error);
}

TEST(EmanHdf, IntegerImagesAndVolumesAreConverted) {
  test::TempDir dir;
  const std::string p = dir.file("ints.h5");
  const auto images = ramp_images(2, 4 * 3);
  write_eman(p, images, {3, 4}, H5T_STD_I16LE, 0);
  EmanHdfReader r(p);
  EXPECT_EQ(r.info().sample, SampleType::Int16);
  EXPECT_FALSE(r.info().pixel_size_known());
  const Image<float> b = r.read(1);
  for (std::size_t k = 0; k < 12; ++k) EXPECT_EQ(b[index_t(k)], images[1][k]);

  const std::string v = dir.file("volume.hdf");
  write_eman(v, ramp_images(1, 4 * 3 * 2), {2, 3, 4}, H5T_IEEE_F64LE, 3.0);
  const LoadedImage vol = read_volume(v);
  EXPECT_EQ(vol.image.shape(), Shape::volume(4, 3, 2));
  EXPECT_EQ(vol.info.content, Content::Volume);
  EXPECT_EQ(vol.image(3, 2, 1), float(1 * 12 + 2 * 4 + 3) - 17.f);
}

TEST(EmanHdf, OtherHdf5LayoutsAreAClearInputError) {
  FROST_REQUIRE_DATA(nexus, "rosettasciio/simple_signal.nxs");
  for (const std::string& p : {nexus, nexus + ":hdf"}) {
    try {
      const LoadedImage img = read_stack(p);
      FAIL();
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::Input);
      EXPECT_NE(std::string(e.what()).find(nexus), std::string::npos) << e.what();
      if (p != nexus) {
        EXPECT_NE(std::string(e.what()).find("/MDF/images"), std::string::npos) << e.what();
      }
    }
  }
  FROST_REQUIRE_DATA(map, "mrcfile/EMD-3197.map");
  try {
    EmanHdfReader r(map);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("not an HDF5 file"), std::string::npos) << e.what();
  }
}

TEST(EmanHdf, MissingOrMismatchedImagesAreInputErrors) {
  test::TempDir dir;
  const std::string p = dir.file("gap.hdf");
  write_eman(p, ramp_images(3, 6), {2, 3}, H5T_IEEE_F32LE, 0);
  {
    const hid_t f = H5Fopen(p.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/MDF/images/1", H5P_DEFAULT);
    H5Fclose(f);
  }
  EXPECT_THROW(EmanHdfReader r(p), Error);
  const std::string q = dir.file("mixed.hdf");
  write_eman(q, ramp_images(2, 6), {2, 3}, H5T_IEEE_F32LE, 0);
  {
    const hid_t f = H5Fopen(q.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(f, "/MDF/images/1/image", H5P_DEFAULT);
    const hsize_t dims[2] = {3, 3};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    const hid_t ds = H5Dcreate2(f, "/MDF/images/1/image", H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(ds);
    H5Sclose(space);
    H5Fclose(f);
  }
  EmanHdfReader r(q);
  EXPECT_NO_THROW(r.read(0));
  EXPECT_THROW(r.read(1), Error);
}

} // namespace
} // namespace frost::io
