#include "image_set.hpp"

#include <cfloat>
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/stack_source.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/value_text.hpp"
#include "frost/metadata/particles.hpp"
#include "frost/metadata/xmipp_relion.hpp"

namespace frost::app {

ImageTable read_image_table(const std::string& spec, double pixel_option) {
  ImageTable t;
  t.path = spec;
  const meta::BlockSpec parts = meta::split_block_spec(spec);
  t.file = parts.file;
  const meta::MetadataFile file = meta::MetadataFile::read(parts.file);
  const meta::Block* chosen = nullptr;
  if (parts.has_block) chosen = &file.block(parts.block);
  else if (file.find("optics")) chosen = &meta::particle_block(file); // RELION 3.1+: data_optics comes first
  else if (!file.blocks().empty()) chosen = &file.blocks().front();
  else throw_input_error(parts.file, "no data_ block in the file");
  meta::Block block = *chosen;

  if (pixel_option > 0) {
    t.pixel_size = pixel_option;
    t.pixel_source = PixelSource::Option;
  } else if (const std::optional<double> px = meta::particle_pixel_size(file, *chosen)) {
    t.pixel_size = *px;
    t.pixel_source = PixelSource::File;
  }
  if (block.has("rlnImageName")) {
    if (t.pixel_size <= 0 && (block.has("rlnOriginXAngst") || block.has("rlnOriginYAngst")))
      throw_input_error(parts.file, "the origins are in Angstrom (rlnOriginXAngst) but the file gives no pixel size "
                                    "(data_optics rlnImagePixelSize): give --pixel-size");
    if (const meta::Block* optics = file.find("optics"); optics && optics != chosen) {
      t.optics = *optics;
      if (optics->has("rlnImageSize")) {
        for (double v : meta::optics_doubles(*optics, block, "rlnImageSize"))
          t.optics_box.push_back(static_cast<std::int64_t>(std::llround(v)));
      }
    }
    // Å origins need the pixel size; pixel origins (3.0) and files without origins do not.
    block = meta::relion_to_xmipp(block, t.pixel_size > 0 ? t.pixel_size : 1.0);
  }
  meta::canonicalize_xmipp_labels(block);
  if (block.rows() > 0 && !block.has("image")) throw_input_error(spec, "no 'image' label (Xmipp) or rlnImageName (RELION)");
  if (block.has("enabled")) {
    const std::vector<std::int64_t> enabled = block.ints("enabled");
    std::vector<std::size_t> keep;
    for (std::size_t r = 0; r < enabled.size(); ++r)
      if (enabled[r] != -1) keep.push_back(r);
    if (keep.size() != block.rows()) {
      block.keep_rows(keep);
      if (!t.optics_box.empty()) {
        std::vector<std::int64_t> box;
        for (std::size_t r : keep) box.push_back(t.optics_box[r]);
        t.optics_box = std::move(box);
      }
    }
  }
  meta::DataPathResolver resolve(parts.file);
  if (block.rows() > 0)
    for (const std::string& name : block.strings("image")) {
      meta::ImageLocation loc = meta::parse_image_location(name);
      loc.path = resolve(loc.path);
      t.images.push_back(meta::format_image_location(loc));
    }
  t.rows = std::move(block);
  return t;
}

double max_image_norm(int even) { return std::sqrt(double(FLT_MAX) / (16.0 * double(even) * even)); }

Shape first_image_shape(const ImageTable& table) {
  FROST_EXPECTS(!table.images.empty(), "first_image_shape of an empty table");
  io::StackSource s(table.path);
  const meta::ImageLocation loc = meta::parse_image_location(table.images.front());
  return s.file(loc.path, 0)->item_shape();
}

Image<float> load_images(const ImageTable& table, std::size_t first, std::size_t count, int box) {
  io::StackSource sources(table.path);
  const int even = box - box % 2;
  Image<float> out(Shape::image(even, even, static_cast<index_t>(count)));
  std::vector<float> item;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t row = first + k;
    const meta::ImageLocation loc = meta::parse_image_location(table.images[row]);
    const io::ImageSource& src = *sources.file(loc.path, row);
    const Shape s = src.item_shape();
    const index_t index = loc.has_index() ? static_cast<index_t>(loc.index) - 1 : 0;
    auto where = [&] { return table.path + " row " + std::to_string(row + 1) + " (" + table.images[row] + ")"; };
    if (s.z != 1 || s.x != s.y) throw_input_error(loc.path, "images must be square 2-D images (got " + to_string(s) + "; " + where() + ")");
    if (s.x != box)
      throw_input_error(loc.path, "image size " + std::to_string(s.x) + " differs from the size of the other images, " +
                                      std::to_string(box) + " (" + where() + ")");
    if (!table.optics_box.empty() && table.optics_box[row] != s.x)
      throw_input_error(table.file, "data_optics rlnImageSize is " + std::to_string(table.optics_box[row]) +
                                        " but the image is " + std::to_string(s.x) + " px (" + where() + ")");
    io::StackSource::check_index(src, loc.path, index, where());
    item.resize(static_cast<std::size_t>(s.total()));
    src.read(index, item.data());
    float* dst = out.data() + k * std::size_t(even) * even;
    double squares = 0;
    // Odd sizes: drop the last column and row (not centred, as Xmipp does). A NaN or Inf among the
    // pixels used would silently turn every CC of the image into NaN (no output row): an input error.
    for (int j = 0; j < even; ++j)
      for (int i = 0; i < even; ++i) {
        const float v = item[std::size_t(j) * box + i];
        if (!std::isfinite(v))
          throw_input_error(loc.path, std::string(std::isnan(v) ? "NaN" : "Inf") + " at pixel (" + std::to_string(i) +
                                          ", " + std::to_string(j) + ") of " + where());
        dst[std::size_t(j) * even + i] = v;
        squares += double(v) * v;
      }
    if (std::sqrt(squares) > max_image_norm(even))
      throw_input_error(loc.path, "pixel values too large for the single-precision alignment: the norm of " + where() +
                                      " is " + meta::format_shortest(std::sqrt(squares)) + ", at most " +
                                      meta::format_shortest(max_image_norm(even)) + " for " + std::to_string(even) + " px images");
  }
  return out;
}

ReferenceInfo read_reference_info(const ImageTable& table) {
  ReferenceInfo info;
  const meta::Block& b = table.rows;
  if (!b.has("ref")) throw_input_error(table.path, "references need the 'ref' label (integer id written to the output)");
  info.ids = b.ints("ref");
  for (const char* label : {"angleRot", "angleTilt"})
    if (!b.has(label)) log_warning(table.path + ": no '" + label + "' label; using 0 for every reference");
  const auto rot = b.doubles_or("angleRot", 0), tilt = b.doubles_or("angleTilt", 0), psi = b.doubles_or("anglePsi", 0);
  for (std::size_t r = 0; r < b.rows(); ++r) info.angles.push_back({rot[r], tilt[r], psi[r]});
  return info;
}

} // namespace frost::app
