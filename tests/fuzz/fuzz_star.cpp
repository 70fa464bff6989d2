// Fuzz target: STAR (RELION) and XMD (Xmipp) metadata as the programs use them: parse, read
// every column as numbers and text, find the particle table, its pixel sizes and poses, convert
// between the Xmipp and RELION conventions, and write the file back. What frost writes it must
// read again with the same tables (a round trip through to_string()).
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "frost/io/image_ref.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/metadata/xmipp_relion.hpp"
#include "fuzz_support.hpp"

namespace {

void use_block(const frost::meta::Block& block) {
  using namespace frost;
  for (const std::string& label : block.labels()) {
    fuzz::expect_errors_only([&] { block.doubles(label); });
    fuzz::expect_errors_only([&] { block.ints(label); });
    fuzz::expect_errors_only([&] { block.get_vector(label); });
    const std::vector<std::string> texts = block.strings(label);
    if (label == "rlnImageName" || label == "image")
      for (const std::string& t : texts) fuzz::expect_errors_only([&] { io::parse_image_ref(t); });
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace frost;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::expect_errors_only([&] {
    meta::MetadataFile file = meta::MetadataFile::parse(text, "fuzz.star");
    for (const meta::Block& block : file.blocks()) use_block(block);
    fuzz::expect_errors_only([&] {
      const meta::Block& particles = meta::particle_block(file);
      std::vector<double> pixel_sizes;
      fuzz::expect_errors_only([&] { pixel_sizes = meta::particle_pixel_sizes(file); });
      meta::particle_poses(particles, pixel_sizes);
      fuzz::expect_errors_only([&] { meta::relion_to_xmipp(particles, pixel_sizes.empty() ? 1.0 : pixel_sizes[0]); });
      fuzz::expect_errors_only([&] { meta::xmipp_to_relion(particles, 1.5); });
    });
    for (const meta::Dialect dialect : {file.dialect(), meta::Dialect::Xmipp}) {
      const std::string written = file.to_string(dialect);
      const meta::MetadataFile again = meta::MetadataFile::parse(written, "fuzz-rewritten.star");
      bool same = again.block_count() == file.block_count();
      for (std::size_t b = 0; same && b < file.block_count(); ++b)
        same = again.blocks()[b].name() == file.blocks()[b].name() &&
               again.blocks()[b].labels() == file.blocks()[b].labels() &&
               again.blocks()[b].rows() == file.blocks()[b].rows();
      if (!same) {
        std::fprintf(stderr, "fuzz_star: the file frost wrote does not read back the same:\n%s\n", written.c_str());
        std::abort();
      }
    }
  });
  return 0;
}
