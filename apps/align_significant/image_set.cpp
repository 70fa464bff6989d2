#include "image_set.hpp"

#include <cmath>
#include <map>
#include <memory>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/io/image_io.hpp"
#include "frost/metadata/image_location.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/metadata/xmipp_relion.hpp"

namespace frost::app {

ImageTable read_image_table(const std::string& spec, double pixel_size) {
  ImageTable t;
  t.path = spec;
  meta::Block block = meta::read_block(spec);
  if (block.has("rlnImageName")) block = meta::relion_to_xmipp(block, pixel_size);
  meta::canonicalize_xmipp_labels(block);
  if (block.rows() > 0 && !block.has("image")) throw_input_error(spec, "no 'image' label (Xmipp) or rlnImageName (RELION)");
  if (block.has("enabled")) {
    const std::vector<std::int64_t> enabled = block.ints("enabled");
    std::vector<std::size_t> keep;
    for (std::size_t r = 0; r < enabled.size(); ++r)
      if (enabled[r] != -1) keep.push_back(r);
    if (keep.size() != block.rows()) block.keep_rows(keep);
  }
  const std::string file = meta::split_block_spec(spec).file;
  if (block.rows() > 0)
    for (const std::string& name : block.strings("image")) {
      meta::ImageLocation loc = meta::parse_image_location(name);
      loc.path = meta::resolve_data_path(loc.path, file);
      t.images.push_back(meta::format_image_location(loc));
    }
  t.rows = std::move(block);
  return t;
}

namespace {

/// One open file per stack, shared by the rows that point into it.
class Sources {
public:
  explicit Sources(std::string metadata) : metadata_(std::move(metadata)) {}
  const io::ImageSource& get(const std::string& path, std::size_t row) {
    auto it = open_.find(path);
    if (it != open_.end()) return *it->second;
    try {
      return *open_.emplace(path, io::open_image_source(path)).first->second;
    } catch (const Error& e) {
      throw Error(e.code(), std::string(e.what()) + " (image of " + metadata_ + " row " + std::to_string(row + 1) + ")");
    }
  }

private:
  std::string metadata_;
  std::map<std::string, std::unique_ptr<io::ImageSource>> open_;
};

} // namespace

Shape first_image_shape(const ImageTable& table) {
  FROST_EXPECTS(!table.images.empty(), "first_image_shape of an empty table");
  Sources s(table.path);
  const meta::ImageLocation loc = meta::parse_image_location(table.images.front());
  return s.get(loc.path, 0).item_shape();
}

Image<float> load_images(const ImageTable& table, std::size_t first, std::size_t count, int box) {
  Sources sources(table.path);
  const int even = box - box % 2;
  Image<float> out(Shape::image(even, even, static_cast<index_t>(count)));
  std::vector<float> item;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t row = first + k;
    const meta::ImageLocation loc = meta::parse_image_location(table.images[row]);
    const io::ImageSource& src = sources.get(loc.path, row);
    const Shape s = src.item_shape();
    const index_t index = loc.has_index() ? static_cast<index_t>(loc.index) - 1 : 0;
    auto where = [&] { return table.path + " row " + std::to_string(row + 1) + " (" + table.images[row] + ")"; };
    if (s.z != 1 || s.x != s.y) throw_input_error(loc.path, "images must be square 2-D images (got " + to_string(s) + "; " + where() + ")");
    if (s.x != box)
      throw_input_error(loc.path, "image size " + std::to_string(s.x) + " differs from the size of the other images, " +
                                      std::to_string(box) + " (" + where() + ")");
    if (index >= src.count())
      throw_input_error(loc.path, "image " + std::to_string(index + 1) + " requested by " + where() +
                                      " but the file holds " + std::to_string(src.count()));
    item.resize(static_cast<std::size_t>(s.total()));
    src.read(index, item.data());
    float* dst = out.data() + k * std::size_t(even) * even;
    // Odd sizes: drop the last column and row (not centred, as Xmipp does). A NaN or Inf among the
    // pixels used would silently turn every CC of the image into NaN (no output row): an input error.
    for (int j = 0; j < even; ++j)
      for (int i = 0; i < even; ++i) {
        const float v = item[std::size_t(j) * box + i];
        if (!std::isfinite(v))
          throw_input_error(loc.path, std::string(std::isnan(v) ? "NaN" : "Inf") + " at pixel (" + std::to_string(i) +
                                          ", " + std::to_string(j) + ") of " + where());
        dst[std::size_t(j) * even + i] = v;
      }
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
